package main

import (
	"strings"
	"testing"
)

// TestRunPositionCorrectionNGS: --position-correction ngs runs the
// nonlinear Gauss–Seidel correction on a ball2d scene (named in the
// summary's mapping, every step within the tolerance), and is refused with
// one message (exit 2) where a system has no sweeps: rigid3d scenes and
// the sphere path of patterns.
func TestRunPositionCorrectionNGS(t *testing.T) {
	var sum struct {
		Mapping    string
		MaxOverlap float64 `json:"max_overlap"`
		Tol        float64 `json:"correction_tolerance"`
		Energy     float64 `json:"correction_energy"`
	}
	runDrop1000(t, &sum, "--position-correction", "ngs", "--correction-sweeps", "500")
	if !strings.Contains(sum.Mapping, "position correction (command line): ngs, tol 1e-05, ≤ 500 sweeps") {
		t.Errorf("mapping %q", sum.Mapping)
	}
	if !(sum.Tol > 0) || sum.MaxOverlap > sum.Tol || sum.Energy == 0 {
		t.Errorf("max overlap %g, tolerance %g, correction energy %g: want a correction within the tolerance", sum.MaxOverlap, sum.Tol, sum.Energy)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "builtin:box_drop", "--end", "0.01", "--quiet", "--out", t.TempDir(), "--position-correction", "ngs"}, "needs a system that sweeps its contacts"},
		{[]string{"patterns", "--n", "100", "--quiet", "--out", t.TempDir(), "--position-correction", "ngs"}, "the sphere path has the projection only"},
		{[]string{"bench", "drum", "--n", "10", "--position-correction", "gs"}, "--position-correction: expected on, ngs or off"},
	} {
		if code, _, errs := runCLI(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q, want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

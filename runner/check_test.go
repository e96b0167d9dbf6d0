package runner

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/mech"
	"impactsim/output"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// nanAfter is a contact law that answers NaN impulses from its k-th solve
// on (a broken operator).
type nanAfter struct {
	sim.ContactLaw
	k, n int
}

func (l *nanAfter) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	st, err := l.ContactLaw.Solve(p, lambda, beta)
	if l.n++; l.n >= l.k {
		lambda[0] = math.NaN()
	}
	return st, err
}

// TestRunStopsAtFirstNonFinite: a 2D run whose law turns NaN stops at
// that step with exit status 1 material (an error naming the step, the
// ball and the quantity), the last finite state as the final frame, a
// finite summary.json with status failed.
func TestRunStopsAtFirstNonFinite(t *testing.T) {
	sc := scene.NewtonsCradle(3)
	r, err := scenario.NewBall2D(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Stepper.Law = &nanAfter{ContactLaw: r.Stepper.Law, k: 3}
	dir := t.TempDir()
	res, err := Run(Ball2D(r), Config{Out: dir, End: 1, Frames: 1000})
	var nf *sim.NonFiniteError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "ball ") || !strings.Contains(err.Error(), "is NaN") {
		t.Fatalf("run: %v", err)
	}
	if res.Status != StatusFailed || res.Steps < 1 || !strings.Contains(err.Error(), "step "+itoa(res.Steps+1)+" ") {
		t.Errorf("summary: status %q after %d steps, error %q", res.Status, res.Steps, err)
	}
	tr, err := output.ReadTrajectory(dir)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Frames[len(tr.Frames)-1]
	for _, x := range append(last.Q, last.V...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("last frame not finite: %v %v", last.Q, last.V)
		}
	}
	if !equal(last.Q, r.Stepper.Q) || r.Stepper.N != res.Steps {
		t.Errorf("last frame is not the last finite state")
	}
	var s Summary
	data, _ := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if err := json.Unmarshal(data, &s); err != nil || s.Status != StatusFailed || s.Error == "" {
		t.Errorf("summary.json: %v %+v", err, s)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestRunRefusesStepCounts: an end time below half a step, or beyond 2⁵³
// steps, is an InputError and writes nothing.
func TestRunRefusesStepCounts(t *testing.T) {
	for _, end := range []float64{1e-5, 1e17, math.Inf(1), math.NaN(), -1} {
		r, err := scenario.NewBall2D(scene.NewtonsCradle(3), scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "out")
		_, err = Run(Ball2D(r), Config{Out: dir, End: end, Frames: 10})
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("end %v: %v", end, err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("end %v: the run directory was created", end)
		}
	}
	if n, err := Steps(1, 0.3); n != 3 || err != nil {
		t.Errorf("Steps(1, 0.3) = %d, %v", n, err)
	}
}

// TestRunReplacesEarlierRun: a run into a directory of an earlier run of
// another system leaves none of the earlier run's files.
func TestRunReplacesEarlierRun(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{output.Scene3DFile, output.SummaryFile, "energy.csv.tmp", "vtk/frame_00003.vtp", "render/frame_00001.png", "notes.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644)
	}
	r, err := scenario.NewBall2D(scene.NewtonsCradle(3), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(Ball2D(r), Config{Out: dir, End: 0.01, Frames: 10}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{output.Scene3DFile, "energy.csv.tmp", "vtk", "render"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s of the earlier run is still there", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "old" {
		t.Error("a file that is not a run's was removed")
	}
}

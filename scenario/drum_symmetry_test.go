package scenario

import (
	"math"
	"os"
	"testing"

	"impactsim/scene"
)

// drumMirrorAsymmetry is the largest |x_i + x_i'|, |y_i − y_i'|, over the
// balls i of a full k×k DrumGrid and their mirror images i' about x = 0
// (same row, column k−1−c), for positions or velocities (both flip x).
func drumMirrorAsymmetry(k int, q []float64) float64 {
	var a float64
	for row := 0; row < k; row++ {
		for c := 0; c < k/2; c++ {
			i, j := row*k+c, row*k+k-1-c
			a = max(a, math.Abs(q[2*i]+q[2*j]), math.Abs(q[2*i+1]-q[2*j+1]))
		}
		if k%2 == 1 {
			i := row*k + k/2
			a = max(a, math.Abs(q[2*i]))
		}
	}
	return a
}

// TestDrumDropMirrorSymmetry: the mirror-symmetric 10,000-ball drop of
// Table 2 (a 100×100 grid, symmetric about x = 0) stays mirror-symmetric to
// 1e-8 for 200 steps under gr (SCISim: 1.5e-12 at step 200), with the
// default solvers (7.1e-12 at step 200) and with every island solved by the
// interior-point method (8.2e-11). With IMPACTSIM_LONG=1 it keeps going and
// logs the first step at which the asymmetry exceeds 1e-3.
func TestDrumDropMirrorSymmetry(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s")
	}
	t.Run("auto", func(t *testing.T) { drumDropMirror(t, Options{}, 0) })
	// Every island of two or more contacts through the interior-point
	// solver (in the run itself only islands above 160 contacts use it).
	t.Run("interior", func(t *testing.T) { drumDropMirror(t, Options{Solver: "interior"}, 0) })
	// Island solves started from the previous steps' impulses.
	t.Run("warm", func(t *testing.T) { drumDropMirror(t, Options{WarmStart: true}, 0) })
	// With the position correction after every step. Its passes are
	// exactly mirror-symmetric (the state is bitwise symmetric through
	// step 123, corrections included: asserted through 120). In every
	// variant the first asymmetry is a 1-ulp difference between the GR
	// impulses of mirror contacts in one island solve — step 144 (auto),
	// 131 (interior), 141 (warm); with the correction step 124, on its
	// different trajectory (contacts (402,403) and (496,497)). The pile
	// then amplifies it at the same rate with and without the correction:
	// 5.1e-10 at step 200 (7.1e-12 without); with IMPACTSIM_LONG=1, 1e-8 is
	// first exceeded at step 220 (234 without) and 1e-3 at step 263 (278
	// without). Issue 18 asked for symmetry at least as long as without
	// the correction: not met, by 15 steps, for want of an impact operator
	// whose island solves are invariant under the mirror permutation.
	t.Run("correction", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Mode: "on"}}, 120) })
	// With the closed active set (--redetect on; issue 18): exactly
	// symmetric through step 118, the first asymmetry again 1 ulp at step
	// 119 (1.78e-15), on its own trajectory (more contacts take impulses);
	// 3.7e-10 at step 200; with IMPACTSIM_LONG=1, 1e-3 is first exceeded at
	// step 255 (252 with the correction too, which needs 2 s more).
	t.Run("redetect", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Redetect: "on"}}, 118) })
	// With the nonlinear Gauss–Seidel correction (--position-correction
	// ngs): exactly symmetric through step 99; at step 100 (18 contacts)
	// the sweep's order, which is not invariant under the mirror (contacts
	// that share a ball are visited in index order), gives 1.78e-15, and
	// the asymmetry exceeds 1e-3 at step 139 (4.8e-3), far earlier than
	// without the correction (278) or with the projection (263).
	t.Run("ngs", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Mode: "ngs"}}, 99, 138) })
}

// drumDropMirror drops the 100×100 grid with options opt: its state must be
// exactly mirror-symmetric through step exact and within 1e-8 through step
// 200 (through step within, if it is not 0).
func drumDropMirror(t *testing.T, opt Options, exact int, within ...int) {
	bound := 200
	if len(within) > 0 {
		bound = within[0]
	}
	const k = 100
	opt.Operator, opt.Workers = "gr", -1
	r, err := NewBall2D(scene.DrumGrid(k*k, "drop", 1), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if a := drumMirrorAsymmetry(k, r.Stepper.Q); a != 0 {
		t.Fatalf("initial asymmetry %g", a)
	}
	long := os.Getenv("IMPACTSIM_LONG") != ""
	steps := 200
	if long {
		steps = 2000
	}
	first, first8 := 0, 0
	for s := 1; s <= steps; s++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		a := max(drumMirrorAsymmetry(k, r.Stepper.Q), drumMirrorAsymmetry(k, r.Stepper.V))
		if a > 0 && first == 0 {
			first = s
			t.Logf("step %d: first asymmetry, %.3g", s, a)
		}
		if s <= exact && a != 0 {
			t.Fatalf("step %d: mirror asymmetry %.3g, want exactly 0 through step %d", s, a, exact)
		}
		if a > 1e-8 && first8 == 0 {
			first8 = s
			t.Logf("step %d: asymmetry first exceeds 1e-8 (%.3g)", s, a)
		}
		if s <= bound && a > 1e-8 {
			t.Fatalf("step %d: mirror asymmetry %.3g > 1e-8", s, a)
		}
		if s == 200 || (long && s%50 == 0) {
			t.Logf("step %d: mirror asymmetry %.3g (%d contacts)", s, a, r.Stepper.Last.Contacts)
		}
		if a > 1e-3 {
			t.Logf("asymmetry first exceeds 1e-3 at step %d (%.3g)", s, a)
			return
		}
	}
}

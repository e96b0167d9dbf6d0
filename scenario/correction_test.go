package scenario

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"impactsim/mech"
	"impactsim/scene"
)

// trajectoryHash steps r n times and returns the SHA-256 of its states
// (q, v after every step, bit for bit) and the total number of projection
// passes the position correction made.
func trajectoryHash(t *testing.T, r *Ball2D, n int) ([32]byte, int) {
	t.Helper()
	h := sha256.New()
	var b [8]byte
	passes := 0
	for k := 0; k < n; k++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		passes += r.Stepper.Last.Correction.Passes
		for _, xs := range [][]float64{r.Stepper.Q, r.Stepper.V} {
			for _, x := range xs {
				binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
				h.Write(b[:])
			}
		}
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, passes
}

// A scene without penetration has bitwise the same trajectory (SHA-256 of
// every step's state) with the position correction on (either method) and
// off. The pool
// break of Fig. 5 (2,000 steps) never overlaps beyond the 4·10⁻⁶ radii its
// rack is built with (radius 0.500001 at unit spacing), below the default
// tolerance. The gas of Table 2 is not free of penetration: a ball whose
// path an impulse bent can end a step inside one the step's active set
// never met (up to 2.6 % of the radius in the 1,000-ball gas by step 500).
// Its trajectories with and without the correction agree bitwise up to the
// first such step, and the correction projects at that step.
func TestCorrectionLeavesScenesWithoutPenetration(t *testing.T) {
	var sums [3][32]byte
	for k, mode := range []string{"off", "on", "ngs"} {
		r, err := NewBall2D(scene.PoolBreak(), Options{Correction: CorrectionOptions{Mode: mode}})
		if err != nil {
			t.Fatal(err)
		}
		var passes int
		sums[k], passes = trajectoryHash(t, r, 2000)
		if passes != 0 {
			t.Errorf("pool break, correction %s: %d projection passes", mode, passes)
		}
		if mode != "off" && r.Stepper.Correction() == nil {
			t.Fatal("pool break: no correction installed")
		}
	}
	for k := 1; k < len(sums); k++ {
		if sums[0] != sums[k] {
			t.Errorf("pool break: trajectory SHA-256 %x with the correction (%d), %x without", sums[k][:8], k, sums[0][:8])
		}
	}

	// The gas: find its first step with an overlap beyond the tolerance
	// (measured without correcting), then compare the runs before it.
	gas := func(mode string) *Ball2D {
		r, err := NewBall2D(scene.DrumGrid(1000, "gas", 1), Options{Correction: CorrectionOptions{Mode: mode}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	meas := gas("off")
	if err := meas.Stepper.MeasureOverlap(); err != nil {
		t.Fatal(err)
	}
	tol := DefaultCorrectionTol * 1 // unit radii
	first := 0
	for k := 1; k <= 500 && first == 0; k++ {
		if err := meas.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if meas.Stepper.Last.Correction.Overlap > tol {
			first = k
		}
	}
	if first < 2 {
		t.Fatalf("gas: first overlap beyond %g at step %d (0: none in 500 steps)", tol, first)
	}
	off, on := gas("off"), gas("on")
	s0, _ := trajectoryHash(t, off, first-1)
	s1, passes := trajectoryHash(t, on, first-1)
	if s0 != s1 || passes != 0 {
		t.Errorf("gas: the first %d steps differ with the correction (%d passes)", first-1, passes)
	}
	if err := on.Stepper.Step(); err != nil {
		t.Fatal(err)
	}
	if c := on.Stepper.Last.Correction; c.Passes == 0 || c.Missed == 0 || c.Overlap > tol {
		t.Errorf("gas step %d: correction %+v, want it to find the missed contact and project it", first, c)
	}
	t.Logf("gas: first penetration beyond %g at step %d: %d missed contacts, overlap %.3g → %.3g", tol, first, on.Stepper.Last.Correction.Missed, on.Stepper.Last.Correction.OverlapBefore, on.Stepper.Last.Correction.Overlap)
}

// The correction, by either method, keeps the step bitwise independent of
// the worker count and allocation-free (a 2,000-ball drop forming its
// pile); so does the projection with the mirror order (the default of the
// built-in scenes with gravity).
func TestCorrectionDeterministicAndAllocationFree(t *testing.T) {
	for _, on := range []CorrectionOptions{{Mode: "on"}, {Mode: "ngs"}, {Mode: "on", MirrorOrder: "on"}} {
		mode := on.Mode
		const n, steps = 2000, 300
		ref := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: 1, Correction: on}, steps)
		if ref.Stepper.Last.Correction.Passes == 0 {
			t.Fatalf("%s: the correction did not correct at the last step: the test is too easy", mode)
		}
		if (ref.Stepper.Last.Correction.Sweeps > 0) != (mode == "ngs") {
			t.Fatalf("%s: %d sweeps", mode, ref.Stepper.Last.Correction.Sweeps)
		}
		for _, w := range []int{2, 3} {
			r := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: w, Correction: on}, steps)
			if i, ok := bitwiseEqual(r.Stepper.Q, ref.Stepper.Q); !ok {
				t.Errorf("%s, %d workers: q differs from 1 worker at %d", mode, w, i)
			}
			if i, ok := bitwiseEqual(r.Stepper.V, ref.Stepper.V); !ok {
				t.Errorf("%s, %d workers: v differs from 1 worker at %d", mode, w, i)
			}
			if w == 2 {
				if a := testing.AllocsPerRun(20, func() {
					if err := r.Stepper.Step(); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("%s: %v allocations per step with the correction", mode, a)
				}
			}
			r.Close()
		}
		ref.Close()
	}
}

// The nonlinear Gauss–Seidel correction on the forming 2,000-ball pile:
// every step ends within the tolerance (the deepest overlap of the step's
// contacts and the missed ones the search found), the velocities are those
// of the uncorrected step bit for bit, and a sweep cap of 1 leaves steps
// above the tolerance, recorded, and an error under Strict (the state left
// as it was before the step).
func TestCorrectionNGS(t *testing.T) {
	const n = 2000
	r := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: 2, Correction: CorrectionOptions{Mode: "ngs"}}, 250)
	defer r.Close()
	tol := r.Stepper.Correction().Config().Tol
	var sweeps, passes int
	for k := 0; k < 50; k++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		c := r.Stepper.Last.Correction
		if c.Capped || c.Overlap > tol {
			t.Fatalf("step %d: overlap %.3g after %d sweeps (tol %.3g), capped %v", r.Stepper.N, c.Overlap, c.Sweeps, tol, c.Capped)
		}
		sweeps, passes = sweeps+c.Sweeps, passes+c.Passes
	}
	if sweeps == 0 || passes == 0 {
		t.Fatalf("%d sweeps, %d passes in 50 steps: the test is too easy", sweeps, passes)
	}
	// velocities untouched: the same step without the correction
	q0, v0 := append([]float64(nil), r.Stepper.Q...), append([]float64(nil), r.Stepper.V...)
	if err := r.Stepper.Step(); err != nil {
		t.Fatal(err)
	}
	if r.Stepper.Last.Correction.Sweeps == 0 {
		t.Fatal("the compared step made no sweep")
	}
	v1 := append([]float64(nil), r.Stepper.V...)
	if err := r.Stepper.SetCorrection(nil); err != nil {
		t.Fatal(err)
	}
	if err := r.Stepper.SetState(q0, v0); err != nil {
		t.Fatal(err)
	}
	r.Stepper.N--
	r.Stepper.T = float64(r.Stepper.N) * r.Stepper.H
	if err := r.Stepper.Step(); err != nil {
		t.Fatal(err)
	}
	if i, ok := bitwiseEqual(r.Stepper.V, v1); !ok {
		t.Errorf("the correction changed the velocity at %d", i)
	}

	// a cap of one sweep
	capped := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: 1, Correction: CorrectionOptions{Mode: "ngs", MaxSweeps: 1}}, 250)
	defer capped.Close()
	hits := 0
	for k := 0; k < 20; k++ {
		if err := capped.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if c := capped.Stepper.Last.Correction; c.Capped {
			hits++
			if c.Sweeps != 1 || !(c.Overlap > tol) {
				t.Errorf("capped step: %d sweeps, overlap %.3g", c.Sweeps, c.Overlap)
			}
		}
	}
	if hits == 0 {
		t.Fatal("no step hit the cap of one sweep")
	}
	capped.Stepper.Strict = true
	for k := 0; k < 50; k++ {
		q, v, step := append([]float64(nil), capped.Stepper.Q...), append([]float64(nil), capped.Stepper.V...), capped.Stepper.N
		err := capped.Stepper.Step()
		if err == nil {
			continue
		}
		var ce *mech.CapError
		if !errors.As(err, &ce) || ce.Iterations != 1 || !(ce.Residual > tol) {
			t.Fatalf("strict cap: %v, want a CapError after 1 sweep", err)
		}
		if _, ok := bitwiseEqual(capped.Stepper.Q, q); !ok || capped.Stepper.N != step {
			t.Error("strict cap: the state moved")
		}
		if _, ok := bitwiseEqual(capped.Stepper.V, v); !ok {
			t.Error("strict cap: the velocity moved")
		}
		return
	}
	t.Fatal("strict: no step hit the cap of one sweep in 50")
}

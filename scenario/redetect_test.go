package scenario

import (
	"errors"
	"math"
	"testing"

	"impactsim/ball2d"
	"impactsim/scene"
	"impactsim/sim"
)

// contactKey identifies a ball2d contact (pairs by balls, walls by object
// and ball).
type contactKey struct {
	kind      ball2d.ContactKind
	obj, i, j int32
}

// The closed active set (--redetect on) on a 2,000-ball drop forming its
// pile, without the position correction, so that the step's end positions
// are the motion the law's velocity gives: after every step whose closure
// was not capped, a fresh detection on the step's motion qᵗ → qᵗ⁺¹ finds no
// contact outside the step's final set (checked with ball2d's own Detect,
// not the closer); the closure re-solved in some steps; the states are
// bitwise the same on 1, 2 and 3 workers; a steady step allocates nothing.
func TestRedetectClosedDeterministicAndAllocationFree(t *testing.T) {
	const n, steps = 2000, 250
	opt := func(w int) Options {
		return Options{Operator: "gr", Workers: w, Correction: CorrectionOptions{Mode: "off", Redetect: "on"}}
	}
	ref, err := NewBall2D(scene.DrumGrid(n, "drop", 1), opt(1))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	st := ref.Stepper
	q0 := make([]float64, len(st.Q))
	have := map[contactKey]bool{}
	rounds, added, checked := 0, 0, 0
	for k := 0; k < steps; k++ {
		copy(q0, st.Q)
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		c := st.Last.Closure
		rounds += c.Rounds
		added += c.Added
		if c.Capped || st.Last.Contacts == 0 {
			continue
		}
		clear(have)
		for _, x := range ref.Sys.Contacts() {
			have[contactKey{x.Kind, x.Obj, x.I, x.J}] = true
		}
		if len(have) != st.Last.Contacts {
			t.Fatalf("step %d: %d contacts listed, %d in the problem", st.N, len(have), st.Last.Contacts)
		}
		for _, x := range ref.Sys.Detect(q0, st.Q) {
			if !have[contactKey{x.Kind, x.Obj, x.I, x.J}] {
				t.Fatalf("step %d: contact %v (%d, %d) of the final motion is not in the closed set (%d rounds)", st.N, x.Kind, x.I, x.J, c.Rounds)
			}
		}
		checked++
	}
	t.Logf("%d steps checked closed; %d re-solves added %d contacts", checked, rounds, added)
	if rounds == 0 || checked < steps/2 {
		t.Fatalf("%d re-solves, %d steps checked: the test is too easy", rounds, checked)
	}
	// Detect above replaced the system's list: run the others from scratch.
	ref2 := runDrumWith(t, n, "drop", opt(1), steps)
	defer ref2.Close()
	if i, ok := bitwiseEqual(ref2.Stepper.Q, st.Q); !ok {
		t.Fatalf("a second 1-worker run differs at q[%d]", i)
	}
	for _, w := range []int{2, 3} {
		r := runDrumWith(t, n, "drop", opt(w), steps)
		if i, ok := bitwiseEqual(r.Stepper.Q, st.Q); !ok {
			t.Errorf("%d workers: q differs from 1 worker at %d", w, i)
		}
		if i, ok := bitwiseEqual(r.Stepper.V, st.V); !ok {
			t.Errorf("%d workers: v differs from 1 worker at %d", w, i)
		}
		if w == 2 {
			if a := testing.AllocsPerRun(10, func() {
				if err := r.Stepper.Step(); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("%v allocations per step with the closed active set", a)
			}
			if r.Stepper.Last.Closure.Rounds == 0 {
				t.Error("the allocation check's last step did not re-solve")
			}
		}
		r.Close()
	}
}

// --redetect off is Alg. 4: no closure is installed. The cap is recorded
// and is an error under Strict.
func TestRedetectCapStrict(t *testing.T) {
	r, err := NewBall2D(scene.DrumGrid(2000, "drop", 1), Options{Operator: "gr", Workers: 1,
		Correction: CorrectionOptions{Mode: "off", Redetect: "on", RedetectRounds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if c := r.Stepper.ClosureConfig(); c == nil || c.MaxRounds != 1 {
		t.Fatalf("closure %+v, want 1 round", c)
	}
	capped := 0
	for k := 0; k < 250 && capped == 0; k++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if c := r.Stepper.Last.Closure; c.Capped {
			capped = r.Stepper.N
			if c.Rounds != 1 || c.Missing == 0 {
				t.Errorf("step %d: capped closure %+v, want 1 round and the missing contacts counted", capped, c)
			}
		}
	}
	if capped == 0 {
		t.Fatal("no step reached the cap of 1 re-solve: the test is too easy")
	}
	// the same step under Strict is an error and leaves the state
	s, err := NewBall2D(scene.DrumGrid(2000, "drop", 1), Options{Operator: "gr", Workers: 1,
		Correction: CorrectionOptions{Mode: "off", Redetect: "on", RedetectRounds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Stepper.Strict = true
	for k := 1; k < capped; k++ {
		if err := s.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
	}
	err = s.Stepper.Step()
	var ce *sim.ClosureCapError
	if !errors.As(err, &ce) || s.Stepper.N != capped-1 {
		t.Fatalf("strict step %d: error %v, state at step %d; want a ClosureCapError and step %d", capped, err, s.Stepper.N, capped-1)
	}
	t.Logf("step %d: %v", capped, err)
	off, err := NewBall2D(scene.DrumGrid(100, "drop", 1), Options{Correction: CorrectionOptions{Redetect: "off"}})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	if off.Stepper.ClosureConfig() != nil {
		t.Error("--redetect off installed a closure")
	}
}

// The elastic 1,000-ball drop (Table 2's setup, gr, c = 1, h = 0.01) for
// 10 s with the position correction: with the closed active set the
// correction has almost nothing left to do (11 steps, the capped ones) and
// the total energy is conserved as by Verlet and GR alone (measured drift
// 9.1e-13, correction energy −2e-10); with Alg. 4's active set the
// correction's work on the missed contacts adds 9 % (755 of |E₀| = 8,370).
func TestRedetectDropConservesEnergy(t *testing.T) {
	if testing.Short() {
		t.Skip("1 s")
	}
	for _, redetect := range []string{"on", "off"} {
		r, err := NewBall2D(scene.DrumGrid(1000, "drop", 1), Options{Operator: "gr", Workers: -1,
			Correction: CorrectionOptions{Mode: "on", Redetect: redetect}})
		if err != nil {
			t.Fatal(err)
		}
		st := r.Stepper
		e0 := r.Sys.Energy(st.Q, st.V)
		drift, pe, corrected := 0.0, 0.0, 0
		for k := 0; k < 1000; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			drift = max(drift, math.Abs(r.Sys.Energy(st.Q, st.V)-e0)/math.Abs(e0))
			pe += st.Last.Correction.PotentialChange
			if st.Last.Correction.Passes > 0 {
				corrected++
			}
		}
		r.Close()
		t.Logf("--redetect %s: relative energy drift %.3g, correction energy %.4g, %d corrected steps", redetect, drift, pe, corrected)
		if on := redetect == "on"; on && (drift > 1e-10 || math.Abs(pe) > 1e-6) || !on && drift < 0.01 {
			t.Errorf("--redetect %s: drift %.3g, correction energy %.3g", redetect, drift, pe)
		}
	}
}

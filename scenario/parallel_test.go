package scenario

import (
	"math"
	"testing"

	"impactsim/scene"
)

func runDrum(t *testing.T, n int, mode string, workers, steps int) *Ball2D {
	t.Helper()
	return runDrumWith(t, n, mode, Options{Operator: "gr", Workers: workers}, steps)
}

func runDrumWith(t *testing.T, n int, mode string, opt Options, steps int) *Ball2D {
	t.Helper()
	r, err := NewBall2D(scene.DrumGrid(n, mode, 1), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < steps; i++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func bitwiseEqual(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

// TestParallelDeterminism: the same drop scene run twice with the same
// worker count gives bitwise-identical states, and so do 1, 2 and 3 workers
// (detection, free flight and island solves do the same arithmetic in the
// same order whichever worker runs them).
func TestParallelDeterminism(t *testing.T) {
	n, steps := 5000, 250
	ref := runDrum(t, n, "drop", 1, steps)
	defer ref.Close()
	if ref.Stepper.Last.Contacts < 1000 {
		t.Fatalf("only %d contacts at step %d: the test is too easy", ref.Stepper.Last.Contacts, steps)
	}
	for _, w := range []int{2, 2, 3} {
		r := runDrum(t, n, "drop", w, steps)
		if i, ok := bitwiseEqual(r.Stepper.Q, ref.Stepper.Q); !ok {
			t.Errorf("%d workers: q differs from 1 worker at %d", w, i)
		}
		if i, ok := bitwiseEqual(r.Stepper.V, ref.Stepper.V); !ok {
			t.Errorf("%d workers: v differs from 1 worker at %d", w, i)
		}
		r.Close()
	}
	// The warm start is recorded serially and read per island: also
	// independent of the worker count, and not the cold run's rounding.
	w1 := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: 1, WarmStart: true}, steps)
	defer w1.Close()
	w2 := runDrumWith(t, n, "drop", Options{Operator: "gr", Workers: 2, WarmStart: true}, steps)
	defer w2.Close()
	if i, ok := bitwiseEqual(w2.Stepper.Q, w1.Stepper.Q); !ok {
		t.Errorf("warm start: q differs between 1 and 2 workers at %d", i)
	}
	if _, ok := bitwiseEqual(w1.Stepper.Q, ref.Stepper.Q); ok {
		t.Error("warm start: q is bitwise the cold run's: the warm start changed nothing")
	}
}

// TestStepDoesNotAllocate: a steady-state step (free flight, detection,
// assembly, GR island solves on two workers) allocates nothing.
func TestStepDoesNotAllocate(t *testing.T) {
	for _, mode := range []string{"gas", "drop"} {
		r := runDrum(t, 5000, mode, 2, 400)
		allocs := testing.AllocsPerRun(20, func() {
			if err := r.Stepper.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step", mode, allocs)
		}
		r.Close()
	}
	r := runDrumWith(t, 5000, "drop", Options{Operator: "gr", Workers: 2, WarmStart: true}, 400)
	defer r.Close()
	if a := testing.AllocsPerRun(20, func() {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("drop with warm start: %v allocations per step", a)
	}
}

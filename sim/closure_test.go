package sim_test

import (
	"testing"

	"impactsim/sim"
)

// A steady step of the resting stack with the closed active set and the
// position correction allocates nothing (TestCorrectionRestingStack runs
// it for 10⁴ steps).
func TestClosureAllocs(t *testing.T) {
	sys := stack20(1)
	st := stackStepper(t, sys, "gr", &sim.Correction{Project: true, Tol: 5e-8})
	if err := st.SetClosure(&sim.Closure{}); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 20; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations per step", a)
	}
}

// A closure needs an ActiveSetCloser and Alg. 4; nil removes it; rounds < 0
// are refused.
func TestSetClosureErrors(t *testing.T) {
	sys := stack20(0)
	st := stackStepper(t, sys, "lcp", nil)
	if err := st.SetClosure(&sim.Closure{MaxRounds: -1}); err == nil {
		t.Error("MaxRounds −1 accepted")
	}
	if err := st.SetClosure(&sim.Closure{}); err != nil || st.ClosureConfig().MaxRounds != sim.DefaultClosureRounds {
		t.Errorf("SetClosure: %v, %+v", err, st.ClosureConfig())
	}
	if err := st.SetClosure(nil); err != nil || st.ClosureConfig() != nil {
		t.Errorf("SetClosure(nil): %v, %+v", err, st.ClosureConfig())
	}
	st.External = func(*sim.Stepper) error { return nil }
	if err := st.SetClosure(&sim.Closure{}); err == nil {
		t.Error("closure accepted for an external step")
	}
}

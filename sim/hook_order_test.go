package sim_test

import (
	"strings"
	"testing"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/sim"
)

// TestHookOrder: hooks run in the order added, and AddFirstHook puts its
// hook before all of them, in each of Begin and End.
func TestHookOrder(t *testing.T) {
	sys := &ball2d.System{Dt: 1e-3, CoR: 1}
	sys.AddBall(0, 0, 1, 0, 1, 0.5, false)
	op, _ := impact.New(impact.Config{Name: "gr"})
	st, err := sim.NewStepper(sys, &sim.Staggered{Impact: op}, sys.Dt, sys.Q, sys.V)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	hook := func(name string) sim.Hook {
		return sim.Hook{Name: name,
			Begin: func(*sim.Stepper) error { log = append(log, "begin "+name); return nil },
			End:   func(*sim.Stepper) error { log = append(log, "end "+name); return nil }}
	}
	st.AddHook(hook("a"))
	st.AddHook(hook("b"))
	st.AddFirstHook(hook("first"))
	if err := st.Step(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, ", "), "begin first, begin a, begin b, end first, end a, end b"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
}

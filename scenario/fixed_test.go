package scenario

import (
	"math"
	"testing"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/sim"
)

// TestBounceOnFixedBalls drops a ball onto two fixed balls placed
// symmetrically below it, with gravity and GR: the bounce stays on the
// symmetry axis and the total energy is conserved through every impact.
func TestBounceOnFixedBalls(t *testing.T) {
	s := &ball2d.System{Integrator: ball2d.Verlet, Dt: 0.001, Gravity: [2]float64{0, -10}, CoR: 1}
	s.AddBall(0, 1.5, 0, 0, 1, 0.5, false)
	s.AddBall(-0.6, 0, 0, 0, 1, 0.5, true)
	s.AddBall(0.6, 0, 0, 0, 1, 0.5, true)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	op, err := impact.New(impact.Config{Name: "gr"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: op}, s.Dt, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	e0 := s.Energy(st.Q, st.V)
	bounces := 0
	for i := 0; i < 3000; i++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Contacts > 0 {
			bounces++
			if st.Last.Contacts != 2 {
				t.Fatalf("step %d: %d contacts, want both fixed balls at once", i, st.Last.Contacts)
			}
		}
		if st.Q[0] != 0 || st.V[0] != 0 {
			t.Fatalf("step %d: left the symmetry axis: x = %v, vx = %v", i, st.Q[0], st.V[0])
		}
		for _, k := range []int{2, 3, 4, 5} {
			if st.V[k] != 0 {
				t.Fatalf("a fixed ball moved")
			}
		}
	}
	e1 := s.Energy(st.Q, st.V)
	if bounces < 2 {
		t.Fatalf("only %d impact steps", bounces)
	}
	// Verlet is exact for constant gravity and an elastic GR reflection at
	// qᵗ keeps the kinetic energy, so the total energy is conserved to
	// round-off.
	if rel := math.Abs(e1-e0) / e0; rel > 1e-12 {
		t.Errorf("energy %v → %v (relative change %.3g)", e0, e1, rel)
	}
	t.Logf("%d impact steps, energy %v → %v", bounces, e0, e1)
}

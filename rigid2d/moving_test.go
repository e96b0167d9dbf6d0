package rigid2d_test

import (
	"math"
	"testing"

	"impactsim/impact"
	"impactsim/rigid2d"
	"impactsim/sim"
)

// TestMovingPlane2D: a box falling flat at 1 onto a floor that rises at 2
// (geom2d.Plane.V, moved by a hook) leaves it with the relative speed
// reversed and scaled by c, under gr.
func TestMovingPlane2D(t *testing.T) {
	for _, c := range []float64{1, 0.5} {
		s := &rigid2d.System{CoR: c, Planes: []rigid2d.Plane{{P: [2]float64{0, 0}, N: [2]float64{0, 1}, V: [2]float64{0, 2}}}}
		s.AddBody(rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.5, 0.25}}, 1, [2]float64{0, 0.26}, 0, [2]float64{0, -1}, 0, false)
		op, err := impact.New(impact.Config{Name: "gr"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := sim.NewStepper(s, &sim.Staggered{Impact: op}, 1e-3, s.Q, s.V)
		if err != nil {
			t.Fatal(err)
		}
		st.AddHook(sim.Hook{Name: "floor", Begin: func(st *sim.Stepper) error {
			s.Planes[0].P[1] = 2 * (st.T + st.H)
			return nil
		}})
		for k := 0; k < 10; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := st.V[1]-2, c*3; math.Abs(got-want) > 1e-12 || math.Abs(st.V[2]) > 1e-12 {
			t.Errorf("c = %g: leaves at %.15g relative to the floor (ω %g), want %g", c, got, st.V[2], want)
		}
	}
}

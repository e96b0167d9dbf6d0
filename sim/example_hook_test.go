package sim_test

import (
	"fmt"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/sim"
)

// A hook moves geometry and sets per-contact coefficients every step: here
// a floor rising at 0.5 m/s (placed where it is at the end of each step,
// with its velocity) under a ball falling at 2 m/s, and the restitution of
// every contact set to 0.8 once the contacts are known. The ball leaves
// the floor at 0.8 times its approach speed relative to the floor.
func ExampleHook() {
	sys := &ball2d.System{Dt: 1e-3, CoR: 1}
	sys.Planes = []ball2d.Plane{ball2d.NewPlane([2]float64{0, 0}, [2]float64{0, 1})}
	sys.AddBall(0, 0.51, 0, -2, 1, 0.5, false)
	op, _ := impact.New(impact.Config{Name: "gr"})
	st, _ := sim.NewStepper(sys, &sim.Staggered{Impact: op}, sys.Dt, sys.Q, sys.V)
	st.AddHook(sim.Hook{
		Name: "rising floor",
		Begin: func(st *sim.Stepper) error {
			t := st.T + st.H // the end of the step being taken
			sys.Planes[0].P = [2]float64{0, 0.5 * t}
			sys.Planes[0].V = [2]float64{0, 0.5}
			return nil
		},
		Coefficients: func(st *sim.Stepper, p *mech.Problem) error {
			for i := range p.CoR {
				p.CoR[i] = 0.8
			}
			return nil
		},
	})
	for st.Last.Contacts == 0 {
		if err := st.Step(); err != nil {
			fmt.Println(err)
			return
		}
	}
	vIn := st.Problem.V[1] - 0.5 // approach speed relative to the floor
	vOut := st.Problem.V[1] + st.Lambda[0] - 0.5
	fmt.Printf("approach %.3f m/s, rebound %.3f m/s relative to the floor (ratio %.2f); floor work %.4f J\n", -vIn, vOut, -vOut/vIn, st.Last.WallWork)
	// Output:
	// approach 2.500 m/s, rebound 2.000 m/s relative to the floor (ratio 0.80); floor work 2.2500 J
}

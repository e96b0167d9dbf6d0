package spheres_test

import (
	"fmt"

	"impactsim/friction"
	"impactsim/spheres"
)

// A sphere thrown sideways onto a floor slides, then rolls: friction
// (μ = 0.3) brings the contact point to rest while the sphere keeps
// 5/7 of its speed, as for a rolling ball.
func Example() {
	s := &spheres.System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.3}
	s.Planes = []spheres.Plane{{N: [3]float64{0, 0, 1}}}
	s.Add([3]float64{0, 0, 0.01}, [3]float64{1, 0, 0}, [3]float64{}, 0.01, 2650)
	cfg := &spheres.Config{H: 1e-4, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-12, MaxIter: 100}}
	for k := 0; k < 5000; k++ {
		s.Step(cfg)
	}
	fmt.Printf("height %.6f m, speed %.6f m/s (5/7 = %.6f), spin %.4f rad/s\n", s.X[2], s.VW[0], 5.0/7, s.VW[4])
	// Output:
	// height 0.010000 m, speed 0.714286 m/s (5/7 = 0.714286), spin 71.4286 rad/s
}

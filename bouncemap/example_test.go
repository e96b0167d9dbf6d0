package bouncemap_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/bouncemap"
)

// A body with one mode of 1 kHz whose shape at the contact point is
// u = 1 along the normal (a = 1/M = 1): ε = u²/(a + u²) = 0.5 after one
// micro-collision lasting π/(ω√(a/(a+u²))) = 0.707 ms.
func ExampleWorkspace_Exact() {
	body := &bouncemap.Body{Mass: 1, Inertia: [3]float64{0.01, 0.01, 0.01}, Omega: []float64{2 * math.Pi * 1000}}
	site := &bouncemap.Site{X: r3.Vec{Z: -0.1}, N: r3.Vec{Z: -1}, U: []float64{0, 0, 1}}
	var w bouncemap.Workspace
	o, err := w.Exact(body, site, bouncemap.ExactOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ε = %.6f after %d micro-collision lasting %.4f ms\n", o.Eps, o.Collisions, o.TauLast*1e3)
	a, _ := w.Alg1(body, site, bouncemap.Alg1Options{Dt: 1e-7})
	fmt.Printf("Alg. 1 at Δt = 0.1 µs: ε = %.6f, %d steps\n", a.Eps, a.Steps)
	// Output:
	// ε = 0.500000 after 1 micro-collision lasting 0.7071 ms
	// Alg. 1 at Δt = 0.1 µs: ε = 0.500000, 8663 steps
}

// Combining two one-body values with the arithmetic mean, the paper's best
// combiner (Table 1).
func ExampleCombinerByName() {
	c, _ := bouncemap.CombinerByName("arithmetic")
	fmt.Println(c.Formula, c.F(0.2, 0.6))
	// Output: (εi+εj)/2 0.4
}

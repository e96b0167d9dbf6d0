package impact_test

import (
	"fmt"

	"impactsim/desiderata"
	"impactsim/impact"
)

// Newton's cradle: three touching unit balls, the first moving at 2. GR
// propagates the shock and the last ball leaves; the LCP sticks.
func Example() {
	for _, name := range []string{"gr", "lcp"} {
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			panic(err)
		}
		p := desiderata.NewtonsCradle(3, 2, 1)
		lambda := make([]float64, p.NContacts())
		if _, err := op.Resolve(p, lambda); err != nil {
			panic(err)
		}
		v := make([]float64, p.NDof())
		p.ApplyImpulses(v, p.V, lambda, nil, make([]float64, p.NDof()))
		fmt.Printf("%-3s v⁺ = (%.4f, %.4f, %.4f)\n", name, v[0]+0, v[2]+0, v[4]+0)
	}
	// Output:
	// gr  v⁺ = (0.0000, 0.0000, 2.0000)
	// lcp v⁺ = (-0.6667, 1.3333, 1.3333)
}

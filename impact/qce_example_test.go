package impact_test

import (
	"fmt"

	"impactsim/desiderata"
	"impactsim/impact"
)

// The three-ball chain of Zhang et al. Fig. 2: B at rest between A (moving
// right at 0.5) and C (moving left at 1). GR and the LCP coincide when both
// contacts approach; QCE lets BC finish first and keeps B nearly at rest.
func ExampleQCE() {
	for _, name := range []string{"qce", "gr"} {
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			panic(err)
		}
		p := desiderata.ThreeBallChain(0.5, 1, 1)
		o, err := desiderata.Run(op, p)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-3s v⁺ = (%.4f, %.4f, %.4f)\n", name, o.V[0], o.V[2], o.V[4])
	}
	// Output:
	// qce v⁺ = (-1.0458, 0.2125, 0.3333)
	// gr  v⁺ = (-0.8333, -0.3333, 0.6667)
}

package bouncemap

import (
	"fmt"
	"math"
)

// Combiner approximates a two-body coefficient of restitution from the two
// bodies' one-body values (eq. 12): ε_ij ≈ F(ε_i, ε_j).
type Combiner struct {
	Name    string
	Formula string
	F       func(a, b float64) float64
}

// Combiners are the seven candidates of §5.2 in Table 1's order; ε̄ = 1 − ε.
// The means are written so that they stay in [0, 1] at the edges: the
// harmonic mean is 2εᵢεⱼ/(εᵢ + εⱼ) (0 when both are 0) and its flipped form
// 1 − 2ε̄ᵢε̄ⱼ/(ε̄ᵢ + ε̄ⱼ) (1 when both ε̄ are 0).
var Combiners = []Combiner{
	{"arithmetic", "(εi+εj)/2", func(a, b float64) float64 { return (a + b) / 2 }},
	{"geometric_flipped", "1−√(ε̄iε̄j)", func(a, b float64) float64 { return 1 - math.Sqrt((1-a)*(1-b)) }},
	{"geometric", "√(εiεj)", func(a, b float64) float64 { return math.Sqrt(a * b) }},
	{"harmonic_flipped", "1−2/(1/ε̄i+1/ε̄j)", func(a, b float64) float64 { return 1 - harmonic(1-a, 1-b) }},
	{"harmonic", "2/(1/εi+1/εj)", harmonic},
	{"min", "min(εi,εj)", math.Min},
	{"max", "max(εi,εj)", math.Max},
}

func harmonic(a, b float64) float64 {
	if a+b == 0 {
		return 0
	}
	return 2 * a * b / (a + b)
}

// CombinerByName returns the named combiner.
func CombinerByName(name string) (Combiner, error) {
	var names []string
	for _, c := range Combiners {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	return Combiner{}, fmt.Errorf("bouncemap: combiner %q, want one of %v", name, names)
}

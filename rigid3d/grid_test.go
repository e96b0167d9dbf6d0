package rigid3d

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestGridMatchesAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &System{}
	for i := 0; i < 300; i++ {
		x := r3.Vec{X: rng.Float64()*6 - 3, Y: rng.Float64()*6 - 3, Z: rng.Float64()*6 - 3}
		fixed := i%37 == 0
		if rng.IntN(2) == 0 {
			r := 0.05 + 0.25*rng.Float64()
			if fixed {
				r = 1.5
			}
			s.AddBody(Shape{Kind: Sphere, R: r}, 1, x, Identity, r3.Vec{}, r3.Vec{}, fixed)
		} else {
			s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.1 + 0.1*rng.Float64(), Y: 0.1, Z: 0.2 * rng.Float64()}}, 1, x, FromRotationVector(r3.Vec{X: rng.Float64(), Y: 1}), r3.Vec{}, r3.Vec{}, fixed)
		}
	}
	want := allPairs(s, s.Q, nil)
	for _, cell := range []float64{0, 0.3, 2} {
		s.cellSize = cell
		var g grid
		got := g.pairs(s, s.Q, nil)
		if len(want) < 100 || !slices.Equal(got, want) {
			t.Errorf("cell %v: grid found %d pairs, all pairs %d", cell, len(got), len(want))
		}
		if a := testing.AllocsPerRun(5, func() { got = g.pairs(s, s.Q, got[:0]) }); a != 0 {
			t.Errorf("cell %v: %v allocations", cell, a)
		}
	}
}

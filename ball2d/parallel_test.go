package ball2d

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"impactsim/mech"
	"impactsim/par"
)

// TestParallelDetectionMatchesSerial: with small chunks (so every parallel
// loop really splits), detection and free flight on 1, 2 and 3 workers give
// the same contacts and problems as the serial code, and the grid's pairs
// match brute force.
func TestParallelDetectionMatchesSerial(t *testing.T) {
	old := parGrain
	parGrain = 64
	defer func() { parGrain = old }()
	var ref mech.Problem
	refSys := randomSystem(3000, 5)
	step1(refSys, &ref)
	for _, w := range []int{1, 2, 3} {
		pool := par.New(w)
		s := randomSystem(3000, 5)
		s.SetPool(pool)
		var p mech.Problem
		step1(s, &p)
		if !reflect.DeepEqual(s.Contacts(), refSys.Contacts()) || !reflect.DeepEqual(p, ref) {
			t.Errorf("%d workers: contacts or problem differ from serial", w)
		}
		rng := rand.New(rand.NewPCG(3, uint64(w)))
		boxes := make([]aabb, 5000)
		for i := range boxes {
			x, y := 150*rng.Float64(), 150*rng.Float64()
			boxes[i] = aabb{x, y, x + 2*rng.Float64(), y + 2*rng.Float64()}
		}
		g := grid{pool: pool}
		if got, want := g.find(boxes), bruteForcePairs(boxes, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: grid found %d pairs, brute force %d", w, len(got), len(want))
		}
		pool.Close()
	}
}

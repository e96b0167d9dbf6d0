package impact

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIslandsReuse: a split on an islands value that split before (which
// resets only the bodies its last columns touched) groups the columns as
// a split on a fresh value does, for column subsets (colMap) of random
// contact graphs with walls, over several body counts.
func TestIslandsReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var reused islands
	for trial := 0; trial < 300; trial++ {
		nb := 5 + rng.IntN(40)
		if trial%50 == 49 {
			nb = 3 // a shrink
		}
		mAll := rng.IntN(3 * nb)
		bodies := make([]int, 2*mAll)
		for j := 0; j < mAll; j++ {
			bodies[2*j], bodies[2*j+1] = rng.IntN(nb), rng.IntN(nb+nb/3)-nb/3 // some walls (−1 … )
			if bodies[2*j+1] < 0 {
				bodies[2*j+1] = -1
			} else if rng.IntN(4) == 0 {
				bodies[2*j], bodies[2*j+1] = -1, bodies[2*j] // a wall first
			}
		}
		var colMap []int
		m := mAll
		if trial%2 == 1 {
			for j := 0; j < mAll; j++ {
				if rng.IntN(3) > 0 {
					colMap = append(colMap, j)
				}
			}
			m = len(colMap)
		}
		var fresh islands
		fresh.split(m, nb, bodies, colMap)
		reused.split(m, nb, bodies, colMap)
		if !slices.Equal(fresh.start, reused.start) || !slices.Equal(fresh.order[:m], reused.order[:m]) {
			t.Fatalf("trial %d: reused split %v %v, fresh %v %v", trial, reused.start, reused.order[:m], fresh.start, fresh.order[:m])
		}
		for b := range nb {
			if reused.parent[b] != int32(b) || reused.rootID[b] != -1 {
				t.Fatalf("trial %d: body %d left linked (%d, %d)", trial, b, reused.parent[b], reused.rootID[b])
			}
		}
	}
}

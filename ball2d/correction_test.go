package ball2d

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeSorted: merging the contacts a search found into the sorted
// list of those found before gives the list sorting the concatenation
// gives, for distinct keys of every kind.
func TestMergeSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		seen := map[Contact]bool{}
		var all []Contact
		n := rng.IntN(60)
		for len(all) < n {
			c := Contact{Kind: ContactKind(rng.IntN(3)), Obj: int32(rng.IntN(3)), I: int32(rng.IntN(20)), J: int32(rng.IntN(20))}
			if !seen[c] {
				seen[c] = true
				all = append(all, c)
			}
		}
		k := 0
		if len(all) > 0 {
			k = rng.IntN(len(all) + 1)
		}
		old, add := slices.Clone(all[:k]), slices.Clone(all[k:])
		slices.SortFunc(old, contactCmp)
		slices.SortFunc(add, contactCmp)
		want := slices.Clone(all)
		slices.SortFunc(want, contactCmp)
		if got := mergeSorted(old, add); !slices.Equal(got, want) {
			t.Fatalf("trial %d: merged %v, want %v", trial, got, want)
		}
	}
}

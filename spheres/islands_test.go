package spheres

import (
	"math/rand/v2"
	"slices"
	"testing"

	"impactsim/par"
)

// TestSplitIslandsOnPool: the islands of a contact list large enough for
// the pooled unions (random sphere pairs, chains, walls) are the same on
// pools of 1, 2 and 3 workers as without a pool: the same island of every
// contact, the same grouping and the same schedule.
func TestSplitIslandsOnPool(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for trial := 0; trial < 4; trial++ {
		n := 20000 + rng.IntN(10000)
		ref := &System{}
		for i := 0; i < n; i++ {
			ref.Add([3]float64{float64(i), 0, 0}, [3]float64{}, [3]float64{}, 0.4, 1)
		}
		var con []contact
		for k := 0; k < 3*n/2; k++ {
			i := rng.IntN(n)
			j := rng.IntN(n)
			if k%3 == 0 {
				j = min(n-1, i+1+rng.IntN(3)) // chains
			}
			if i != j {
				con = append(con, contact{i: int32(i), j: int32(j)})
			}
		}
		npair := len(con)
		for k := 0; k < n/3; k++ {
			con = append(con, contact{i: int32(rng.IntN(n)), j: -1})
		}
		split := func(pool *par.Pool) *islandSet {
			s := &System{R: ref.R}
			s.SetPool(pool)
			s.work.con, s.work.npair = con, npair
			s.splitIslands()
			return &s.work.isl
		}
		want := split(nil)
		for _, nw := range []int{1, 2, 3} {
			pool := par.New(nw)
			got := split(pool)
			pool.Close()
			if !slices.Equal(got.conIsl, want.conIsl) || !slices.Equal(got.start, want.start) || !slices.Equal(got.order, want.order) || !slices.Equal(got.sched, want.sched) || got.big != want.big {
				t.Fatalf("trial %d, %d workers: the islands differ from the serial split", trial, nw)
			}
		}
		if trial == 0 {
			t.Logf("%d spheres, %d pairs, %d islands, the largest %d contacts", n, npair, want.n, want.size(want.sched[0]))
		}
	}
}

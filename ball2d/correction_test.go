package ball2d

import (
	"math/rand/v2"
	"slices"
	"testing"

	"impactsim/mech"
	"impactsim/par"
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
		if got := mergeSorted(old, add, contactCmp); !slices.Equal(got, want) {
			t.Fatalf("trial %d: merged %v, want %v", trial, got, want)
		}
	}
}

// TestFindMissedMatchesBruteForce: the missed-contact search finds, on 1
// and 3 workers with small chunks, exactly the ball pairs an all-pairs
// test finds: a pair with a ball that moved more than the search distance,
// overlapping by more than the tolerance, not both fixed and not in the
// detection's list; and a second search with nothing moved finds none.
func TestFindMissedMatchesBruteForce(t *testing.T) {
	old := parGrain
	parGrain = 64
	defer func() { parGrain = old }()
	const search, tol = 0.01, 1e-3
	for _, w := range []int{1, 3} {
		for seed := uint64(1); seed <= 3; seed++ {
			s := randomSystem(1500, seed)
			s.SetPool(par.New(w))
			var p mech.Problem
			q1 := step1(s, &p)
			known := map[[2]int32]bool{}
			for _, c := range s.Contacts() {
				if c.Kind == BallBall {
					known[[2]int32{c.I, c.J}] = true
				}
			}
			// a third of the balls pushed by up to half a radius; one far away
			q, moved := pushBalls(s, q1, rand.New(rand.NewPCG(seed, 7)), 3, 0.3)
			q[0], moved[0] = q[0]+1e3, !s.Fixed[0]
			ref := slices.Clone(q1)
			m0 := p.NContacts()
			got := s.FindMissed(ref, q, search, tol, &p)
			var want [][2]int32
			for i := 0; i < s.N(); i++ {
				for j := i + 1; j < s.N(); j++ {
					if !moved[i] && !moved[j] || s.Fixed[i] && s.Fixed[j] || known[[2]int32{int32(i), int32(j)}] {
						continue
					}
					rr := s.R[i] + s.R[j] - tol
					if dx, dy := q[2*i]-q[2*j], q[2*i+1]-q[2*j+1]; dx*dx+dy*dy < rr*rr {
						want = append(want, [2]int32{int32(i), int32(j)})
					}
				}
			}
			var pairs [][2]int32
			for _, c := range s.det.contacts[s.det.ndetect:] {
				if c.Kind == BallBall {
					pairs = append(pairs, [2]int32{c.I, c.J})
				}
			}
			if len(want) < 100 {
				t.Fatalf("only %d missed pairs: the test is too easy", len(want))
			}
			if !slices.Equal(pairs, want) {
				t.Fatalf("%d workers, seed %d: found %d pairs, brute force %d", w, seed, len(pairs), len(want))
			}
			if got != p.NContacts()-m0 || got < len(want) {
				t.Fatalf("returned %d, appended %d, %d pairs", got, p.NContacts()-m0, len(want))
			}
			if again := s.FindMissed(ref, q, search, tol, &p); again != 0 {
				t.Fatalf("a second search found %d", again)
			}
		}
	}
}

// TestUpdateGapsRelinearizeMoved: after some balls move, re-evaluating
// only the contacts that touch them (UpdateGaps, RelinearizeMoved) gives
// bit for bit what the full Gaps and Relinearize give, contacts appended by
// the missed-contact search included.
func TestUpdateGapsRelinearizeMoved(t *testing.T) {
	s := randomSystem(1500, 4)
	var p mech.Problem
	q1 := step1(s, &p)
	gaps := s.Gaps(q1, nil)
	s.Relinearize(q1, &p)
	q, moved := pushBalls(s, q1, rand.New(rand.NewPCG(4, 9)), 4, 0.05)
	if s.FindMissed(slices.Clone(q1), q, 0.01, 1e-3, &p) == 0 {
		t.Fatal("no missed contact appended: the test does not cover them")
	}
	got := s.UpdateGaps(q, moved, gaps)
	want := s.Gaps(q, nil)
	if !slices.Equal(got, want) {
		t.Fatal("UpdateGaps differs from Gaps")
	}
	var full mech.Problem
	full.G.Ptr = slices.Clone(p.G.Ptr)
	full.G.Row = slices.Clone(p.G.Row)
	full.G.Val = slices.Clone(p.G.Val)
	s.RelinearizeMoved(q, &p, moved)
	s.Relinearize(q, &full)
	if !slices.Equal(p.G.Val, full.G.Val) {
		t.Fatal("RelinearizeMoved differs from Relinearize")
	}
}

// pushBalls returns q1 with one in every k movable balls (at random)
// displaced by a normal deviate of standard deviation d per coordinate,
// and which balls moved.
func pushBalls(s *System, q1 []float64, rng *rand.Rand, k int, d float64) ([]float64, []bool) {
	q := slices.Clone(q1)
	moved := make([]bool, s.N())
	for i := range moved {
		if !s.Fixed[i] && rng.IntN(k) == 0 {
			q[2*i] += d * rng.NormFloat64()
			q[2*i+1] += d * rng.NormFloat64()
			moved[i] = true
		}
	}
	return q, moved
}

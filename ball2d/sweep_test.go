package ball2d

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"impactsim/mech"
)

// TestSweepContactsSkipsExactly: SweepContacts visits only the contacts on
// its worklist (those whose balls moved since they were last left as they
// were) and of those skips the ones whose gap was above the threshold by
// more than their balls have since been pushed through; the result is bit
// for bit that of visiting every contact in every sweep (a reference loop
// over the same order), on a random system with fixed balls, drums and
// planes, the missed-contact search's contacts merged into the order. Both
// rules skip something (the reference also counts the visits of the first
// rule alone), the sweeps reduce the overlaps, and a fixed ball never
// moves.
func TestSweepContactsSkipsExactly(t *testing.T) {
	const target, tol = -5e-4, 1e-3
	for seed := uint64(1); seed <= 3; seed++ {
		s := randomSystem(1500, seed)
		var p mech.Problem
		q1 := step1(s, &p)
		q, _ := pushBalls(s, q1, rand.New(rand.NewPCG(seed, 11)), 3, 0.1)
		ref := slices.Clone(q)
		want := slices.Clone(q)
		before := worst(s, q)
		// first round on the step's contacts, then on those with the
		// missed ones appended (orderSweep merges them in)
		for round := 0; round < 2; round++ {
			if round == 1 && s.FindMissed(ref, q, 0.01, tol, &p) == 0 {
				t.Fatal("no missed contact appended: the test does not cover the merge")
			}
			clock := s.sweep.clock
			n, w := s.SweepContacts(q, target, tol, 6)
			// the reference: every contact in every sweep, same order;
			// it counts the visits of the moved-balls rule alone (moved,
			// left: a contact is visited unless it was left as it was and
			// its balls have not been pushed since)
			wn, ww := 0, 0.0
			tick, ruleVisits := 0, 0
			moved := make([]int, s.N())
			left := make([]int, len(s.det.contacts))
			for wn < 6 {
				wn++
				ww = 0
				for _, o := range s.sweep.order {
					c := &s.det.contacts[o.o.k]
					l := left[o.o.k]
					if l == 0 || moved[c.I] > l || c.J >= 0 && moved[c.J] > l {
						ruleVisits++
					}
					tick++
					v, pushed := s.pushContact(want, c, target)
					ww = math.Max(ww, v)
					left[o.o.k] = tick
					if pushed {
						moved[c.I] = tick
						if c.J >= 0 {
							moved[c.J] = tick
						}
						left[o.o.k] = 0
					}
				}
				if !(ww > tol) {
					break
				}
			}
			// contacts above the threshold max(target, −tol) are not
			// visited: the worst overlap is the reference's wherever
			// it is above −threshold
			lo := -max(target, -tol)
			if n != wn || math.Float64bits(max(w, lo)) != math.Float64bits(max(ww, lo)) {
				t.Fatalf("seed %d round %d: %d sweeps, worst %v; reference %d, %v", seed, round, n, w, wn, ww)
			}
			for i := range q {
				if math.Float64bits(q[i]) != math.Float64bits(want[i]) {
					t.Fatalf("seed %d round %d: q[%d] = %v, reference %v", seed, round, i, q[i], want[i])
				}
			}
			visits := int(s.sweep.clock - clock)
			if ruleVisits >= n*len(s.sweep.order) || visits >= ruleVisits {
				t.Fatalf("seed %d round %d: %d visits, %d by the moved-balls rule alone, for %d sweeps of %d contacts: a rule skipped nothing", seed, round, visits, ruleVisits, n, len(s.sweep.order))
			}
			// the order is every contact once, by (layer, index)
			if len(s.sweep.order) != len(s.det.contacts) || !slices.IsSortedFunc(s.sweep.order, sweepCmp) {
				t.Fatalf("seed %d: order of %d for %d contacts, sorted %v", seed, len(s.sweep.order), len(s.det.contacts), slices.IsSortedFunc(s.sweep.order, sweepCmp))
			}
			seen := make([]bool, len(s.det.contacts))
			for _, o := range s.sweep.order {
				if seen[o.o.k] {
					t.Fatalf("seed %d: contact %d twice in the order", seed, o.o.k)
				}
				seen[o.o.k] = true
			}
		}
		if after := worst(s, q); !(after < 0.1*before) {
			t.Errorf("seed %d: worst overlap %.3g → %.3g", seed, before, after)
		}
		for i := range s.M {
			if s.Fixed[i] && (q[2*i] != q1[2*i] || q[2*i+1] != q1[2*i+1]) {
				t.Fatalf("fixed ball %d moved", i)
			}
		}
	}
}

// worst is the largest overlap of the system's current contacts at q.
func worst(s *System, q []float64) float64 {
	w := 0.0
	for _, g := range s.Gaps(q, nil) {
		w = math.Max(w, -g)
	}
	return w
}

package friction

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/mech"
	"impactsim/par"
)

// TestMaxDissipationPooledIsExact: Alg. 3 with its QP products A x spread
// over a pool (row ranges) returns bit for bit the impulses it returns on
// one goroutine, for 2 and 3 workers, on a 12 × 12 patch of touching balls
// moving in random directions, some sliding and some sticking (every
// contact pooled: the threshold set to one row).
func TestMaxDissipationPooledIsExact(t *testing.T) {
	p, lambda := slidingPatch(12, 7)
	m := p.NContacts()
	solve := func(pool *par.Pool) []float64 {
		o, err := NewMaxDissipation("sparse")
		if err != nil {
			t.Fatal(err)
		}
		o.SetPool(pool)
		o.poolFrom = 1
		beta := make([]float64, p.D.NCols())
		st, err := o.Resolve(p, lambda, beta)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := o.prob.A.(*mech.PooledDelassus); ok != (pool != nil) {
			t.Fatalf("pool %v: products on the pool %v", pool != nil, ok)
		}
		if pool != nil && st.SolverIterations < 2 {
			t.Fatalf("the QP took %d iterations: the test needs products", st.SolverIterations)
		}
		return beta
	}
	ref := solve(nil)
	nz, inside := 0, 0
	for j, x := range ref {
		if x != 0 {
			nz++
			if k := p.DContact[j]; math.Abs(x) < 0.999*p.Mu[k]*lambda[k] {
				inside++
			}
		}
	}
	if nz < m/4 || inside < m/10 {
		t.Fatalf("%d of %d friction impulses nonzero, %d inside their bounds: the test needs sliding and sticking contacts", nz, len(ref), inside)
	}
	for _, nw := range []int{2, 3} {
		pool := par.New(nw)
		got := solve(pool)
		pool.Close()
		for k := range ref {
			if got[k] != ref[k] {
				t.Fatalf("%d workers: β[%d] = %v, one goroutine %v", nw, k, got[k], ref[k])
			}
		}
	}
	t.Logf("%d contacts, %d nonzero friction impulses (%d inside their bounds), bitwise equal on 2 and 3 workers", m, nz, inside)
}

// slidingPatch is a k × k patch of touching 2D balls moving in random
// directions (μ = 0.4) and normal impulses λ for its contacts between 0.5
// and 4.5, so that some contacts slide and some stick under Alg. 3.
func slidingPatch(k int, seed int64) (*mech.Problem, []float64) {
	rng := rand.New(rand.NewSource(seed))
	var b []desiderata.Ball
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			b = append(b, desiderata.Ball{X: float64(i) + 0.5*float64(j%2), Y: float64(j) * math.Sqrt(0.75),
				VX: rng.NormFloat64(), VY: rng.NormFloat64(), M: 0.5 + rng.Float64(), R: 0.5})
		}
	}
	p := desiderata.Balls2D(b, 0.5, 0.4)
	lambda := make([]float64, p.NContacts())
	for k := range lambda {
		lambda[k] = 0.5 + 4*rng.Float64() // some contacts stick: z inside its box
	}
	return p, lambda
}

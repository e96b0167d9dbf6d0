package bouncemap

import (
	"fmt"
	"math"
	"sort"

	"impactsim/par"
)

// StratifiedPick returns n sample indices whose ε values spread evenly
// over [min ε, max ε]: for the targets min + (max − min)(k + ½)/n, the
// unused sample nearest in ε (ties to the lower index), as the paper's
// combiner dataset ("an approximately uniform sampling of Bounce Map ε
// values", §5.2). If there are fewer than n samples, all are returned.
func StratifiedPick(eps []float64, n int) []int {
	if len(eps) <= n {
		out := make([]int, len(eps))
		for i := range out {
			out[i] = i
		}
		return out
	}
	order := make([]int, len(eps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return eps[order[a]] < eps[order[b]] })
	lo, hi := eps[order[0]], eps[order[len(order)-1]]
	used := make([]bool, len(eps))
	out := make([]int, 0, n)
	for k := 0; k < n; k++ {
		target := lo + (hi-lo)*(float64(k)+0.5)/float64(n)
		j := sort.Search(len(order), func(i int) bool { return eps[order[i]] >= target })
		best, bd := -1, math.Inf(1)
		for _, c := range []int{j - 1, j} {
			// Walk outwards to the nearest unused on each side.
			step := 1
			if c == j-1 {
				step = -1
			}
			for ; c >= 0 && c < len(order); c += step {
				if !used[order[c]] {
					if d := math.Abs(eps[order[c]] - target); d < bd || (d == bd && order[c] < best) {
						best, bd = order[c], d
					}
					break
				}
			}
		}
		used[best] = true
		out = append(out, best)
	}
	sort.Ints(out)
	return out
}

// PairTable holds the two-body coefficients ε_ij of every pair of the
// chosen sites of one body colliding with a copy of itself, and their
// one-body values ε_i.
type PairTable struct {
	Eps1 []float64
	Eps2 [][]float64 // symmetric
}

// SelfPairs runs the two-body analysis (ExactPair) for every unordered
// pair i ≤ j of sites of body b (n(n+1)/2 runs, in parallel).
func SelfPairs(b *Body, sites []Site, eps1 []float64, pool *par.Pool, opt ExactOptions) (*PairTable, error) {
	n := len(sites)
	pt := &PairTable{Eps1: eps1, Eps2: make([][]float64, n)}
	for i := range pt.Eps2 {
		pt.Eps2[i] = make([]float64, n)
	}
	type pair struct{ i, j int }
	var pairs []pair
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	ws := make([]Workspace, pool.Workers())
	errs := make([]error, len(pairs))
	pool.Each(len(pairs), func(w, k int) {
		p := pairs[k]
		o, err := ws[w].ExactPair(b, &sites[p.i], b, &sites[p.j], opt)
		errs[k] = err
		pt.Eps2[p.i][p.j] = o.Eps
		pt.Eps2[p.j][p.i] = o.Eps
	})
	for k, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("bouncemap: pair (%d, %d): %w", pairs[k].i, pairs[k].j, err)
		}
	}
	return pt, nil
}

// MeanError returns the mean ℓ1 error |ε_ij − F(ε_i, ε_j)| of combiner F
// over all n² ordered pairs (Table 1).
func (pt *PairTable) MeanError(c Combiner) float64 {
	var s float64
	n := len(pt.Eps1)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s += math.Abs(pt.Eps2[i][j] - c.F(pt.Eps1[i], pt.Eps1[j]))
		}
	}
	return s / float64(n*n)
}

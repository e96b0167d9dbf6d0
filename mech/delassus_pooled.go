package mech

import "impactsim/par"

// PooledDelassus is a Delassus matrix whose products A x run by row ranges
// on a pool. Each row is summed as Delassus.MulVec sums it, so a product has
// the same bits for any worker count. It keeps the matrix's other methods
// (Rows, Diag), so the QP solvers treat it as they treat the matrix itself.
// Set Delassus, Pool and Grain before use; the zero Grain means 2048 rows.
type PooledDelassus struct {
	*Delassus
	Pool  *par.Pool
	Grain int

	dst, x []float64
	f      func(w, lo, hi int)
	ranges func(n int, f func(w, lo, hi int))
}

func (a *PooledDelassus) grain() int {
	if a.Grain > 0 {
		return a.Grain
	}
	return 2048
}

// MulVec sets dst = A x, by ranges of Grain rows on the pool.
func (a *PooledDelassus) MulVec(dst, x []float64) {
	a.dst, a.x = dst, x
	if a.f == nil {
		a.f = func(_, lo, hi int) { a.Delassus.MulVecRows(a.dst, a.x, lo, hi) }
	}
	a.Pool.For(a.Dim(), a.grain(), a.f)
	a.dst, a.x = nil, nil
}

// Ranges returns a function that runs f over [0, n) in ranges of Grain on
// the pool (Delassus.AssembleRanges takes it). It is made once, so asking
// for it again allocates nothing.
func (a *PooledDelassus) Ranges() func(n int, f func(w, lo, hi int)) {
	if a.ranges == nil {
		a.ranges = func(n int, f func(w, lo, hi int)) { a.Pool.For(n, a.grain(), f) }
	}
	return a.ranges
}

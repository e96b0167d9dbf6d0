package qp_test

import (
	"math"
	"testing"

	"impactsim/par"
	"impactsim/qp"
)

// TestSparseLendIsExact: MPRGP's vectors taken from lent buffers (Lend:
// none, part of them from one or two buffers, all of them; the buffers
// filled with NaN, so a vector read before it is written would show) give
// the answer of a Sparse that owns them, bit for bit, in the same steps,
// on no pool and on a pool of 2. After Solve the buffers are the caller's
// again: overwriting them changes nothing in the next (unlent) Solve, and
// a lent buffer is used by one Solve only.
func TestSparseLendIsExact(t *testing.T) {
	m := qp.SparsePoolFrom + qp.SparseBlock + 5
	p := boxProblem(m, 7)
	nan := func(n int) []float64 {
		b := make([]float64, n)
		for i := range b {
			b[i] = math.NaN()
		}
		return b
	}
	pool := par.New(2)
	defer pool.Close()
	for _, pl := range []*par.Pool{nil, pool} {
		ref := &qp.Sparse{Tol: 1e-13}
		ref.SetPool(pl)
		want, _ := solve(t, ref, p, 1e-13)
		for _, lend := range [][]int{nil, {m - 1}, {m}, {3*m + 2, 2 * m}, {13 * m}, {20 * m}} {
			sp := &qp.Sparse{Tol: 1e-13}
			sp.SetPool(pl)
			var bufs [][]float64
			for _, n := range lend {
				b := nan(n)
				bufs = append(bufs, b)
				sp.Lend(b)
			}
			got, _ := solve(t, sp, p, 1e-13)
			same := func(what string, got []float64) {
				t.Helper()
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("pool %v, lent %v (%s): y[%d] = %v, want %v (bit for bit)", pl != nil, lend, what, i, got[i], want[i])
					}
				}
			}
			same("lent", got)
			if sp.Steps != ref.Steps {
				t.Fatalf("pool %v, lent %v: steps %+v, want %+v", pl != nil, lend, sp.Steps, ref.Steps)
			}
			for _, b := range bufs {
				for i := range b {
					b[i] = math.Inf(1)
				}
			}
			again, _ := solve(t, sp, p, 1e-13)
			same("the next Solve, the buffers overwritten", again)
			for _, b := range bufs {
				for i, v := range b {
					if !math.IsInf(v, 1) {
						t.Fatalf("pool %v, lent %v: the next Solve wrote %v at %d of a buffer lent to the one before", pl != nil, lend, v, i)
					}
				}
			}
		}
	}
}

// TestAutoLendOnlyToItsMPRGP: Auto hands a lent buffer to the MPRGP solver
// it owns when that solves (same bits as unlent), and to nothing else: a
// problem that goes to the dense method leaves the buffer untouched, and
// the buffer is not kept for a later Solve.
func TestAutoLendOnlyToItsMPRGP(t *testing.T) {
	small, large := boxProblem(40, 3), boxProblem(qp.DefaultDenseMax+50, 4)
	ref := &qp.Auto{}
	want, _ := solve(t, ref, large, 1e-9)
	a := &qp.Auto{}
	buf := make([]float64, 7)
	for i := range buf {
		buf[i] = 42
	}
	a.Lend(buf)
	solve(t, a, small, 1e-9)
	for i, v := range buf {
		if v != 42 {
			t.Fatalf("buf[%d] = %v after a dense solve: the buffer was used", i, v)
		}
	}
	// not kept: a buffer too short for any vector now would not show, so
	// lend a large one, solve small (dense), then large unlent, then check
	big := make([]float64, 20*len(large.B))
	for i := range big {
		big[i] = 42
	}
	a.Lend(big)
	solve(t, a, small, 1e-9)
	got, _ := solve(t, a, large, 1e-9)
	for i, v := range big {
		if v != 42 {
			t.Fatalf("big[%d] = %v: a buffer lent for one Solve was used by the next", i, v)
		}
	}
	a.Lend(big)
	lent, _ := solve(t, a, large, 1e-9)
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(lent[i]) != math.Float64bits(want[i]) {
			t.Fatalf("y[%d]: %v unlent, %v lent, want %v (bit for bit)", i, got[i], lent[i], want[i])
		}
	}
	if big[0] == 42 {
		t.Fatalf("a buffer lent for an MPRGP solve was not used")
	}
}

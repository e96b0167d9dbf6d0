package qp_test

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/par"
	"impactsim/qp"
)

// banded is the symmetric m×m matrix with d on the diagonal and −1 on the
// off-diagonals ±1 and ±k: positive definite for d > 4 (eigenvalues in
// [d − 4, d + 4]).
type banded struct {
	m, k int
	d    []float64
}

func (a *banded) Dim() int { return a.m }
func (a *banded) MulVec(dst, x []float64) {
	for i := range dst {
		s := a.d[i] * x[i]
		for _, j := range [4]int{i - a.k, i - 1, i + 1, i + a.k} {
			if j >= 0 && j < a.m {
				s -= x[j]
			}
		}
		dst[i] = s
	}
}
func (a *banded) At(i, j int) float64 {
	switch d := i - j; {
	case d == 0:
		return a.d[i]
	case d == 1 || d == -1 || d == a.k || d == -a.k:
		return -1
	}
	return 0
}

// boxProblem is a box-constrained QP on a banded matrix of m variables
// with random two-sided bounds and a random b, so that some variables end
// at each bound and some inside.
func boxProblem(m int, seed int64) *qp.Problem {
	rng := rand.New(rand.NewSource(seed))
	a := &banded{m: m, k: 37, d: make([]float64, m)}
	p := &qp.Problem{A: a, B: make([]float64, m), Lo: make([]float64, m), Hi: make([]float64, m)}
	for i := 0; i < m; i++ {
		a.d[i] = 4.5 + 4*rng.Float64()
		p.B[i] = 3 * rng.NormFloat64()
		p.Lo[i] = -rng.Float64()
		p.Hi[i] = rng.Float64()
	}
	return p
}

// TestSparsePooledIsDeterministic: a Sparse given a pool (SetPool) sums
// its vector loops by fixed blocks, so it returns the same answer bit for
// bit, in the same number of iterations, on no pool, and on pools of 2 and
// 3 workers (the problem is above sparsePoolFrom: its loops do run on the
// workers), and the same answer as a Sparse without a pool to 1e-12
// relative, both at KKT residual ≤ 1e-13; problems of one block round as
// without a pool, bit for bit.
func TestSparsePooledIsDeterministic(t *testing.T) {
	for _, m := range []int{qp.SparsePoolFrom + 3*qp.SparseBlock + 17, qp.SparseBlock} {
		p := boxProblem(m, int64(m))
		solve := func(pool *par.Pool, pooled bool) ([]float64, qp.Result, qp.SparseSteps) {
			sp := &qp.Sparse{Tol: 1e-13}
			if pooled {
				sp.SetPool(pool)
			}
			y, res := solve(t, sp, p, 1e-13)
			return y, res, sp.Steps
		}
		ref, rres, steps := solve(nil, true)
		if steps.Free < m/10 || steps.Bound < m/10 || steps.Expansion+steps.Proportioning == 0 {
			t.Fatalf("m=%d: steps %+v: the test needs free and bound variables and expansions", m, steps)
		}
		for _, nw := range []int{2, 3} {
			pool := par.New(nw)
			y, res, _ := solve(pool, true)
			pool.Close()
			if res.Iterations != rres.Iterations {
				t.Fatalf("m=%d, %d workers: %d iterations, no pool %d", m, nw, res.Iterations, rres.Iterations)
			}
			for i := range ref {
				if math.Float64bits(y[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("m=%d, %d workers: y[%d] = %v, no pool %v", m, nw, i, y[i], ref[i])
				}
			}
		}
		plain, _, _ := solve(nil, false)
		var d, scale float64
		same := true
		for i := range ref {
			d = math.Max(d, math.Abs(plain[i]-ref[i]))
			scale = math.Max(scale, math.Abs(ref[i]))
			same = same && math.Float64bits(plain[i]) == math.Float64bits(ref[i])
		}
		if d > 1e-12*scale {
			t.Errorf("m=%d: blocked and in-order sums differ by %g (‖y‖∞ %g)", m, d, scale)
		}
		if m <= qp.SparseBlock && !same {
			t.Errorf("m=%d (one block): blocked sums round differently from in-order sums", m)
		}
		t.Logf("m=%d: %d iterations %+v, |Δy| vs in-order sums %.2g", m, rres.Iterations, steps, d)
	}
}

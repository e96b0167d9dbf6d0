package eigen

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"impactsim/par"
	"impactsim/qp"
)

// Pencil is the symmetric-definite generalized eigenproblem K x = λ M x
// with K symmetric positive semidefinite and M symmetric positive
// definite, both n×n and stored by rows on one pattern (Ptr, Col), both
// triangles, every row holding its diagonal (as package fem assembles
// them).
type Pencil struct {
	N        int
	Ptr, Col []int
	K, M     []float64
}

// MulK sets dst = K x.
func (p *Pencil) MulK(dst, x []float64) { mulRows(p.Ptr, p.Col, p.K, dst, x) }

// MulM sets dst = M x.
func (p *Pencil) MulM(dst, x []float64) { mulRows(p.Ptr, p.Col, p.M, dst, x) }

func mulRows(ptr, col []int, val, dst, x []float64) {
	for i := range dst {
		var s float64
		for q := ptr[i]; q < ptr[i+1]; q++ {
			s += val[q] * x[col[q]]
		}
		dst[i] = s
	}
}

// Options control Solve.
type Options struct {
	// Modes is the number of wanted eigenpairs: the smallest eigenvalues
	// with eigenvectors M-orthogonal to Deflate.
	Modes int
	// Shift is σ, below every eigenvalue, so that K − σM is positive
	// definite. Zero selects σ = −10⁻⁶·tr(K)/tr(M).
	Shift float64
	// Deflate holds M-orthonormal vectors spanning an invariant subspace
	// to leave out (the rigid-body modes of a free body).
	Deflate [][]float64
	// Block is the block size (default 3; it must be at least the largest
	// multiplicity among the wanted eigenvalues for exact arithmetic to
	// find every copy).
	Block int
	// MaxBasis bounds the basis before a thick restart (default
	// max(2·Modes + 2·Block, Modes + 6·Block)).
	MaxBasis int
	// Tol is the Ritz residual target ‖OP y − θ y‖_M ≤ Tol·θ (default
	// 1e-11), and MaxResidual the relative residual every returned pair
	// must meet, ‖Kφ − λMφ‖₂ ≤ MaxResidual·λ‖Mφ‖₂ (default 1e-8).
	Tol, MaxResidual float64
	// MaxSolves bounds the number of solves with K − σM (default 50·Modes
	// + 500).
	MaxSolves int
	// Pool runs the block's solves and the orthogonalization in parallel
	// (nil: serial); results do not depend on the number of workers.
	Pool *par.Pool
	// Seed seeds the random starting block.
	Seed int64
}

// Result is the outcome of Solve.
type Result struct {
	Values  []float64   // λ₁ ≤ … ≤ λ_m
	Vectors [][]float64 // φᵢ, M-orthonormal
	Shift   float64     // σ used
	// Residual is max ‖Kφ − λMφ‖₂/(|λ|‖Mφ‖₂) over the pairs,
	// Orthonormality max |ΦᵀMΦ − I|, and DeflationLeak max |zᵀMφ| over
	// the deflated vectors z.
	Residual, Orthonormality, DeflationLeak float64
	Solves, Restarts, Basis                 int
	FactorNNZ                               int // entries of the Cholesky factor of K − σM
	FactorTime, IterationTime               time.Duration
}

// Solve computes the opt.Modes smallest eigenpairs of p outside the
// deflated subspace by block shift-invert Lanczos (see the package
// documentation).
func Solve(p *Pencil, opt Options) (*Result, error) {
	n := p.N
	nd := len(opt.Deflate)
	if opt.Modes < 1 {
		return nil, fmt.Errorf("eigen: %d modes requested, want at least 1", opt.Modes)
	}
	if opt.Modes > n-nd {
		return nil, fmt.Errorf("eigen: %d modes requested but the problem has %d degrees of freedom outside the %d deflated vectors", opt.Modes, n-nd, nd)
	}
	if opt.Block <= 0 {
		opt.Block = 3
	}
	b := min(opt.Block, n-nd)
	if opt.MaxBasis <= 0 {
		opt.MaxBasis = max(2*opt.Modes+2*b, opt.Modes+6*b)
	}
	opt.MaxBasis = min(opt.MaxBasis, n-nd)
	if opt.MaxBasis < opt.Modes+b && opt.MaxBasis < n-nd {
		return nil, fmt.Errorf("eigen: basis bound %d is below modes + block = %d", opt.MaxBasis, opt.Modes+b)
	}
	if opt.Tol <= 0 {
		opt.Tol = 1e-11
	}
	if opt.MaxResidual <= 0 {
		opt.MaxResidual = 1e-8
	}
	if opt.MaxSolves <= 0 {
		opt.MaxSolves = 50*opt.Modes + 500
	}
	res := &Result{}
	sigma := opt.Shift
	if sigma == 0 {
		var tk, tm float64
		for i := 0; i < n; i++ {
			for q := p.Ptr[i]; q < p.Ptr[i+1]; q++ {
				if p.Col[q] == i {
					tk += p.K[q]
					tm += p.M[q]
				}
			}
		}
		sigma = -1e-6 * tk / tm
	}
	res.Shift = sigma
	t0 := time.Now()
	shifted := make([]float64, len(p.K))
	for q := range shifted {
		shifted[q] = p.K[q] - sigma*p.M[q]
	}
	f, err := qp.FactorSPD(n, p.Ptr, p.Col, shifted)
	if err != nil {
		return nil, fmt.Errorf("eigen: K − σM with σ = %g: %w (σ must lie below every eigenvalue)", sigma, err)
	}
	shifted = nil
	res.FactorNNZ = f.NNZ()
	res.FactorTime = time.Since(t0)
	t1 := time.Now()
	s := &solver{p: p, f: f, opt: opt, b: b, z: opt.Deflate, pool: opt.Pool}
	s.work = make([][]float64, max(1, opt.Pool.Workers()))
	for w := range s.work {
		s.work[w] = make([]float64, n)
	}
	s.mv = make([][]float64, b)
	for j := range s.mv {
		s.mv[j] = make([]float64, n)
	}
	s.rng = rand.New(rand.NewSource(opt.Seed + 1))
	if err := s.start(); err != nil {
		return nil, err
	}
	// Iterate to the Ritz tolerance, check the pairs against K and M, and
	// tighten the tolerance (continuing from the same basis) while a
	// residual misses MaxResidual.
	for tol := opt.Tol; ; tol /= 100 {
		theta, vecs, err := s.iterate(tol)
		res.Solves, res.Restarts, res.Basis = s.solves, s.restarts, len(s.v)
		if err != nil {
			return nil, err
		}
		res.IterationTime = time.Since(t1)
		s.finish(res, theta, vecs, sigma)
		if res.Residual <= opt.MaxResidual || tol < 1e-15 || s.exhausted {
			break
		}
	}
	if !(res.Residual <= opt.MaxResidual) {
		return res, fmt.Errorf("eigen: largest relative residual %.3g after %d solves exceeds %.3g", res.Residual, res.Solves, opt.MaxResidual)
	}
	return res, nil
}

// finish turns the Ritz pairs into eigenpairs (ascending λ = σ + 1/θ) and
// measures them against K and M.
func (s *solver) finish(res *Result, theta []float64, vecs [][]float64, sigma float64) {
	p, n, m := s.p, s.p.N, s.opt.Modes
	res.Residual, res.Orthonormality, res.DeflationLeak = 0, 0, 0
	res.Values = make([]float64, m)
	res.Vectors = vecs
	for i := 0; i < m; i++ {
		res.Values[i] = sigma + 1/theta[i]
	}
	// Ascending λ (θ descending already gives it; sort for safety with ties).
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, c int) bool { return res.Values[idx[a]] < res.Values[idx[c]] })
	vals := make([]float64, m)
	vv := make([][]float64, m)
	for i, k := range idx {
		vals[i], vv[i] = res.Values[k], res.Vectors[k]
	}
	res.Values, res.Vectors = vals, vv
	// Check the answer against K and M themselves.
	kx, mx := make([]float64, n), make([]float64, n)
	for i, x := range res.Vectors {
		p.MulK(kx, x)
		p.MulM(mx, x)
		var rr, mm float64
		for k := range kx {
			r := kx[k] - res.Values[i]*mx[k]
			rr += r * r
			mm += mx[k] * mx[k]
		}
		rel := math.Sqrt(rr) / (math.Abs(res.Values[i]) * math.Sqrt(mm))
		res.Residual = math.Max(res.Residual, rel)
		for j := 0; j <= i; j++ {
			d := dot(res.Vectors[j], mx)
			if i == j {
				d--
			}
			res.Orthonormality = math.Max(res.Orthonormality, math.Abs(d))
		}
		for _, z := range s.z {
			res.DeflationLeak = math.Max(res.DeflationLeak, math.Abs(dot(z, mx)))
		}
	}
}

// solver holds the block Lanczos state: basis v (M-orthonormal, M-orthogonal
// to z), the projected matrix h (h[i][j] = v_iᵀ M OP v_j for the processed
// columns j < done), and the block r coupling the last processed block to
// the newest one.
type solver struct {
	p         *Pencil
	f         *qp.CholeskyFactor
	opt       Options
	b         int
	z         [][]float64
	pool      *par.Pool
	work, mv  [][]float64
	rng       *rand.Rand
	v         [][]float64
	h         [][]float64
	done      int
	exhausted bool // the basis spans the whole space outside z
	solves    int
	restarts  int
}

// op sets w = (K − σM)⁻¹ M x.
func (s *solver) op(w, x, mx, work []float64) {
	s.p.MulM(mx, x)
	copy(w, mx)
	s.f.Solve(w, work)
}

// orthogonalize makes w M-orthogonal to z and to v[:upto] (classical
// Gram–Schmidt, twice), adds the coefficients on v to coef (len upto) and
// returns ‖w‖_M before and after. mx is scratch.
func (s *solver) orthogonalize(w []float64, upto int, coef, mx []float64) (before, after float64) {
	for pass := 0; pass < 2; pass++ {
		s.p.MulM(mx, w)
		if pass == 0 {
			before = math.Sqrt(math.Max(0, dot(w, mx)))
		}
		for _, z := range s.z {
			axpy(-dot(z, mx), z, w)
		}
		for i := 0; i < upto; i++ {
			c := dot(s.v[i], mx)
			if coef != nil {
				coef[i] += c
			}
			axpy(-c, s.v[i], w)
		}
	}
	s.p.MulM(mx, w)
	return before, math.Sqrt(math.Max(0, dot(w, mx)))
}

// randomVector returns a unit-M-norm vector M-orthogonal to z and v.
func (s *solver) randomVector(mx []float64) []float64 {
	n := s.p.N
	for try := 0; try < 10; try++ {
		w := make([]float64, n)
		for i := range w {
			w[i] = s.rng.NormFloat64()
		}
		before, after := s.orthogonalize(w, len(s.v), nil, mx)
		if after > 1e-8*before {
			scale(1/after, w)
			return w
		}
	}
	return nil
}

func (s *solver) grow(k int) {
	for len(s.h) < k {
		s.h = append(s.h, nil)
	}
	for i := range s.h {
		for len(s.h[i]) < k {
			s.h[i] = append(s.h[i], 0)
		}
	}
}

// start fills the first block with random vectors.
func (s *solver) start() error {
	mx := make([]float64, s.p.N)
	for j := 0; j < s.b; j++ {
		w := s.randomVector(mx)
		if w == nil {
			return fmt.Errorf("eigen: no starting vector outside the deflated space")
		}
		s.v = append(s.v, w)
	}
	return nil
}

// iterate processes blocks until the wanted Ritz pairs meet tol (or the
// Krylov space is exhausted) and returns their θ (descending) and vectors;
// it can be called again with a smaller tol to continue.
func (s *solver) iterate(tol float64) ([]float64, [][]float64, error) {
	b, m := s.b, s.opt.Modes
	n := s.p.N
	mx := make([]float64, n)
	ws := make([][]float64, b)
	coef := make([][]float64, b)
	for {
		// The block to process: v[done : done+bb].
		lo := s.done
		bb := len(s.v) - lo
		for j := 0; j < bb; j++ {
			if ws[j] == nil {
				ws[j] = make([]float64, n)
			}
		}
		s.pool.Each(bb, func(w, j int) {
			s.op(ws[j], s.v[lo+j], s.mv[j], s.work[w])
		})
		s.solves += bb
		// Orthogonalize each new vector against the whole basis
		// (independent per vector), then within the new block.
		upto := len(s.v)
		s.pool.Each(bb, func(w, j int) {
			coef[j] = make([]float64, upto)
			s.orthogonalize(ws[j], upto, coef[j], s.mv[j])
		})
		s.grow(upto + bb)
		for j := 0; j < bb; j++ {
			for i := 0; i < upto; i++ {
				s.h[i][lo+j] = coef[j][i]
			}
		}
		canGrow := upto < n-len(s.z)
		for j := 0; j < bb && canGrow; j++ {
			w := ws[j]
			// Against the new vectors of this block accepted so far.
			for pass := 0; pass < 2; pass++ {
				s.p.MulM(mx, w)
				for i := upto; i < len(s.v); i++ {
					c := dot(s.v[i], mx)
					s.h[i][lo+j] += c
					axpy(-c, s.v[i], w)
				}
			}
			s.p.MulM(mx, w)
			nw := math.Sqrt(math.Max(0, dot(w, mx)))
			// A vector with nothing new (the Krylov space is invariant or
			// the block is rank deficient) is replaced by a random one.
			var q []float64
			if nw > 1e-10*math.Max(norm2(coef[j]), nw) {
				q = make([]float64, n)
				copy(q, w)
				scale(1/nw, q)
				s.h[len(s.v)][lo+j] = nw
			} else {
				q = s.randomVector(mx)
			}
			if q == nil {
				canGrow = false
				break
			}
			s.v = append(s.v, q)
			canGrow = len(s.v) < n-len(s.z)
		}
		s.done = upto
		if s.done >= m {
			theta, sv, conv := s.ritz(tol)
			if conv || !canGrow {
				s.exhausted = !canGrow
				if !conv && !canGrow && s.done < m {
					return nil, nil, fmt.Errorf("eigen: the Krylov space ended at %d vectors before %d modes converged", s.done, m)
				}
				vecs := s.combine(sv, m)
				return theta[:m], vecs, nil
			}
			if s.solves >= s.opt.MaxSolves {
				return nil, nil, fmt.Errorf("eigen: %d modes not converged after %d solves (%d restarts)", m, s.solves, s.restarts)
			}
			if len(s.v)+b > s.opt.MaxBasis {
				s.restart(theta, sv)
			}
		} else if !canGrow {
			return nil, nil, fmt.Errorf("eigen: the Krylov space ended at %d vectors before %d modes", s.done, m)
		}
	}
}

// ritz solves the projected problem on the processed columns and reports
// whether the wanted pairs meet ‖OP y − θ y‖_M ≤ tol·θ. θ is descending;
// sv[i] is the i-th Ritz vector's coefficients.
func (s *solver) ritz(tol float64) ([]float64, [][]float64, bool) {
	k := s.done
	hs := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			hs.SetSym(i, j, (s.h[i][j]+s.h[j][i])/2)
		}
	}
	var e mat.EigenSym
	if !e.Factorize(hs, true) {
		return nil, nil, false
	}
	vals := e.Values(nil)
	var vec mat.Dense
	e.VectorsTo(&vec)
	theta := make([]float64, k)
	sv := make([][]float64, k)
	for i := 0; i < k; i++ {
		c := k - 1 - i // descending
		theta[i] = vals[c]
		sv[i] = make([]float64, k)
		for r := 0; r < k; r++ {
			sv[i][r] = vec.At(r, c)
		}
	}
	// Residual of Ritz pair i: the new vectors' coefficients,
	// Σ_j h[new][j] sv[i][j] over the processed columns.
	conv := true
	for i := 0; i < s.opt.Modes; i++ {
		var rr float64
		for r := k; r < len(s.v); r++ {
			var c float64
			for j := 0; j < k; j++ {
				c += s.h[r][j] * sv[i][j]
			}
			rr += c * c
		}
		if !(math.Sqrt(rr) <= tol*math.Abs(theta[i])) {
			conv = false
		}
	}
	return theta, sv, conv
}

// combine returns the first cnt Ritz vectors V·sv[i].
func (s *solver) combine(sv [][]float64, cnt int) [][]float64 {
	n := s.p.N
	k := s.done
	out := make([][]float64, cnt)
	s.pool.Each(cnt, func(_, i int) {
		y := make([]float64, n)
		for j := 0; j < k; j++ {
			axpy(sv[i][j], s.v[j], y)
		}
		out[i] = y
	})
	return out
}

// restart keeps the best Ritz vectors and the newest block (thick restart):
// the projected matrix becomes diag(θ) coupled to the newest block through
// the old coupling rotated into the Ritz basis.
func (s *solver) restart(theta []float64, sv [][]float64) {
	keep := min(s.opt.Modes+max(s.b, s.opt.Modes/2), s.done-1)
	k := s.done
	y := s.combine(sv, keep)
	newest := s.v[k:]
	nb := len(newest)
	coupling := make([][]float64, nb)
	for r := 0; r < nb; r++ {
		coupling[r] = make([]float64, keep)
		for i := 0; i < keep; i++ {
			var c float64
			for j := 0; j < k; j++ {
				c += s.h[k+r][j] * sv[i][j]
			}
			coupling[r][i] = c
		}
	}
	s.v = append(y, newest...)
	s.h = nil
	s.grow(keep + nb)
	for i := 0; i < keep; i++ {
		s.h[i][i] = theta[i]
	}
	for r := 0; r < nb; r++ {
		for i := 0; i < keep; i++ {
			s.h[keep+r][i] = coupling[r][i]
		}
	}
	s.done = keep
	s.restarts++
}

func dot(a, b []float64) float64 { return floats.Dot(a, b) }

func axpy(a float64, x, y []float64) { floats.AddScaled(y, a, x) }

func scale(a float64, x []float64) { floats.Scale(a, x) }

func norm2(x []float64) float64 { return floats.Norm(x, 2) }

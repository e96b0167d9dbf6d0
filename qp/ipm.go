package qp

import (
	"errors"
	"math"
)

// MethodInterior names the Interior solver.
const MethodInterior = "interior"

// DefaultInteriorDelta is the relative pivot floor δ of Interior's
// factorizations (A + W X⁻¹ is positive definite, so the floor only guards
// against rounding).
const DefaultInteriorDelta = 1e-14

// RowMatrix is a Matrix that exposes its rows in compressed sparse row form,
// with sorted columns and every diagonal stored (mech.Delassus does).
type RowMatrix interface {
	Matrix
	Rows() (ptr, col []int, val []float64)
}

// ErrNotInteriorProblem is returned by Interior for a problem it does not
// handle: a matrix that is not a RowMatrix, a finite upper bound or an
// infinite lower bound.
var ErrNotInteriorProblem = errors.New("qp: interior solver needs a RowMatrix, finite lower bounds and no upper bounds")

// Interior solves the LCP form of the QP (lower bounds only,
// 0 ≤ y − lo ⊥ A y + b ≥ 0) on a sparse RowMatrix by a primal–dual
// interior-point method with Mehrotra's predictor–corrector. Each iteration
// solves (A + W X⁻¹) Δx = r twice with one sparse Cholesky factorization
// (nested-dissection order computed once per problem; A + W X⁻¹ is
// positive definite even where A is singular). Once the complementarity gap
// is small each iterate is rounded onto the bounds its complementarity
// pairs point to (xᵢ = 0 where xᵢ ≤ wᵢ), and the rounded point is accepted
// as soon as its KKTResidual, recomputed from A y, meets Tol. On large
// piles a few dozen degenerate pairs (xᵢ and wᵢ both tending to 0) leave
// a residual of order √μ that the gap cannot shrink below in floating
// point; when the gap reaches that floor (1e-15 of its scale) the rounded
// point is finished by MPRGP with a short budget (2m + 1000 iterations;
// 2,168 iterations on a 10⁵-contact pile). If MaxIter passes first, the
// best rounded point is left in y with a *NotConvergedError (Auto then
// polishes it further with MPRGP).
//
// The iteration count (13–56 on packings of 10²–10⁵ contacts) does not
// depend on the conditioning of A, which is what makes MPRGP's conjugate
// gradients slow on large jammed piles. The zero value is ready to use; an
// Interior keeps its workspaces between calls and must not be used by
// several goroutines at once.
type Interior struct {
	// Tol is the KKTResidual to reach (0 means DefaultSparseTol).
	Tol float64
	// MaxIter bounds the interior-point iterations (0 means 80).
	MaxIter int
	// Steps counts what the last Solve did.
	Steps InteriorSteps

	full             sparseChol
	loc              []int32
	all              []int
	x, w, r, d       []float64 // x = y − lo, w = A y + b, r = A y + b − w, D = W X⁻¹
	dy, dw, dya, dwa []float64
	t1, t2, best     []float64
	rhs              []float64
	mprgp            Sparse
}

// InteriorSteps counts the work of one Interior solve.
type InteriorSteps struct {
	Iterations int
	// Polish counts the MPRGP iterations that finished rounded points.
	Polish int
	// FactorNNZ is the number of entries of the factor of A (+ W Y⁻¹).
	FactorNNZ int
}

// Solve implements Solver. y on entry is ignored (interior-point methods
// start inside the cone); on return it holds the solution or, with an
// error, the best iterate found.
func (s *Interior) Solve(pr *Problem, y []float64) (Result, error) {
	res := Result{Method: MethodInterior}
	m, err := checkProblem(pr, y)
	if err != nil {
		return res, err
	}
	if !interiorProblem(pr) {
		return res, ErrNotInteriorProblem
	}
	rm := pr.A.(RowMatrix)
	if m == 0 {
		return res, nil
	}
	tol := s.Tol
	if tol <= 0 {
		tol = DefaultSparseTol
	}
	maxIter := s.MaxIter
	if maxIter <= 0 {
		maxIter = 80
	}
	s.Steps = InteriorSteps{}
	ptr, col, val := rm.Rows()
	s.grow(m)
	for i := range s.all {
		s.all[i] = i
		s.loc[i] = int32(i)
	}
	s.full.analyze(ptr, col, val, s.all, s.loc)
	s.Steps.FactorNNZ = len(s.full.li)

	// The interior point works with x = y − lo ≥ 0 and w = A y + b ≥ 0.
	// Start: x = τ, w = max(A y + b, ‖A lo + b‖∞), τ = ‖A lo + b‖∞ / max Aᵢᵢ.
	for i := range y {
		y[i] = pr.LoAt(i)
	}
	pr.A.MulVec(s.t1, y)
	var gmax, amax float64
	for i := 0; i < m; i++ {
		gmax = math.Max(gmax, math.Abs(s.t1[i]+pr.B[i]))
		amax = math.Max(amax, pr.A.At(i, i))
	}
	if gmax == 0 {
		res.Residual = KKTResidual(pr, y, s.t1)
		return res, nil
	}
	if amax <= 0 {
		amax = 1
	}
	tx := gmax / amax
	x, w, r := s.x, s.w, s.r
	for i := range x {
		x[i] = tx
		y[i] += tx
	}
	s.residual(pr, y, w, r, true, gmax)
	best := math.Inf(1)
	polishAt := 1e-15 // relative gap of the next polish attempt
	for it := 0; it < maxIter; it++ {
		var mu float64
		for i := range x {
			mu += x[i] * w[i]
		}
		mu /= float64(m)
		s.Steps.Iterations++
		// Once the gap is small, try the rounded point: x_i = 0 where
		// x_i ≤ w_i (the bound is active), x_i as it is elsewhere.
		if mu <= 1e-6*gmax*tx {
			for i := range y {
				s.t2[i] = y[i]
				if x[i] <= w[i] {
					s.t2[i] = pr.LoAt(i)
				}
			}
			rr := KKTResidual(pr, s.t2, s.t1)
			// At the floating-point floor of the gap, pairs that are
			// degenerate (xᵢ and wᵢ both near 0) leave a residual of
			// order √μ on the face that more interior iterations cannot
			// remove; MPRGP from the rounded point can, in a few steps.
			if rr > tol && rr <= 1e-6 && mu <= polishAt*gmax*tx {
				polishAt /= 100
				rr = s.polish(pr, tol, rr)
			}
			if rr < best {
				best = rr
				copy(s.best, s.t2)
			}
			if rr <= tol {
				copy(y, s.t2)
				res.Iterations, res.Residual = s.Steps.Iterations+s.Steps.Polish, rr
				return res, nil
			}
		}
		for i := range s.d {
			s.d[i] = w[i] / x[i]
		}
		s.full.numeric(s.d, DefaultInteriorDelta)
		// Predictor: (A + D) Δx = −r − w, Δw = −w − D Δx.
		for i := range s.dya {
			s.dya[i] = -r[i] - w[i]
		}
		s.full.solve(s.dya, s.t1)
		for i := range s.dwa {
			s.dwa[i] = -w[i] - s.d[i]*s.dya[i]
		}
		ap := stepToBoundary(x, s.dya, w, s.dwa)
		var muAff float64
		for i := range x {
			muAff += (x[i] + ap*s.dya[i]) * (w[i] + ap*s.dwa[i])
		}
		muAff /= float64(m)
		sigma := math.Pow(muAff/mu, 3)
		// Corrector: (A + D) Δx = −r − w + (σμ − Δx_aff Δw_aff)/x,
		// Δw = (σμ − Δx_aff Δw_aff)/x − w − D Δx.
		for i := range s.dy {
			c := (sigma*mu - s.dya[i]*s.dwa[i]) / x[i]
			s.dy[i] = -r[i] - w[i] + c
			s.t2[i] = c
		}
		s.full.solve(s.dy, s.t1)
		for i := range s.dw {
			s.dw[i] = s.t2[i] - w[i] - s.d[i]*s.dy[i]
		}
		a := math.Min(1, 0.995*stepToBoundary(x, s.dy, w, s.dw))
		for i := range x {
			x[i] += a * s.dy[i]
			y[i] = pr.LoAt(i) + x[i]
		}
		// r = A y + b − w, recomputed (not updated) so rounding does not
		// accumulate; w follows its own step.
		for i := range w {
			w[i] += a * s.dw[i]
		}
		s.residual(pr, y, w, r, false, 0)
	}
	// Best rounded point (or the last iterate if the gap never got small).
	if !math.IsInf(best, 1) {
		copy(y, s.best)
	}
	res.Iterations = s.Steps.Iterations
	res.Residual = KKTResidual(pr, y, s.t1)
	return res, notConverged(MethodInterior, res.Iterations, res.Residual, tol)
}

// polish runs MPRGP from the rounded point in s.t2 (KKT residual rr) with
// a short budget (2m + 1000 iterations) and keeps its result if it is
// better. It returns the residual of s.t2.
func (s *Interior) polish(pr *Problem, tol, rr float64) float64 {
	copy(s.rhs, s.t2)
	s.mprgp.Tol = tol
	s.mprgp.MaxIter = 2*len(s.t2) + 1000
	res, _ := s.mprgp.Solve(pr, s.rhs)
	s.Steps.Polish += res.Iterations
	if res.Residual < rr {
		copy(s.t2, s.rhs)
		return res.Residual
	}
	return rr
}

func (s *Interior) grow(m int) {
	s.loc = resize(s.loc, m)
	s.all = resize(s.all, m)
	for _, v := range []*[]float64{&s.x, &s.w, &s.r, &s.d, &s.dy, &s.dw, &s.dya, &s.dwa, &s.t1, &s.t2, &s.best, &s.rhs} {
		*v = resize(*v, m)
	}
}

// residual sets r = A y + b − w; with init it first sets w = max(A y + b,
// floor) so the start is interior.
func (s *Interior) residual(pr *Problem, y, w, r []float64, init bool, floor float64) {
	pr.A.MulVec(r, y)
	for i, b := range pr.B {
		g := r[i] + b
		if init {
			w[i] = math.Max(g, floor)
		}
		r[i] = g - w[i]
	}
}

// stepToBoundary returns the largest α ≤ 1 with x + α dx ≥ 0 and
// w + α dw ≥ 0.
func stepToBoundary(x, dx, w, dw []float64) float64 {
	a := 1e300
	for i := range x {
		if dx[i] < 0 {
			a = math.Min(a, -x[i]/dx[i])
		}
		if dw[i] < 0 {
			a = math.Min(a, -w[i]/dw[i])
		}
	}
	return math.Min(a, 1)
}

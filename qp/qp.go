package qp

import (
	"fmt"
	"math"
)

// Matrix is a symmetric positive semi-definite m×m matrix. mech.Delassus and
// DenseMatrix implement it.
type Matrix interface {
	Dim() int
	// MulVec sets dst = A x.
	MulVec(dst, x []float64)
	// At returns A_ij.
	At(i, j int) float64
}

// Problem is the bound-constrained convex quadratic program
//
//	minimize ½ yᵀ A y + bᵀ y   subject to  lo ≤ y ≤ hi.
//
// A nil Lo means all lower bounds are zero; a nil Hi means no upper bounds
// (+∞). With Lo = 0 and Hi = +∞ the KKT conditions are the LCP
// 0 ≤ y ⊥ A y + b ≥ 0.
type Problem struct {
	A      Matrix
	B      []float64
	Lo, Hi []float64
}

// LoAt returns the lower bound of variable i.
func (p *Problem) LoAt(i int) float64 {
	if p.Lo == nil {
		return 0
	}
	return p.Lo[i]
}

// HiAt returns the upper bound of variable i.
func (p *Problem) HiAt(i int) float64 {
	if p.Hi == nil {
		return math.Inf(1)
	}
	return p.Hi[i]
}

// Result reports how a solve went.
type Result struct {
	Method     string  // which algorithm produced the answer
	Iterations int     // outer iterations (pivots, or projected-gradient/CG steps)
	Residual   float64 // KKTResidual of the returned y
}

// Solver solves Problems. On entry y may hold a warm start (solvers that
// cannot use one ignore it); on return it holds the solution. A solver that
// does not reach its tolerance returns a *NotConvergedError and leaves its
// best iterate in y.
type Solver interface {
	Solve(p *Problem, y []float64) (Result, error)
}

// NotConvergedError is returned when a solver stops before its tolerance.
type NotConvergedError struct {
	Method     string
	Iterations int
	Residual   float64
	Tol        float64
}

func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("qp: %s did not converge: %d iterations, KKT residual %.3g > tolerance %.3g", e.Method, e.Iterations, e.Residual, e.Tol)
}

// KKTResidual returns the relative KKT residual of y for p:
//
//	r = maxᵢ |mid(Aᵢᵢ(yᵢ − loᵢ), gᵢ, Aᵢᵢ(yᵢ − hiᵢ))| / scale,   g = A y + b,
//
// where mid is the median of three numbers and
// scale = max(‖b‖∞, ‖A y‖∞, tiny). The numerator is zero exactly when y
// satisfies the KKT conditions (gᵢ ≥ 0 at a lower bound, ≤ 0 at an upper
// bound, = 0 in between); scaling the distance to a bound by Aᵢᵢ makes both
// arguments of mid carry the units of g (for impact problems: velocity). A
// variable with Aᵢᵢ = 0 uses 1 instead. Bound violations (y outside
// [lo, hi]) count in full. w is scratch of length m.
func KKTResidual(p *Problem, y, w []float64) float64 {
	p.A.MulVec(w, y)
	scale, r := kktRows(p, y, w, 0, len(y))
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	return r / scale
}

// kktRows returns, over the variables [lo, hi), the largest |bᵢ| and
// |(A y)ᵢ| (w = A y) and the largest |mid(…)| of KKTResidual's numerator.
func kktRows(p *Problem, y, w []float64, lo, hi int) (scale, r float64) {
	for i := lo; i < hi; i++ {
		scale = math.Max(scale, math.Abs(p.B[i]))
		scale = math.Max(scale, math.Abs(w[i]))
	}
	for i := lo; i < hi; i++ {
		g := w[i] + p.B[i]
		aii := p.A.At(i, i)
		if aii <= 0 {
			aii = 1
		}
		l, h := p.LoAt(i), p.HiAt(i)
		a := aii * (y[i] - l)
		c := aii * (y[i] - h) // −∞·… never: hi = +∞ gives −∞
		if math.IsInf(h, 1) {
			c = math.Inf(-1)
		}
		v := mid(a, g, c)
		if y[i] < l || y[i] > h {
			v = math.Max(math.Abs(v), aii*math.Max(l-y[i], y[i]-h))
		}
		r = math.Max(r, math.Abs(v))
	}
	return scale, r
}

func mid(a, b, c float64) float64 {
	return math.Max(math.Min(a, b), math.Min(math.Max(a, b), c))
}

package qp

import (
	"errors"
	"fmt"
	"math"
)

// Method names reported in Result.Method and accepted by New.
const (
	MethodDense  = "dense"
	MethodSparse = "sparse"
	MethodAuto   = "auto"
)

// ErrUnbounded is returned when the solver finds a feasible ray along which
// the objective decreases without bound (A d = 0, bᵀd < 0, lo ≤ y + t d ≤ hi
// for all t ≥ 0). The QPs that impact laws build are bounded, so this
// signals inconsistent input (for example a body pinned between two walls
// with different restitution coefficients).
var ErrUnbounded = errors.New("qp: objective is unbounded below on the feasible set")

// errIterLimit is the internal signal that an iteration budget ran out; Solve
// methods turn it into a *NotConvergedError.
var errIterLimit = errors.New("qp: iteration limit")

// checkProblem validates the shapes and values of p and y and returns m.
func checkProblem(p *Problem, y []float64) (int, error) {
	if p == nil || p.A == nil {
		return 0, errors.New("qp: nil problem or matrix")
	}
	m := p.A.Dim()
	if len(p.B) != m {
		return 0, fmt.Errorf("qp: A is %d×%d but len(B) = %d", m, m, len(p.B))
	}
	if len(y) != m {
		return 0, fmt.Errorf("qp: A is %d×%d but len(y) = %d", m, m, len(y))
	}
	if p.Lo != nil && len(p.Lo) != m {
		return 0, fmt.Errorf("qp: A is %d×%d but len(Lo) = %d", m, m, len(p.Lo))
	}
	if p.Hi != nil && len(p.Hi) != m {
		return 0, fmt.Errorf("qp: A is %d×%d but len(Hi) = %d", m, m, len(p.Hi))
	}
	for i := 0; i < m; i++ {
		if b := p.B[i]; math.IsNaN(b) || math.IsInf(b, 0) {
			return 0, fmt.Errorf("qp: B[%d] = %v", i, b)
		}
		lo, hi := p.LoAt(i), p.HiAt(i)
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 1) || math.IsInf(hi, -1) || lo > hi {
			return 0, fmt.Errorf("qp: bounds of variable %d are [%v, %v]", i, lo, hi)
		}
	}
	return m, nil
}

// resize returns s with length n, reusing its storage when possible.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4+8)
	}
	return s[:n]
}

// clamp returns v projected onto [lo, hi]; NaN maps to the bound nearest 0.
func clamp(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		v = 0
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// notConverged builds the error for a solver that ran out of iterations.
func notConverged(method string, iters int, resid, tol float64) error {
	return &NotConvergedError{Method: method, Iterations: iters, Residual: resid, Tol: tol}
}

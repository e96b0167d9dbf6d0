package qp

import (
	"fmt"
	"strings"
)

// DefaultDenseMax is the largest m that Auto hands to its dense solver when
// Auto.DenseMax is zero.
const DefaultDenseMax = 300

// Auto picks a solver by problem size: Dense (exact active set) when
// m ≤ DenseMax, Sparse (MPRGP) otherwise. Result.Method names the solver
// that ran. The zero value is ready to use and keeps the workspaces of its
// default solvers between calls. An Auto must not be used by several
// goroutines at once.
type Auto struct {
	// DenseMax is the size threshold (0 means DefaultDenseMax; negative
	// means never dense).
	DenseMax int
	// Dense and Sparse override the solvers used for small and large
	// problems; nil means a default *Dense and *Sparse owned by the Auto.
	Dense, Sparse Solver

	dense  Dense
	sparse Sparse
}

// Solve implements Solver.
func (a *Auto) Solve(p *Problem, y []float64) (Result, error) {
	if p == nil || p.A == nil {
		return Result{Method: MethodAuto}, fmt.Errorf("qp: nil problem or matrix")
	}
	limit := a.DenseMax
	if limit == 0 {
		limit = DefaultDenseMax
	}
	if p.A.Dim() <= limit {
		if a.Dense != nil {
			return a.Dense.Solve(p, y)
		}
		return a.dense.Solve(p, y)
	}
	if a.Sparse != nil {
		return a.Sparse.Solve(p, y)
	}
	return a.sparse.Solve(p, y)
}

// Names lists the solver names New accepts.
var Names = []string{MethodAuto, MethodDense, MethodSparse}

// New returns a solver with default settings by name: "dense", "sparse" or
// "auto" (case-insensitive).
func New(name string) (Solver, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case MethodDense:
		return &Dense{}, nil
	case MethodSparse:
		return &Sparse{}, nil
	case MethodAuto:
		return &Auto{}, nil
	}
	return nil, fmt.Errorf("qp: unknown solver %q (valid: %s)", name, strings.Join(Names, ", "))
}

package qp

import (
	"fmt"
	"math"
	"strings"

	"impactsim/par"
)

// DefaultDenseMax is the largest m that Auto hands to its dense solver when
// Auto.DenseMax is zero.
const DefaultDenseMax = 300

// DefaultInteriorMin is the m above which Auto hands LCPs on a RowMatrix to
// the interior-point solver when Auto.InteriorMin is zero. On ball
// packings (go test ./qp -bench 'Dense|Interior') the two take the same
// time near m = 160; at m = 300 the interior point is four times faster
// (3.7 against 14 ms), at m = 30 three times slower.
const DefaultInteriorMin = 160

// DenseFallbackMax is the largest m for which Auto falls back to the dense
// active-set method when MPRGP does not converge. Its m×m workspace is
// 200 MB at this size, and such a solve takes seconds: a safety net for
// exactness on degenerate islands (a pile of 1,000 tori produces one of
// 3,971 contacts), not a substitute for a sparse solver that converges.
const DenseFallbackMax = 5000

// Auto picks a solver by problem size: Interior (interior point with
// sparse Cholesky) for LCPs on a sparse RowMatrix (at most 64 entries per
// row on average) with m > InteriorMin, polished
// by Sparse (MPRGP) from its best point if it stops short; otherwise Dense
// (exact active set) when m ≤ DenseMax and Sparse above (boxes, matrices
// without rows). Result.Method names the solvers that ran.
//
// On highly degenerate problems (dozens of nearly dependent contacts, as
// signed-distance mesh contacts produce) the dense active-set method can
// stop a hair above its tolerance, with bound variables whose remaining
// slopes it cannot tell from rounding noise. Auto then polishes from the
// dense iterate with MPRGP at the dense tolerance (DefaultDenseTol unless
// the default dense solver's Tol is set) and accepts the result only if
// its KKT residual meets that tolerance; Result.Method is then
// "dense+sparse". Otherwise the dense solver's error is returned.
//
// With InteriorMax set, LCPs above that size that would go to the
// interior point go to MPRGP first, with a budget of SparseFirstIter
// (default SparseFirstBudget(m)) iterations; if MPRGP stops short, the interior point solves the problem
// cold (and MPRGP polishes it, as above), and Result.Method is
// "sparse+interior…". Either way the answer meets the tolerance.
//
// Conversely, when MPRGP stalls (does not converge within 10·m + 1000
// iterations) on a problem of at most DenseFallbackMax variables (degenerate mesh islands of a few hundred contacts do this),
// Auto finishes with the dense active-set method, warm-started from the
// MPRGP iterate and, failing that, cold; Result.Method is "sparse+dense". The zero value is ready to use and keeps the workspaces of its
// default solvers between calls. An Auto must not be used by several
// goroutines at once.
type Auto struct {
	// InteriorMin is the size above which LCPs on a RowMatrix go to the
	// interior-point solver (0 means DefaultInteriorMin; negative means
	// never).
	InteriorMin int
	// InteriorMax, when positive, is the size above which the LCPs that
	// would go to the interior point go to MPRGP first (see Auto). The
	// interior point's sparse Cholesky factor fills in on contact graphs
	// of three-dimensional packings where MPRGP's cost grows only with its
	// iteration count (package impact's sphere path sets it).
	InteriorMax int
	// SparseFirstIter is the MPRGP budget of those LCPs (0 means
	// SparseFirstBudget(m)).
	SparseFirstIter int
	// DenseMax is the size threshold (0 means DefaultDenseMax; negative
	// means never dense).
	DenseMax int
	// Dense and Sparse override the solvers used for small and large
	// problems; nil means a default *Dense and *Sparse owned by the Auto.
	Dense, Sparse Solver

	dense    Dense
	sparse   Sparse
	polish   Sparse
	interior Interior

	lent  [6][]float64 // Lend's buffers, for this Solve's MPRGP only
	nlent int
}

// Lend gives the next Solve buf as scratch for MPRGP's vectors
// (Sparse.Lend), when that Solve goes to the MPRGP solver the Auto owns
// (not to Dense, Interior, the polish or a Sparse override); after the
// Solve the buffer is the caller's again either way.
func (a *Auto) Lend(buf []float64) {
	if a.nlent < len(a.lent) {
		a.lent[a.nlent] = buf
		a.nlent++
	}
}

// SetPool hands pool to the MPRGP solvers Auto owns (Sparse.SetPool:
// their vector loops by fixed blocks, on the pool's workers for large
// problems; the answer is the same for any pool).
func (a *Auto) SetPool(pool *par.Pool) {
	a.sparse.SetPool(pool)
	a.polish.SetPool(pool)
}

// Solve implements Solver.
func (a *Auto) Solve(p *Problem, y []float64) (Result, error) {
	defer func() { a.lent, a.nlent = [6][]float64{}, 0 }()
	if p == nil || p.A == nil {
		return Result{Method: MethodAuto}, fmt.Errorf("qp: nil problem or matrix")
	}
	limit := a.DenseMax
	if limit == 0 {
		limit = DefaultDenseMax
	}
	imin := a.InteriorMin
	if imin == 0 {
		imin = DefaultInteriorMin
	}
	useInterior := a.Sparse == nil && imin >= 0 && p.A.Dim() > imin && interiorProblem(p) && sparseEnough(p.A)
	if p.A.Dim() <= limit && !useInterior {
		if a.Dense != nil {
			return a.Dense.Solve(p, y)
		}
		res, err := a.dense.Solve(p, y)
		if err == nil {
			return res, nil
		}
		if _, ok := err.(*NotConvergedError); !ok {
			return res, err
		}
		tol := a.dense.Tol
		if tol <= 0 {
			tol = DefaultDenseTol
		}
		a.polish.Tol = tol
		pres, perr := a.polish.Solve(p, y)
		if perr != nil {
			return res, fmt.Errorf("%w (MPRGP polish from it: %v)", err, perr)
		}
		pres.Method = MethodDense + "+" + MethodSparse
		pres.Iterations += res.Iterations
		return pres, nil
	}
	if a.Sparse != nil {
		return a.Sparse.Solve(p, y)
	}
	// LCPs on sparse matrices go to the interior-point method first: its
	// iteration count does not grow with the conditioning of the faces as
	// MPRGP's does. If it stops short of the tolerance, MPRGP polishes
	// from its best point.
	var pre Result
	if useInterior && a.InteriorMax > 0 && p.A.Dim() > a.InteriorMax {
		a.sparse.MaxIter = a.SparseFirstIter
		if a.sparse.MaxIter <= 0 {
			a.sparse.MaxIter = SparseFirstBudget(p.A.Dim())
		}
		for _, buf := range a.lent[:a.nlent] {
			a.sparse.Lend(buf)
		}
		sres, serr := a.sparse.Solve(p, y)
		if _, ok := serr.(*NotConvergedError); !ok {
			return sres, serr
		}
		pre = sres
	}
	if useInterior {
		ires, ierr := a.interior.Solve(p, y)
		if pre.Method != "" {
			ires.Method = pre.Method + "+" + ires.Method
			ires.Iterations += pre.Iterations
		}
		if ierr == nil {
			return ires, nil
		}
		if _, ok := ierr.(*NotConvergedError); ok {
			pre = ires
		} else if ierr != ErrNotInteriorProblem {
			return ires, ierr
		}
	}
	// Where the dense method can finish a stalled solve, MPRGP gets the
	// shorter budget of 10·m + 1000 iterations: on degenerate mesh islands
	// the exact fallback is both faster and tighter than MPRGP's long tail.
	// Above, MPRGP has its full default budget.
	a.sparse.MaxIter = 0
	if m := p.A.Dim(); m <= DenseFallbackMax {
		a.sparse.MaxIter = 10*m + 1000
	}
	for _, buf := range a.lent[:a.nlent] {
		a.sparse.Lend(buf)
	}
	res, err := a.sparse.Solve(p, y)
	if pre.Method != "" {
		res.Method = pre.Method + "+" + res.Method
		res.Iterations += pre.Iterations
	}
	if err == nil || p.A.Dim() > DenseFallbackMax {
		return res, err
	}
	if _, ok := err.(*NotConvergedError); !ok {
		return res, err
	}
	// MPRGP stalled on a degenerate island that the exact active-set method
	// can still afford: finish with it, first from MPRGP's iterate, then
	// cold. Dense's tolerance is the tighter one.
	dres, derr := a.dense.Solve(p, y)
	if derr != nil {
		clear(y)
		dres, derr = a.dense.Solve(p, y)
	}
	if derr != nil {
		return res, fmt.Errorf("%w (dense active set after it: %v)", err, derr)
	}
	dres.Method = MethodSparse + "+" + MethodDense
	dres.Iterations += res.Iterations
	return dres, nil
}

// SparseFirstBudget is the MPRGP iteration budget of an LCP of m
// variables that Auto tries by MPRGP before the interior point
// (Auto.InteriorMax): m/8 + 1000. At the 60k sphere layer's landing at h =
// 10⁻³ (islands of 24,724–96,274 approaching contacts) MPRGP took 593–2,393
// iterations, under m/35 (BENCHMARKS.md, h1e3).
func SparseFirstBudget(m int) int { return m/8 + 1000 }

// interiorProblem reports whether p is an LCP (finite lower bounds, no
// upper bounds) on a RowMatrix, the problems Interior takes.
func interiorProblem(p *Problem) bool {
	if _, ok := p.A.(RowMatrix); !ok {
		return false
	}
	for i := 0; i < p.A.Dim(); i++ {
		if !math.IsInf(p.HiAt(i), 1) || math.IsInf(p.LoAt(i), -1) {
			return false
		}
	}
	return true
}

// interiorMaxRow is the largest average number of entries per row of A for
// which Auto uses the interior point: its Cholesky factorization costs
// O(m³) on a dense A (all contacts on one body: a mesh resting on a plane
// gives hundreds of contacts of rank 6), where the active set needs a few
// pivots and MPRGP a few CG steps.
const interiorMaxRow = 64

// sparseEnough reports whether a RowMatrix has at most interiorMaxRow
// entries per row on average.
func sparseEnough(a Matrix) bool {
	ptr, _, _ := a.(RowMatrix).Rows()
	m := a.Dim()
	return ptr[m] <= interiorMaxRow*m
}

// Names lists the solver names New accepts.
var Names = []string{MethodAuto, MethodDense, MethodSparse, MethodInterior}

// New returns a solver with default settings by name: "dense", "sparse",
// "interior" or "auto" (case-insensitive).
func New(name string) (Solver, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case MethodDense:
		return &Dense{}, nil
	case MethodSparse:
		return &Sparse{}, nil
	case MethodAuto:
		return &Auto{}, nil
	case MethodInterior:
		return &Interior{}, nil
	}
	return nil, fmt.Errorf("qp: unknown solver %q (valid: %s)", name, strings.Join(Names, ", "))
}

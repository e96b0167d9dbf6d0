package qp

import (
	"errors"
	"fmt"
	"math"
)

// SparseRow is the linear form Σₖ Val[k]·x[Idx[k]]. Repeated indices add up.
type SparseRow struct {
	Idx []int
	Val []float64
}

// Dot returns the value of the form at x.
func (r SparseRow) Dot(x []float64) float64 {
	var s float64
	for k, i := range r.Idx {
		s += r.Val[k] * x[i]
	}
	return s
}

// DiagProblem is the convex QP with a diagonal positive Hessian and general
// linear equality and inequality constraints
//
//	minimize ½ Σᵢ Mᵢ (xᵢ − X0ᵢ)²
//	subject to Eq[r]·x = EqRHS[r]   (r < len(Eq)),
//	           In[r]·x ≥ InRHS[r]   (r < len(In)).
//
// This is the form of Gauß' principle (Rote & Zwick, (Q), (Q') and (Q*)):
// M are the point masses, X0 the unconstrained motion.
type DiagProblem struct {
	M, X0 []float64
	Eq    []SparseRow
	EqRHS []float64
	In    []SparseRow
	InRHS []float64
}

// DiagResult reports a DiagQP solve.
type DiagResult struct {
	Result         // the dual bound-constrained solve (Dense)
	Primal float64 // max relative violation of an equality or inequality at x
}

// DiagQP solves DiagProblems exactly through their dual. With G = [Eq; In],
// h = [EqRHS; InRHS] and multipliers y = (λ, μ), stationarity of the
// Lagrangian gives x = X0 + M⁻¹Gᵀy, and the dual is the bound-constrained QP
//
//	minimize ½ yᵀ(G M⁻¹ Gᵀ)y + (G X0 − h)ᵀy,   λ free, μ ≥ 0.
//
// The free λ are eliminated first: with K = G M⁻¹ Gᵀ split into equality
// and inequality blocks, λ = −Kee⁻¹(bₑ + Kei μ), and μ ≥ 0 solves the
// bound-constrained QP with the Schur complement Kii − Kie Kee⁻¹ Kei, by
// the exact active-set method Dense. Kee is block diagonal over the
// connected components of the equality rows (for a framework: one block
// per rigid body) and is factored by Cholesky block by block. The dual
// gradient is G x − h, so the KKT residual of the full dual (≤ Dense.Tol,
// default 1e-12), by which the answer is judged, is the relative primal
// infeasibility and complementarity of x. Dependent inequalities make the
// Schur complement singular, which Dense handles (the multipliers are then
// not unique, x is). Dependent equalities (a Cholesky pivot below 1e-9 of
// its block's diagonal) are removed by Gram–Schmidt and the problem solved
// again; an inconsistent one is ErrInfeasible, and so is an unbounded dual.
// A solve that ends just above the tolerance, or that declares the dual
// unbounded on a degenerate problem, is restarted (up to three times) from
// its own iterate.
//
// The zero value is ready to use; workspaces are reused between solves.
type DiagQP struct {
	Dense Dense // the dual solver (its Tol is the accuracy, 0 means 1e-12)

	k    DenseMatrix
	b    []float64
	lo   []float64
	w    []float64
	y    []float64
	cols [][]colEntry
	ext  []int

	// Schur complement workspace
	kr         DenseMatrix // reduced K on the inequalities
	br         []float64
	comp, mark []int
	touch      [][]int // inequality rows touching a component (by root)
	rowsOf     [][]int // equality rows of a component (by root)
	fac, wbuf  []float64
	facOff     []int // offset of a component's Cholesky factor in fac
}

type colEntry struct {
	row int
	v   float64
}

// ErrInfeasible is returned (wrapped) when the constraints of a DiagProblem
// admit no solution.
var ErrInfeasible = errors.New("qp: constraints are infeasible")

// Solve solves p and writes the minimiser into x (length len(p.M)). If
// lambda is non-nil it must have length len(p.Eq)+len(p.In): on entry a warm
// start for the multipliers (equalities first), on return the multipliers
// (μ ≥ 0 are the constraint forces of the inequalities).
func (s *DiagQP) Solve(p *DiagProblem, x, lambda []float64) (DiagResult, error) {
	res, err := s.solve(p, x, lambda, nil)
	if !errors.Is(err, errDependent) {
		return res, err
	}
	// Dense refuses free multipliers in the null space of G M⁻¹ Gᵀ:
	// drop the dependent equalities (checking that they are consistent)
	// and solve again; their multipliers are 0.
	keep, rerr := dependentEq(p)
	if rerr != nil {
		return res, rerr
	}
	return s.solve(p, x, lambda, keep)
}

// dependentEq returns the indices of a maximal independent subset of the
// equality rows (Gram–Schmidt in the M^(−1/2)-scaled space, tolerance 1e-10
// relative), or ErrInfeasible if a dependent row's right-hand side differs
// (relatively, by more than 1e-9) from the one its combination implies.
func dependentEq(p *DiagProblem) ([]int, error) {
	n := len(p.M)
	var q [][]float64 // orthonormal basis
	var hq []float64  // the right-hand side carried along each basis vector
	var keep []int
	w := make([]float64, n)
	for r, g := range p.Eq {
		clear(w)
		for k, i := range g.Idx {
			w[i] += g.Val[k] / math.Sqrt(p.M[i])
		}
		h := p.EqRHS[r]
		norm0 := math.Sqrt(dot(w, w))
		hs := math.Abs(h)
		for pass := 0; pass < 2; pass++ {
			for k, b := range q {
				c := dot(b, w)
				for i := range w {
					w[i] -= c * b[i]
				}
				h -= c * hq[k]
				hs = math.Max(hs, math.Abs(c*hq[k]))
			}
		}
		nr := math.Sqrt(dot(w, w))
		if nr <= 1e-10*norm0 {
			if math.Abs(h) > 1e-9*math.Max(hs, 1e-300) && math.Abs(h) > 1e-300 {
				return nil, fmt.Errorf("%w: equality %d depends on earlier ones but its right-hand side differs by %.3g", ErrInfeasible, r, h)
			}
			continue
		}
		b := make([]float64, n)
		for i := range w {
			b[i] = w[i] / nr
		}
		q = append(q, b)
		hq = append(hq, h/nr)
		keep = append(keep, r)
	}
	return keep, nil
}

func (s *DiagQP) solve(p *DiagProblem, x, lambda []float64, keep []int) (DiagResult, error) {
	var res DiagResult
	n := len(p.M)
	if len(p.X0) != n || len(x) != n {
		return res, fmt.Errorf("qp: len(M) = %d, len(X0) = %d, len(x) = %d", n, len(p.X0), len(x))
	}
	if len(p.EqRHS) != len(p.Eq) || len(p.InRHS) != len(p.In) {
		return res, fmt.Errorf("qp: %d equalities with %d right-hand sides, %d inequalities with %d", len(p.Eq), len(p.EqRHS), len(p.In), len(p.InRHS))
	}
	for i, m := range p.M {
		if !(m > 0) || math.IsInf(m, 0) {
			return res, fmt.Errorf("qp: mass M[%d] = %v must be positive and finite", i, m)
		}
	}
	ne, ni := len(p.Eq), len(p.In)
	if lambda != nil && len(lambda) != ne+ni {
		return res, fmt.Errorf("qp: len(lambda) = %d, want %d", len(lambda), ne+ni)
	}
	// ext maps a dual variable to its constraint (equalities first).
	s.ext = s.ext[:0]
	if keep == nil {
		for r := 0; r < ne; r++ {
			s.ext = append(s.ext, r)
		}
	} else {
		s.ext = append(s.ext, keep...)
	}
	nek := len(s.ext)
	for r := 0; r < ni; r++ {
		s.ext = append(s.ext, ne+r)
	}
	m := len(s.ext)
	row := func(r int) (SparseRow, float64) {
		r = s.ext[r]
		if r < ne {
			return p.Eq[r], p.EqRHS[r]
		}
		return p.In[r-ne], p.InRHS[r-ne]
	}
	// Column lists of G.
	s.cols = resize(s.cols, n)
	for i := range s.cols {
		s.cols[i] = s.cols[i][:0]
	}
	for r := 0; r < m; r++ {
		g, _ := row(r)
		if len(g.Idx) != len(g.Val) {
			return res, fmt.Errorf("qp: constraint %d has %d indices and %d values", r, len(g.Idx), len(g.Val))
		}
		for k, i := range g.Idx {
			if i < 0 || i >= n {
				return res, fmt.Errorf("qp: constraint %d refers to variable %d of %d", r, i, n)
			}
			s.cols[i] = append(s.cols[i], colEntry{r, g.Val[k]})
		}
	}
	// K = G M⁻¹ Gᵀ.
	s.k.N = m
	s.k.Data = resize(s.k.Data, m*m)
	clear(s.k.Data)
	for i, col := range s.cols {
		inv := 1 / p.M[i]
		for _, a := range col {
			ra := s.k.Data[a.row*m:]
			va := a.v * inv
			for _, c := range col {
				ra[c.row] += va * c.v
			}
		}
	}
	s.b = resize(s.b, m)
	for r := 0; r < m; r++ {
		g, h := row(r)
		s.b[r] = g.Dot(p.X0) - h
	}
	// Components of the equality rows (rows sharing a variable): the
	// equality block of K is block diagonal over them.
	s.comp = resize(s.comp, m)
	for r := range s.comp {
		s.comp[r] = r
	}
	for _, col := range s.cols {
		first := -1
		for _, c := range col {
			if c.row >= nek {
				continue
			}
			if first < 0 {
				first = c.row
			} else {
				s.union(first, c.row)
			}
		}
	}
	for r := 0; r < nek; r++ {
		s.comp[r] = s.find(r)
	}
	// The inequality rows touching each component.
	s.touch = resize(s.touch, m)
	for r := range s.touch {
		s.touch[r] = s.touch[r][:0]
	}
	s.mark = resize(s.mark, m)
	for r := range s.mark {
		s.mark[r] = -1
	}
	for j := nek; j < m; j++ {
		g, _ := row(j)
		for _, i := range g.Idx {
			for _, c := range s.cols[i] {
				if c.row < nek {
					root := s.comp[c.row]
					if s.mark[root] != j {
						s.mark[root] = j
						s.touch[root] = append(s.touch[root], j)
					}
					break
				}
			}
		}
	}
	s.y = resize(s.y, m)
	clear(s.y)
	if lambda != nil {
		for r, e := range s.ext {
			s.y[r] = lambda[e]
		}
	}
	// Eliminate the equality multipliers (Schur complement, below) and
	// solve the reduced bound-constrained QP in μ ≥ 0.
	if err := s.reduce(nek, m); err != nil {
		return res, err
	}
	ni = m - nek
	mu := s.y[nek:]
	pr := &Problem{A: &s.kr, B: s.br}
	r, err := s.Dense.Solve(pr, mu)
	// A near-singular dual (many contacts on few bodies) can leave the
	// active-set method just above its tolerance; restarting it from its
	// own best iterate (a fresh factorisation of that active set) polishes
	// the answer.
	for retry := 0; retry < 3; retry++ {
		var nc *NotConvergedError
		if !errors.As(err, &nc) && !errors.Is(err, ErrUnbounded) {
			break
		}
		it := r.Iterations
		r, err = s.Dense.Solve(pr, mu)
		r.Iterations += it
	}
	s.recover(nek, m)
	// Judge the answer on the full dual (the reduced K' carries the
	// rounding of the elimination, relative to a possibly much smaller
	// scale).
	s.lo = resize(s.lo, m)
	for q := range s.lo {
		s.lo[q] = 0
		if q < nek {
			s.lo[q] = math.Inf(-1)
		}
	}
	s.w = resize(s.w, m)
	r.Residual = KKTResidual(&Problem{A: &s.k, B: s.b, Lo: s.lo}, s.y, s.w)
	tol := s.Dense.Tol
	if tol <= 0 {
		tol = DefaultDenseTol
	}
	var nc *NotConvergedError
	if errors.As(err, &nc) && r.Residual <= tol {
		err = nil
	} else if err == nil && !(r.Residual <= tol) {
		err = notConverged(MethodDense, r.Iterations, r.Residual, tol)
	}
	res.Result = r
	// x = X0 + M⁻¹ Gᵀ y.
	for i := range x {
		var t float64
		for _, c := range s.cols[i] {
			t += c.v * s.y[c.row]
		}
		x[i] = p.X0[i] + t/p.M[i]
	}
	if lambda != nil {
		clear(lambda)
		for r, e := range s.ext {
			lambda[e] = s.y[r]
		}
	}
	var viol, scale float64
	for r := 0; r < ne+ni; r++ {
		var g SparseRow
		var h float64
		if r < ne {
			g, h = p.Eq[r], p.EqRHS[r]
		} else {
			g, h = p.In[r-ne], p.InRHS[r-ne]
		}
		gx := g.Dot(x)
		var mag, mag0 float64
		for k, i := range g.Idx {
			mag += math.Abs(g.Val[k] * x[i])
			mag0 += math.Abs(g.Val[k] * p.X0[i])
		}
		mag = math.Max(mag, mag0)
		scale = math.Max(scale, math.Max(mag, math.Abs(h)))
		if r < ne {
			viol = math.Max(viol, math.Abs(gx-h)) // dropped dependent rows too
		} else {
			viol = math.Max(viol, h-gx)
		}
	}
	if scale > 0 {
		viol /= scale
	}
	res.Primal = viol
	if errors.Is(err, ErrUnbounded) {
		return res, fmt.Errorf("%w (the dual is unbounded): %d equalities, %d inequalities", ErrInfeasible, nek, ni)
	}
	return res, err
}

func (s *DiagQP) find(r int) int {
	for s.comp[r] != r {
		s.comp[r] = s.comp[s.comp[r]]
		r = s.comp[r]
	}
	return r
}

func (s *DiagQP) union(a, b int) {
	a, b = s.find(a), s.find(b)
	if a != b {
		s.comp[b] = a
	}
}

// errDependent signals dependent equalities (a singular equality block).
var errDependent = errors.New("qp: dependent equality constraints")

// reduce eliminates the free equality multipliers λ from the dual
//
//	min ½ [λ;μ]ᵀ[[Kee, Kei], [Kie, Kii]][λ;μ] + bₑᵀλ + bᵢᵀμ,  μ ≥ 0:
//
// stationarity in λ gives λ = −Kee⁻¹(bₑ + Kei μ), and μ solves the
// bound-constrained QP with K' = Kii − Kie Kee⁻¹ Kei (positive
// semi-definite) and b' = bᵢ − Kie Kee⁻¹ bₑ. Kee is block diagonal over
// the components of the equality rows (for frameworks: one block per
// rigid body), so each block is factored by Cholesky on its own and only
// the inequality rows touching it are updated.
func (s *DiagQP) reduce(nek, m int) error {
	ni := m - nek
	K := s.k.Data
	s.kr.N = ni
	s.kr.Data = resize(s.kr.Data, ni*ni)
	for a := 0; a < ni; a++ {
		copy(s.kr.Data[a*ni:(a+1)*ni], K[(nek+a)*m+nek:(nek+a)*m+m])
	}
	s.br = resize(s.br, ni)
	copy(s.br, s.b[nek:m])
	s.rowsOf = resize(s.rowsOf, m)
	for r := 0; r < nek; r++ {
		s.rowsOf[r] = s.rowsOf[r][:0]
	}
	for r := 0; r < nek; r++ {
		root := s.comp[r]
		s.rowsOf[root] = append(s.rowsOf[root], r)
	}
	s.facOff = resize(s.facOff, m)
	total := 0
	for r := 0; r < nek; r++ {
		if s.comp[r] == r {
			s.facOff[r] = total
			n := len(s.rowsOf[r])
			total += n * n
		}
	}
	s.fac = resize(s.fac, total)
	for root := 0; root < nek; root++ {
		if s.comp[root] != root {
			continue
		}
		R := s.rowsOf[root]
		n := len(R)
		L := s.fac[s.facOff[root] : s.facOff[root]+n*n]
		for a, ra := range R {
			for b, rb := range R {
				L[a*n+b] = K[ra*m+rb]
			}
		}
		if err := cholesky(L, n); err != nil {
			return err
		}
		S := s.touch[root]
		// W = Kee⁻¹ [bₑ | Kei(:, S)], column by column.
		s.wbuf = resize(s.wbuf, n*(len(S)+1))
		w := s.wbuf
		for a, ra := range R {
			w[a] = s.b[ra]
		}
		cholSolve(L, n, w[:n])
		for q, j := range S {
			col := w[(q+1)*n : (q+2)*n]
			for a, ra := range R {
				col[a] = K[ra*m+j]
			}
			cholSolve(L, n, col)
		}
		for q, j := range S {
			bj := K[j*m:]
			var t float64
			for a, ra := range R {
				t += bj[ra] * w[a]
			}
			s.br[j-nek] -= t
			row := s.kr.Data[(j-nek)*ni:]
			for q2, j2 := range S {
				col := w[(q2+1)*n : (q2+2)*n]
				var u float64
				for a, ra := range R {
					u += bj[ra] * col[a]
				}
				row[j2-nek] -= u
			}
			_ = q
		}
	}
	// symmetrise (rounding)
	for a := 0; a < ni; a++ {
		for b := 0; b < a; b++ {
			v := 0.5 * (s.kr.Data[a*ni+b] + s.kr.Data[b*ni+a])
			s.kr.Data[a*ni+b], s.kr.Data[b*ni+a] = v, v
		}
	}
	return nil
}

// recover sets λ = −Kee⁻¹(bₑ + Kei μ) block by block.
func (s *DiagQP) recover(nek, m int) {
	K := s.k.Data
	for root := 0; root < nek; root++ {
		if s.comp[root] != root {
			continue
		}
		R := s.rowsOf[root]
		n := len(R)
		L := s.fac[s.facOff[root] : s.facOff[root]+n*n]
		s.wbuf = resize(s.wbuf, n)
		w := s.wbuf
		for a, ra := range R {
			t := s.b[ra]
			for _, j := range s.touch[root] {
				t += K[ra*m+j] * s.y[j]
			}
			w[a] = t
		}
		cholSolve(L, n, w)
		for a, ra := range R {
			s.y[ra] = -w[a]
		}
	}
}

// cholesky factors the symmetric positive definite n×n matrix a in place
// (lower triangle: a = L Lᵀ); a pivot below 1e-9 of the largest diagonal
// entry means dependent rows.
func cholesky(a []float64, n int) error {
	var dmax float64
	for i := 0; i < n; i++ {
		dmax = math.Max(dmax, a[i*n+i])
	}
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > 1e-9*dmax) {
			return errDependent
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			v := a[i*n+j]
			for k := 0; k < j; k++ {
				v -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = v / d
		}
	}
	return nil
}

// cholSolve solves L Lᵀ x = x in place.
func cholSolve(l []float64, n int, x []float64) {
	for i := 0; i < n; i++ {
		v := x[i]
		for k := 0; k < i; k++ {
			v -= l[i*n+k] * x[k]
		}
		x[i] = v / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		v := x[i]
		for k := i + 1; k < n; k++ {
			v -= l[k*n+i] * x[k]
		}
		x[i] = v / l[i*n+i]
	}
}

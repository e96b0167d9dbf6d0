package friction

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/qp"
	"impactsim/scratch"
)

// Operator computes friction impulses β (one per column of the problem's
// tangent basis D) given the normal impulses λ of an impact operator.
type Operator interface {
	Name() string
	Resolve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error)
}

// MaxDissipation is the impulsive maximal-dissipation friction of Alg. 3
// (§6, eq. 5 of Smith et al. 2012). For each contact k with μ_k λ_k > 0 and
// non-zero pre-impact relative tangential velocity w_k = T_kᵀ v⁻ + DRel_k
// (the known velocity of moving geometry included), a single
// friction direction d_k = −T_k w_k / ‖w_k‖ opposes the sliding, and
//
//	β = argmin_z ½ ‖p + G λ + D z‖²_{M⁻¹}   s.t.  0 ≤ z ≤ diag(μ) λ,
//
// i.e. the friction impulse that removes the most kinetic energy. (Eq. 5 as
// printed omits the ½; without it the minimizer removes only half of the
// tangential velocity a sticking contact should lose, so we keep the
// kinetic-energy form, which is Stewart's maximal dissipation.) The QP is
// bound-constrained and solved exactly; it is basis independent (SYM),
// conserves momentum (MOM: each d_k is an equal-and-opposite pair) and never
// adds energy (KIN).
type MaxDissipation struct {
	// MatrixFreeFrom is the number of sliding directions from which the
	// QP's matrix A = DᵀM⁻¹D is given matrix-free (freeDelassus: A z =
	// Dᵀ(M⁻¹(D z)), no entry of A stored) instead of assembled
	// (mech.Delassus); 0 means never. Matrix-free saves the assembled
	// matrix and its assembly workspace (≈ 16 MiB, 280 bytes per sphere, at
	// the landing of the 60,000-sphere vibrated layer) for ≈ 30 % more CPU
	// time in that run: its Delassus matrix has ≈ 3–6 entries per row, so
	// a product from the 12-entry directions costs more than one from the
	// assembled rows (BENCHMARKS.md, issue 16).
	// With a SphereBasis friction basis on scalar blocks (the fast sphere
	// path) A is by default assembled from the directions' compact form
	// (sphereDelassus, maxdiss_sphere.go), which stores no direction
	// entries and is both smaller and faster than either generic form;
	// MatrixFreeFrom then selects the generic matrix-free form.
	MatrixFreeFrom int

	solver qp.Solver
	d      mech.Cols // one generalized direction per frictional contact
	dIdx   []int32   // first tangent column of each column of d
	dEnd   []int32   // one past its last tangent column
	dNorm  []float64 // ‖w‖ of its contact
	A      mech.Delassus
	b, hi  []float64
	z      []float64
	// b's and z's own storage (the sphere path keeps them in ‖w‖'s and
	// the compact directions' when they fit)
	bOwn, zOwn []float64
	vp         []float64 // v′ when not given; matrix-free: M⁻¹ D x
	vt         []float64 // v′ (given or o.vp) while fB runs
	scr        []float64
	w          []float64
	prob       qp.Problem
	// per contact: ‖w‖ if it slides, and the
	// number of entries of its direction (0: it does not slide)
	norm []float64
	nent []int32
	// per worker: scratch for a contact's columns of a matrix-free basis
	// (mech.Problem.TangentCols) and for the rows of a contact's direction
	colRows [][]int32
	colVals [][]float64
	colEnds [][]int
	dirRows [][]int32
	p       *mech.Problem
	lambda  []float64
	fSlip   func(w, lo, hi int)
	fFill   func(w, lo, hi int)
	fB      func(w, lo, hi int)
	pool    *par.Pool
	pa      mech.PooledDelassus
	fa      freeDelassus
	sf      sphereDelassus
	// poolFrom overrides pooledDelassusRows (tests; 0: the constant)
	poolFrom int
	// lent: Lend's buffers, for the next Resolve's QP solve
	lent  [3][]float64
	nlent int
	// normAt: LendNorm's buffer, the next call's storage of norm (else
	// normOwn)
	normAt, normOwn []float64
	// arena: LendArena's, for the next call's per-call arrays (else
	// their own storage: nentOwn … and sf's)
	arena                     *scratch.Arena
	nentOwn, dIdxOwn, dEndOwn []int32
	dNormOwn, hiOwn           []float64
}

// Lend gives the next Resolve (or ResolveAfter) buf as scratch for its QP
// solve (qp.Sparse.Lend: MPRGP's vectors, the same bits): buf must not be
// needed by the caller until that call returns, and may be the post-impact
// velocity vt given to ResolveAfter itself, which is read only before the
// solve (GR.TakeVelocity), or the problem's Mu, read only before it (the
// bounds μλ). Up to three buffers; they are dropped after the call.
func (o *MaxDissipation) Lend(buf []float64) {
	if o.nlent < len(o.lent) {
		o.lent[o.nlent] = buf
		o.nlent++
	}
}

// LendNorm gives the next Resolve (or ResolveAfter) buf as the storage
// of the contacts' ‖w‖ when it holds p.NContacts() values (cap): buf must
// not be needed by the caller until that call returns, which overwrites
// it (the fast sphere path lends the island problem's CoR, read only by
// the impact operator before). Without it Alg. 3 keeps that vector of
// its own (one float per contact, ≈ 1 MB at the 60k landing).
func (o *MaxDissipation) LendNorm(buf []float64) { o.normAt = buf }

// LendArena gives the next Resolve (or ResolveAfter) the storage of a
// for its per-call arrays: the contacts' slip record, the sliding
// directions' lists and bounds, and on the sphere path the compact
// directions and the rows of A (sphereDelassus). Each is taken from a
// (scratch.TryTake, from its current phase on) when a holds it, else from
// Alg. 3's own storage as without it; a is never grown. The caller must
// not use what it takes until that call returns, after which Alg. 3 keeps
// no reference to it (the fast sphere path lends its step's arena, whose
// broad-phase and island-split arrays are dead by then: spheres'
// workspace.scr). The same bits as without it.
func (o *MaxDissipation) LendArena(a *scratch.Arena) { o.arena = a }

// SetPool makes the products with the Delassus matrix of large problems
// run on the workers of pool (row ranges), and hands the pool to the QP
// solver when it takes one (qp.Sparse, qp.Auto: MPRGP's vector loops by
// fixed blocks): the result is the same bit for bit for any number of
// workers.
func (o *MaxDissipation) SetPool(pool *par.Pool) {
	o.pool = pool
	if s, ok := o.solver.(interface{ SetPool(*par.Pool) }); ok {
		s.SetPool(pool)
	}
}

// pooledDelassusRows is the problem size (rows of A) from which the QP's
// products A x are spread over the pool.
const pooledDelassusRows = 4096

// poolRows returns the problem size from which work goes to the pool.
func (o *MaxDissipation) poolRows() int {
	if o.poolFrom > 0 {
		return o.poolFrom
	}
	return pooledDelassusRows
}

// slipChunk sets w_j = D_jᵀv⁻ + DRel_j (mech.Problem.RelTangentVelocities,
// the same arithmetic) for the friction columns of the contacts whose
// first column is in [lo, hi) of o.p's friction basis, and decides for
// each such contact whether it slides (Resolve's documentation): if so it
// sets o.norm of the contact to ‖w‖ and o.nent to the number of entries
// of its direction, else o.nent to 0. It runs on worker wk's
// scratch. Ranges that cut through a contact's columns leave it to the
// range holding its first column, so any split gives the same result.
func (o *MaxDissipation) slipChunk(wk, lo, hi int) {
	p := o.p
	if sb, ok := p.DBasis.(SphereBasis); ok {
		o.slipSpheres(sb, lo, hi)
		return
	}
	nd := len(o.w)
	lo, hi = o.contactStart(lo), o.contactStart(hi)
	for c0 := lo; c0 < hi; {
		k := p.TangentContact(c0)
		c1 := c0 + 1
		for c1 < nd && p.TangentContact(c1) == k {
			c1++
		}
		var norm2, terms float64
		rs := o.dirRows[wk][:0]
		crows, cvals, ends := o.cols(wk, p, c0, c1)
		for j := c0; j < c1; j++ {
			rows, vals := colOf(crows, cvals, ends, j-c0)
			w := mech.DotEntries(rows, vals, p.V)
			if p.HasDRel() {
				w += p.DRelAt(j)
			}
			o.w[j] = w
			norm2 += w * w
			terms += slipTerms(p, j, rows, vals)
			if j == c0 || !slices.Equal(rows, rs) { // a contact's columns usually share their rows
				for _, r := range rows {
					if !slices.Contains(rs, r) {
						rs = append(rs, r)
					}
				}
			}
		}
		o.dirRows[wk] = rs
		o.nent[k] = 0
		bound := p.Mu[k] * o.lambda[k]
		if bound > 0 && norm2 > 0 && math.Sqrt(norm2) > SlipRoundoff*terms {
			o.norm[k], o.nent[k] = math.Sqrt(norm2), int32(len(rs))
		}
		c0 = c1
	}
}

// contactStart returns the first friction column c ≥ j of o.p that is its
// contact's first (len(o.w) if none).
func (o *MaxDissipation) contactStart(j int) int {
	nd := len(o.w)
	for j > 0 && j < nd && o.p.TangentContact(j-1) == o.p.TangentContact(j) {
		j++
	}
	return j
}

// fillChunk writes the directions [lo, hi) into o.d (its Ptr set):
// d = −Σ_j T_j w_j/‖w‖ over the contact's columns, accumulated row by row
// in column order (columns of one contact share their rows, so a small
// merge suffices), on worker wk's scratch.
func (o *MaxDissipation) fillChunk(wk, lo, hi int) {
	p, d := o.p, &o.d
	for a := lo; a < hi; a++ {
		start, end := d.Ptr[a], d.Ptr[a]
		norm := o.dNorm[a]
		c0 := int(o.dIdx[a])
		crows, cvals, ends := o.cols(wk, p, c0, int(o.dEnd[a]))
		for j := c0; j < int(o.dEnd[a]); j++ {
			s := -o.w[j] / norm
			rows, vals := colOf(crows, cvals, ends, j-c0)
			for e, row := range rows {
				found := false
				for q := start; q < end; q++ {
					if d.Row[q] == row {
						d.Val[q] += s * vals[e]
						found = true
						break
					}
				}
				if !found {
					d.Row[end], d.Val[end] = row, s*vals[e]
					end++
				}
			}
		}
		if end != d.Ptr[a+1] {
			panic(fmt.Sprintf("friction: direction %d has %d entries, counted %d", a, end-start, d.Ptr[a+1]-start))
		}
	}
}

// cols returns the friction columns [c0, c1) of p, all of one contact
// (mech.Problem.TangentCols: one call of a basis that writes a contact's
// columns together), on worker wk's scratch; colOf picks one of them.
func (o *MaxDissipation) cols(wk int, p *mech.Problem, c0, c1 int) ([]int32, []float64, []int) {
	rows, vals, ends := p.TangentCols(c0, c1, o.colRows[wk], o.colVals[wk], o.colEnds[wk])
	if p.DBasis != nil {
		o.colRows[wk], o.colVals[wk] = rows, vals // keep grown scratch
	}
	o.colEnds[wk] = ends
	return rows, vals, ends
}

// colOf returns column i of the columns rows, vals with ends ends
// (mech.Problem.TangentCols).
func colOf(rows []int32, vals []float64, ends []int, i int) ([]int32, []float64) {
	s := 0
	if i > 0 {
		s = ends[i-1]
	}
	return rows[s:ends[i]], vals[s:ends[i]]
}

// NewMaxDissipation returns Alg. 3 with the named QP solver ("" = auto).
func NewMaxDissipation(solver string) (*MaxDissipation, error) {
	if solver == "" || strings.EqualFold(solver, qp.MethodInterior) {
		// The friction QP has box bounds, which the interior-point
		// solver does not take; auto sends them to dense or MPRGP.
		solver = "auto"
	}
	s, err := qp.New(solver)
	if err != nil {
		return nil, err
	}
	return &MaxDissipation{solver: s}, nil
}

// SlipRoundoff is the relative size below which a contact's pre-impact
// tangential velocity w = Tᵀv⁻ + DRel counts as zero: when |w| ≤
// SlipRoundoff·Σ|terms of w| (the moduli of the products Tⱼᵢvᵢ and of
// DRelⱼ that sum to w), w is rounding of a contact that does not slide (a
// sphere rolling on a floor after friction stopped its slip has |w| ≈ 1e-17
// of its speed), and its direction −w/|w| would be noise: such a contact
// gets no friction impulse, as one with w = 0 exactly. The test is per
// contact, so it does not depend on how the contacts are grouped into
// problems.
const SlipRoundoff = 1e-12

// slipTerms returns Σ|Tⱼᵢ vᵢ| + |DRelⱼ| for friction column j of p (its
// entries rows, vals) at p.V.
func slipTerms(p *mech.Problem, j int, rows []int32, vals []float64) float64 {
	t := math.Abs(p.DRelAt(j))
	for e, r := range rows {
		t += math.Abs(vals[e] * p.V[r])
	}
	return t
}

// Name returns "mdp".
func (o *MaxDissipation) Name() string { return "mdp" }

// growSlack returns s with length n, reusing its storage when possible and
// otherwise allocating a quarter more (sizes that creep up from step to
// step do not allocate every step).
func growSlack[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4+8)
	}
	return s[:n]
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Resolve computes β on the columns of p.D.
func (o *MaxDissipation) Resolve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	return o.ResolveAfter(p, lambda, nil, beta)
}

// ResolveAfter is Resolve given, when vt is not nil, the post-impact
// velocity v′ = v⁻ + M⁻¹Gλ of the impulses λ (length p.NDof()), as the
// impact operator left it (impact.VelocityKeeper, GR.Velocity): it must
// hold mech.Problem.ApplyImpulses' bits, and then β is bit for bit
// Resolve's, without Resolve's own pass over G and M⁻¹ or its vector of
// p.NDof(). vt is only read. With vt nil it computes v′ itself.
func (o *MaxDissipation) ResolveAfter(p *mech.Problem, lambda, vt, beta []float64) (mech.Stats, error) {
	ar := o.arena
	defer func() {
		o.lent, o.nlent, o.normAt, o.norm, o.arena = [3][]float64{}, 0, nil, nil, nil
		if ar != nil {
			// the arena's slices are the lender's again
			o.nent, o.dIdx, o.dEnd, o.dNorm, o.hi, o.z, o.prob = nil, nil, nil, nil, nil, nil, qp.Problem{}
			o.sf.drop()
		}
	}()
	if vt != nil && len(vt) != p.NDof() {
		return mech.Stats{}, fmt.Errorf("friction: maximal dissipation given a post-impact velocity of length %d for %d degrees of freedom", len(vt), p.NDof())
	}
	var st mech.Stats
	nd := p.NTangents()
	for i := range beta[:nd] {
		beta[i] = 0
	}
	if nd == 0 {
		return st, nil
	}
	n := p.NDof()
	// Build one direction per sliding contact from the pre-impact velocity:
	// w = Dᵀv⁻ + DRel (p.RelTangentVelocities) and which contacts slide, by
	// contact ranges (on the pool for large problems); the directions'
	// places in o.d in contact order; then their entries, by direction
	// ranges.
	// w lives in β's storage: β is zero until written from z below, where
	// β_j replaces w_j in place (read first), and the columns of the
	// contacts that do not slide are cleared then (no vector of nd of
	// Alg. 3's own)
	o.w = beta[:nd]
	defer func() { o.w = nil }()
	if nc := p.NContacts(); cap(o.normAt) >= nc {
		o.norm = o.normAt[:nc]
	} else {
		o.normOwn = grow(o.normOwn, nc)
		o.norm = o.normOwn
	}
	o.nent = slot(ar, &o.nentOwn, p.NContacts())
	o.p, o.lambda = p, lambda
	if o.fSlip == nil {
		o.fSlip, o.fFill = o.slipChunk, o.fillChunk
	}
	if nw := o.pool.Workers(); len(o.colRows) < nw {
		o.colRows, o.colVals, o.colEnds, o.dirRows = make([][]int32, nw), make([][]float64, nw), make([][]int, nw), make([][]int32, nw)
	}
	pooled := o.pool.Workers() > 1 && nd >= 2*o.poolRows()
	if pooled {
		o.pool.For(nd, min(2048, o.poolRows()), o.fSlip)
	} else {
		o.slipChunk(0, 0, nd)
	}
	o.d.Reset(n)
	// the direction lists, sized once for the sliding contacts (append's
	// doublings left ≈ 8 MB of garbage at the 60k landing)
	ns := 0
	for _, ne := range o.nent[:p.NContacts()] {
		if ne > 0 {
			ns++
		}
	}
	o.dIdx, o.dEnd = slot(ar, &o.dIdxOwn, ns)[:0], slot(ar, &o.dEndOwn, ns)[:0]
	o.dNorm, o.hi = slot(ar, &o.dNormOwn, ns)[:0], slot(ar, &o.hiOwn, ns)[:0]
	add := func(k, c0, c1 int) {
		o.dIdx, o.dEnd, o.dNorm = append(o.dIdx, int32(c0)), append(o.dEnd, int32(c1)), append(o.dNorm, o.norm[k])
		o.hi = append(o.hi, p.Mu[k]*lambda[k])
	}
	if _, ok := p.DBasis.(SphereBasis); ok {
		for k, ne := range o.nent[:nd/2] { // contact k: columns 2k, 2k+1
			if ne > 0 {
				add(k, 2*k, 2*k+2)
			}
		}
	} else {
		for c0 := 0; c0 < nd; {
			k := p.TangentContact(c0)
			c1 := c0 + 1
			for c1 < nd && p.TangentContact(c1) == k {
				c1++
			}
			if o.nent[k] > 0 {
				add(k, c0, c1)
			}
			c0 = c1
		}
	}
	m := len(o.dIdx)
	sb, sphere := sphereFree(p)
	sphere = sphere && !(o.MatrixFreeFrom > 0 && m >= o.MatrixFreeFrom)
	if sphere {
		// A from the directions' compact form (sphereDelassus): no entries
		o.sf.pool, o.sf.grain, o.sf.from = o.pool, min(2048, o.poolRows()), o.poolRows()
		o.sf.build(sb, &p.MInv, o.dIdx, o.w, o.dNorm, ar)
	} else {
		// the directions' places in o.d, in direction order
		total := 0
		for _, c0 := range o.dIdx {
			total += int(o.nent[p.TangentContact(int(c0))])
			o.d.Ptr = append(o.d.Ptr, total)
		}
		o.d.Row, o.d.Val = growSlack(o.d.Row, total), growSlack(o.d.Val, total)
		if pooled && m >= 2*o.poolRows() {
			o.pool.For(m, min(2048, o.poolRows()), o.fFill)
		} else {
			o.fillChunk(0, 0, m)
		}
	}
	o.p, o.lambda = nil, nil
	if m == 0 {
		clear(beta[:nd]) // w
		return st, nil
	}
	// b = Dᵀ v', v' = v⁻ + M⁻¹ G λ (given, or computed here).
	if vt == nil {
		o.vp = grow(o.vp, n)
		if p.MInv.MaxBlock() <= mech.MaxInPlaceBlock {
			p.ApplyImpulses(o.vp, p.V, lambda, nil, nil) // Gλ summed in v′ (one vector of n less)
		} else {
			o.scr = grow(o.scr, n)
			p.ApplyImpulses(o.vp, p.V, lambda, nil, o.scr)
		}
		vt = o.vp
	}
	// On the sphere path the contacts' ‖w‖ is not read after the
	// directions were listed (dNorm keeps theirs), so b lives in its
	// storage, and z, once b is computed, in the compact directions'.
	if sphere && cap(o.norm) >= m {
		o.b = o.norm[:m:m]
	} else {
		o.bOwn = grow(o.bOwn, m)
		o.b = o.bOwn
	}
	if o.fB == nil {
		o.fB = func(_, lo, hi int) {
			for a := lo; a < hi; a++ {
				o.b[a] = o.d.ColDot(a, o.vt) // o.d.MulTVec by ranges
			}
		}
	}
	o.vt = vt
	if sphere {
		o.sf.dots(o.b, vt)
	} else if from := o.poolRows(); o.pool.Workers() > 1 && m >= from {
		o.pool.For(m, min(2048, from), o.fB)
	} else {
		o.fB(0, 0, m)
	}
	o.vt = nil
	if p.HasDRel() {
		// The relative sliding velocity along d adds d's combination of
		// the known tangential velocities: b = dᵀv′ + Σⱼ (−wⱼ/‖w‖) DRelⱼ.
		for a, c0 := range o.dIdx {
			for j := int(c0); j < int(o.dEnd[a]); j++ {
				o.b[a] -= o.w[j] / o.dNorm[a] * p.DRelAt(j)
			}
		}
	}
	sqFree := 0 // the compact directions' storage before it is lent: z's
	if sphere {
		o.z, sqFree = o.sf.sq[:m:m], m
	} else {
		o.zOwn = grow(o.zOwn, m)
		o.z = o.zOwn
	}
	clear(o.z)
	o.prob = qp.Problem{A: &o.A, B: o.b, Hi: o.hi}
	if sphere {
		o.prob.A = &o.sf // assembled from the directions' compact form
	} else if o.MatrixFreeFrom > 0 && m >= o.MatrixFreeFrom {
		// A matrix-free: products from the directions (o.vp, v′ when
		// computed here and no longer needed, holds M⁻¹ D x)
		o.vp = grow(o.vp, n)
		o.fa.build(&o.d, &p.MInv, o.vp, o.pool, min(2048, o.poolRows()))
		o.prob.A = &o.fa
	} else if from := o.poolRows(); o.pool.Workers() > 1 && m >= from {
		o.pa.Delassus, o.pa.Pool, o.pa.Grain = &o.A, o.pool, min(2048, from)
		o.A.AssembleRanges(&o.d, &p.MInv, o.pool.Workers(), o.pa.Ranges())
		o.prob.A = &o.pa
	} else {
		o.A.Assemble(&o.d, &p.MInv)
	}
	// Storage not read during the QP solve is its scratch (qp.Sparse.Lend:
	// MPRGP's vectors, the same bits): what the caller lent (Lend), and on
	// the sphere path, A being assembled and b computed, the directions'
	// compact form and the contacts' ‖w‖ (copied to dNorm).
	if l, ok := o.solver.(interface{ Lend([]float64) }); ok {
		for _, buf := range o.lent[:o.nlent] {
			l.Lend(buf)
		}
		if sphere {
			l.Lend(o.sf.sq[sqFree:cap(o.sf.sq)])
			if cap(o.norm) < m {
				l.Lend(o.norm[:cap(o.norm)]) // else b's
			}
			if r := o.sf.listsRest(); r != nil {
				l.Lend(r) // the spheres' lists of directions
			}
		}
	}
	r, err := o.solver.Solve(&o.prob, o.z)
	o.fa.u, o.sf.sig, o.sf.kap = nil, nil, nil
	st.Iterations, st.Solves, st.SolverIterations, st.Residual = 1, 1, r.Iterations, r.Residual
	if err != nil {
		clear(beta[:nd]) // w
		return st, fmt.Errorf("friction: maximal dissipation on %d sliding contacts: %w", m, err)
	}
	// Express β on the tangent columns: β_j = z · (−w_j/‖w‖), in place of
	// w_j; zero on the columns of the contacts that do not slide.
	prev := 0
	for a, c0 := range o.dIdx {
		clear(beta[prev:c0])
		for j := int(c0); j < int(o.dEnd[a]); j++ {
			beta[j] = -o.z[a] * o.w[j] / o.dNorm[a]
		}
		prev = int(o.dEnd[a])
	}
	clear(beta[prev:nd])
	return st, nil
}

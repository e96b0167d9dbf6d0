package qp

import (
	"math"

	"impactsim/par"
)

// DefaultSparseTol is the KKTResidual the Sparse solver must reach when
// Sparse.Tol is zero.
const DefaultSparseTol = 1e-10

// curvEps is the relative curvature pᵀAp / (λ̂ pᵀp) below which a direction
// is treated as lying in the null space of A.
const curvEps = 1e-14

// powerSteps is the number of power iterations that estimate ‖A‖ for the
// expansion step length.
const powerSteps = 15

// recomputeEvery is the number of recursive gradient updates after which the
// gradient is recomputed from scratch to stop rounding errors accumulating.
const recomputeEvery = 64

// Sparse is an iterative solver for large bound-constrained convex QPs that
// touches A only through Matrix.MulVec and its diagonal: Dostál's MPRGP
// (modified proportioning with reduced gradient projections) extended to
// two-sided bounds, run on the Jacobi-scaled problem (variables scaled so
// that diag(A) = 1, which preserves the box structure). Conjugate gradient
// steps explore the current face, expansion steps (the projected CG step,
// or a feasible CG step cut at the first bound followed by a fixed-length
// projected free-gradient step) add constraints, and proportioning steps
// along the chopped gradient release them. It warm-starts from y. See the
// package documentation for details.
//
// If the matrix has a method Diag(i int) float64 (mech.Delassus does) it is
// used for the diagonal; otherwise At(i, i).
//
// The zero value is ready to use. A Sparse keeps its workspace between calls:
// solving problems of the same size again does not allocate. A Sparse must
// not be used by several goroutines at once.
type Sparse struct {
	// Tol is the KKTResidual to reach (0 means DefaultSparseTol).
	Tol float64
	// MaxIter bounds the number of iterations (CG, expansion and
	// proportioning steps, about one MulVec each); 0 means 50·m + 1000.
	MaxIter int
	// Gamma is the proportioning constant Γ > 0 (0 means 1): a proportioning
	// step is taken when ‖β‖² > Γ² φ̃ᵀφ, i.e. when the chopped gradient β at
	// the active bounds dominates the reduced free gradient φ̃.
	Gamma float64
	// NoScaling disables the Jacobi scaling.
	NoScaling bool
	// Steps counts the kinds of step of the last Solve (diagnostics).
	Steps SparseSteps

	a        Matrix
	s        []float64 // y = s ⊙ x
	x, g     []float64 // scaled iterate and gradient
	bs       []float64 // s ⊙ b
	lo, hi   []float64 // scaled bounds
	p, ap    []float64
	sq       []float64 // 1/s = √Aᵢᵢ: scaled → original gradient units
	bmax     float64   // ‖b‖∞
	xh, gh   []float64
	gcg      []float64 // gradient at the half step during expand
	t1       []float64 // S v for the products; KKTResidual's scratch
	t1p      bool      // t1 holds S p for the current p (mulP need not scale p)
	alpha    float64   // expansion step length ᾱ
	invAlpha float64
	lam      float64 // estimate of ‖A_scaled‖

	m int
	// SetPool: the vector loops by fixed blocks (sparse_blocks.go)
	pool    *par.Pool
	blocked bool
	part    []partial // per block
	kk      int       // the kernel the blocks run
	fBlocks func(w, b0, b1 int)
	// the kernels' arguments
	pr       *Problem
	y        []float64
	kv, kdst []float64
	kx0, kg0 []float64
	kx1, kg1 []float64
	ka       float64
	kAdd     bool

	// own is the storage of the vectors above that the next Solve does
	// not take from lent (Lend), kept for reuse; lent holds the buffers
	// lent for the next Solve only.
	own   [sparseVectors][]float64
	lent  [6][]float64
	nlent int
}

// sparseVectors is the number of MPRGP's vectors of length m (setup).
const sparseVectors = 13

// Lend gives the next Solve buf as scratch: Solve takes as many of its
// vectors of length m (the problem's dimension) as fit from the lent
// buffers, in the order lent, instead of from its own storage, and writes
// anything there; the caller must not use buf until Solve returns, and
// Solve keeps no reference to it afterwards. Up to six buffers can be
// lent before a Solve. The answer is the same bits whichever vectors are
// lent (every vector is written before it is read); what is saved is the
// memory of storage the caller holds anyway but does not need during the
// solve (friction.MaxDissipation lends its directions' compact form once
// A is assembled).
func (sp *Sparse) Lend(buf []float64) {
	if sp.nlent < len(sp.lent) {
		sp.lent[sp.nlent] = buf
		sp.nlent++
	}
}

// SparseSteps counts the steps of one Sparse solve by kind.
type SparseSteps struct {
	CG, Expansion, Proportioning, Restarts int
	// Free is the number of variables strictly inside their bounds at the
	// end, Bound the number at a bound.
	Free, Bound int
}

type diagonaler interface{ Diag(i int) float64 }

// Solve implements Solver. y on entry is a warm start (projected onto the
// box), on return the solution or, with an error, the last iterate.
func (sp *Sparse) Solve(pr *Problem, y []float64) (Result, error) {
	res := Result{Method: MethodSparse}
	defer sp.unlend()
	m, err := checkProblem(pr, y)
	if err != nil {
		return res, err
	}
	if m == 0 {
		return res, nil
	}
	tol := sp.Tol
	if tol <= 0 {
		tol = DefaultSparseTol
	}
	maxIter := sp.MaxIter
	if maxIter <= 0 {
		maxIter = 50*m + 1000
	}
	gamma := sp.Gamma
	if gamma <= 0 {
		gamma = 1
	}
	sp.setup(pr, y, m)
	its, err := sp.run(tol, maxIter, gamma)
	sp.run1(kOut)
	sp.a, sp.pr, sp.y = nil, nil, nil
	sp.kv, sp.kdst, sp.kx0, sp.kg0, sp.kx1, sp.kg1 = nil, nil, nil, nil, nil, nil
	res.Iterations = its
	res.Residual = sp.kktResidual(pr, y)
	if err == errIterLimit || (err == nil && !(res.Residual <= tol)) {
		return res, notConverged(MethodSparse, its, res.Residual, tol)
	}
	return res, err
}

func (sp *Sparse) setup(pr *Problem, y []float64, m int) {
	sp.a = pr.A
	sp.bmax = 0
	// the vectors, from the lent buffers while they last (Lend), then
	// from sp.own
	vs := sp.vectors()
	b, off := 0, 0
	for k, v := range vs {
		for b < sp.nlent && len(sp.lent[b])-off < m {
			b, off = b+1, 0
		}
		if b < sp.nlent {
			*v = sp.lent[b][off : off+m : off+m]
			off += m
			continue
		}
		sp.own[k] = resize(sp.own[k], m)
		*v = sp.own[k]
	}
	sp.m, sp.pr, sp.y, sp.t1p = m, pr, y, false
	sp.bmax = sp.run1(kSetup).mx
}

// vectors returns MPRGP's vectors of length m, in the order they are
// taken from lent buffers (the expansion's scratch first).
func (sp *Sparse) vectors() [sparseVectors]*[]float64 {
	return [sparseVectors]*[]float64{&sp.xh, &sp.gh, &sp.gcg, &sp.ap, &sp.p, &sp.t1, &sp.g, &sp.x, &sp.bs, &sp.lo, &sp.hi, &sp.sq, &sp.s}
}

// unlend drops the lent buffers and every reference into them (the
// vectors taken from them).
func (sp *Sparse) unlend() {
	if sp.nlent == 0 {
		return
	}
	for k, v := range sp.vectors() {
		if len(sp.own[k]) == 0 || len(*v) == 0 || &(*v)[0] != &sp.own[k][0] {
			*v = nil
		}
	}
	sp.lent, sp.nlent = [6][]float64{}, 0
}

// mulAdd sets dst = S A S v, plus S b with add.
func (sp *Sparse) mulAdd(dst, v []float64, add bool) {
	sp.kv, sp.t1p = v, false
	sp.run1(kScaleIn)
	sp.a.MulVec(dst, sp.t1) // then scaled in place
	sp.kdst, sp.kAdd = dst, add
	sp.run1(kScaleOut)
}

// mulCurvature sets ap = S A S p and returns pᵀAp, pᵀp and the largest α
// with lo ≤ x − α p ≤ hi together with the index of the bound reached (−1
// if none). The product's scaling S is fused with the passes before and
// after it: t1 = S p was written by the kernel that set p (t1p), and ap's
// scaling shares the curvature's pass (kScaleCurv).
func (sp *Sparse) mulCurvature() (pap, pp, af float64, blk int) {
	if !sp.t1p {
		sp.kv = sp.p
		sp.run1(kScaleIn)
	}
	sp.a.MulVec(sp.ap, sp.t1)
	sp.kdst, sp.kAdd = sp.ap, false
	r := sp.run1(kScaleCurv)
	return r.a, r.b, r.af, r.blk
}

// gradient recomputes g = S A S x + S b.
func (sp *Sparse) gradient() { sp.mulAdd(sp.g, sp.x, true) }

// estimateNorm sets sp.lam to a power-iteration estimate of ‖S A S‖ and the
// expansion step ᾱ = 1.8/λ̂ (just under the 2/‖A‖ that MPRGP allows).
//
// Each power step is mul(w, v), vᵀw and the normalization of w, in three
// passes: w's normalization is fused with the next product's scaling S w
// (kDivScaleIn), the product's scaling with both sums (kScaleOutDots).
// The last normalization is not done: p and ap are only scratch here.
func (sp *Sparse) estimateNorm() {
	v, w := sp.p, sp.ap
	sp.t1p = false
	sp.kv = v
	n := math.Sqrt(sp.run1(kPowerInitDot).b)
	var lam float64
	for k := 0; k < powerSteps; k++ {
		sp.kv, sp.ka = v, n // v /= n (when n > 0), t1 = S v
		if n > 0 {
			sp.run1(kDivScaleIn)
		} else {
			sp.run1(kScaleIn)
		}
		sp.a.MulVec(w, sp.t1)
		sp.kdst, sp.kAdd = w, false
		r := sp.run1(kScaleOutDots)
		lam = math.Max(lam, r.a)
		if n = math.Sqrt(r.b); n == 0 {
			break
		}
		v, w = w, v
	}
	sp.setLam(lam)
}

func (sp *Sparse) setLam(lam float64) {
	if !(lam > 0) || math.IsInf(lam, 0) {
		lam = 1
	}
	sp.lam = lam
	sp.alpha = 1.8 / lam
	sp.invAlpha = 1 / sp.alpha
}

// stats are the per-iterate quantities MPRGP decides with.
type stats struct {
	r      float64 // relative KKT residual (as KKTResidual, from the maintained g)
	beta2  float64 // ‖β‖², β the chopped gradient at the active bounds
	phiphi float64 // φ̃ᵀφ, φ the free gradient, φ̃ its reduced version
}

// scan computes the stats of the current iterate. With update it first
// sets p ← φ − beta·p (the CG direction update) and also returns gᵀp for
// the new p; fusing the two passes saves memory traffic.
func (sp *Sparse) scan(update bool, beta float64) (st stats, gp float64) {
	sp.kAdd, sp.ka = update, beta
	k := kScan
	if update {
		k, sp.t1p = kScanScale, true // S p for the product that follows
	}
	r := sp.run1(k)
	scale := max(sp.bmax, r.my)
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	return stats{r: r.mx / scale, beta2: r.b, phiphi: r.c}, r.a
}

// step sets x ← P(x − α p), g ← g − α A p, landing the blocking variable
// exactly on its bound.
func (sp *Sparse) step(alpha float64, blk int) {
	sp.ka = alpha
	sp.run1(kStep)
	sp.land(blk)
}

func (sp *Sparse) land(blk int) {
	if blk >= 0 {
		if sp.p[blk] > 0 {
			sp.x[blk] = sp.lo[blk]
		} else {
			sp.x[blk] = sp.hi[blk]
		}
	}
}

// setFreeGradient sets p = φ, the gradient restricted to the free variables,
// and returns gᵀp = ‖φ‖².
func (sp *Sparse) setFreeGradient() float64 {
	sp.t1p = true // with S p for the product that follows
	return sp.run1(kGradScale).a
}

// freeNorm2 returns ‖φ‖², the squared norm of the free gradient.
func (sp *Sparse) freeNorm2() float64 { return sp.run1(kFreeNorm).a }

// expand performs an expansion step from x (where the CG step of length acg
// along −p would leave the box at af): the projected CG step P(x − acg p) is
// tried first and kept if it beats the feasible half step x − af p;
// otherwise the standard MPRGP expansion, the feasible half step followed by
// a projected free-gradient step of fixed length ᾱ, is taken. It returns the
// number of extra MulVecs spent.
//
// Objective changes are measured as f(x') − f(x) = ½ (g(x) + g(x'))ᵀ(x' − x),
// exact for quadratics and, unlike a difference of two values of f, not
// swamped by rounding when the step is small.
func (sp *Sparse) expand(acg, af float64, blk int) int {
	x, g := sp.x, sp.g
	extra := 0
	// Feasible half step, kept in (xh, gh).
	copy(sp.xh, x)
	copy(sp.gh, g)
	sp.step(af, blk)
	if !math.IsInf(acg, 1) {
		x, xh := sp.x, sp.xh // xh: the start of the step
		// f(x_cg) − f(x_half) = [f(x_cg) − f(x0)] − [f(x_half) − f(x0)]
		dh, _ := sp.change(xh, sp.gh, x, g)
		sp.ka = acg
		sp.run1(kProj)
		copy(sp.gcg, g) // keep g at the half step
		sp.gradient()
		if dc, _ := sp.change(xh, sp.gh, x, g); dc < dh {
			return extra
		}
		extra++
		// Back to the half step.
		copy(g, sp.gcg)
		sp.ka = af
		sp.run1(kProj)
		sp.land(blk)
	}
	copy(sp.xh, x)
	copy(sp.gh, g)
	for try := 0; ; try++ {
		sp.run1(kFreeStep)
		sp.gradient()
		if d, mag := sp.change(sp.xh, sp.gh, x, g); d <= 1e-12*mag || try == 3 {
			return extra
		}
		// ᾱ exceeded 2/‖A‖: the norm estimate was low.
		sp.setLam(2 * sp.lam)
		copy(x, sp.xh)
		copy(g, sp.gh)
		extra++
	}
}

// change returns f(x1) − f(x0) = ½ (g0 + g1)ᵀ(x1 − x0) and the rounding
// scale ½ Σ|g0 + g1|·|x1 − x0| of that sum.
func (sp *Sparse) change(x0, g0, x1, g1 []float64) (d, mag float64) {
	sp.kx0, sp.kg0, sp.kx1, sp.kg1 = x0, g0, x1, g1
	r := sp.run1(kChange)
	return r.a / 2, r.b / 2
}

// run is MPRGP on the scaled problem; it returns the iteration count.
func (sp *Sparse) run(tol float64, maxIter int, gamma float64) (int, error) {
	sp.gradient()
	sp.estimateNorm()
	its, stale := 0, 0
	sp.Steps = SparseSteps{}
	defer sp.countFree()
	restart := true // p must be reset to φ
	fresh := false  // st describes the current iterate
	var st stats
	var gp float64 // gᵀp for the current p
	for {
		if !fresh {
			st, _ = sp.scan(false, 0)
		}
		fresh = false
		if st.r <= tol {
			if stale == 0 {
				return its, nil
			}
			sp.gradient()
			stale, restart = 0, true
			continue
		}
		if math.IsNaN(st.r) || its >= maxIter {
			return its, errIterLimit
		}
		its++
		if st.beta2 > gamma*gamma*st.phiphi {
			// Proportioning: release bounds along the chopped gradient β.
			sp.run1(kPropScale)
			sp.t1p = true
			pap, pp, af, blk := sp.mulCurvature()
			alpha := af
			if pap > curvEps*sp.lam*pp {
				if acg := st.beta2 / pap; acg < af {
					alpha, blk = acg, -1
				}
			}
			if math.IsInf(alpha, 1) {
				return its, ErrUnbounded
			}
			sp.step(alpha, blk)
			sp.Steps.Proportioning++
			stale++
			restart = true
			continue
		}
		// Proportional iterate: conjugate gradients on the free set.
		steepest := restart
		if restart {
			gp = sp.setFreeGradient()
			restart = false
		} else if gp <= 0 {
			gp, steepest = sp.setFreeGradient(), true
		}
		pap, pp, af, blk := sp.mulCurvature()
		if !(pap > curvEps*sp.lam*pp) && !steepest && gp*gp < 1e-12*pp*sp.freeNorm2() {
			// A conjugate direction without curvature and almost
			// orthogonal to the gradient is rounding noise in the null
			// space of A: restart from the free gradient.
			gp, steepest = sp.setFreeGradient(), true
			pap, pp, af, blk = sp.mulCurvature()
			its++
			sp.Steps.Restarts++
		}
		acg := math.Inf(1)
		if pap > curvEps*sp.lam*pp {
			acg = gp / pap
		}
		if math.IsInf(acg, 1) && math.IsInf(af, 1) {
			// φ ≠ 0 with A φ = 0 and no bound ahead: f decreases linearly
			// along −φ forever.
			return its, ErrUnbounded
		}
		if acg > af {
			its += sp.expand(acg, af, blk)
			sp.Steps.Expansion++
			stale, restart = 0, true
			continue
		}
		if acg < af {
			blk = -1
		}
		// CG step ...
		sp.Steps.CG++
		sp.ka = acg
		phiAp := sp.run1(kCG).a
		sp.land(blk)
		if stale++; stale >= recomputeEvery {
			sp.gradient()
			stale = 0
		}
		// ... and p ← φ − (φᵀAp / pᵀAp) p, with the stats of the new iterate.
		st, gp = sp.scan(true, phiAp/pap)
		fresh = true
	}
}

func dot(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// normalize scales v to unit 2-norm and returns its former norm.
func normalize(v []float64) float64 {
	n := math.Sqrt(dot(v, v))
	if n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
	return n
}

func (sp *Sparse) countFree() {
	f := sp.run1(kCount).n
	sp.Steps.Free += f
	sp.Steps.Bound += sp.m - f
}

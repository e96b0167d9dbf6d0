package qp

import "math"

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
	t1, t2   []float64
	alpha    float64 // expansion step length ᾱ
	invAlpha float64
	lam      float64 // estimate of ‖A_scaled‖
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
	for i := 0; i < m; i++ {
		lo, hi := pr.LoAt(i), pr.HiAt(i)
		switch x := sp.x[i]; {
		case x <= sp.lo[i]:
			y[i] = lo
		case x >= sp.hi[i]:
			y[i] = hi
		default:
			y[i] = clamp(sp.s[i]*x, lo, hi)
		}
	}
	sp.a = nil
	res.Iterations = its
	res.Residual = KKTResidual(pr, y, sp.t1)
	if err == errIterLimit || (err == nil && !(res.Residual <= tol)) {
		return res, notConverged(MethodSparse, its, res.Residual, tol)
	}
	return res, err
}

func (sp *Sparse) setup(pr *Problem, y []float64, m int) {
	sp.a = pr.A
	sp.s = resize(sp.s, m)
	sp.sq = resize(sp.sq, m)
	sp.bmax = 0
	sp.x = resize(sp.x, m)
	sp.g = resize(sp.g, m)
	sp.bs = resize(sp.bs, m)
	sp.lo = resize(sp.lo, m)
	sp.hi = resize(sp.hi, m)
	sp.p = resize(sp.p, m)
	sp.ap = resize(sp.ap, m)
	sp.xh = resize(sp.xh, m)
	sp.gh = resize(sp.gh, m)
	sp.gcg = resize(sp.gcg, m)
	sp.t1 = resize(sp.t1, m)
	sp.t2 = resize(sp.t2, m)
	dg, hasDiag := pr.A.(diagonaler)
	for i := 0; i < m; i++ {
		s := 1.0
		if !sp.NoScaling {
			var dii float64
			if hasDiag {
				dii = dg.Diag(i)
			} else {
				dii = pr.A.At(i, i)
			}
			if dii > 0 && !math.IsInf(dii, 1) {
				s = 1 / math.Sqrt(dii)
			}
		}
		sp.s[i] = s
		sp.sq[i] = 1 / s
		sp.bmax = math.Max(sp.bmax, math.Abs(pr.B[i]))
		sp.lo[i] = pr.LoAt(i) / s
		sp.hi[i] = pr.HiAt(i) / s
		sp.bs[i] = s * pr.B[i]
		sp.x[i] = clamp(y[i]/s, sp.lo[i], sp.hi[i])
	}
}

// mul sets dst = S A S v with S = diag(s).
func (sp *Sparse) mul(dst, v []float64) {
	for i, vi := range v {
		sp.t1[i] = sp.s[i] * vi
	}
	sp.a.MulVec(sp.t2, sp.t1)
	for i, w := range sp.t2 {
		dst[i] = sp.s[i] * w
	}
}

// gradient recomputes g = S A S x + S b.
func (sp *Sparse) gradient() {
	sp.mul(sp.g, sp.x)
	for i, b := range sp.bs {
		sp.g[i] += b
	}
}

// estimateNorm sets sp.lam to a power-iteration estimate of ‖S A S‖ and the
// expansion step ᾱ = 1.8/λ̂ (just under the 2/‖A‖ that MPRGP allows).
func (sp *Sparse) estimateNorm() {
	v, w := sp.p, sp.ap
	for i := range v {
		v[i] = math.Sin(1.7*float64(i)+0.5) + 0.3
	}
	normalize(v)
	var lam float64
	for k := 0; k < powerSteps; k++ {
		sp.mul(w, v)
		lam = math.Max(lam, dot(v, w))
		if normalize(w) == 0 {
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
	x, g, p, lo, hi, sq, bs := sp.x, sp.g, sp.p, sp.lo, sp.hi, sp.sq, sp.bs
	ia := sp.invAlpha
	var num, ay, beta2, phiphi float64
	for i, xi := range x {
		gi, l, h := g[i], lo[i], hi[i]
		free := l < xi && xi < h
		if update {
			pi := -beta * p[i]
			if free {
				pi += gi
			}
			p[i] = pi
			gp += gi * pi
		}
		// |mid(x−lo, g, x−hi)| = |clamp(g, x−hi, x−lo)| for lo ≤ x ≤ hi.
		// (min/max instead of branches on the sign of g, which are
		// unpredictable.)
		if v := math.Abs(min(max(gi, xi-h), xi-l)) * sq[i]; v > num {
			num = v
		}
		if v := math.Abs(gi-bs[i]) * sq[i]; v > ay {
			ay = v
		}
		if free {
			phiphi += min(max(gi, (xi-h)*ia), (xi-l)*ia) * gi
		} else if l != h {
			b := max(gi, 0)
			if xi <= l {
				b = min(gi, 0)
			}
			beta2 += b * b
		}
	}
	scale := max(sp.bmax, ay)
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	return stats{r: num / scale, beta2: beta2, phiphi: phiphi}, gp
}

// curvature returns pᵀAp, pᵀp and the largest α with lo ≤ x − α p ≤ hi
// together with the index of the bound reached (−1 if none).
func (sp *Sparse) curvature() (pap, pp, af float64, blk int) {
	af, blk = math.Inf(1), -1
	x, lo, hi, ap := sp.x, sp.lo, sp.hi, sp.ap
	for i, pi := range sp.p {
		pap += pi * ap[i]
		pp += pi * pi
		bound := hi[i]
		if pi > 0 {
			bound = lo[i]
		}
		// x − bound has the sign of p (or is 0) for feasible x.
		if d := math.Abs(x[i] - bound); d < af*math.Abs(pi) {
			af, blk = d/math.Abs(pi), i
		}
	}
	return pap, pp, af, blk
}

// step sets x ← P(x − α p), g ← g − α A p, landing the blocking variable
// exactly on its bound.
func (sp *Sparse) step(alpha float64, blk int) {
	x, g, lo, hi, ap := sp.x, sp.g, sp.lo, sp.hi, sp.ap
	for i, pi := range sp.p {
		x[i] = clamp(x[i]-alpha*pi, lo[i], hi[i])
		g[i] -= alpha * ap[i]
	}
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
	var gp float64
	for i, g := range sp.g {
		if x := sp.x[i]; sp.lo[i] < x && x < sp.hi[i] {
			sp.p[i] = g
			gp += g * g
		} else {
			sp.p[i] = 0
		}
	}
	return gp
}

// freeNorm2 returns ‖φ‖², the squared norm of the free gradient.
func (sp *Sparse) freeNorm2() float64 {
	var n float64
	for i, g := range sp.g {
		if x := sp.x[i]; sp.lo[i] < x && x < sp.hi[i] {
			n += g * g
		}
	}
	return n
}

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
	x, g, lo, hi := sp.x, sp.g, sp.lo, sp.hi
	extra := 0
	// Feasible half step, kept in (xh, gh).
	copy(sp.xh, x)
	copy(sp.gh, g)
	sp.step(af, blk)
	if !math.IsInf(acg, 1) {
		x, xh := sp.x, sp.xh // xh: the start of the step
		// f(x_cg) − f(x_half) = [f(x_cg) − f(x0)] − [f(x_half) − f(x0)]
		dh, _ := sp.change(xh, sp.gh, x, g)
		for i, pi := range sp.p {
			x[i] = clamp(xh[i]-acg*pi, lo[i], hi[i])
		}
		copy(sp.gcg, g) // keep g at the half step
		sp.gradient()
		if dc, _ := sp.change(xh, sp.gh, x, g); dc < dh {
			return extra
		}
		extra++
		// Back to the half step.
		copy(g, sp.gcg)
		for i, pi := range sp.p {
			x[i] = clamp(xh[i]-af*pi, lo[i], hi[i])
		}
		sp.land(blk)
	}
	copy(sp.xh, x)
	copy(sp.gh, g)
	for try := 0; ; try++ {
		for i, gi := range g {
			if xi := x[i]; lo[i] < xi && xi < hi[i] {
				x[i] = clamp(xi-sp.alpha*gi, lo[i], hi[i])
			}
		}
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
	for i, a := range x1 {
		t := (g0[i] + g1[i]) * (a - x0[i])
		d += t
		mag += math.Abs(t)
	}
	return d / 2, mag / 2
}

// run is MPRGP on the scaled problem; it returns the iteration count.
func (sp *Sparse) run(tol float64, maxIter int, gamma float64) (int, error) {
	sp.gradient()
	sp.estimateNorm()
	x, g, p, ap, lo, hi := sp.x, sp.g, sp.p, sp.ap, sp.lo, sp.hi
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
			for i, gi := range g {
				var b float64
				if lo[i] != hi[i] {
					if xi := x[i]; xi <= lo[i] {
						b = min(gi, 0)
					} else if xi >= hi[i] {
						b = max(gi, 0)
					}
				}
				p[i] = b
			}
			sp.mul(ap, p)
			pap, pp, af, blk := sp.curvature()
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
		sp.mul(ap, p)
		pap, pp, af, blk := sp.curvature()
		if !(pap > curvEps*sp.lam*pp) && !steepest && gp*gp < 1e-12*pp*sp.freeNorm2() {
			// A conjugate direction without curvature and almost
			// orthogonal to the gradient is rounding noise in the null
			// space of A: restart from the free gradient.
			gp, steepest = sp.setFreeGradient(), true
			sp.mul(ap, p)
			pap, pp, af, blk = sp.curvature()
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
		var phiAp float64
		for i, pi := range p {
			xi := clamp(x[i]-acg*pi, lo[i], hi[i])
			x[i] = xi
			gi := g[i] - acg*ap[i]
			g[i] = gi
			if lo[i] < xi && xi < hi[i] {
				phiAp += gi * ap[i]
			}
		}
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
	for i, xi := range sp.x {
		if sp.lo[i] < xi && xi < sp.hi[i] {
			sp.Steps.Free++
		} else {
			sp.Steps.Bound++
		}
	}
}

package qp

import (
	"math"

	"impactsim/par"
)

// MPRGP's vector loops by fixed blocks, on a pool (Sparse.SetPool).
//
// Every loop of Sparse over the m variables (the Jacobi scaling, the
// statistics of an iterate, the curvature of a direction, the steps) is a
// kernel on a range [lo, hi) of variables returning its partial sums. A
// Sparse given a pool runs the kernels on fixed blocks of SparseBlock
// variables and combines the blocks' partial sums in block order; the
// blocks do not depend on the number of workers, so the solve is the same
// bit for bit on any pool (and on none: a nil pool runs the blocks on the
// calling goroutine). Problems of at least sparsePoolFrom variables spread
// the blocks over the pool's workers. A Sparse without SetPool sums each
// loop in variable order, as one block.

// SparseBlock is the number of variables of a reduction block of a
// Sparse given a pool (SetPool).
const SparseBlock = 1024

// sparsePoolFrom is the number of variables from which a Sparse given a
// pool of several workers spreads its vector loops over them.
const sparsePoolFrom = 4096

// The kernels (Sparse.kernel).
const (
	kSetup     = iota // the scaled problem from pr and the warm start
	kScaleIn          // t1 = s ⊙ kv
	kScaleOut         // kdst = s ⊙ kdst (+ bs with kAdd)
	kPowerInit        // the power iteration's start vector in kv
	kDiv              // kv /= ka
	kScan             // the stats of the iterate (Sparse.scan)
	kStep             // x ← P(x − ka p), g ← g − ka Ap
	kFreeGrad         // p = φ, Σ φ²
	kFreeNorm         // Σ φ²
	kChange           // Sparse.change's sums
	kProp             // p = β, the chopped gradient
	kCG               // the CG step of length ka, Σ φᵢ (Ap)ᵢ after it
	kProj             // x = P(xh − ka p)
	kFreeStep         // x ← P(x − ᾱ g) on the free variables
	kCount            // free variables
	kOut              // y from x (Solve's answer)
	kKKT              // KKTResidual's maxima: mx its scale, my its numerator
	// Fused kernels: two loops in one pass over a block, each element and
	// each partial sum computed as the loops would compute them apart (the
	// same bits), with one hand-off to the pool instead of two. MPRGP's CG
	// iteration takes 4 hand-offs (6 unfused), a power step 3 (6).
	kPowerInitDot // kPowerInit, then Σ kv² in b
	kDivScaleIn   // kDiv, then kScaleIn of the same kv
	kScaleOutDots // kScaleOut of kdst (no kAdd), then Σ kv ⊙ kdst in a, Σ kdst² in b
	kScaleCurv    // kScaleOut of ap (no kAdd), then the curvature: pᵀAp, pᵀp and the first bound along −p
	kScanScale    // kScan, then t1 = s ⊙ p (the new p, for its product)
	kPropScale    // kProp, then t1 = s ⊙ p
	kGradScale    // kFreeGrad, then t1 = s ⊙ p
)

// partial is one block's (or one range's) partial results of a kernel.
type partial struct {
	a, b, c float64 // sums
	mx, my  float64 // maxima
	af      float64 // the smallest step to a bound and its variable
	blk     int
	n       int // count
}

// SetPool makes the solver run its vector loops by fixed blocks of
// variables, on the workers of pool for large problems (see the file's
// comment): the result is the same bit for bit for any pool, including
// nil, but rounds differently from a Sparse without SetPool once m
// exceeds one block (1024 variables). The matrix's own products are the
// matrix's business (a matrix whose MulVec uses the same pool is fine:
// the calls do not nest).
func (sp *Sparse) SetPool(pool *par.Pool) {
	sp.pool, sp.blocked = pool, true
}

// run1 runs kernel k on every variable and returns its combined partial
// results.
func (sp *Sparse) run1(k int) partial {
	m := sp.m
	if !sp.blocked || m <= SparseBlock {
		return sp.kernel(k, 0, m)
	}
	nb := (m + SparseBlock - 1) / SparseBlock
	sp.part = resize(sp.part, nb)
	sp.kk = k
	if sp.fBlocks == nil {
		sp.fBlocks = sp.blocks
	}
	if sp.pool.Workers() > 1 && m >= sparsePoolFrom {
		sp.pool.For(nb, 1, sp.fBlocks)
	} else {
		sp.blocks(0, 0, nb)
	}
	r := partial{af: math.Inf(1), blk: -1}
	for b := range sp.part[:nb] {
		q := &sp.part[b]
		r.a += q.a
		r.b += q.b
		r.c += q.c
		r.mx = max(r.mx, q.mx)
		r.my = max(r.my, q.my)
		if q.af < r.af {
			r.af, r.blk = q.af, q.blk
		}
		r.n += q.n
	}
	return r
}

// blocks runs kernel sp.kk on the blocks [b0, b1).
func (sp *Sparse) blocks(_, b0, b1 int) {
	for b := b0; b < b1; b++ {
		sp.part[b] = sp.kernel(sp.kk, b*SparseBlock, min(sp.m, (b+1)*SparseBlock))
	}
}

// kernel runs kernel k on the variables [lo, hi).
func (sp *Sparse) kernel(k, lo, hi int) partial {
	switch k {
	case kSetup:
		return sp.setupRange(lo, hi)
	case kScaleIn:
		s, v, t := sp.s[lo:hi], sp.kv[lo:hi], sp.t1[lo:hi]
		for i, vi := range v {
			t[i] = s[i] * vi
		}
	case kScaleOut:
		s, d, bs := sp.s[lo:hi], sp.kdst[lo:hi], sp.bs[lo:hi]
		for i, w := range d {
			d[i] = s[i] * w
		}
		if sp.kAdd {
			for i, b := range bs {
				d[i] += b
			}
		}
	case kPowerInit:
		for i := lo; i < hi; i++ {
			sp.kv[i] = math.Sin(1.7*float64(i)+0.5) + 0.3
		}
	case kDiv:
		v := sp.kv[lo:hi]
		for i := range v {
			v[i] /= sp.ka
		}
	case kScan:
		return sp.scanRange(lo, hi)
	case kStep:
		x, g, l, h, ap := sp.x[lo:hi], sp.g[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.ap[lo:hi]
		alpha := sp.ka
		for i, pi := range sp.p[lo:hi] {
			x[i] = clamp(x[i]-alpha*pi, l[i], h[i])
			g[i] -= alpha * ap[i]
		}
	case kFreeGrad:
		var gp float64
		x, l, h, p := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.p[lo:hi]
		for i, g := range sp.g[lo:hi] {
			if xi := x[i]; l[i] < xi && xi < h[i] {
				p[i] = g
				gp += g * g
			} else {
				p[i] = 0
			}
		}
		return partial{a: gp}
	case kFreeNorm:
		var n float64
		x, l, h := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi]
		for i, g := range sp.g[lo:hi] {
			if xi := x[i]; l[i] < xi && xi < h[i] {
				n += g * g
			}
		}
		return partial{a: n}
	case kChange:
		var d, mag float64
		x0, g0, g1 := sp.kx0[lo:hi], sp.kg0[lo:hi], sp.kg1[lo:hi]
		for i, a := range sp.kx1[lo:hi] {
			t := (g0[i] + g1[i]) * (a - x0[i])
			d += t
			mag += math.Abs(t)
		}
		return partial{a: d, b: mag}
	case kProp:
		x, l, h, p := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.p[lo:hi]
		for i, gi := range sp.g[lo:hi] {
			var b float64
			if l[i] != h[i] {
				if xi := x[i]; xi <= l[i] {
					b = min(gi, 0)
				} else if xi >= h[i] {
					b = max(gi, 0)
				}
			}
			p[i] = b
		}
	case kCG:
		var phiAp float64
		x, g, l, h, ap := sp.x[lo:hi], sp.g[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.ap[lo:hi]
		acg := sp.ka
		for i, pi := range sp.p[lo:hi] {
			xi := clamp(x[i]-acg*pi, l[i], h[i])
			x[i] = xi
			gi := g[i] - acg*ap[i]
			g[i] = gi
			if l[i] < xi && xi < h[i] {
				phiAp += gi * ap[i]
			}
		}
		return partial{a: phiAp}
	case kProj:
		x, xh, l, h := sp.x[lo:hi], sp.xh[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi]
		for i, pi := range sp.p[lo:hi] {
			x[i] = clamp(xh[i]-sp.ka*pi, l[i], h[i])
		}
	case kFreeStep:
		x, l, h := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi]
		for i, gi := range sp.g[lo:hi] {
			if xi := x[i]; l[i] < xi && xi < h[i] {
				x[i] = clamp(xi-sp.alpha*gi, l[i], h[i])
			}
		}
	case kCount:
		n := 0
		x, l, h := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi]
		for i, xi := range x {
			if l[i] < xi && xi < h[i] {
				n++
			}
		}
		return partial{n: n}
	case kKKT:
		return sp.kktRange(lo, hi)
	case kPowerInitDot:
		sp.kernel(kPowerInit, lo, hi)
		v := sp.kv[lo:hi]
		return partial{b: dot(v, v)}
	case kDivScaleIn:
		sp.kernel(kDiv, lo, hi)
		sp.kernel(kScaleIn, lo, hi)
	case kScaleOutDots:
		sp.kernel(kScaleOut, lo, hi)
		w := sp.kdst[lo:hi]
		return partial{a: dot(sp.kv[lo:hi], w), b: dot(w, w)}
	case kScaleCurv:
		sp.kernel(kScaleOut, lo, hi)
		return sp.curvRange(lo, hi)
	case kScanScale, kPropScale, kGradScale:
		var r partial
		switch k {
		case kScanScale:
			r = sp.scanRange(lo, hi)
		case kPropScale:
			r = sp.kernel(kProp, lo, hi)
		default:
			r = sp.kernel(kFreeGrad, lo, hi)
		}
		s, p, t := sp.s[lo:hi], sp.p[lo:hi], sp.t1[lo:hi]
		for i, pi := range p {
			t[i] = s[i] * pi
		}
		return r
	case kOut:
		pr, y := sp.pr, sp.y
		for i := lo; i < hi; i++ {
			yl, yh := pr.LoAt(i), pr.HiAt(i)
			switch x := sp.x[i]; {
			case x <= sp.lo[i]:
				y[i] = yl
			case x >= sp.hi[i]:
				y[i] = yh
			default:
				y[i] = clamp(sp.s[i]*x, yl, yh)
			}
		}
	}
	return partial{}
}

// kktResidual returns KKTResidual(pr, y) (the same value: its maxima are
// taken by blocks, on the pool for large problems; a maximum does not
// depend on the order), with t1 as the product's scratch.
func (sp *Sparse) kktResidual(pr *Problem, y []float64) float64 {
	pr.A.MulVec(sp.t1, y)
	sp.pr, sp.y = pr, y
	r := sp.run1(kKKT)
	scale := r.mx
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	return r.my / scale
}

// kktRange is KKTResidual's loop on the variables [lo, hi) (A y in t1).
func (sp *Sparse) kktRange(lo, hi int) partial {
	scale, r := kktRows(sp.pr, sp.y, sp.t1, lo, hi)
	return partial{mx: scale, my: r}
}

// setupRange scales variables [lo, hi) (Sparse.setup) and returns the
// largest |bᵢ| among them in mx.
func (sp *Sparse) setupRange(lo, hi int) partial {
	pr, y := sp.pr, sp.y
	dg, hasDiag := pr.A.(diagonaler)
	var bmax float64
	for i := lo; i < hi; i++ {
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
		bmax = math.Max(bmax, math.Abs(pr.B[i]))
		sp.lo[i] = pr.LoAt(i) / s
		sp.hi[i] = pr.HiAt(i) / s
		sp.bs[i] = s * pr.B[i]
		sp.x[i] = clamp(y[i]/s, sp.lo[i], sp.hi[i])
	}
	return partial{mx: bmax}
}

// scanRange is Sparse.scan on the variables [lo, hi): a = gᵀp (with
// kAdd, after p ← φ − ka p), b = ‖β‖², c = φ̃ᵀφ, mx = the residual's
// numerator, my = its scale's max |Ay|.
func (sp *Sparse) scanRange(lo, hi int) partial {
	x, g, p, l, h, sq, bs := sp.x[lo:hi], sp.g[lo:hi], sp.p[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.sq[lo:hi], sp.bs[lo:hi]
	ia := sp.invAlpha
	update, beta := sp.kAdd, sp.ka
	var gp, num, ay, beta2, phiphi float64
	for i, xi := range x {
		gi, l, h := g[i], l[i], h[i]
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
	return partial{a: gp, b: beta2, c: phiphi, mx: num, my: ay}
}

// curvRange is the curvature of p on the variables [lo, hi): a = pᵀAp,
// b = pᵀp, and the largest α with lo ≤ x − α p ≤ hi there with the
// variable reaching its bound (blk −1 if none).
func (sp *Sparse) curvRange(lo, hi int) partial {
	af, blk := math.Inf(1), -1
	x, l, h, ap := sp.x[lo:hi], sp.lo[lo:hi], sp.hi[lo:hi], sp.ap[lo:hi]
	var pap, pp float64
	for i, pi := range sp.p[lo:hi] {
		pap += pi * ap[i]
		pp += pi * pi
		bound := h[i]
		if pi > 0 {
			bound = l[i]
		}
		// x − bound has the sign of p (or is 0) for feasible x.
		if d := math.Abs(x[i] - bound); d < af*math.Abs(pi) {
			af, blk = d/math.Abs(pi), lo+i
		}
	}
	return partial{a: pap, b: pp, af: af, blk: blk}
}

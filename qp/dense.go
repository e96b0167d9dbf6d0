package qp

import (
	"errors"
	"math"
)

// DefaultDenseTol is the KKTResidual the Dense solver must reach when
// Dense.Tol is zero.
const DefaultDenseTol = 1e-12

// singularPivot is the relative size below which a new Cholesky pivot
// A_jj − a_Fjᵀ A_FF⁻¹ a_Fj is treated as zero, i.e. column j of A as linearly
// dependent on the free columns.
const singularPivot = 1e-10

// refineNoise is the relative size of the free-set gradient regarded as
// rounding noise: refinement that stalls below it is finished.
const refineNoise = 1e-14

// freshEvery is the number of pivots after which the incrementally updated
// gradient is recomputed from scratch.
const freshEvery = 32

// nullSlopeNoise (per variable) and unboundedSlope are the relative slopes
// (per unit step of the entering variable, times the KKTResidual scale and
// 1 + ‖q‖₁, the size of the null direction) below which a slope along a
// null-space direction of A counts as rounding noise, and above which a
// bound-free null-space ray makes the problem unbounded.
//
// The noise bound is the rounding error of σ = gⱼ − g_Fᵀq, about m·ε·scale
// per unit of (1 + ‖q‖₁) for freshly computed gradients, with a factor 4 of
// margin. It must stay well below the acceptance tolerance (1e-12): a slope
// the KKT check would still count as a violation is not noise. (It was
// 1e-12 — equal to the tolerance — and a nearly dependent 3D contact group
// then ended with a violation of 1.13e-12 that the solver refused to
// remove.)
const (
	nullSlopeNoise = 4 * 0x1p-52
	unboundedSlope = 1e-9
)

// maxRefine bounds the iterative-refinement passes after a full Newton step
// on the free set.
const maxRefine = 6

// variable states of the active-set method
const (
	atLo int8 = iota
	atHi
	isFree
)

// entry outcomes of Dense.enter
const (
	enterRejected = iota // no descent direction: leave j at its bound
	enterChecked         // j joined the free set from a bound; verify the first step
	enterMoved           // null-space steps were taken; y changed
)

var errDegenerate = errors.New("qp: dense: a variable without finite bounds lies in the null space of A on the free set")

// Dense is an exact primal active-set solver for bound-constrained convex QPs
// with a dense (materialised) A: Lawson & Hanson's NNLS active-set strategy
// applied to the Gram form and generalised to two-sided bounds as in Stark &
// Parker's BVLS. The Cholesky factor of A_FF on the free set F is updated by
// appending rows and by Givens downdates; rank deficiency of A is handled by
// moving along null-space directions instead of factoring a singular A_FF.
// See the package documentation for the algorithm.
//
// The zero value is ready to use. A Dense keeps its workspace between calls:
// solving problems of the same size again does not allocate. A Dense must not
// be used by several goroutines at once.
type Dense struct {
	// Tol is the KKTResidual the answer must reach (0 means
	// DefaultDenseTol). A larger residual yields a *NotConvergedError.
	Tol float64
	// MaxIter bounds the number of pivots (free-set changes); 0 means
	// 10·m + 100.
	MaxIter int

	m      int
	b      []float64 // the problem's B during Solve
	a      []float64 // A, m×m row-major
	l      []float64 // Cholesky factor of A_FF, rows by position in free, stride m
	lo, hi []float64
	g      []float64 // A y + b
	v      []float64 // gradient on F (by position)
	p      []float64 // step on F (by position)
	lrow   []float64 // L⁻¹ a_Fj
	w      []float64 // scratch for KKTResidual
	free   []int     // F in factor order
	tmp    []int
	pos    []int // position of a variable in free, or -1
	st     []int8
	rej    []bool  // candidates rejected since y last changed
	nupd   int     // factor updates since the last full factorisation
	scale  float64 // max(‖b‖∞, ‖A y‖∞) at the last gradFull
}

// Solve implements Solver. y on entry is a warm start (projected onto the
// box; its interior components form the initial free set), on return the
// solution.
func (d *Dense) Solve(pr *Problem, y []float64) (Result, error) {
	res := Result{Method: MethodDense}
	m, err := checkProblem(pr, y)
	if err != nil {
		return res, err
	}
	if m == 0 {
		return res, nil
	}
	tol := d.Tol
	if tol <= 0 {
		tol = DefaultDenseTol
	}
	maxIter := d.MaxIter
	if maxIter <= 0 {
		maxIter = 10*m + 100
	}
	d.setup(pr, m)
	iter := 0
	err = d.run(pr, y, tol, maxIter, &iter)
	d.b = nil
	res.Iterations = iter
	res.Residual = KKTResidual(pr, y, d.w)
	if err == errIterLimit || (err == nil && !(res.Residual <= tol)) {
		return res, notConverged(MethodDense, iter, res.Residual, tol)
	}
	return res, err
}

func (d *Dense) setup(pr *Problem, m int) {
	d.m = m
	d.b = pr.B
	d.a = resize(d.a, m*m)
	d.l = resize(d.l, m*m)
	d.lo = resize(d.lo, m)
	d.hi = resize(d.hi, m)
	d.g = resize(d.g, m)
	d.v = resize(d.v, m)
	d.p = resize(d.p, m)
	d.lrow = resize(d.lrow, m)
	d.w = resize(d.w, m)
	d.free = resize(d.free, m)[:0]
	d.tmp = resize(d.tmp, m)[:0]
	d.pos = resize(d.pos, m)
	d.st = resize(d.st, m)
	d.rej = resize(d.rej, m)
	d.nupd = 0
	a := d.a
	if dm, ok := pr.A.(*DenseMatrix); ok && dm.N == m && len(dm.Data) >= m*m {
		// Use the lower triangle so that A is exactly symmetric.
		for i := 0; i < m; i++ {
			copy(a[i*m:i*m+i+1], dm.Data[i*m:i*m+i+1])
		}
	} else {
		for i := 0; i < m; i++ {
			for j := 0; j <= i; j++ {
				a[i*m+j] = pr.A.At(i, j)
			}
		}
	}
	for i := 0; i < m; i++ {
		for j := 0; j < i; j++ {
			a[j*m+i] = a[i*m+j]
		}
	}
	for i := 0; i < m; i++ {
		d.lo[i], d.hi[i] = pr.LoAt(i), pr.HiAt(i)
	}
}

// run is the active-set iteration. It leaves the best iterate in y.
//
// During the iteration d.g = A y + b is updated incrementally (O(m·|F|) per
// step) and recomputed every freshEvery pivots. When pricing finds no
// candidate, the free-set solution is polished by iterative refinement with
// freshly computed gradients, and pricing is repeated on a fresh gradient.
func (d *Dense) run(pr *Problem, y []float64, tol float64, maxIter int, iter *int) error {
	if err := d.start(pr, y, iter, maxIter); err != nil {
		return err
	}
	d.gradFull(y)
	stopTol := tol / 8
	check, checkS := -1, 0.0
	polished := false
	sinceFresh := 0
	for {
		rejected, err := d.inner(y, iter, maxIter, check, checkS, false)
		if err != nil {
			return err
		}
		if check >= 0 {
			if rejected {
				// j's first free-set step pointed back into its bound: its
				// violation was rounding noise. Undo the addition.
				d.removeAt(len(d.free) - 1)
				if checkS > 0 {
					d.st[check] = atLo
				} else {
					d.st[check] = atHi
				}
				d.rej[check] = true
			} else {
				d.clearRej()
			}
			check = -1
		}
		if sinceFresh >= freshEvery {
			d.gradFull(y)
			sinceFresh = 0
		}
		best, s, thr := d.price(stopTol)
		if best < 0 {
			// Polish the free-set solution and price again on an exact
			// gradient.
			if _, err := d.inner(y, iter, maxIter, -1, 0, true); err != nil {
				return err
			}
			d.gradFull(y)
			sinceFresh = 0
			best, s, thr = d.price(stopTol)
		}
		if best < 0 {
			if polished || KKTResidual(pr, y, d.w) <= tol {
				return nil
			}
			// Not accurate enough: refactor from scratch and go round again.
			polished = true
			if err := d.refactor(y); err != nil {
				return err
			}
			d.gradFull(y)
			d.clearRej()
			continue
		}
		*iter++
		if *iter > maxIter {
			return errIterLimit
		}
		sinceFresh++
		code, err := d.enter(y, best, s, true, thr, iter, maxIter)
		if err != nil {
			return err
		}
		switch code {
		case enterRejected:
			d.rej[best] = true
		case enterChecked:
			check, checkS = best, s
		case enterMoved:
			d.clearRej()
		}
	}
}

// price returns the bound variable whose gradient most wants it to move
// (largest |gⱼ|/√Aⱼⱼ, the square root of the decrease a step along eⱼ
// achieves), the direction s = ±1 it wants to move in, and the threshold
// below which gradients count as zero (stopTol times the KKTResidual
// scale). best is −1 if every bound variable satisfies its KKT condition.
func (d *Dense) price(stopTol float64) (best int, s, thr float64) {
	m := d.m
	var scale float64
	for i, g := range d.g {
		scale = max(scale, math.Abs(d.b[i]), math.Abs(g-d.b[i]))
	}
	thr = stopTol * scale
	best = -1
	var bestScore float64
	for j := 0; j < m; j++ {
		st := d.st[j]
		if st == isFree || d.rej[j] || d.lo[j] == d.hi[j] {
			continue
		}
		gj := d.g[j]
		var sj float64
		switch {
		case st == atLo && gj < -thr:
			sj = 1
		case st == atHi && gj > thr:
			sj = -1
		default:
			continue
		}
		score := math.Inf(1)
		if ajj := d.a[j*m+j]; ajj > 0 {
			score = math.Abs(gj) / math.Sqrt(ajj)
		}
		if best < 0 || score > bestScore {
			best, bestScore, s = j, score, sj
		}
	}
	return best, s, thr
}

// start projects the warm start onto the box and builds the initial free set
// from its interior components.
func (d *Dense) start(pr *Problem, y []float64, iter *int, maxIter int) error {
	m := d.m
	for i := 0; i < m; i++ {
		lo, hi := d.lo[i], d.hi[i]
		v := clamp(y[i], lo, hi)
		y[i] = v
		d.pos[i] = -1
		d.rej[i] = false
		switch {
		case v == lo:
			d.st[i] = atLo
		case v == hi:
			d.st[i] = atHi
		default:
			d.st[i] = isFree // pending: not yet in the factor
		}
	}
	var pending bool
	for j := 0; j < m; j++ {
		if d.st[j] != isFree {
			continue
		}
		ajj := d.a[j*m+j]
		if delta := d.pivot(j); ajj > 0 && delta > singularPivot*ajj {
			d.appendFree(j, delta)
			continue
		}
		// Dependent on the free set: put it on its nearest finite bound.
		lo, hi := d.lo[j], d.hi[j]
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			pending = true
		case y[j]-lo <= hi-y[j]:
			y[j], d.st[j] = lo, atLo
		default:
			y[j], d.st[j] = hi, atHi
		}
	}
	if !pending {
		return nil
	}
	for j := 0; j < m; j++ {
		if d.st[j] == isFree && d.pos[j] < 0 {
			scale := d.gradFull(y)
			if _, err := d.enter(y, j, 0, false, 1e-14*scale, iter, maxIter); err != nil {
				return err
			}
		}
	}
	return nil
}

// inner makes y optimal on the current free set: Newton steps
// p = −A_FF⁻¹ g_F cut back at the first bound (which then leaves F). Without
// refine it uses and updates the incremental gradient d.g and stops after
// the first full step; with refine it recomputes g_F from scratch before
// every step and iterates (iterative refinement) until the free gradient
// stops shrinking, leaving d.g stale. If check ≥ 0 it is a variable that has
// just joined F moving in direction s; when the first step does not move it
// that way the addition is rejected (rejected = true, nothing changed).
func (d *Dense) inner(y []float64, iter *int, maxIter int, check int, s float64, refine bool) (rejected bool, err error) {
	full := false
	prev := math.Inf(1)
	refines := 0
	refactored := false
	for {
		k := len(d.free)
		if k == 0 {
			return false, nil
		}
		if refine {
			gn, scale := d.gradFree(y)
			if full {
				if gn == 0 || refines >= maxRefine {
					return false, nil
				}
				if gn > 0.5*prev {
					// Refinement stalled. If that happened above rounding
					// level, a factor drifted by many updates may be the
					// cause: recompute it once.
					if refactored || d.nupd == 0 || gn <= refineNoise*scale {
						return false, nil
					}
					if err := d.refactor(y); err != nil {
						return false, err
					}
					refactored = true
					full, prev = false, math.Inf(1)
					continue
				}
				refines++
			}
			prev = gn
		} else {
			if full {
				return false, nil
			}
			for r, i := range d.free {
				d.v[r] = d.g[i]
			}
		}
		k = len(d.free)
		p := d.p[:k]
		for r := range p {
			p[r] = -d.v[r]
		}
		d.solveL(p)
		d.solveLT(p)
		if check >= 0 {
			if p[d.pos[check]]*s <= 0 {
				return true, nil
			}
			check = -1
		}
		alpha, blk := 1.0, -1
		for r, i := range d.free {
			pr := p[r]
			var t float64
			switch {
			case pr < 0 && !math.IsInf(d.lo[i], -1):
				t = (d.lo[i] - y[i]) / pr
			case pr > 0 && !math.IsInf(d.hi[i], 1):
				t = (d.hi[i] - y[i]) / pr
			default:
				continue
			}
			if t < alpha {
				alpha, blk = t, r
			}
		}
		if alpha < 0 {
			alpha = 0
		}
		for r, i := range d.free {
			y[i] += alpha * p[r]
		}
		if !refine {
			d.addGradient(alpha, p)
		}
		if blk < 0 {
			full = true
			continue
		}
		*iter++
		i := d.free[blk]
		if p[blk] < 0 {
			y[i] = d.lo[i]
		} else {
			y[i] = d.hi[i]
		}
		d.dropAtBounds(y)
		full, prev, refines = false, math.Inf(1), 0
		if *iter > maxIter {
			return false, errIterLimit
		}
	}
}

// addGradient sets d.g += α A_{:,F} p (p by position in F).
func (d *Dense) addGradient(alpha float64, p []float64) {
	m := d.m
	g := d.g
	for r, i := range d.free {
		c := alpha * p[r]
		if c == 0 {
			continue
		}
		row := d.a[i*m : (i+1)*m]
		for k, a := range row {
			g[k] += c * a
		}
	}
}

// enter brings variable j into play. From a bound (fromBound, direction s)
// it joins F when its pivot is regular; otherwise y moves along the
// null-space direction d = s(e_j − A_FF⁻¹ a_Fj) (on which A d ≈ 0) until a
// bound stops it. An interior j (fromBound false) chooses s itself. thr is
// the gradient size treated as zero. d.g must hold A y + b.
func (d *Dense) enter(y []float64, j int, s float64, fromBound bool, thr float64, iter *int, maxIter int) (int, error) {
	m := d.m
	moved := false
	for {
		ajj := d.a[j*m+j]
		delta := d.pivot(j)
		if ajj > 0 && delta > singularPivot*ajj {
			d.appendFree(j, delta)
			if fromBound && !moved {
				return enterChecked, nil
			}
			return enterMoved, nil
		}
		// q = A_FF⁻¹ a_Fj; the direction is d = s(e_j − q) with slope s·σ
		// and curvature δ, which is zero to working precision: move to the
		// first bound.
		k := len(d.free)
		q := d.p[:k]
		copy(q, d.lrow[:k])
		d.solveLT(q)
		sigma := d.g[j]
		for r, i := range d.free {
			sigma -= d.g[i] * q[r]
		}
		// Rounding noise in σ = gⱼ − g_Fᵀq grows with ‖q‖₁.
		noise := 1.0
		for _, v := range q {
			noise += math.Abs(v)
		}
		qn := noise // 1 + ‖q‖₁
		noise *= d.scale
		if fromBound {
			if s*sigma >= -max(thr, nullSlopeNoise*float64(m)*noise) {
				// No slope beyond rounding noise: moving along d would only
				// shuffle y (and A y, by the rounding in d).
				if moved {
					return enterMoved, nil
				}
				return enterRejected, nil
			}
		} else {
			switch {
			case sigma < -thr:
				s = 1
			case sigma > thr:
				s = -1
			case !math.IsInf(d.lo[j], -1):
				s = -1 // no real slope: head for a finite bound of j
			default:
				s = 1
			}
		}
		slope := s * sigma
		// Ratio test along d.
		tb, blk := math.Inf(1), -1
		if s > 0 {
			tb = d.hi[j] - y[j]
		} else {
			tb = y[j] - d.lo[j]
		}
		for r, i := range d.free {
			dr := -s * q[r]
			var t float64
			switch {
			case dr < 0 && !math.IsInf(d.lo[i], -1):
				t = (d.lo[i] - y[i]) / dr
			case dr > 0 && !math.IsInf(d.hi[i], 1):
				t = (d.hi[i] - y[i]) / dr
			default:
				continue
			}
			if t < tb {
				tb, blk = t, r
			}
		}
		if math.IsInf(tb, 1) {
			// A ray without a bound ahead. On an exact null direction
			// (A d = 0) the slope dᵀ(A y + b) is bᵀd, independent of y; the
			// computed d is null only to the precision of the factor, and
			// (A d)ᵀy grows with ‖y‖. So the ray proves unboundedness only
			// if bᵀd, measured against ‖b‖∞(1 + ‖q‖₁), is below zero too.
			// (A bounded QP whose y had drifted to 7.7e10 along near-null
			// directions showed slope −1.34 with bᵀd = −1.3e-9.)
			if slope < -max(thr, unboundedSlope*noise) && s*d.nullB(j, q) < -unboundedSlope*d.bScale()*qn {
				return 0, ErrUnbounded
			}
			if fromBound {
				if moved {
					return enterMoved, nil
				}
				return enterRejected, nil
			}
			return 0, errDegenerate
		}
		if delta > 0 && -slope < tb*delta {
			// The (tiny) curvature stops the move before the bound:
			// f(y + t d) = f(y) + t·slope + ½t²δ is least at t = −slope/δ
			// < tb. j joins F with an ill-conditioned pivot.
			d.appendFree(j, delta)
			if fromBound && !moved {
				return enterChecked, nil
			}
			return enterMoved, nil
		}
		if kunc := max(-delta, nullSlopeNoise*float64(m)*ajj*qn*qn); fromBound && !moved && -slope < tb*kunc {
			// The curvature δ = dᵀA d along d is known only to its
			// rounding error, about m·ε·Aⱼⱼ·‖d‖₁² (and at least |δ| when
			// rounding made it negative), and a curvature that small
			// could stop the move long before the bound: the slope does
			// not justify the step. Moving anyway sent y of a bounded
			// bunny island (26 contacts, ‖d‖₁ = 5.1e3, δ = −6.7e-8) 3.2e7
			// along d for a slope of −9.4e-10, after which rounding in
			// (A d)ᵀy looked like an unbounded ray.
			return enterRejected, nil
		}
		if tb < 0 {
			tb = 0
		}
		*iter++
		y[j] += s * tb
		for r, i := range d.free {
			y[i] -= s * tb * q[r]
		}
		moved = true
		if blk < 0 {
			if s > 0 {
				y[j], d.st[j] = d.hi[j], atHi
			} else {
				y[j], d.st[j] = d.lo[j], atLo
			}
			d.dropAtBounds(y)
			d.gradFull(y)
			return enterMoved, nil
		}
		i := d.free[blk]
		if s*q[blk] > 0 {
			y[i] = d.lo[i]
		} else {
			y[i] = d.hi[i]
		}
		d.dropAtBounds(y)
		if *iter > maxIter {
			return 0, errIterLimit
		}
		if tb > 0 {
			fromBound = false
			d.st[j] = isFree // interior, not yet in the factor
		}
		d.gradFull(y)
	}
}

// nullB returns bⱼ − b_Fᵀq, bᵀ of the null direction e_j − q (q by position
// in F).
func (d *Dense) nullB(j int, q []float64) float64 {
	v := d.b[j]
	for r, i := range d.free {
		v -= d.b[i] * q[r]
	}
	return v
}

// bScale returns max(‖b‖∞, tiny).
func (d *Dense) bScale() float64 {
	var s float64
	for _, v := range d.b {
		s = max(s, math.Abs(v))
	}
	if s == 0 {
		s = math.SmallestNonzeroFloat64
	}
	return s
}

// dropAtBounds removes from F every variable at or beyond one of its bounds.
func (d *Dense) dropAtBounds(y []float64) {
	for r := len(d.free) - 1; r >= 0; r-- {
		i := d.free[r]
		switch {
		case y[i] <= d.lo[i]:
			y[i], d.st[i] = d.lo[i], atLo
		case y[i] >= d.hi[i]:
			y[i], d.st[i] = d.hi[i], atHi
		default:
			continue
		}
		d.removeAt(r)
	}
}

// refactor recomputes the Cholesky factor of A_FF from scratch. A variable
// whose pivot has become numerically singular is moved to its nearest finite
// bound.
func (d *Dense) refactor(y []float64) error {
	m := d.m
	d.tmp = append(d.tmp[:0], d.free...)
	for _, i := range d.tmp {
		d.pos[i] = -1
	}
	d.free = d.free[:0]
	for _, j := range d.tmp {
		ajj := d.a[j*m+j]
		if delta := d.pivot(j); ajj > 0 && delta > singularPivot*ajj {
			d.appendFree(j, delta)
			continue
		}
		lo, hi := d.lo[j], d.hi[j]
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			return errDegenerate
		case y[j]-lo <= hi-y[j]:
			y[j], d.st[j] = lo, atLo
		default:
			y[j], d.st[j] = hi, atHi
		}
	}
	d.nupd = 0
	return nil
}

func (d *Dense) clearRej() {
	for i := range d.rej {
		d.rej[i] = false
	}
}

// gradFull sets d.g = A y + b and returns max(‖b‖∞, ‖A y‖∞, tiny), the
// scale of KKTResidual.
func (d *Dense) gradFull(y []float64) float64 {
	m, b := d.m, d.b
	var scale float64
	for i := 0; i < m; i++ {
		row := d.a[i*m : (i+1)*m]
		var s float64
		for c, a := range row {
			s += a * y[c]
		}
		scale = math.Max(scale, math.Max(math.Abs(s), math.Abs(b[i])))
		d.g[i] = s + b[i]
	}
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	d.scale = scale
	return scale
}

// gradFree sets d.v = (A y + b)_F by position and returns ‖d.v‖∞ and
// max(‖b_F‖∞, ‖(A y)_F‖∞).
func (d *Dense) gradFree(y []float64) (gn, scale float64) {
	m, b := d.m, d.b
	for r, i := range d.free {
		row := d.a[i*m : (i+1)*m]
		var s float64
		for c, a := range row {
			s += a * y[c]
		}
		scale = max(scale, math.Abs(s), math.Abs(b[i]))
		s += b[i]
		d.v[r] = s
		gn = max(gn, math.Abs(s))
	}
	return gn, scale
}

// pivot sets d.lrow = L⁻¹ a_Fj and returns δ = A_jj − ‖L⁻¹ a_Fj‖².
func (d *Dense) pivot(j int) float64 {
	m := d.m
	k := len(d.free)
	l := d.lrow[:k]
	for r, i := range d.free {
		l[r] = d.a[i*m+j]
	}
	d.solveL(l)
	delta := d.a[j*m+j]
	for _, x := range l {
		delta -= x * x
	}
	return delta
}

// appendFree adds j at the end of F, using d.lrow from pivot(j).
func (d *Dense) appendFree(j int, delta float64) {
	m := d.m
	k := len(d.free)
	row := d.l[k*m : k*m+k+1]
	copy(row, d.lrow[:k])
	row[k] = math.Sqrt(delta)
	d.free = append(d.free, j)
	d.pos[j] = k
	d.st[j] = isFree
	d.nupd++
}

// removeAt deletes position q from F and downdates the factor with Givens
// rotations. The caller sets the variable's state.
func (d *Dense) removeAt(q int) {
	m := d.m
	k := len(d.free)
	d.pos[d.free[q]] = -1
	l := d.l
	for r := q; r < k-1; r++ {
		copy(l[r*m:r*m+r+2], l[(r+1)*m:(r+1)*m+r+2])
		d.free[r] = d.free[r+1]
		d.pos[d.free[r]] = r
	}
	d.free = d.free[:k-1]
	for c := q; c < k-1; c++ {
		a, b := l[c*m+c], l[c*m+c+1]
		h := math.Hypot(a, b)
		cs, sn := a/h, b/h
		for r := c; r < k-1; r++ {
			x, z := l[r*m+c], l[r*m+c+1]
			l[r*m+c] = cs*x + sn*z
			l[r*m+c+1] = cs*z - sn*x
		}
		l[c*m+c+1] = 0
	}
	d.nupd++
}

// solveL solves L x = x in place (L is the factor of the first len(x) free
// variables).
func (d *Dense) solveL(x []float64) {
	m := d.m
	for r := range x {
		row := d.l[r*m : r*m+r]
		s := x[r]
		for c, v := range row {
			s -= v * x[c]
		}
		x[r] = s / d.l[r*m+r]
	}
}

// solveLT solves Lᵀ x = x in place.
func (d *Dense) solveLT(x []float64) {
	m := d.m
	for r := len(x) - 1; r >= 0; r-- {
		xr := x[r] / d.l[r*m+r]
		x[r] = xr
		row := d.l[r*m : r*m+r]
		for c, v := range row {
			x[c] -= v * xr
		}
	}
}

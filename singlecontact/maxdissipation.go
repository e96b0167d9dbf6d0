package singlecontact

import (
	"fmt"
	"math"
)

// Case names the branch of the structogram (Fig. 3) that produced an
// impulse.
type Case uint8

const (
	// Separating: b_n < 0, x* = 0.
	Separating Case = iota
	// Frictionless: μ = 0, x* = (b_n/A_nn, 0, 0).
	Frictionless
	// Sticking: P1 holds, x* = x₀ = A⁻¹b and the contact comes to rest.
	Sticking
	// GrazingAtRest: b_n = 0 and the plane of maximum compression meets
	// the cone only at its apex (P2, degenerate ellipse): x* = 0.
	GrazingAtRest
	// GrazingRay: b_n = 0 with a degenerate hyperbola or parabola: x* lies
	// on one of the boundary rays of eq. (9).
	GrazingRay
	// Sliding: b_n > 0 and P1 fails: x* lies on the conic at the
	// minimizing root of eq. (8).
	Sliding
	// SlidingFallback: as Sliding, but no root of eq. (8) survived the
	// filters and the minimizer was found by a scan and golden-section
	// search over I. The tests assert that it does not happen on 10⁴
	// random problems; it exists so that rounding can never produce a
	// wrong or non-finite impulse.
	SlidingFallback
)

func (c Case) String() string {
	switch c {
	case Separating:
		return "separating"
	case Frictionless:
		return "frictionless"
	case Sticking:
		return "sticking"
	case GrazingAtRest:
		return "grazing-at-rest"
	case GrazingRay:
		return "grazing-ray"
	case Sliding:
		return "sliding"
	case SlidingFallback:
		return "sliding-fallback"
	}
	return fmt.Sprintf("Case(%d)", uint8(c))
}

// GrazingTol is ε_b: a contact with |b_n| ≤ ε_b·max(|b_t|, |b_o|) is
// treated as grazing (b_n = 0). On a hyperbola the sliding solution for
// small b_n > 0 lies at an angle where f_r(α) = O(b_n), and r = μb_n/f_r
// carries a relative error of about 10⁻¹⁶·max|b_to|/b_n (measured: 6·10⁻⁹
// at b_n = 10⁻⁷ max|b_to|). Below ε_b the grazing rays of eq. (9) are used
// instead, whose answer differs from the exact one by O(ε_b) relative;
// ε_b = 10⁻⁸ balances the two errors.
const GrazingTol = 1e-8

// MaxDissipation returns the maximum-dissipation impulse x* of the
// single-contact problem p (Preclik et al., eq. 3) and the branch of the
// structogram (Fig. 3) that produced it:
//
//  1. b_n < 0: x* = 0;
//  2. μ = 0: x* = (b_n/A_nn, 0, 0);
//  3. P1 (x₀ = A⁻¹b lies in the cone): x* = x₀;
//  4. b_n = 0: P2 (A_nn > μ‖(A_nt, A_no)‖): x* = 0; otherwise the lower
//     of the two boundary rays of eq. (9);
//  5. otherwise the root of eq. (8) in I with the smallest objective.
//
// It does not iterate (Newton steps polish the closed-form roots) and does
// not allocate. p must satisfy the package's conditions (A SPD, μ ≥ 0,
// finite data).
func MaxDissipation(p *Problem) ([3]float64, Case) {
	b := p.B
	mu := p.Mu
	a := &p.A
	eb := GrazingTol * math.Max(math.Abs(b[1]), math.Abs(b[2]))
	if b[0] < -eb {
		return [3]float64{}, Separating
	}
	grazing := b[0] <= eb
	if grazing {
		b[0] = 0
	}
	if mu == 0 {
		return [3]float64{b[0] / a[0][0], 0, 0}, Frictionless
	}
	if a[0][1] == 0 && a[0][2] == 0 && a[1][2] == 0 && a[1][1] == a[2][2] {
		return isotropic(a[0][0], a[1][1], b, mu)
	}
	return general(a, b, mu, grazing)
}

// general is steps 3–5 of the structogram for any SPD block (b_n ≥ 0,
// μ > 0; b_n = 0 exactly when grazing).
func general(a *[3][3]float64, b [3]float64, mu float64, grazing bool) ([3]float64, Case) {
	x0 := solveSPD3(a, b)
	if x0[0] >= 0 && math.Sqrt(x0[1]*x0[1]+x0[2]*x0[2]) <= mu*x0[0] {
		return x0, Sticking
	}
	c := newConic(a, &b, mu)
	if grazing {
		if c.ellipse() {
			return [3]float64{}, GrazingAtRest
		}
		return c.bestRay(), GrazingRay
	}
	tr := mdStationarity(a, &b, mu)
	// rank the candidates by objective and polish from the best until one
	// is a root of eq. (8) in I
	var cand [4]unit
	var fs [4]float64
	n := tr.candidates(&cand)
	for i := 0; i < n; i++ {
		fs[i] = math.Inf(1)
		if fr := c.fr(cand[i]); fr > 0 {
			r := c.mu * c.bn / fr
			fs[i] = c.fobj(r*cand[i].c, r*cand[i].s)
		}
	}
	best, bestF := unit{}, math.Inf(1)
	for {
		k := -1
		for i := 0; i < n; i++ {
			if fs[i] < math.Inf(1) && (k < 0 || fs[i] < fs[k]) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		fs[k] = math.Inf(1)
		u, ok := tr.polish(cand[k])
		if ok && c.fr(u) > 0 {
			best, bestF = u, 0
			break
		}
	}
	if math.IsInf(bestF, 1) {
		return c.point(angle(c.scanMin())), SlidingFallback
	}
	return c.point(best), Sliding
}

// Isotropic is MaxDissipation for a decoupled, isotropic block A =
// diag(A_nn, A_tt, A_tt) (every contact of a sphere with a sphere or
// static geometry), given by its two entries; it returns the same impulse
// (to rounding) and case without building the Problem.
func Isotropic(ann, att float64, b [3]float64, mu float64) ([3]float64, Case) {
	return IsotropicInv(1/ann, 1/att, b, mu)
}

// IsotropicInv is Isotropic given the reciprocals 1/A_nn and 1/A_tt, which
// a solver that visits the same block many times computes once.
func IsotropicInv(iann, iatt float64, b [3]float64, mu float64) ([3]float64, Case) {
	eb := math.Abs(b[1])
	if a := math.Abs(b[2]); a > eb {
		eb = a
	}
	eb *= GrazingTol
	if b[0] < -eb {
		return [3]float64{}, Separating
	}
	if b[0] <= eb {
		b[0] = 0
	}
	xn := b[0] * iann
	if mu == 0 {
		return [3]float64{xn, 0, 0}, Frictionless
	}
	bto := math.Sqrt(b[1]*b[1] + b[2]*b[2])
	if b[0] == 0 && bto != 0 {
		return [3]float64{}, GrazingAtRest // P1 fails, P2 holds
	}
	lim := mu * xn
	if bto*iatt <= lim {
		return [3]float64{xn, b[1] * iatt, b[2] * iatt}, Sticking
	}
	k := lim / bto
	return [3]float64{xn, k * b[1], k * b[2]}, Sliding
}

// isotropic is the structogram for a decoupled isotropic block (b_n ≥ 0,
// μ > 0), where it reduces to a closed form: x₀ = (b_n/A_nn, b_to/A_tt)
// when it lies in the cone, otherwise the conic is the circle r =
// μb_n/A_nn, eq. (8) has the two roots α = atan2(b_o, b_t) and α + π (k₂ =
// c₀ = 0: the collapse of the quartic's leading coefficient), and the
// minimum is at the first, so x_to = μ(b_n/A_nn) b_to/‖b_to‖ — the
// projection of x₀ onto the cone along the plane of maximum compression.
// TestSphereProjection checks it against the quartic path.
func isotropic(ann, att float64, b [3]float64, mu float64) ([3]float64, Case) {
	return IsotropicInv(1/ann, 1/att, b, mu)
}

// mdStationarity returns the left side of eq. (8),
// c₀ + c₁cos(α + φ₁) + c₂cos(2α + φ₂), from the Appendix A constants in
// their square-root-free form: c₁e^{iφ₁} = X + iY, c₂e^{iφ₂} = ½μA_nn(Q + iP).
func mdStationarity(a *[3][3]float64, b *[3]float64, mu float64) trig2 {
	ann, ant, ano := a[0][0], a[0][1], a[0][2]
	att, ato, aoo := a[1][1], a[1][2], a[2][2]
	bn, bt, bo := b[0], b[1], b[2]
	mu2 := mu * mu
	P := (att-aoo)*bn - ant*bt + ano*bo
	Q := 2*ato*bn - ano*bt - ant*bo
	X := mu2*((ant*ato-ano*att)*bn+ant*ano*bt-ant*ant*bo) - ann*ann*bo + ann*ano*bn
	Y := mu2*((ano*ato-ant*aoo)*bn-ano*ano*bt+ant*ano*bo) - ann*ann*bt + ann*ant*bn
	h := 0.5 * mu * ann
	return trig2{
		c0: 1.5 * mu * ann * (ano*bt - ant*bo),
		k1: complex(X, Y),
		k2: complex(h*Q, h*P),
	}
}

// bestRay returns the minimizer over the two boundary rays of the grazing
// problem (b_n = 0). Eq. (9) picks one ray by a side test that is not exact
// for anisotropic Â; both are evaluated and the lower objective kept.
func (c *conic) bestRay() [3]float64 {
	a1, a2 := c.rayDirs()
	x1, f1 := c.ray(a1)
	x2, f2 := c.ray(a2)
	if f2 < f1 {
		return x2
	}
	return x1
}

// ray minimizes the objective along the ray γ = r(cos α, sin α), r ≥ 0,
// on the plane a_nᵀx = 0: r* = max(0, uᵀb̂/uᵀÂu).
func (c *conic) ray(al float64) ([3]float64, float64) {
	sn, cs := math.Sincos(al)
	uau := c.htt*cs*cs + 2*c.hto*cs*sn + c.hoo*sn*sn
	r := math.Max(0, (cs*c.bt+sn*c.bo)/uau)
	gt, gto := r*cs, r*sn
	return c.fromTangential(gt, gto), c.fobj(gt, gto)
}

// scanMin minimizes f_obj over I by a scan of 256 angles and a
// golden-section search around the best; it is the fallback of
// MaxDissipation.
func (c *conic) scanMin() float64 {
	lo, hi := c.a0()-math.Pi, c.a0()+math.Pi
	if !c.ellipse() {
		lo, hi = c.rayDirs()
	}
	f := func(al float64) float64 {
		u := angle(al)
		fr := c.fr(u)
		if !(fr > 0) {
			return math.Inf(1)
		}
		r := c.mu * c.bn / fr
		return c.fobj(r*u.c, r*u.s)
	}
	const n = 256
	h := (hi - lo) / n
	best, bestF := lo+h/2, math.Inf(1)
	for k := 0; k < n; k++ {
		al := lo + (float64(k)+0.5)*h
		if v := f(al); v < bestF {
			best, bestF = al, v
		}
	}
	l, r := best-h, best+h
	g := (math.Sqrt(5) - 1) / 2
	x1, x2 := r-g*(r-l), l+g*(r-l)
	f1, f2 := f(x1), f(x2)
	for it := 0; it < 100 && r-l > 1e-15*(1+math.Abs(best)); it++ {
		if f1 <= f2 {
			r, x2, f2 = x2, x1, f1
			x1 = r - g*(r-l)
			f1 = f(x1)
		} else {
			l, x1, f1 = x1, x2, f2
			x2 = l + g*(r-l)
			f2 = f(x2)
		}
	}
	return 0.5 * (l + r)
}

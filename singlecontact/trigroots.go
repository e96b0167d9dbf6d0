package singlecontact

import "math"

// A trigonometric polynomial of degree two,
//
//	T(α) = c₀ + Re(k₁ e^{iα}) + Re(k₂ e^{2iα})
//	     = c₀ + a₁cos α + b₁sin α + a₂cos 2α + b₂sin 2α,
//
// is the real part of a self-inversive quartic in y = e^{iα}: multiplying
// 2T by y² gives
//
//	k₂ y⁴ + k₁ y³ + 2c₀ y² + k̄₁ y + k̄₂ = 0,                          (A.1)
//
// whose roots on the unit circle are the real roots α of T (Preclik et
// al., Appendix A, with k₁ = c₁e^{iφ₁}, k₂ = c₂e^{iφ₂}). Its leading
// coefficient collapses when k₂ → 0 — exactly for every sphere contact —
// and then two roots run off to 0 and ∞ and closed-form solvers lose the
// unit roots among them.
//
// roots therefore solves (A.1) after the Cayley transform
// y = e^{iα_s}(1 + it)/(1 − it), which maps the unit circle onto the real t
// axis (t = tan((α − α_s)/2)): multiplied by (1 + t²)², T becomes the real
// quartic
//
//	e₄t⁴ + e₃t³ + e₂t² + e₁t + e₀,   e₄ = c₀ − A + C,  e₃ = 2B − 4D,
//	e₂ = 2c₀ − 6C,  e₁ = 2B + 4D,  e₀ = c₀ + A + C,                  (A.2)
//
// with (A, B) and (C, D) the first and second harmonics of T rotated by α_s
// and 2α_s. Its leading coefficient is e₄ = T(α_s + π); α_s + π is taken
// as the one of eight equally spaced angles where |T| is largest, which by
// Parseval's identity (exact for degree two on eight points) is at least
// the root mean square of T. The monic quartic then has coefficients of
// order one, its roots are bounded, and the collapse of (A.1) becomes a
// pair of non-real roots ±i that the real solver never reports. The real
// quartic is solved in closed form (Ferrari; the largest root of the real
// resolvent cubic by Cardano's or the trigonometric formula), each real
// root t is mapped back to (cos α, sin α) without trigonometric functions,
// and a few Newton steps on T polish it to rounding.
type trig2 struct {
	c0     float64
	k1, k2 complex128
}

// eval returns T(α) and T′(α) at (cos α, sin α) = (c1, s1).
func (t *trig2) eval(c1, s1 float64) (v, d float64) {
	s2 := 2 * s1 * c1
	c2 := c1*c1 - s1*s1
	r1, i1 := real(t.k1), imag(t.k1)
	r2, i2 := real(t.k2), imag(t.k2)
	v = t.c0 + r1*c1 - i1*s1 + r2*c2 - i2*s2
	d = -r1*s1 - i1*c1 - 2*(r2*s2+i2*c2)
	return v, d
}

// scale is |c₀| + |k₁| + |k₂|, the size against which residuals of T are
// measured.
func (t *trig2) scale() float64 { return math.Abs(t.c0) + cabs(t.k1) + cabs(t.k2) }

// cabs is |z| without the overflow guard of cmplx.Abs.
func cabs(z complex128) float64 { return math.Sqrt(real(z)*real(z) + imag(z)*imag(z)) }

// rootTol: an angle is a root when |T(α)| ≤ rootTol·scale after polishing.
const rootTol = 1e-9

// unit is a point (cos α, sin α) of the unit circle.
type unit struct{ c, s float64 }

// rotate returns u turned by −δ (a Newton step α ← α − δ); small steps use
// the Taylor series of cos δ and sin δ (exact to rounding for |δ| < 10⁻³).
func (u unit) rotate(d float64) unit {
	var cd, sd float64
	if math.Abs(d) < 1e-3 {
		d2 := d * d
		cd = 1 - d2/2*(1-d2/12)
		sd = d * (1 - d2/6*(1-d2/20))
	} else {
		sd, cd = math.Sincos(d)
	}
	return unit{u.c*cd + u.s*sd, u.s*cd - u.c*sd}
}

// eighths holds (cos jπ/4, sin jπ/4), j = 0…7.
var eighths = [8]unit{{1, 0}, {math.Sqrt2 / 2, math.Sqrt2 / 2}, {0, 1}, {-math.Sqrt2 / 2, math.Sqrt2 / 2},
	{-1, 0}, {-math.Sqrt2 / 2, -math.Sqrt2 / 2}, {0, -1}, {math.Sqrt2 / 2, -math.Sqrt2 / 2}}

// roots writes the real roots of T, as points of the unit circle, into
// out and returns their number (0 to 4). Roots closer than 10⁻¹² rad are
// reported once.
func (t *trig2) roots(out *[4]unit) int {
	var raw [4]unit
	nr := t.candidates(&raw)
	n := 0
	for _, u := range raw[:nr] {
		u, ok := t.polish(u)
		if !ok {
			continue
		}
		dup := false
		for _, b := range out[:n] {
			// |sin(α−β)| small and cos(α−β) > 0
			if math.Abs(u.s*b.c-u.c*b.s) < 1e-12 && u.c*b.c+u.s*b.s > 0 {
				dup = true
				break
			}
		}
		if !dup {
			out[n] = u
			n++
		}
	}
	return n
}

// candidates writes the unpolished roots of T — the real roots of the
// quartic (A.2) mapped back to the unit circle — into out and returns
// their number.
func (t *trig2) candidates(out *[4]unit) int {
	// the sample of largest |T| becomes t = ∞ (β = π); at α = jπ/4,
	// (cos 2α, sin 2α) = eighths[2j mod 8]
	r1, i1 := real(t.k1), imag(t.k1)
	r2, i2 := real(t.k2), imag(t.k2)
	best, bestV := 0, -1.0
	for j, u := range eighths {
		u2 := eighths[(2*j)&7]
		v := math.Abs(t.c0 + r1*u.c - i1*u.s + r2*u2.c - i2*u2.s)
		if v > bestV {
			best, bestV = j, v
		}
	}
	if bestV == 0 {
		return 0 // T ≡ 0 has no isolated roots
	}
	// α_s = best·π/4 − π
	sh := eighths[(best+4)&7]
	sh2 := unit{sh.c*sh.c - sh.s*sh.s, 2 * sh.s * sh.c}
	a1, b1 := r1, -i1
	a2, b2 := r2, -i2
	A := a1*sh.c + b1*sh.s
	B := -a1*sh.s + b1*sh.c
	C := a2*sh2.c + b2*sh2.s
	D := -a2*sh2.s + b2*sh2.c
	c0 := t.c0
	inv := 1 / (c0 - A + C)
	var ts [4]float64
	nt := realQuartic((2*B-4*D)*inv, (2*c0-6*C)*inv, (2*B+4*D)*inv, (c0+A+C)*inv, &ts)
	for i, x := range ts[:nt] {
		// β = 2 atan t; α = β + α_s
		w := 1 / (1 + x*x)
		cb, sb := (1-x*x)*w, 2*x*w
		out[i] = unit{cb*sh.c - sb*sh.s, sb*sh.c + cb*sh.s}
	}
	return nt
}

// polish refines a candidate root by Newton's steps on T and reports
// whether it is a root (|T| ≤ rootTol·scale). The closed form leaves an
// error of order 10⁻¹², so one step usually suffices (quadratic
// convergence: a step below 10⁻⁸ leaves an error of order 10⁻¹⁶).
func (t *trig2) polish(u unit) (unit, bool) {
	v, d := t.eval(u.c, u.s)
	for it := 0; it < 5 && d != 0; it++ {
		step := v / d
		if math.Abs(step) > 0.2 {
			break // not near a simple real root
		}
		u = u.rotate(step)
		v, d = t.eval(u.c, u.s)
		if math.Abs(step) <= 1e-8 {
			break
		}
	}
	if !(math.Abs(v) <= rootTol*t.scale()) {
		return u, false
	}
	if m := u.c*u.c + u.s*u.s; m != 1 {
		m = math.Sqrt(m)
		u.c, u.s = u.c/m, u.s/m
	}
	return u, true
}

// realQuartic writes the real roots of t⁴ + a t³ + b t² + c t + d into
// out and returns their number. A double root may be reported twice or,
// when rounding makes its discriminant slightly negative, once (the
// discriminant is clamped at zero within a relative 10⁻¹⁰; the caller
// checks every root against T).
func realQuartic(a, b, c, d float64, out *[4]float64) int {
	// t = z − a/4: z⁴ + p z² + q z + r
	a2 := a * a
	p := b - 3*a2/8
	q := c - a*b/2 + a2*a/8
	r := d - a*c/4 + a2*b/16 - 3*a2*a2/256
	sh := -a / 4
	n := 0
	// biquadratic when |q| ≤ 10⁻¹⁴(|p| + √|r| + ∛|q|)³; near that bound
	// ∛|q| is below 3·10⁻⁵ of the other two terms, so they alone decide
	// (one cube root less per contact)
	scale := math.Abs(p) + math.Sqrt(math.Abs(r))
	if math.Abs(q) <= 1e-14*scale*scale*scale {
		// biquadratic: w = z², w² + p w + r = 0
		var w [2]float64
		nw := realQuadratic(p, r, &w)
		for _, wi := range w[:nw] {
			if wi >= 0 {
				z := math.Sqrt(wi)
				out[n], out[n+1] = z+sh, -z+sh
				n += 2
			}
		}
		return n
	}
	// resolvent m³ + p m² + (p²/4 − r) m − q²/8 = 0 has a root m > 0;
	// take the largest
	m := largestCubicRoot(p, p*p/4-r, -q*q/8)
	if !(m > 0) {
		return 0
	}
	s := math.Sqrt(2 * m)
	h := p/2 + m
	e := q / (2 * s)
	var z [2]float64
	for _, sg := range [2]float64{1, -1} {
		// z² − sg·s z + h + sg·e = 0
		nz := realQuadratic(-sg*s, h+sg*e, &z)
		for _, zi := range z[:nz] {
			out[n] = zi + sh
			n++
		}
	}
	return n
}

// realQuadratic writes the real roots of w² + b w + c into out (0 or 2),
// without cancellation; a discriminant within −10⁻¹⁰(b² + 4|c|) of zero is
// taken as zero.
func realQuadratic(b, c float64, out *[2]float64) int {
	disc := b*b - 4*c
	if disc < 0 {
		if disc < -1e-10*(b*b+4*math.Abs(c)) {
			return 0
		}
		disc = 0
	}
	sq := math.Sqrt(disc)
	if b < 0 {
		sq = -sq
	}
	qq := -0.5 * (b + sq)
	if qq == 0 {
		out[0], out[1] = 0, 0
		return 2
	}
	out[0], out[1] = qq, c/qq
	return 2
}

// largestCubicRoot returns the largest real root of m³ + a m² + b m + c,
// by Cardano's formula (one real root) or the trigonometric one (three),
// followed by two Newton steps.
func largestCubicRoot(a, b, c float64) float64 {
	// m = w − a/3: w³ + P w + Q = 0
	P := b - a*a/3
	Q := 2*a*a*a/27 - a*b/3 + c
	disc := Q*Q/4 + P*P*P/27
	var w float64
	if disc > 0 {
		sq := math.Sqrt(disc)
		var u float64
		if Q > 0 {
			u = -math.Cbrt(Q/2 + sq)
		} else {
			u = math.Cbrt(-Q/2 + sq)
		}
		w = u
		if u != 0 {
			w = u - P/(3*u)
		}
	} else if P < 0 {
		k := math.Sqrt(-P / 3)
		arg := math.Max(-1, math.Min(1, -Q/(2*k*k*k)))
		w = 2 * k * math.Cos(math.Acos(arg)/3)
	}
	m := w - a/3
	for it := 0; it < 2; it++ {
		f := ((m+a)*m+b)*m + c
		df := (3*m+2*a)*m + b
		if df == 0 {
			break
		}
		m -= f / df
	}
	return m
}

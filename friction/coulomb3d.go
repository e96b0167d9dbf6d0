package friction

import "math"

// The disk-constrained local solve of Coulomb, for three-dimensional
// contacts (two tangent columns per contact).

// localDisk solves one contact with two tangent columns exactly:
// x = (λ, β₁, β₂) with u = W x + r satisfying take-off, stick or slip on
// the disk |β| ≤ μλ. W is the symmetric 3×3 block, row-major. Stick solves
// W x = −r; slip along d = (cos θ, sin θ) takes the direction θ that solves
// u_t(θ) × d = 0 with u_t·d > 0 (found by scanning the circle at 64
// angles and refining each sign change by the Illinois method to 1e-15
// rad), preferring the largest u_t·d.
func localDisk(w []float64, r [3]float64, mu float64) [3]float64 {
	if r[0] >= 0 {
		return [3]float64{}
	}
	frictionless := [3]float64{-r[0] / w[0], 0, 0}
	if mu == 0 {
		return frictionless
	}
	// Stick: W x = −r (Cramer).
	det := w[0]*(w[4]*w[8]-w[5]*w[7]) - w[1]*(w[3]*w[8]-w[5]*w[6]) + w[2]*(w[3]*w[7]-w[4]*w[6])
	if det > 0 {
		b := [3]float64{-r[0], -r[1], -r[2]}
		var x [3]float64
		for c := 0; c < 3; c++ {
			var m [9]float64
			copy(m[:], w[:9])
			for a := 0; a < 3; a++ {
				m[3*a+c] = b[a]
			}
			x[c] = (m[0]*(m[4]*m[8]-m[5]*m[7]) - m[1]*(m[3]*m[8]-m[5]*m[6]) + m[2]*(m[3]*m[7]-m[4]*m[6])) / det
		}
		if x[0] >= 0 && math.Hypot(x[1], x[2]) <= mu*x[0]*(1+1e-14) {
			return x
		}
	}
	// Slip along d = (cos θ, sin θ): β = −μλd, λ = −r_n/(W_nn − μ W_nt·d),
	// u_t = λ(W_tn − μ W_tt d) + r_t must be a positive multiple of d.
	evalCS := func(c, s float64) (f, along, l float64, ok bool) {
		den := w[0] - mu*(w[1]*c+w[2]*s)
		if den <= 0 {
			return 0, 0, 0, false
		}
		l = -r[0] / den
		u1 := l*(w[3]-mu*(w[4]*c+w[5]*s)) + r[1]
		u2 := l*(w[6]-mu*(w[7]*c+w[8]*s)) + r[2]
		return u1*s - u2*c, u1*c + u2*s, l, true
	}
	eval := func(th float64) (f, along, l float64, ok bool) {
		return evalCS(math.Cos(th), math.Sin(th))
	}
	best, bestAlong := [3]float64{}, -1.0
	const nscan = 64
	// The free sliding direction atan2(r_t) is the root when W_nt = 0 and
	// W_tt ∝ I; start the scan half a step before it so that it falls
	// inside an interval rather than on an end point.
	th0 := math.Atan2(r[2], r[1]) - math.Pi/nscan
	// boundary bisects [a, b] (ok at a, not at b, or the reverse) for the
	// last point where λ is finite and positive, so that roots next to a
	// pole of λ(θ) are bracketed too.
	boundary := func(good, badTh float64) float64 {
		for it := 0; it < 60; it++ {
			mid := 0.5 * (good + badTh)
			if _, _, _, ok := eval(mid); ok {
				good = mid
			} else {
				badTh = mid
			}
		}
		return good
	}
	// root refines a sign change of f on [a, b] (f(a) = fa, f(b) = fb) by
	// the Illinois variant of regula falsi, falling back to bisection
	// steps whenever the secant point stalls, until the bracket is below
	// 1e-15 rad or f vanishes.
	root := func(a, b, fa, fb float64) float64 {
		side := 0
		for it := 0; it < 200 && b-a > 1e-15; it++ {
			m := (a*fb - b*fa) / (fb - fa)
			if !(m > a && m < b) || it%8 == 7 {
				m = 0.5 * (a + b)
			}
			fm, _, _, ok := eval(m)
			if !ok || fm == 0 {
				return m
			}
			if (fm < 0) == (fa < 0) {
				a, fa = m, fm
				if side == -1 {
					fb *= 0.5
				}
				side = -1
			} else {
				b, fb = m, fm
				if side == 1 {
					fa *= 0.5
				}
				side = 1
			}
		}
		return 0.5 * (a + b)
	}
	var fs [nscan + 1]float64
	var oks [nscan + 1]bool
	c0, s0 := math.Cos(th0), math.Sin(th0)
	for i := range fs {
		// direction th0 + 2πi/64 by rotating the table's unit vector
		ci, si := scanCS[i%nscan][0], scanCS[i%nscan][1]
		fs[i], _, _, oks[i] = evalCS(c0*ci-s0*si, s0*ci+c0*si)
	}
	for i := 1; i <= nscan; i++ {
		a, b := th0+2*math.Pi*float64(i-1)/nscan, th0+2*math.Pi*float64(i)/nscan
		fa, fb, oka, okb := fs[i-1], fs[i], oks[i-1], oks[i]
		switch {
		case oka && !okb:
			b = boundary(a, b)
			fb, _, _, okb = eval(b)
		case !oka && okb:
			a = boundary(b, a)
			fa, _, _, oka = eval(a)
		}
		if !oka || !okb || !(fa == 0 || fa*fb < 0) {
			continue
		}
		th := a
		if fa != 0 {
			th = root(a, b, fa, fb)
		}
		_, along, l, ok := eval(th)
		if ok && along >= 0 && l >= 0 && along > bestAlong {
			best = [3]float64{l, -mu * l * math.Cos(th), -mu * l * math.Sin(th)}
			bestAlong = along
		}
	}
	if bestAlong >= 0 {
		return best
	}
	return frictionless
}

// scanCS holds (cos, sin) of the 64 scan angles 2πi/64 of localDisk.
var scanCS = func() (t [64][2]float64) {
	for i := range t {
		t[i] = [2]float64{math.Cos(2 * math.Pi * float64(i) / 64), math.Sin(2 * math.Pi * float64(i) / 64)}
	}
	return t
}()

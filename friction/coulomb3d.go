package friction

import "math"

// The disk-constrained local solve of Coulomb, for three-dimensional
// contacts (two tangent columns per contact).

// localDisk solves one contact with two tangent columns exactly:
// x = (λ, β₁, β₂) with u = W x + r satisfying take-off, stick or slip on
// the disk |β| ≤ μλ. W is the symmetric 3×3 block, row-major. Stick solves
// W x = −r; slip along d = (cos θ, sin θ) takes the direction θ that solves
// u_t(θ) × d = 0 with u_t·d > 0 (found by scanning the circle and
// bisecting each sign change), preferring the largest u_t·d.
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
	eval := func(th float64) (f, along, l float64, ok bool) {
		c, s := math.Cos(th), math.Sin(th)
		den := w[0] - mu*(w[1]*c+w[2]*s)
		if den <= 0 {
			return 0, 0, 0, false
		}
		l = -r[0] / den
		u1 := l*(w[3]-mu*(w[4]*c+w[5]*s)) + r[1]
		u2 := l*(w[6]-mu*(w[7]*c+w[8]*s)) + r[2]
		return u1*s - u2*c, u1*c + u2*s, l, true
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
	try := func(a, b float64) {
		fa, _, _, oka := eval(a)
		fb, _, _, okb := eval(b)
		switch {
		case oka && !okb:
			b = boundary(a, b)
			fb, _, _, okb = eval(b)
		case !oka && okb:
			a = boundary(b, a)
			fa, _, _, oka = eval(a)
		}
		if !oka || !okb || !(fa == 0 || fa*fb < 0) {
			return
		}
		lo, hi, flo := a, b, fa
		for it := 0; it < 100 && hi-lo > 1e-15; it++ {
			mid := 0.5 * (lo + hi)
			fm, _, _, okm := eval(mid)
			if !okm {
				break
			}
			if (fm < 0) == (flo < 0) && fm != 0 {
				lo, flo = mid, fm
			} else {
				hi = mid
			}
		}
		th := 0.5 * (lo + hi)
		if fa == 0 {
			th = a
		}
		_, along, l, ok := eval(th)
		if ok && along >= 0 && l >= 0 && along > bestAlong {
			best = [3]float64{l, -mu * l * math.Cos(th), -mu * l * math.Sin(th)}
			bestAlong = along
		}
	}
	for i := 1; i <= nscan; i++ {
		try(th0+2*math.Pi*float64(i-1)/nscan, th0+2*math.Pi*float64(i)/nscan)
	}
	if bestAlong >= 0 {
		return best
	}
	return frictionless
}

package singlecontact

import "math"

// oracle minimizes the single-contact problem by brute force, independent
// of eq. (8) and of the quartic: the candidates are x = 0 (when b_n ≤ 0),
// x₀ (when admissible), and the minimum over the boundary of plane ∩ cone,
// found by a dense scan of the boundary angle α followed by bisection on
// the sign of df/dα computed by the chain rule (b_n > 0), or by a dense
// scan of the directions of the wedge plane ∩ cone with the exact minimum
// along each ray and golden-section refinement (b_n = 0).
func oracle(p *Problem, grazing bool) [3]float64 {
	b := p.B
	if grazing {
		b[0] = 0
	}
	if b[0] < 0 {
		return [3]float64{}
	}
	pb := Problem{A: p.A, B: b, Mu: p.Mu}
	if p.Mu == 0 {
		return [3]float64{b[0] / p.A[0][0], 0, 0}
	}
	if x0, ok := pb.Sticking(); ok {
		return x0
	}
	c := newConic(&pb.A, &pb.B, pb.Mu)
	if b[0] == 0 {
		return oracleWedge(&c)
	}
	return oracleConic(&c)
}

// df returns f_obj(α) and df_obj/dα on the conic (b_n > 0).
func (c *conic) df(al float64) (f, d float64, ok bool) {
	sn, cs := math.Sincos(al)
	fr := c.ann + c.mu*c.s*math.Cos(al-c.a0())
	if !(fr > 0) {
		return 0, 0, false
	}
	r := c.mu * c.bn / fr
	dr := r * r / c.bn * c.s * math.Sin(al-c.a0())
	gt, gto := r*cs, r*sn
	tt, to := dr*cs-r*sn, dr*sn+r*cs
	st := c.htt*gt + c.hto*gto - c.bt
	so := c.hto*gt + c.hoo*gto - c.bo
	return c.fobj(gt, gto), tt*st + to*so, true
}

func oracleConic(c *conic) [3]float64 {
	const n = 6000
	lo, span := c.a0()-math.Pi, 2*math.Pi
	warp := func(s float64) float64 { return lo + span*s }
	if !c.ellipse() {
		// I is open; cluster the samples towards its ends
		a1, a2 := c.rayDirs()
		mid, half := 0.5*(a1+a2), 0.5*(a2-a1)
		warp = func(s float64) float64 { return mid + half*math.Sin(math.Pi*(s-0.5)) }
	}
	var al, f [n + 1]float64
	for k := 0; k <= n; k++ {
		s := float64(k) / n
		if c.ellipse() {
			al[k] = warp(s)
		} else {
			al[k] = warp(1e-9 + (1-2e-9)*s)
		}
		v, _, ok := c.df(al[k])
		if !ok {
			v = math.Inf(1)
		}
		f[k] = v
	}
	best, bestF := 0.0, math.Inf(1)
	for k := 0; k <= n; k++ {
		km, kp := k-1, k+1
		if c.ellipse() {
			km, kp = (k+n-1)%n, (k+1)%n
		}
		if km < 0 || kp > n || !(f[k] <= f[km] && f[k] <= f[kp]) {
			continue
		}
		// bisection on the derivative between the neighbours
		l, r := al[km], al[kp]
		if c.ellipse() {
			h := 2 * math.Pi / n
			l, r = al[k]-h, al[k]+h
		}
		for it := 0; it < 200; it++ {
			m := 0.5 * (l + r)
			if m == l || m == r {
				break
			}
			if _, d, _ := c.df(m); d < 0 {
				l = m
			} else {
				r = m
			}
		}
		a := 0.5 * (l + r)
		if v, _, ok := c.df(a); ok && v < bestF {
			best, bestF = a, v
		}
	}
	return c.point(angle(best))
}

func oracleWedge(c *conic) [3]float64 {
	if c.ellipse() {
		return [3]float64{}
	}
	a1, a2 := c.rayDirs()
	// the feasible directions are those with f_r(α) ≤ 0: α ∈ [a2, a1 + 2π]
	lo, hi := a2, a1+2*math.Pi
	ray := func(al float64) float64 { _, f := c.ray(al); return f }
	const n = 4000
	best, bestF := lo, math.Inf(1)
	h := (hi - lo) / n
	for k := 0; k <= n; k++ {
		al := lo + float64(k)*h
		if v := ray(al); v < bestF {
			best, bestF = al, v
		}
	}
	l, r := math.Max(lo, best-h), math.Min(hi, best+h)
	g := (math.Sqrt(5) - 1) / 2
	for it := 0; it < 200 && r-l > 1e-16; it++ {
		x1, x2 := r-g*(r-l), l+g*(r-l)
		if ray(x1) <= ray(x2) {
			r = x2
		} else {
			l = x1
		}
	}
	x, f := c.ray(0.5 * (l + r))
	if f > 0 {
		return [3]float64{}
	}
	return x
}

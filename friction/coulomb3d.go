package friction

import (
	"fmt"
	"math"

	"impactsim/mech"
)

// Coulomb3D is the coupled Coulomb law (as Coulomb) for three-dimensional
// contacts: each contact has a normal column of G and two orthonormal
// tangent columns of D (as rigid3d builds them), and the friction impulse
// β_k = (β₁, β₂) lies in the disk |β_k| ≤ μ_k λ_k:
//
//	0 ≤ λ_k ⊥ u_n + c_k min(u⁻, 0) ≥ 0,
//	|β_k| ≤ μ_k λ_k,  and  β_k = −μ_k λ_k u_t/|u_t|  whenever u_t ≠ 0,
//
// with u_n = ∇g_kᵀv⁺ and u_t = (t₁ᵀv⁺, t₂ᵀv⁺). It is solved by projected
// block Gauss–Seidel over contacts like Coulomb, each 3×3 block solved
// exactly: take-off, stick (W x = −r), or slip, where the sliding direction
// θ solves u_t(θ) × (cos θ, sin θ) = 0 with u_t·d > 0 (found by scanning
// the circle and bisecting each sign change). Contacts with no tangent
// columns are frictionless; one or more than two columns is an error.
type Coulomb3D struct {
	Tol     float64 // default 1e-12
	MaxIter int     // sweeps, default 5000

	wg, wd mech.Cols
	v      []float64
	un0    []float64
	w      []float64 // per contact the 3×3 block, row-major
	x      []float64 // (λ, β₁, β₂) per contact
	vprev  []float64
	tcol   []int // first tangent column of each contact, −1 if none
}

// Name returns "coulomb3d".
func (o *Coulomb3D) Name() string { return "coulomb3d" }

// Solve computes λ (len m) and β (len D.NCols()).
func (o *Coulomb3D) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	var st mech.Stats
	m, n, nd := p.NContacts(), p.NDof(), p.D.NCols()
	clear(lambda[:m])
	clear(beta[:nd])
	if m == 0 {
		return st, nil
	}
	tol := o.Tol
	if tol <= 0 {
		tol = 1e-12
	}
	maxIter := o.MaxIter
	if maxIter <= 0 {
		maxIter = 5000
	}
	o.tcol = o.tcol[:0]
	for k := 0; k < m; k++ {
		o.tcol = append(o.tcol, -1)
	}
	for j := 0; j < nd; {
		k := p.DContact[j]
		e := j
		for e < nd && p.DContact[e] == k {
			e++
		}
		if e-j != 2 || o.tcol[k] >= 0 {
			return st, fmt.Errorf("friction: coulomb3d needs exactly two adjacent tangent columns per contact; contact %d has %d", k, e-j)
		}
		o.tcol[k] = j
		j = e
	}
	mech.MulMInvCols(&o.wg, &p.G, &p.MInv)
	mech.MulMInvCols(&o.wd, &p.D, &p.MInv)
	o.v = grow(o.v, n)
	copy(o.v, p.V)
	o.un0 = grow(o.un0, m)
	p.NormalVelocities(o.un0, p.V)
	o.w = grow(o.w, 9*m)
	o.x = grow(o.x, 3*m)
	clear(o.x)
	var scale float64
	for k := 0; k < m; k++ {
		scale = math.Max(scale, math.Abs(o.un0[k]))
		w := o.w[9*k : 9*k+9]
		clear(w)
		w[0] = sparseDot(&p.G, k, &o.wg, k)
		if j := o.tcol[k]; j >= 0 {
			scale = math.Max(scale, math.Abs(p.D.ColDot(j, p.V)))
			scale = math.Max(scale, math.Abs(p.D.ColDot(j+1, p.V)))
			w[1] = sparseDot(&p.G, k, &o.wd, j)
			w[2] = sparseDot(&p.G, k, &o.wd, j+1)
			w[4] = sparseDot(&p.D, j, &o.wd, j)
			w[5] = sparseDot(&p.D, j, &o.wd, j+1)
			w[8] = sparseDot(&p.D, j+1, &o.wd, j+1)
			w[3], w[6], w[7] = w[1], w[2], w[5]
		}
	}
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	o.vprev = grow(o.vprev, n)
	for sweep := 1; ; sweep++ {
		copy(o.vprev, o.v)
		for k := 0; k < m; k++ {
			w := o.w[9*k : 9*k+9]
			if w[0] <= 0 {
				continue
			}
			j := o.tcol[k]
			x0 := [3]float64{o.x[3*k], o.x[3*k+1], o.x[3*k+2]}
			var u [3]float64
			u[0] = p.G.ColDot(k, o.v) + p.CoR[k]*math.Min(o.un0[k], 0)
			if j >= 0 {
				u[1] = p.D.ColDot(j, o.v)
				u[2] = p.D.ColDot(j+1, o.v)
			}
			var r [3]float64 // free velocity: u − W x₀
			for a := 0; a < 3; a++ {
				r[a] = u[a] - (w[3*a]*x0[0] + w[3*a+1]*x0[1] + w[3*a+2]*x0[2])
			}
			x := localCoulomb3D(w, r, p.Mu[k], j >= 0)
			if x != x0 {
				o.wg.AddScaledCol(o.v, k, x[0]-x0[0])
				if j >= 0 {
					o.wd.AddScaledCol(o.v, j, x[1]-x0[1])
					o.wd.AddScaledCol(o.v, j+1, x[2]-x0[2])
				}
				o.x[3*k], o.x[3*k+1], o.x[3*k+2] = x[0], x[1], x[2]
			}
		}
		var change, vel float64
		for k := 0; k < m; k++ {
			un := p.G.ColDot(k, o.v)
			change = math.Max(change, math.Abs(un-p.G.ColDot(k, o.vprev)))
			vel = math.Max(vel, math.Abs(un))
			if j := o.tcol[k]; j >= 0 {
				for c := j; c < j+2; c++ {
					ut := p.D.ColDot(c, o.v)
					change = math.Max(change, math.Abs(ut-p.D.ColDot(c, o.vprev)))
					vel = math.Max(vel, math.Abs(ut))
				}
			}
		}
		st.Iterations = sweep
		st.Residual = change / math.Max(scale, vel)
		if st.Residual <= tol {
			break
		}
		if sweep >= maxIter {
			return st, fmt.Errorf("friction: coulomb3d Gauss–Seidel did not converge: %d sweeps, last change %.3g (relative) > tolerance %.3g", sweep, st.Residual, tol)
		}
	}
	for k := 0; k < m; k++ {
		lambda[k] = o.x[3*k]
		if j := o.tcol[k]; j >= 0 {
			beta[j], beta[j+1] = o.x[3*k+1], o.x[3*k+2]
		}
	}
	return st, nil
}

// localCoulomb3D solves one contact exactly: x = (λ, β₁, β₂) with
// u = W x + r satisfying take-off, stick or slip on the disk.
func localCoulomb3D(w []float64, r [3]float64, mu float64, hasT bool) [3]float64 {
	if r[0] >= 0 {
		return [3]float64{}
	}
	frictionless := [3]float64{-r[0] / w[0], 0, 0}
	if !hasT || mu == 0 {
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

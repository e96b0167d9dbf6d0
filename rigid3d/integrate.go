package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// FreeFlight integrates the unconstrained motion from (q0, v0) over h into
// (q1, v1) with the system's integrator (package documentation, eqs. 3–7).
// Translation is exact for uniform gravity under every integrator except
// symplectic Euler; fixed bodies are copied unchanged. It does not allocate.
func (s *System) FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64) {
	for i := range s.Mass {
		x, o := Pose(q0, i)
		u, w := Vel(v0, i)
		if s.Fixed[i] {
			setPose(q1, i, x, o)
			setVel(v1, i, r3.Vec{}, r3.Vec{})
			continue
		}
		var x1, u1 r3.Vec
		var o1 Quat
		var w1 r3.Vec
		in := s.Inertia[i]
		switch s.Integrator {
		case SymplecticEuler:
			u1 = r3.Add(u, r3.Scale(h, s.Gravity))
			x1 = r3.Add(x, r3.Scale(h, u1))
			o1, w1 = eulerRotation(o, w, in, h)
		default:
			// Kick–drift–kick with a linear potential: exact translation.
			u1 = r3.Add(u, r3.Scale(h, s.Gravity))
			x1 = r3.Add(x, r3.Add(r3.Scale(h, u), r3.Scale(0.5*h*h, s.Gravity)))
			if s.Integrator == DMV {
				o1, w1 = dmvRotation(o, w, in, h)
			} else {
				o1, w1 = splitRotation(o, w, in, h)
			}
		}
		setPose(q1, i, x1, o1)
		setVel(v1, i, u1, w1)
	}
}

// AfterStep teleports the bodies that passed a portal plane (the
// quaternions are renormalized inside every free-flight step).
func (s *System) AfterStep(q, v []float64) { s.applyPortals(q) }

// bodyMomentum returns m = Rᵀ L = diag(I) Rᵀ ω, the body-frame angular
// momentum, and the world angular momentum L = R m.
func bodyMomentum(r *Mat3, w, in r3.Vec) (m, l r3.Vec) {
	wb := r.MulTVec(w)
	m = r3.Vec{X: in.X * wb.X, Y: in.Y * wb.Y, Z: in.Z * wb.Z}
	return m, r.MulVec(m)
}

// omegaFrom returns the world angular velocity R diag(I)⁻¹ Rᵀ L.
func omegaFrom(o Quat, l, in r3.Vec) r3.Vec {
	r := o.Matrix()
	m := r.MulTVec(l)
	return r.MulVec(r3.Vec{X: m.X / in.X, Y: m.Y / in.Y, Z: m.Z / in.Z})
}

// dmvRotation advances orientation o and world angular velocity w of a
// torque-free body by one discrete Moser–Veselov step (eq. 5): find the
// Cayley vector c of the body-frame increment Q = cay(c) from
//
//	I c + c × (I c) = (h/2)(1 + |c|²) m,     m = Rᵀ L,
//
// set R₁ = R₀ Q (quaternion q₁ = q₀ ⊗ (1, c)/√(1+|c|²)) and keep the world
// angular momentum L fixed, so ω₁ = R₁ I⁻¹ R₁ᵀ L. The equation is solved by
// Newton's method to full precision (quadratic convergence from c = hI⁻¹m/2).
func dmvRotation(o Quat, w, in r3.Vec, h float64) (Quat, r3.Vec) {
	r := o.Matrix()
	m, l := bodyMomentum(&r, w, in)
	if m == (r3.Vec{}) {
		return o, w
	}
	k := 0.5 * h
	c := r3.Vec{X: k * m.X / in.X, Y: k * m.Y / in.Y, Z: k * m.Z / in.Z}
	for it := 0; it < 50; it++ {
		ic := r3.Vec{X: in.X * c.X, Y: in.Y * c.Y, Z: in.Z * c.Z}
		f := r3.Sub(r3.Add(ic, r3.Cross(c, ic)), r3.Scale(k*(1+r3.Dot(c, c)), m))
		// J = diag(I) + [c]× diag(I) − [Ic]× − 2k m cᵀ
		var j Mat3
		cx := skew(c)
		icx := skew(ic)
		d := [3]float64{in.X, in.Y, in.Z}
		cc := [3]float64{c.X, c.Y, c.Z}
		mm := [3]float64{m.X, m.Y, m.Z}
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				j[a][b] = cx[a][b]*d[b] - icx[a][b] - 2*k*mm[a]*cc[b]
			}
			j[a][a] += d[a]
		}
		dc := solve3(&j, f)
		c = r3.Sub(c, dc)
		if math.Abs(dc.X)+math.Abs(dc.Y)+math.Abs(dc.Z) <= 1e-16*(math.Abs(c.X)+math.Abs(c.Y)+math.Abs(c.Z)) {
			break
		}
	}
	o1 := o.Mul(Quat{1, c.X, c.Y, c.Z}).Normalized()
	return o1, omegaFrom(o1, l, in)
}

// splitRotation is SCISim's split_ham free rotation (eq. 6): the free
// Hamiltonian T = Σ m_k²/(2I_k) is split into three exactly integrable
// rotations about the body axes, composed symmetrically
// Z(h/2) Y(h/2) X(h) Y(h/2) Z(h/2). Each sub-flow rotates the body by
// θ = t m_k/I_k about body axis k (R ← R Rot_k(θ), m ← Rot_k(θ)ᵀ m), so the
// world angular momentum is kept exactly and the energy is kept up to a
// bounded O(h²) oscillation.
func splitRotation(o Quat, w, in r3.Vec, h float64) (Quat, r3.Vec) {
	r := o.Matrix()
	m, l := bodyMomentum(&r, w, in)
	d := [3]float64{in.X, in.Y, in.Z}
	mm := [3]float64{m.X, m.Y, m.Z}
	sub := func(k int, t float64) {
		th := t * mm[k] / d[k]
		var ax r3.Vec
		switch k {
		case 0:
			ax.X = 1
		case 1:
			ax.Y = 1
		default:
			ax.Z = 1
		}
		o = o.Mul(AxisAngle(ax, th))
		// m ← Rot_k(θ)ᵀ m: rotate the other two components by −θ.
		i, j := (k+1)%3, (k+2)%3
		cs, sn := math.Cos(th), math.Sin(th)
		mi, mj := mm[i], mm[j]
		mm[i] = cs*mi + sn*mj
		mm[j] = -sn*mi + cs*mj
	}
	sub(2, h/2)
	sub(1, h/2)
	sub(0, h)
	sub(1, h/2)
	sub(2, h/2)
	o = o.Normalized()
	return o, omegaFrom(o, l, in)
}

// eulerRotation is the symplectic Euler rotation update (eq. 7): the body
// turns by h ω about ω (R₁ = exp(h[ω]×) R₀) with the world angular momentum
// held fixed, then ω₁ = I_world(R₁)⁻¹ L.
func eulerRotation(o Quat, w, in r3.Vec, h float64) (Quat, r3.Vec) {
	r := o.Matrix()
	_, l := bodyMomentum(&r, w, in)
	if n := r3.Norm(w); n > 0 {
		o = AxisAngle(r3.Scale(1/n, w), h*n).Mul(o).Normalized()
	}
	return o, omegaFrom(o, l, in)
}

func skew(v r3.Vec) Mat3 {
	return Mat3{{0, -v.Z, v.Y}, {v.Z, 0, -v.X}, {-v.Y, v.X, 0}}
}

// solve3 solves A x = b by Cramer's rule.
func solve3(a *Mat3, b r3.Vec) r3.Vec {
	c0 := r3.Vec{X: a[0][0], Y: a[1][0], Z: a[2][0]}
	c1 := r3.Vec{X: a[0][1], Y: a[1][1], Z: a[2][1]}
	c2 := r3.Vec{X: a[0][2], Y: a[1][2], Z: a[2][2]}
	det := r3.Dot(c0, r3.Cross(c1, c2))
	return r3.Vec{
		X: r3.Dot(b, r3.Cross(c1, c2)) / det,
		Y: r3.Dot(c0, r3.Cross(b, c2)) / det,
		Z: r3.Dot(c0, r3.Cross(c1, b)) / det,
	}
}

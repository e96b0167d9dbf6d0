package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// The half steps of the impulse-velocity time stepping of Preclik et al.
// (sec. 3.1; sim.NewImpulseVelocityStepper): semi-implicit Euler with the
// gyroscopic term explicit and normalized quaternions.

// Kick writes v̂ = v + M⁻¹z for a step h at q: u′ = u + h g and
// ω′ = ω − h I(q)⁻¹(ω × I(q)ω), I(q) = R diag(I) Rᵀ. Fixed bodies keep
// zero velocity. It does not allocate.
func (s *System) Kick(q, v []float64, h float64, vOut []float64) {
	for i := range s.Mass {
		if s.Fixed[i] {
			setVel(vOut, i, r3.Vec{}, r3.Vec{})
			continue
		}
		u, w := Vel(v, i)
		_, o := Pose(q, i)
		r := o.Matrix()
		in := s.Inertia[i]
		// body frame: ω_b = Rᵀω, I ω_b, τ_b = −ω_b × Iω_b
		wb := r.MulTVec(w)
		lb := r3.Vec{X: in.X * wb.X, Y: in.Y * wb.Y, Z: in.Z * wb.Z}
		tb := r3.Cross(lb, wb) // −ω_b × Iω_b
		dw := r.MulVec(r3.Vec{X: h * tb.X / in.X, Y: h * tb.Y / in.Y, Z: h * tb.Z / in.Z})
		setVel(vOut, i, r3.Add(u, r3.Scale(h, s.Gravity)), r3.Add(w, dw))
	}
}

// Drift writes x′ = x + h u and ϕ′ = (ϕ + h Q(ϕ)ω)/‖·‖₂, where
// Q(ϕ)ω = ½(0, ω) ⊗ ϕ with ω in the world frame (Preclik et al. sec. 2).
// Fixed bodies stay where they are. It does not allocate.
func (s *System) Drift(q, v []float64, h float64, qOut []float64) {
	for i := range s.Mass {
		x, o := Pose(q, i)
		if s.Fixed[i] {
			setPose(qOut, i, x, o)
			continue
		}
		u, w := Vel(v, i)
		d := Quat{X: 0.5 * h * w.X, Y: 0.5 * h * w.Y, Z: 0.5 * h * w.Z}.Mul(o)
		o1 := Quat{W: o.W + d.W, X: o.X + d.X, Y: o.Y + d.Y, Z: o.Z + d.Z}.Normalized()
		setPose(qOut, i, r3.Add(x, r3.Scale(h, u)), o1)
	}
}

// Gaps appends the signed gap at q of every contact of the last
// BuildProblem (in column order) to dst. A vertex-based contact (a box
// corner or mesh vertex on a plane or cylinder wall, the vertex following
// body I from the detection's positions: Contact.Loc) and a sphere on a
// plane or cylinder have the exact distance of the vertex or sphere to the
// wall; every other contact (sphere–sphere, sphere–box, box–box, mesh–body)
// has ξ = φ_I(p) + φ_J(p), the sum of both bodies' signed distances at the
// contact's midpoint p = ½(P + PJ) — exact for two spheres, and for
// box–box and mesh contacts, whose midpoint lies between the two surfaces,
// the separation along the two distance fields (negative: penetration).
// Where a mesh's signed distance field does not reach, its φ counts as 0.
func (s *System) Gaps(q []float64, dst []float64) []float64 {
	for k := range s.det.contacts {
		c := &s.det.contacts[k]
		var g float64
		switch c.Kind {
		case SpherePlane, BoxPlane, MeshPlane:
			pl := s.Planes[c.Other]
			if c.Kind == SpherePlane {
				x, _ := Pose(q, c.I)
				g = r3.Dot(pl.N, r3.Sub(x, pl.P)) - s.Shapes[c.I].R
			} else {
				g = r3.Dot(pl.N, r3.Sub(s.vertexAt(q, c), pl.P))
			}
		case SphereCylinder, BodyCylinder:
			cy := s.Cyls[c.Other]
			p, r := c.P, 0.0
			if c.Kind == BodyCylinder {
				p = s.vertexAt(q, c)
			}
			if c.Kind == SphereCylinder {
				p, _ = Pose(q, c.I)
				r = s.Shapes[c.I].R
			}
			g = cy.R - r3.Norm(cy.radial(p)) - r
		default:
			p := r3.Scale(0.5, r3.Add(c.P, c.PJ))
			g = s.bodySDF(q, c.I, p) + s.bodySDF(q, c.J, p)
		}
		dst = append(dst, g)
	}
	return dst
}

// vertexAt returns the vertex of a vertex contact (BoxPlane, MeshPlane,
// BodyCylinder) with body I at q: x + R·Loc, the same arithmetic as the
// detection's point P, so that at the detection's positions it is P bit
// for bit.
func (s *System) vertexAt(q []float64, c *Contact) r3.Vec {
	x, o := Pose(q, c.I)
	r := o.Matrix()
	return r3.Add(x, r.MulVec(c.Loc))
}

// bodySDF returns body i's signed distance at world point p (0 where a
// mesh's field does not reach).
func (s *System) bodySDF(q []float64, i int, p r3.Vec) float64 {
	x, o := Pose(q, i)
	r := o.Matrix()
	phi, _, ok := localSDF(&s.Shapes[i], r.MulTVec(r3.Sub(p, x)))
	if !ok || math.IsNaN(phi) {
		return 0
	}
	return phi
}

package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/mech"
)

// BuildProblem detects the contacts of the step from q0 to the free-flight
// prediction q1 (Alg. 4, line 2) and fills p with the instantaneous impact
// problem at q0 (package documentation, eqs. 8–10):
//
//   - one 6×6 block per body: M = diag(m, m, m, I_world), M⁻¹ its inverse,
//     I_world = R diag(I) Rᵀ at q0 (zero blocks for fixed bodies);
//   - V = v0;
//   - one column of G per contact: (n, r_I × n) on body I and
//     (−n, −r_J × n) on body J, r_I = P − x_I, r_J = PJ − x_J;
//   - two columns of D per contact, unit tangents t₁, t₂ with (n, t₁, t₂)
//     right-handed, same sign pattern; DContact maps them to their contact;
//   - Mu from the system; CoR from the system or, for bodies with
//     restitution maps, per contact (contactRestitution); Bodies (I, J)
//     with −1 for static geometry and fixed bodies.
//
// Entries for fixed bodies are omitted (their M⁻¹ block is zero).
func (s *System) BuildProblem(q0, q1, v0 []float64, p *mech.Problem) {
	s.det.detect(s, q0, q1)
	n := s.N()
	p.Reset(3, 6*n)
	var blk, inv [36]float64
	for i := 0; i < n; i++ {
		if s.Fixed[i] {
			p.M.AppendScalarBlock(6, 0)
			p.MInv.AppendScalarBlock(6, 0)
			continue
		}
		_, o := Pose(q0, i)
		r := o.Matrix()
		in := s.Inertia[i]
		iw := congruence(&r, in)
		iwInv := congruence(&r, r3.Vec{X: 1 / in.X, Y: 1 / in.Y, Z: 1 / in.Z})
		clear(blk[:])
		clear(inv[:])
		m := s.Mass[i]
		for a := 0; a < 3; a++ {
			blk[7*a] = m
			inv[7*a] = 1 / m
			for b := 0; b < 3; b++ {
				blk[(3+a)*6+3+b] = iw[a][b]
				inv[(3+a)*6+3+b] = iwInv[a][b]
			}
		}
		p.M.AppendBlock(6, blk[:]...)
		p.MInv.AppendBlock(6, inv[:]...)
	}
	copy(p.V, v0)
	moving := s.hasMovingGeometry(v0)
	for k := range s.det.contacts {
		c := &s.det.contacts[k]
		t1, t2 := tangents(c.N)
		bi, bj := c.I, c.J
		if s.Fixed[bi] {
			bi = -1
		}
		if bj >= 0 && s.Fixed[bj] {
			bj = -1
		}
		var ri, rj r3.Vec
		if bi >= 0 {
			x, _ := Pose(q0, bi)
			ri = r3.Sub(c.P, x)
		}
		if bj >= 0 {
			x, _ := Pose(q0, bj)
			rj = r3.Sub(c.PJ, x)
		}
		appendCol(&p.G, bi, bj, ri, rj, c.N)
		appendCol(&p.D, bi, bj, ri, rj, t1)
		appendCol(&p.D, bi, bj, ri, rj, t2)
		p.DContact = append(p.DContact, k, k)
		if moving {
			u := s.knownVelocity(c, q0, v0)
			p.NRel = append(p.NRel, r3.Dot(c.N, u))
			p.DRel = append(p.DRel, r3.Dot(t1, u), r3.Dot(t2, u))
		}
		p.CoR = append(p.CoR, s.contactRestitution(c, q0))
		p.Mu = append(p.Mu, s.Mu)
		p.Bodies = append(p.Bodies, bi, bj)
	}
}

// hasMovingGeometry reports whether a plane or cylinder has a velocity or
// a fixed body moves with a velocity in v.
func (s *System) hasMovingGeometry(v []float64) bool {
	for i := range s.Planes {
		if s.Planes[i].Moving() {
			return true
		}
	}
	for i := range s.Cyls {
		if s.Cyls[i].Moving() {
			return true
		}
	}
	for i, f := range s.Fixed {
		if f {
			for _, x := range v[6*i : 6*i+6] {
				if x != 0 {
					return true
				}
			}
		}
	}
	return false
}

// knownVelocity returns the part k of contact c's relative velocity that
// no impulse changes, n·k being its NRel and t·k its DRel: the velocity of
// a fixed body I at P (from v), minus that of a fixed body J at PJ, minus
// the velocity of a plane's or cylinder's surface at the contact (its
// point under P).
func (s *System) knownVelocity(c *Contact, q, v []float64) r3.Vec {
	var k r3.Vec
	at := func(b int, p r3.Vec) r3.Vec {
		x, _ := Pose(q, b)
		u, w := Vel(v, b)
		return pointVelocity(u, w, r3.Sub(p, x))
	}
	if s.Fixed[c.I] {
		k = at(c.I, c.P)
	}
	if c.J >= 0 {
		if s.Fixed[c.J] {
			k = r3.Sub(k, at(c.J, c.PJ))
		}
		return k
	}
	switch c.Kind {
	case SpherePlane, BoxPlane, MeshPlane:
		pl := &s.Planes[c.Other]
		if pl.Moving() {
			pw := r3.Sub(c.P, r3.Scale(r3.Dot(pl.N, r3.Sub(c.P, pl.P)), pl.N))
			k = r3.Sub(k, pointVelocity(pl.V, pl.W, r3.Sub(pw, pl.P)))
		}
	case SphereCylinder, BodyCylinder:
		cy := &s.Cyls[c.Other]
		if cy.Moving() {
			axis := r3.Add(cy.P, r3.Scale(r3.Dot(cy.A, r3.Sub(c.P, cy.P)), cy.A))
			pw := r3.Sub(axis, r3.Scale(cy.R, c.N))
			k = r3.Sub(k, pointVelocity(cy.V, cy.W, r3.Sub(pw, cy.P)))
		}
	}
	return k
}

func appendCol(c *mech.Cols, bi, bj int, ri, rj, n r3.Vec) {
	if bi >= 0 {
		a := r3.Cross(ri, n)
		o := 6 * bi
		c.Append(o, n.X)
		c.Append(o+1, n.Y)
		c.Append(o+2, n.Z)
		c.Append(o+3, a.X)
		c.Append(o+4, a.Y)
		c.Append(o+5, a.Z)
	}
	if bj >= 0 {
		a := r3.Cross(rj, n)
		o := 6 * bj
		c.Append(o, -n.X)
		c.Append(o+1, -n.Y)
		c.Append(o+2, -n.Z)
		c.Append(o+3, -a.X)
		c.Append(o+4, -a.Y)
		c.Append(o+5, -a.Z)
	}
	c.EndCol()
}

// tangents returns unit t₁, t₂ with (n, t₁, t₂) an orthonormal right-handed
// frame; t₁ is built from the coordinate axis least aligned with n, so the
// choice is deterministic and continuous for nearby normals.
func tangents(n r3.Vec) (r3.Vec, r3.Vec) {
	ax, ay, az := math.Abs(n.X), math.Abs(n.Y), math.Abs(n.Z)
	var e r3.Vec
	switch {
	case ax <= ay && ax <= az:
		e.X = 1
	case ay <= az:
		e.Y = 1
	default:
		e.Z = 1
	}
	t1 := r3.Unit(r3.Cross(e, n))
	return t1, r3.Cross(n, t1)
}

// contactRestitution is the coefficient of restitution of contact c: with
// n from J to I, body I is hit at P with outward normal −n and body J at PJ
// with outward normal n, both taken to the body frames at q0. A body with
// a map gives ε = map(X, N); then
//
//   - both bodies mapped: Combine(ε_I, ε_J) (default arithmetic mean, the
//     paper's choice for its two-body examples);
//   - one mapped, the other static geometry (a plane, a cylinder, a fixed
//     body without a map): the map's ε alone (the map was made against a
//     rigid plane);
//   - one mapped, the other a moving body without a map: Combine(ε, CoR);
//   - neither mapped: CoR.
func (s *System) contactRestitution(c *Contact, q0 []float64) float64 {
	if s.Maps == nil {
		return s.CoR
	}
	side := func(b int, p, n r3.Vec) (eps float64, mapped, static bool) {
		if b < 0 {
			return 0, false, true
		}
		if m := s.Maps[b]; m != nil {
			x, o := Pose(q0, b)
			r := o.Matrix()
			return m.Restitution(r.MulTVec(r3.Sub(p, x)), r.MulTVec(n)), true, false
		}
		return 0, false, s.Fixed[b]
	}
	ei, mi, si := side(c.I, c.P, r3.Scale(-1, c.N))
	ej, mj, sj := side(c.J, c.PJ, c.N)
	combine := s.Combine
	if combine == nil {
		combine = func(a, b float64) float64 { return (a + b) / 2 }
	}
	switch {
	case mi && mj:
		return combine(ei, ej)
	case mi && sj:
		return ei
	case mj && si:
		return ej
	case mi:
		return combine(ei, s.CoR)
	case mj:
		return combine(ej, s.CoR)
	}
	return s.CoR
}

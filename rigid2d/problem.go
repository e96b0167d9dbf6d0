package rigid2d

import (
	"impactsim/geom2d"
	"impactsim/mech"
)

// BuildProblem detects the contacts of the step from q0 to the free-flight
// prediction q1 and fills p with the instantaneous impact problem at q0,
// following the conventions of package mech:
//
//   - one 3×3 block per body, M = diag(m, m, I) and M⁻¹ = diag(1/m, 1/m, 1/I)
//     (zero blocks for fixed bodies); V = v0;
//   - one column of G per contact: with unit normal n (pointing from body J
//     to body I) and lever arms r_I, r_J from the centres at q0 to the
//     contact point, (n, r_I × n) on body I and −(n, r_J × n) on body J;
//     the moments are exactly zero for circles (the arm is along n);
//   - one column of D per contact, the tangent t = (−n_y, n_x) in the same
//     pattern: (t, r_I × t) and −(t, r_J × t), DContact[k] = k;
//   - for a contact with the image of a body behind a Lees–Edwards plane,
//     whose extra velocity is u, or with a moving plane (geom2d.Plane V, W)
//     whose velocity at the contact point is u, NRel = −n·u and DRel = −t·u
//     (zero elsewhere; both empty when nothing moves);
//   - CoR and Mu from the system; Bodies (I, J) with −1 for planes and
//     fixed bodies.
//
// A fixed (kinematic) body keeps its entries in G and D: its velocity
// enters the contact's relative velocity, but with a zero M⁻¹ block no
// impulse changes it.
func (s *System) BuildProblem(q0, q1, v0 []float64, p *mech.Problem) {
	s.det.detect(s, q0, q1, v0)
	n := s.N()
	p.Reset(2, 3*n)
	for i := 0; i < n; i++ {
		if s.Fixed[i] {
			p.M.AppendScalarBlock(3, 0)
			p.MInv.AppendScalarBlock(3, 0)
			continue
		}
		m, in := s.M[i], s.I[i]
		p.M.AppendBlock(3, m, 0, 0, 0, m, 0, 0, 0, in)
		p.MInv.AppendBlock(3, 1/m, 0, 0, 0, 1/m, 0, 0, 0, 1/in)
	}
	copy(p.V, v0)
	shear := false
	for i := range s.Portals {
		shear = shear || s.Portals[i].LeesEdwards()
	}
	for i := range s.Planes {
		shear = shear || s.Planes[i].Moving()
	}
	for k := range s.det.contacts {
		c := &s.det.contacts[k]
		nrm := c.N
		t := [2]float64{-nrm[1], nrm[0]}
		i := 3 * int(c.I)
		p.G.Append(i, nrm[0])
		p.G.Append(i+1, nrm[1])
		if c.Torque {
			p.G.Append(i+2, cross(c.RI, nrm))
		}
		p.D.Append(i, t[0])
		p.D.Append(i+1, t[1])
		p.D.Append(i+2, cross(c.RI, t))
		if c.J >= 0 {
			j := 3 * int(c.J)
			p.G.Append(j, -nrm[0])
			p.G.Append(j+1, -nrm[1])
			if c.Torque {
				p.G.Append(j+2, -cross(c.RJ, nrm))
			}
			p.D.Append(j, -t[0])
			p.D.Append(j+1, -t[1])
			p.D.Append(j+2, -cross(c.RJ, t))
		}
		p.G.EndCol()
		p.D.EndCol()
		p.DContact = append(p.DContact, k)
		if shear {
			u := c.Kick
			if c.Plane >= 0 && s.Planes[c.Plane].Moving() {
				// A moving plane: its velocity at the contact point.
				u = s.Planes[c.Plane].VelocityAt([2]float64{q0[3*c.I] + c.RI[0], q0[3*c.I+1] + c.RI[1]})
			}
			nrel, drel := geom2d.WallRel(nrm, t, u)
			p.NRel = append(p.NRel, nrel)
			p.DRel = append(p.DRel, drel)
		}
		p.AppendContact(s.CoR, s.Mu, s.block(int(c.I)), s.block(int(c.J)))
	}
}

// Contacts returns the contacts of the last BuildProblem, in column order.
// The slice is reused by the next call.
func (s *System) Contacts() []Contact { return s.det.contacts }

// block returns body i's block in the problem, −1 for a fixed body (it
// joins no island) or static geometry (i < 0).
func (s *System) block(i int) int {
	if i < 0 || s.Fixed[i] {
		return -1
	}
	return i
}

package spheres

import "impactsim/mech"

// ExportProblem fills p with the contacts of the last detection as a
// general instantaneous problem (package mech) over the current velocities
// VW: one 6×6 block per sphere, M = diag(m, m, m, I, I, I); per contact a
// normal column (n, r_i × n) on sphere i and (−n, −r_j × n) on sphere j
// (r_i = −r_i n, r_j = r_j n), two tangent columns t, o built the same
// way, restitution 0, friction μ, and the known relative velocities NRel
// (gap term and wall velocity) and DRel (wall velocity). friction.NBGS on
// this problem solves the same blocks as the sphere kernel; the tests
// compare the two, and other laws (GR with Alg. 3 friction, issue 16) can
// start from here.
func (s *System) ExportProblem(p *mech.Problem) {
	n := s.N()
	p.Reset(3, 6*n)
	for i := 0; i < n; i++ {
		m, in := 1/s.InvM[i], 1/s.InvI[i]
		im, ii := s.InvM[i], s.InvI[i]
		p.M.AppendBlock(6, m, 0, 0, 0, 0, 0, 0, m, 0, 0, 0, 0, 0, 0, m, 0, 0, 0, 0, 0, 0, in, 0, 0, 0, 0, 0, 0, in, 0, 0, 0, 0, 0, 0, in)
		p.MInv.AppendBlock(6, im, 0, 0, 0, 0, 0, 0, im, 0, 0, 0, 0, 0, 0, im, 0, 0, 0, 0, 0, 0, ii, 0, 0, 0, 0, 0, 0, ii, 0, 0, 0, 0, 0, 0, ii)
	}
	copy(p.V, s.VW)
	for k := range s.work.con {
		c := &s.work.con[k]
		ri, rj := s.radii(c)
		col := func(m *mech.Cols, d [3]float64) {
			// r_i × d = −r_i n × d; on j: −(r_j n × d)
			nd := cross(c.n, d)
			o := 6 * int(c.i)
			for a := 0; a < 3; a++ {
				m.Append(o+a, d[a])
			}
			for a := 0; a < 3; a++ {
				m.Append(o+3+a, -ri*nd[a])
			}
			if c.j >= 0 {
				o := 6 * int(c.j)
				for a := 0; a < 3; a++ {
					m.Append(o+a, -d[a])
				}
				for a := 0; a < 3; a++ {
					m.Append(o+3+a, -rj*nd[a])
				}
			}
			m.EndCol()
		}
		col(&p.G, c.n)
		col(&p.D, c.t)
		col(&p.D, cross(c.n, c.t))
		p.DContact = append(p.DContact, k, k)
		p.CoR = append(p.CoR, 0)
		p.Mu = append(p.Mu, s.Mu)
		j := int(c.j)
		if j < 0 {
			j = -1
		}
		p.Bodies = append(p.Bodies, int(c.i), j)
		rt, ro := s.relTangent(c)
		p.NRel = append(p.NRel, c.rel)
		p.DRel = append(p.DRel, rt, ro)
	}
}

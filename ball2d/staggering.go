package ball2d

import "math"

// What the stabilized and symplectic_euler staggerings of package sim need
// (sim.ConfigurationUpdater, sim.ForceKicker, sim.GapEvaluator).

// UpdateConfiguration writes q1 = q0 + h v (SCISim's
// linearInertialConfigurationUpdate); fixed balls stay.
func (s *System) UpdateConfiguration(q0, v []float64, h float64, q1 []float64) {
	for i := range s.M {
		a, b := 2*i, 2*i+1
		if s.Fixed[i] {
			q1[a], q1[b] = q0[a], q0[b]
			continue
		}
		q1[a], q1[b] = q0[a]+h*v[a], q0[b]+h*v[b]
	}
}

// ForceKick writes the velocity change h M⁻¹(m g) of gravity, computed as
// SCISim does (h · (m⁻¹ · (m g))); zero for fixed balls.
func (s *System) ForceKick(q0, v0 []float64, h float64, dv []float64) {
	g := s.Gravity
	for i, m := range s.M {
		a, b := 2*i, 2*i+1
		if s.Fixed[i] {
			dv[a], dv[b] = 0, 0
			continue
		}
		minv := 1.0 / m
		dv[a], dv[b] = h*(minv*(m*g[0])), h*(minv*(m*g[1]))
	}
}

// Gaps appends the gap at q of every contact of the last BuildProblem, in
// column order, then of those FindMissed appended since: |xᵢ − xⱼ| − rᵢ − rⱼ for ball pairs (through the portal for
// teleported pairs), n·(x − p) − r for planes, (R − r) − |x − c| for drums.
func (s *System) Gaps(q, dst []float64) []float64 {
	for k := range s.det.contacts {
		dst = append(dst, s.gap(q, &s.det.contacts[k]))
	}
	return dst
}

// gap is contact c's gap at q (Gaps).
func (s *System) gap(q []float64, c *Contact) float64 {
	i := int(c.I)
	x, r := pos(q, i), s.R[i]
	switch c.Kind {
	case BallBall, TeleportedBallBall:
		xi := s.imageAt(q, i, int(c.PortalI), c.PlaneI)
		xj := s.imageAt(q, int(c.J), int(c.PortalJ), c.PlaneJ)
		return math.Hypot(xi[0]-xj[0], xi[1]-xj[1]) - r - s.R[c.J]
	case BallPlane:
		pl := &s.Planes[c.Obj]
		return pl.N[0]*(x[0]-pl.P[0]) + pl.N[1]*(x[1]-pl.P[1]) - r
	case BallDrum:
		d := &s.Drums[c.Obj]
		return (d.R - r) - math.Hypot(x[0]-d.C[0], x[1]-d.C[1])
	}
	return 0
}

// touchesMoved reports whether contact c touches a ball whose block is
// marked in moved (fixed balls have none).
func (s *System) touchesMoved(c *Contact, moved []bool) bool {
	if b := s.block(int(c.I)); b >= 0 && moved[b] {
		return true
	}
	b := s.block(int(c.J))
	return b >= 0 && moved[b]
}

// UpdateGaps implements sim.MovedReevaluator.
func (s *System) UpdateGaps(q []float64, moved []bool, gaps []float64) []float64 {
	cs := s.det.contacts
	for k := range gaps[:min(len(gaps), len(cs))] {
		if c := &cs[k]; s.touchesMoved(c, moved) {
			gaps[k] = s.gap(q, c)
		}
	}
	for k := len(gaps); k < len(cs); k++ {
		gaps = append(gaps, s.gap(q, &cs[k]))
	}
	return gaps
}

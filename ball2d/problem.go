package ball2d

import (
	"impactsim/geom2d"
	"impactsim/mech"
)

// BuildProblem detects the contacts of the step from q0 to the free-flight
// prediction q1 (Alg. 4, line 2) and fills p with the instantaneous impact
// problem at q0 (line 3), following the conventions of package mech:
//
//   - one 2×2 block per ball: M = m·I, M⁻¹ = I/m (zero blocks for fixed balls);
//   - V = v0;
//   - one column of G per contact, the constraint gradient at q0: +n on ball
//     I and −n on ball J for ball pairs (I < J, n = (x_I − x_J)/|x_I − x_J|,
//     through the portal for teleported pairs), +n for a plane, and
//     −(x − c)/|x − c| for a drum;
//   - one column of D per contact, the unit tangent t = (−n_y, n_x) with the
//     same sign pattern, DContact[k] = k (no columns when NoFrictionBasis);
//   - CoR and Mu from the system; Bodies (I, J), with −1 for static geometry
//     and for fixed balls (they join no island).
//
// Contacts come in a deterministic order: ordinary ball pairs sorted by
// (I, J), teleported pairs sorted by (I, J), drums, then planes; with
// MirrorOrder, by their mirror-invariant keys at q0 (that order breaking
// ties). Contacts
// between two fixed balls, or between a fixed ball and static geometry, are
// skipped (nothing could move). Contacts returns the list.
//
// Once its workspaces have grown to the problem size, BuildProblem does not
// allocate.
func (s *System) BuildProblem(q0, q1, v0 []float64, p *mech.Problem) {
	s.Detect(q0, q1)
	if s.MirrorOrder {
		s.det.mirrorOrder(s, q0)
	}
	s.FillProblem(s.Contacts(), q0, v0, p)
	s.det.keysTo(p)
}

// Detect finds the contacts of the step from q0 to the prediction q1 as
// BuildProblem does, without building the problem, and returns them (the
// slice Contacts returns).
func (s *System) Detect(q0, q1 []float64) []Contact {
	s.det.detect(s, q0, q1)
	return s.Contacts()
}

// FillProblem fills p with the given contacts of the balls at q0 with
// velocity v0, as BuildProblem does with the contacts it detects (one
// column of G, and of D, per contact, in the order given). Package domain
// builds the problems of a subdomain's islands and of the islands that
// cross subdomains with it.
func (s *System) FillProblem(contacts []Contact, q0, v0 []float64, p *mech.Problem) {
	n := s.N()
	p.Reset(2, 2*n)
	p.M.ShapeUniform(n, 2)
	p.MInv.ShapeUniform(n, 2)
	mf := &s.massFill
	if mf.self != mf {
		mf.self, mf.run = mf, mf.chunk
	}
	mf.s, mf.p, mf.v0 = s, p, v0
	s.det.g.pool.For(n, parGrain, mf.run)
	mf.s, mf.p, mf.v0 = nil, nil, nil
	withD := !s.NoFrictionBasis
	shear := s.hasShear()
	moving := s.hasMovingGeometry()
	for k := range contacts {
		c := &contacts[k]
		nx, ny := c.N[0], c.N[1]
		tx, ty := -ny, nx
		i, j := 2*int(c.I), 2*int(c.J)
		p.G.Append(i, nx)
		p.G.Append(i+1, ny)
		if withD {
			p.D.Append(i, tx)
			p.D.Append(i+1, ty)
		}
		if c.J >= 0 {
			p.G.Append(j, -nx)
			p.G.Append(j+1, -ny)
			if withD {
				p.D.Append(j, -tx)
				p.D.Append(j+1, -ty)
			}
		}
		p.G.EndCol()
		if withD {
			p.D.EndCol()
			p.DContact = append(p.DContact, k)
		}
		if shear || moving {
			// The image of a ball through a Lees–Edwards portal moves with
			// the shear velocity u, a moving plane or drum with its
			// surface's velocity u at the contact: the relative velocity
			// is v_I − v_J − u.
			nrel, drel := geom2d.WallRel([2]float64{nx, ny}, [2]float64{tx, ty}, s.wallVelocity(c, q0))
			p.NRel = append(p.NRel, nrel)
			if withD {
				p.DRel = append(p.DRel, drel)
			}
		}
		p.AppendContact(s.CoR, s.Mu, s.block(int(c.I)), s.block(int(c.J)))
	}
}

// Contacts returns the contacts of the last BuildProblem, in column order
// (without those FindMissed appended). The slice is reused by the next
// call.
func (s *System) Contacts() []Contact { return s.det.contacts[:s.det.ndetect] }

// massFill fills the M and M⁻¹ blocks and V of BuildProblem on the pool.
type massFill struct {
	s    *System
	p    *mech.Problem
	v0   []float64
	run  func(w, lo, hi int)
	self *massFill
}

func (f *massFill) chunk(w, lo, hi int) {
	// M and M⁻¹ are ShapeUniform: one scalar per block (written here
	// rather than through FillScalar's per-block callback).
	m, mi := f.p.M.Data[lo:hi], f.p.MInv.Data[lo:hi]
	fixed, mass := f.s.Fixed[lo:hi], f.s.M[lo:hi]
	for k := range m {
		if fixed[k] {
			m[k], mi[k] = 0, 0
		} else {
			m[k], mi[k] = mass[k], 1.0/mass[k]
		}
	}
	copy(f.p.V[2*lo:2*hi], f.v0[2*lo:2*hi])
}

// hasShear reports whether a portal is a Lees–Edwards one.
func (s *System) hasShear() bool {
	for i := range s.Portals {
		if s.Portals[i].LeesEdwards() {
			return true
		}
	}
	return false
}

// hasMovingGeometry reports whether a plane or drum has a velocity.
func (s *System) hasMovingGeometry() bool {
	for i := range s.Planes {
		if s.Planes[i].Moving() {
			return true
		}
	}
	for i := range s.Drums {
		if s.Drums[i].Moving() {
			return true
		}
	}
	return false
}

// wallVelocity returns the velocity u that contact c's relative velocity
// v_I − v_J − u subtracts besides the balls': the shear velocity of a
// Lees–Edwards image, or the velocity of a moving plane's or drum's surface
// at the contact point (the ball's surface point along −n at q0 for a
// plane, the drum's wall point C − R n for a drum).
func (s *System) wallVelocity(c *Contact, q0 []float64) [2]float64 {
	switch c.Kind {
	case BallPlane:
		pl := &s.Planes[c.Obj]
		if !pl.Moving() {
			return [2]float64{}
		}
		r := s.R[c.I]
		x := [2]float64{q0[2*c.I] - r*c.N[0], q0[2*c.I+1] - r*c.N[1]}
		return pl.VelocityAt(x)
	case BallDrum:
		d := &s.Drums[c.Obj]
		if !d.Moving() {
			return [2]float64{}
		}
		return geom2d.PointVelocity(d.V, d.W, [2]float64{-d.R * c.N[0], -d.R * c.N[1]})
	}
	return s.kick(c)
}

// kick returns the velocity u of ball J's image relative to ball I's image
// for a teleported pair with a Lees–Edwards portal (as SCISim: ball J's
// portal if it shears, else the opposite of ball I's), zero otherwise.
func (s *System) kick(c *Contact) [2]float64 {
	if c.Kind != TeleportedBallBall {
		return [2]float64{}
	}
	if c.PortalJ >= 0 && s.Portals[c.PortalJ].LeesEdwards() {
		return s.Portals[c.PortalJ].Shear(c.PlaneJ == 1)
	}
	if c.PortalI >= 0 && s.Portals[c.PortalI].LeesEdwards() {
		u := s.Portals[c.PortalI].Shear(c.PlaneI == 1)
		return [2]float64{-u[0], -u[1]}
	}
	return [2]float64{}
}

// block returns body i's block in the problem, −1 for a fixed body (it
// joins no island) or static geometry (i < 0).
func (s *System) block(i int) int {
	if i < 0 || s.Fixed[i] {
		return -1
	}
	return i
}

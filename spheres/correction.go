package spheres

import (
	"fmt"
	"math"
	"slices"

	"impactsim/mech"
	"impactsim/sim"
)

// The position correction of package sim (sim.Correction) on the sphere
// path: after the drift, the centres X alone are projected so that no
// contact of the step penetrates by more than the tolerance. The step's
// contacts (found at the step's start with the speculative margin) are the
// constraints, with gradients and gaps evaluated at the drifted centres;
// orientations and velocities are untouched. The problem is translational
// (3 dofs per sphere, M⁻¹ = I/mᵢ): a sphere's gap does not depend on its
// orientation.

// With periodic sides a pair's gap and normal are those of the nearest
// image, as in the broad phase.
//
// On StepImpact (Alg. 4) the active set is found at the free-flight
// prediction, so a sphere whose path the impulses bent can end inside one
// the step never met. With Correction.Search > 0 the correction is also a
// sim.MissedContactFinder: around every sphere that ended more than Search
// from its prediction it looks, on a grid of the end positions, for
// spheres and walls overlapping it by more than Tol that are not contacts
// of the step, and adds them to the projection.

// correction is the sphere system as sim.PositionCorrectable,
// sim.Relinearizer and sim.MissedContactFinder over the flat centres X.
type correction struct {
	s   *System
	k   *sim.Corrector
	cfg sim.Correction
	p   mech.Problem
	// the missed-contact search: the keys (pairKey) of the step's
	// contacts and of those found since, sorted; the spheres that moved
	moved []int32
	known []uint64
	base  int // len(s.work.con) when known was built
}

// pairKey identifies contact (i, j) (j < 0: a wall) independently of
// which sphere comes first.
func pairKey(i, j int32) uint64 {
	if j >= 0 && j < i {
		i, j = j, i
	}
	return uint64(uint32(i))<<32 | uint64(uint32(j))
}

// geometry returns the gap of contact ct at centres q and its normal
// there (from the wall or sphere j to sphere i; ok false for coincident
// centres, whose normal is the detection's).
func (c *correction) geometry(q []float64, ct *contact) (gap float64, n [3]float64, ok bool) {
	s := c.s
	np, nb := len(s.Planes), len(s.Boxes)
	i := int(ct.i)
	x := q[3*i : 3*i+3]
	var d float64
	switch j := int(ct.j); {
	case j >= 0:
		y := q[3*j : 3*j+3]
		e := [3]float64{x[0] - y[0], x[1] - y[1], x[2] - y[2]}
		s.nearestImage(&e)
		l := math.Sqrt(e[0]*e[0] + e[1]*e[1] + e[2]*e[2])
		if l == 0 {
			return -s.R[i] - s.R[j], ct.n, false
		}
		d, n = l-s.R[j], [3]float64{e[0] / l, e[1] / l, e[2] / l}
	case -1-j < np:
		d, n = s.Planes[-1-j].distance(x)
	case -1-j < np+nb:
		d, n = s.Boxes[-1-j-np].distance(x)
	default:
		d, n = s.Cylinders[-1-j-np-nb].distance(x)
	}
	return d - s.R[i], n, true
}

// nearestImage reduces the separation e along each periodic direction to
// (−L/2, L/2] (the broad phase's convention).
func (s *System) nearestImage(e *[3]float64) {
	for a := 0; a < 2; a++ {
		if l := s.period(a); l > 0 {
			if e[a] > 0.5*l {
				e[a] -= l
			} else if e[a] < -0.5*l {
				e[a] += l
			}
		}
	}
}

// FindMissed implements sim.MissedContactFinder (see above). The spheres
// that moved are scanned in index order on a grid of cells no smaller
// than 2 r_max built at q, so the contacts found, and their order, do not
// depend on the number of workers.
func (c *correction) FindMissed(ref, q []float64, search, tol float64, p *mech.Problem) int {
	s := c.s
	w := &s.work
	n := s.N()
	if c.base < 0 {
		c.rebuildKnown()
	}
	c.moved = c.moved[:0]
	s2 := search * search
	for i := 0; i < n; i++ {
		e := [3]float64{q[3*i] - ref[3*i], q[3*i+1] - ref[3*i+1], q[3*i+2] - ref[3*i+2]}
		s.nearestImage(&e)
		if !(e[0]*e[0]+e[1]*e[1]+e[2]*e[2] > s2) {
			continue // (a non-finite state is the caller's to refuse)
		}
		copy(ref[3*i:3*i+3], q[3*i:3*i+3])
		c.moved = append(c.moved, int32(i))
	}
	if len(c.moved) == 0 {
		return 0
	}
	// a grid of the end positions (the step's was built at its start)
	s.grid(2 * s.maxRadius())
	added := 0
	for _, i32 := range c.moved {
		i := int(i32)
		cx := s.cellCoords(i)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					cc, ok := s.wrapCell([3]int{cx[0] + dx, cx[1] + dy, cx[2] + dz})
					if !ok {
						continue
					}
					for bi := w.cellStart[cc]; bi < w.cellStart[cc+1]; bi++ {
						if j := w.order[bi]; int(j) != i {
							added += c.missed(q, tol, i32, j, p)
						}
					}
				}
			}
		}
		for k := 0; k < len(s.Planes)+len(s.Boxes)+len(s.Cylinders); k++ {
			added += c.missed(q, tol, i32, int32(-1-k), p)
		}
	}
	w.gridErr = nil // the next step's grid is built anew
	w.dropGrid()
	return added
}

// cellCoords returns the grid cell of sphere i's centre.
func (s *System) cellCoords(i int) [3]int {
	w := &s.work
	var c [3]int
	for d := 0; d < 3; d++ {
		c[d] = min(w.dims[d]-1, max(0, int((s.X[3*i+d]-w.lo[d])/w.csd[d])))
	}
	return c
}

// wrapCell returns the index of cell c, wrapped along the periodic
// directions, and false when it lies outside the grid.
func (s *System) wrapCell(c [3]int) (int, bool) {
	w := &s.work
	for d := 0; d < 3; d++ {
		if d < 2 && w.periodic[d] {
			c[d] = (c[d] + w.dims[d]) % w.dims[d]
		}
		if c[d] < 0 || c[d] >= w.dims[d] {
			return 0, false
		}
	}
	return (c[0]*w.dims[1]+c[1])*w.dims[2] + c[2], true
}

// rebuildKnown sorts the keys of the step's contacts.
func (c *correction) rebuildKnown() {
	c.known = c.known[:0]
	for k := range c.s.work.con {
		ct := &c.s.work.con[k]
		c.known = append(c.known, pairKey(ct.i, ct.j))
	}
	slices.Sort(c.known)
	c.base = len(c.s.work.con)
}

// missed adds contact (i, j) to the step's contacts and to p when it
// overlaps at q by more than tol and is not known, and returns 1 then.
func (c *correction) missed(q []float64, tol float64, i, j int32, p *mech.Problem) int {
	s := c.s
	ct := contact{i: i, j: j}
	g, nrm, ok := c.geometry(q, &ct)
	if !ok || !(g < -tol) {
		return 0
	}
	key := pairKey(i, j)
	at, found := slices.BinarySearch(c.known, key)
	if found {
		return 0
	}
	c.known = slices.Insert(c.known, at, key)
	ct.n = nrm
	s.work.con = append(s.work.con, ct)
	s.work.conGen++
	c.base = len(s.work.con)
	appendColumn(p, &ct)
	return 1
}

// Gaps implements sim.GapEvaluator for the step's contacts at centres q.
func (c *correction) Gaps(q, dst []float64) []float64 {
	for k := range c.s.work.con {
		g, _, _ := c.geometry(q, &c.s.work.con[k])
		dst = append(dst, g)
	}
	return dst
}

// UpdateConfiguration implements sim.ConfigurationUpdater: q1 = q0 + h v.
func (c *correction) UpdateConfiguration(q0, v []float64, h float64, q1 []float64) {
	for k := range q0 {
		q1[k] = q0[k] + h*v[k]
	}
}

// PotentialEnergy returns −Σ m g·x at centres q.
func (c *correction) PotentialEnergy(q []float64) float64 {
	s := c.s
	e := 0.0
	g := s.Gravity
	for i := range s.R {
		x := q[3*i : 3*i+3]
		e -= (g[0]*x[0] + g[1]*x[1] + g[2]*x[2]) / s.InvM[i]
	}
	return e
}

// Relinearize implements sim.Relinearizer: the contact normals at q.
func (c *correction) Relinearize(q []float64, p *mech.Problem) {
	for k := range c.s.work.con {
		_, n, ok := c.geometry(q, &c.s.work.con[k])
		if !ok {
			continue
		}
		v := p.G.Val[p.G.Ptr[k]:p.G.Ptr[k+1]]
		copy(v, n[:])
		if len(v) == 6 {
			v[3], v[4], v[5] = -n[0], -n[1], -n[2]
		}
	}
}

// appendColumn appends contact ct's translational column (normal n on
// sphere i, −n on sphere j) and its bodies to p.
func appendColumn(p *mech.Problem, ct *contact) {
	i, j := int(ct.i), int(ct.j)
	for a := 0; a < 3; a++ {
		p.G.Append(3*i+a, ct.n[a])
	}
	if j >= 0 {
		for a := 0; a < 3; a++ {
			p.G.Append(3*j+a, -ct.n[a])
		}
	} else {
		j = -1
	}
	p.G.EndCol()
	p.Bodies = append(p.Bodies, i, j)
}

// setCorrection makes the system correct positions with cfg (nil: no
// correction), keeping its corrector while cfg does not change.
func (s *System) setCorrection(cfg *sim.Correction) error {
	if cfg == nil {
		s.corr = nil
		return nil
	}
	if s.corr != nil && s.corr.cfg == *cfg {
		return nil
	}
	c := &correction{s: s, cfg: *cfg}
	k, err := sim.NewCorrector(c, *cfg)
	if err != nil {
		return err
	}
	k.SetPool(s.pool)
	c.k = k
	s.corr = c
	return nil
}

// correct builds the translational problem of the step's contacts (normals
// as found) and runs the correction on the centres X.
func (s *System) correct() (sim.CorrectionStats, error) {
	c := s.corr
	p := &c.p
	n := s.N()
	p.Reset(3, 3*n)
	p.MInv.ShapeUniform(n, 3)
	copy(p.MInv.Data, s.InvM)
	for k := range s.work.con {
		appendColumn(p, &s.work.con[k])
	}
	c.base = -1 // the missed-contact search sorts the step's contacts
	st, err := c.k.Correct(p, s.X)
	if err != nil {
		err = fmt.Errorf("spheres: position correction: %w", err)
	}
	return st, err
}

package spheres

import (
	"fmt"
	"math"

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

// correction is the sphere system as sim.PositionCorrectable and
// sim.Relinearizer over the flat centres X.
type correction struct {
	s   *System
	k   *sim.Corrector
	cfg sim.Correction
	p   mech.Problem
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
		ct := &s.work.con[k]
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
	st, err := c.k.Correct(p, s.X)
	if err != nil {
		err = fmt.Errorf("spheres: position correction: %w", err)
	}
	return st, err
}

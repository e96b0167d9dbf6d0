package impact

import (
	"fmt"

	"impactsim/mech"
	"impactsim/par"
)

// GRR is generalized restitution (§5 of Smith et al. 2012): with a single
// coefficient c for the whole problem,
//
//	v⁺ = (1 − c) v⁺(inelastic, c=0) + c v⁺(elastic, c=1),
//
// and, since v⁺ is affine in λ, λ = (1 − c) λ₀ + c λ₁ (Alg. 4 lines 3–5).
// The inelastic part is the LCP of Alg. 1 and the elastic part is GR at
// c = 1 by default; neither suffers inelastic collapse, so GRR terminates for
// every c, and the interpolation of two feasible velocities is feasible.
type GRR struct {
	elastic, inelastic Operator
	l0, l1             []float64
}

// restitutionSetter is implemented by operators whose restitution can be
// pinned (GR, LCP and the pairwise operators).
type restitutionSetter interface{ setRestitution(c float64) }

func (o *LCP) setRestitution(c float64)      { o.restitution = c }
func (o *GR) setRestitution(c float64)       { o.restitution = c }
func (o *Pairwise) setRestitution(c float64) { o.restitution = c }

func newGRR(c Config) (*GRR, error) {
	el := Config{Name: "gr", VTol: c.VTol, MaxIter: c.MaxIter, Solver: c.Solver}
	in := Config{Name: "lcp", Solver: c.Solver}
	if c.Elastic != nil {
		el = *c.Elastic
	}
	if c.Inelastic != nil {
		in = *c.Inelastic
	}
	if el.Name == "grr" || in.Name == "grr" {
		return nil, fmt.Errorf("impact: grr cannot nest grr")
	}
	e, err := New(el)
	if err != nil {
		return nil, fmt.Errorf("impact: grr elastic operator: %w", err)
	}
	i, err := New(in)
	if err != nil {
		return nil, fmt.Errorf("impact: grr inelastic operator: %w", err)
	}
	e.(restitutionSetter).setRestitution(1)
	i.(restitutionSetter).setRestitution(0)
	return &GRR{elastic: e, inelastic: i}, nil
}

// NewGRR returns generalized restitution over GR (elastic) and LCP
// (inelastic) with the given GR tolerance and QP solver name.
func NewGRR(vtol float64, solver string) (*GRR, error) {
	return newGRR(Config{Name: "grr", VTol: vtol, Solver: solver})
}

// Name returns "grr".
func (o *GRR) Name() string { return "grr" }

// Resolve interpolates the inelastic and elastic impulses. All contacts
// must share one coefficient of restitution.
func (o *GRR) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	if err := p.RejectRel(o.Name()); err != nil {
		return mech.Stats{}, err
	}
	m := p.NContacts()
	var st mech.Stats
	if m == 0 {
		return st, nil
	}
	c := p.CoR[0]
	for i, ci := range p.CoR {
		if ci != c {
			return st, fmt.Errorf("impact: grr needs one coefficient of restitution for all contacts; contact 0 has %v, contact %d has %v", c, i, ci)
		}
	}
	o.l0 = grow(o.l0, m)
	o.l1 = grow(o.l1, m)
	if c < 1 {
		s0, err := o.inelastic.Resolve(p, o.l0)
		st.Add(s0)
		if err != nil {
			return st, fmt.Errorf("impact: grr inelastic part: %w", err)
		}
	} else {
		clear(o.l0)
	}
	if c > 0 {
		s1, err := o.elastic.Resolve(p, o.l1)
		st.Add(s1)
		if err != nil {
			return st, fmt.Errorf("impact: grr elastic part: %w", err)
		}
	} else {
		clear(o.l1)
	}
	for i := 0; i < m; i++ {
		lambda[i] = (1-c)*o.l0[i] + c*o.l1[i]
	}
	return st, nil
}

// SetPool passes pool to the elastic and inelastic operators.
func (o *GRR) SetPool(pool *par.Pool) {
	for _, op := range []Operator{o.elastic, o.inelastic} {
		if ps, ok := op.(interface{ SetPool(*par.Pool) }); ok {
			ps.SetPool(pool)
		}
	}
}

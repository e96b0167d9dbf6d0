package impact

import (
	"fmt"
	"math"

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
//
// With per-contact coefficients cᵢ (Bounce Maps give every contact its
// own; Smith et al. §12 leave this open) GRR mixes per contact and then
// restores what mixing may lose (see the package documentation, "grr with
// a vector c"):
//
//	λ_c = (1 − cᵢ)λ₀ᵢ + cᵢλ₁ᵢ,  v_c = v⁻ + M⁻¹Gλ_c,
//	v⁺ = v_c + M⁻¹Gμ,  μ the inelastic LCP from v_c (the M-projection of
//	     v_c onto {v : Gᵀv ≥ 0}; μ = 0 when nothing approaches at v_c),
//
// and, if v⁺ has more kinetic energy than v⁻, the restitution part is
// shrunk: λ_c(s) = λ₀ + s(λ_c − λ₀) with s ∈ [0, 1) found by bisection so
// that the projected velocity keeps T(v⁺) ≤ T(v⁻).
type GRR struct {
	elastic, inelastic Operator
	projector          Operator // a second inelastic LCP for the projection
	l0, l1, lc, mu     []float64
	vc, vp, scratch    []float64
	proj               mech.Problem
	// Projected and Shrunk count the vector-c resolutions that needed the
	// projection and the energy shrink, and Gain is the largest relative
	// kinetic energy gain a shrink removed (for tests and diagnostics).
	Projected, Shrunk int
	Gain              float64
}

// restitutionSetter is implemented by operators whose restitution can be
// pinned (GR, LCP and the pairwise operators).
type restitutionSetter interface{ setRestitution(c float64) }

func (o *LCP) setRestitution(c float64)      { o.restitution = c }
func (o *GR) setRestitution(c float64)       { o.restitution = c }
func (o *Pairwise) setRestitution(c float64) { o.restitution = c }

func newGRR(c Config) (*GRR, error) {
	el := Config{Name: "gr", VTol: c.VTol, MaxIter: c.MaxIter, Solver: c.Solver, InteriorMin: c.InteriorMin, InteriorMax: c.InteriorMax}
	in := Config{Name: "lcp", Solver: c.Solver, InteriorMin: c.InteriorMin, InteriorMax: c.InteriorMax}
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
	pr, err := New(in)
	if err != nil {
		return nil, fmt.Errorf("impact: grr inelastic operator: %w", err)
	}
	e.(restitutionSetter).setRestitution(1)
	i.(restitutionSetter).setRestitution(0)
	pr.(restitutionSetter).setRestitution(0)
	return &GRR{elastic: e, inelastic: i, projector: pr}, nil
}

// NewGRR returns generalized restitution over GR (elastic) and LCP
// (inelastic) with the given GR tolerance and QP solver name.
func NewGRR(vtol float64, solver string) (*GRR, error) {
	return newGRR(Config{Name: "grr", VTol: vtol, Solver: solver})
}

// Name returns "grr".
func (o *GRR) Name() string { return "grr" }

// Resolve interpolates the inelastic and elastic impulses: with one
// coefficient for all contacts exactly as §5; with per-contact coefficients
// as the type documentation says.
func (o *GRR) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	m := p.NContacts()
	var st mech.Stats
	if m == 0 {
		return st, nil
	}
	uniform := true
	lo, hi := p.CoR[0], p.CoR[0]
	for _, ci := range p.CoR {
		uniform = uniform && ci == p.CoR[0]
		lo, hi = math.Min(lo, ci), math.Max(hi, ci)
	}
	if !uniform && p.HasRel() {
		// The energy bound of the per-contact rule (T(v⁺) ≤ T(v⁻)) is a
		// statement about static geometry: a moving wall legitimately
		// adds energy, and there is no one frame in which all walls rest.
		return st, fmt.Errorf("impact: grr with per-contact coefficients (%g … %g) and moving geometry (known relative velocities): the vector-c rule bounds the kinetic energy, which moving walls change; use gr, lcp or one coefficient", lo, hi)
	}
	o.l0 = grow(o.l0, m)
	o.l1 = grow(o.l1, m)
	if lo < 1 {
		s0, err := o.inelastic.Resolve(p, o.l0)
		st.Add(s0)
		if err != nil {
			return st, fmt.Errorf("impact: grr inelastic part: %w", err)
		}
	} else {
		clear(o.l0)
	}
	if hi > 0 {
		s1, err := o.elastic.Resolve(p, o.l1)
		st.Add(s1)
		if err != nil {
			return st, fmt.Errorf("impact: grr elastic part: %w", err)
		}
	} else {
		clear(o.l1)
	}
	if uniform {
		c := p.CoR[0]
		for i := 0; i < m; i++ {
			lambda[i] = (1-c)*o.l0[i] + c*o.l1[i]
		}
		return st, nil
	}
	for i, c := range p.CoR {
		lambda[i] = (1-c)*o.l0[i] + c*o.l1[i]
	}
	s2, err := o.project(p, lambda)
	st.Add(s2)
	if err != nil {
		return st, err
	}
	// Energy may not grow (to 1e-12 relative, the rounding of the elastic
	// part's own energy balance).
	tv := p.KineticEnergy(p.V)
	t0 := tv * (1 + 1e-12)
	t1 := p.KineticEnergy(o.vp)
	if t1 <= t0 {
		return st, nil
	}
	o.Gain = math.Max(o.Gain, t1/tv-1)
	// Shrink the restitution part: s = 0 is the inelastic answer (no
	// energy gained); keep the largest s found by bisection whose
	// projected velocity keeps T ≤ T(v⁻).
	o.Shrunk++
	o.lc = grow(o.lc, m)
	for i, c := range p.CoR {
		o.lc[i] = c * (o.l1[i] - o.l0[i])
	}
	good, bad := 0.0, 1.0
	best := make([]float64, m)
	copy(best, o.l0)
	for it := 0; it < 60 && bad-good > 1e-12; it++ {
		sm := (good + bad) / 2
		for i := range lambda {
			lambda[i] = o.l0[i] + sm*o.lc[i]
		}
		s3, err := o.project(p, lambda)
		st.Add(s3)
		if err != nil {
			return st, err
		}
		if p.KineticEnergy(o.vp) <= t0 {
			good = sm
			copy(best, lambda)
		} else {
			bad = sm
		}
	}
	copy(lambda, best)
	return st, nil
}

// project adds to λ the inelastic LCP impulse μ from v_c = v⁻ + M⁻¹Gλ
// when a contact approaches there, and leaves the velocity in o.vp.
func (o *GRR) project(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	var st mech.Stats
	n, m := p.NDof(), p.NContacts()
	o.vc = grow(o.vc, n)
	o.vp = grow(o.vp, n)
	o.scratch = grow(o.scratch, n)
	o.mu = grow(o.mu, m)
	p.ApplyImpulses(o.vc, p.V, lambda, nil, o.scratch)
	p.RelNormalVelocities(o.mu, o.vc)
	approach := false
	for _, u := range o.mu {
		approach = approach || u < 0
	}
	copy(o.vp, o.vc)
	if !approach {
		return st, nil
	}
	o.Projected++
	o.proj = *p
	o.proj.V = o.vc
	s, err := o.projector.Resolve(&o.proj, o.mu)
	st.Add(s)
	if err != nil {
		return st, fmt.Errorf("impact: grr projection of the per-contact mix: %w", err)
	}
	for i := range lambda {
		lambda[i] += o.mu[i]
	}
	p.ApplyImpulses(o.vp, p.V, lambda, nil, o.scratch)
	return st, nil
}

// SetPool passes pool to the elastic and inelastic operators.
func (o *GRR) SetPool(pool *par.Pool) {
	for _, op := range []Operator{o.elastic, o.inelastic, o.projector} {
		if ps, ok := op.(interface{ SetPool(*par.Pool) }); ok {
			ps.SetPool(pool)
		}
	}
}

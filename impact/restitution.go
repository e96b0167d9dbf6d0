package impact

import (
	"fmt"
	"math"

	"impactsim/mech"
	"impactsim/par"
)

// VelocityRestitution is the velocity-dependent coefficient of restitution
// used for vibrated granular layers (Bizon et al. 1998, after the
// measurements of Falcon et al. and the viscoelastic theory of Brilliantov
// et al.): a contact approaching at normal speed v has
//
//	e(v) = 1 − (1 − e₀)(v/v₀)^{3/4}   for v < v₀,     e(v) = e₀   for v ≥ v₀,
//
// so slow collisions are nearly elastic and the layer does not collapse
// inelastically; e₀ is the contact's own coefficient (the scene's, a
// script's, a bounce map's) and v₀ a velocity scale, often √(gσ) for
// grains of diameter σ under gravity g.
type VelocityRestitution struct {
	V0 float64
	u  [256]float64 // the normal velocities of a range of contacts

	// SetPool: large problems by ranges of contacts on the pool
	pool   *par.Pool
	us     [][256]float64 // per worker but the first (which uses u)
	p      *mech.Problem  // while the pool runs fApply
	fApply func(w, lo, hi int)
}

// SetPool makes Apply take the contacts of problems of at least 4096
// contacts by ranges on the workers of pool. Each contact's coefficient
// depends on that contact alone, so the result is the same bit for bit.
func (r *VelocityRestitution) SetPool(pool *par.Pool) { r.pool = pool }

// Check returns an error unless 0 < v₀ < ∞.
func (r *VelocityRestitution) Check() error {
	if !(r.V0 > 0) || math.IsInf(r.V0, 0) {
		return fmt.Errorf("velocity-dependent restitution: v₀ = %v, want a positive finite speed", r.V0)
	}
	return nil
}

// E returns e(v) for a contact of coefficient e0 approaching at speed v
// (v ≤ 0: not approaching, e = 1).
func (r *VelocityRestitution) E(e0, v float64) float64 {
	if v >= r.V0 {
		return e0
	}
	if v <= 0 {
		return 1
	}
	return 1 - (1-e0)*math.Pow(v/r.V0, 0.75)
}

// Apply replaces every contact's coefficient cᵢ by e(vᵢ) with e₀ = cᵢ and
// vᵢ = −uᵢ⁻ its approach speed (uᵢ⁻ = ∇gᵢᵀv⁻ + NRel[i], the relative
// normal velocity). It takes the contacts a fixed range at a time, so it
// holds no vector of m and does not allocate.
func (r *VelocityRestitution) Apply(p *mech.Problem) {
	m := p.NContacts()
	if nw := r.pool.Workers(); nw > 1 && m >= 4096 {
		if len(r.us) < nw-1 {
			r.us = make([][256]float64, nw-1)
		}
		if r.fApply == nil {
			r.fApply = func(w, lo, hi int) {
				u := &r.u
				if w > 0 {
					u = &r.us[w-1]
				}
				r.applyRange(r.p, u, lo, hi)
			}
		}
		r.p = p
		r.pool.For(m, 4096, r.fApply)
		r.p = nil
		return
	}
	r.applyRange(p, &r.u, 0, m)
}

// applyRange applies e(v) to the contacts [lo, hi), len(u) at a time.
func (r *VelocityRestitution) applyRange(p *mech.Problem, u *[256]float64, lo, hi int) {
	for ; lo < hi; lo += len(u) {
		e := min(hi, lo+len(u))
		p.RelNormalVelocitiesRange(u[:], p.V, lo, e)
		for k, uk := range u[:e-lo] {
			p.CoR[lo+k] = r.E(p.CoR[lo+k], -uk)
		}
	}
}

// RestitutionWarning returns the warning for operator name on a system
// whose coefficient of restitution is c (e₀ of e(v) when velocityDependent),
// or "" when the operator applies it. QCE (Alg. 1 of Zhang et al.) is
// purely elastic and ignores every contact's cᵢ, so a qce run with c < 1 —
// or with e(v), which is below 1 at every approach speed when e₀ < 1 — has
// elastic impacts; qce_lcp (eq. 19) applies cᵢ to QCE's velocity.
func RestitutionWarning(name string, c float64, velocityDependent bool) string {
	if name != "qce" || !(c < 1) {
		return ""
	}
	what := fmt.Sprintf("c = %g", c)
	if velocityDependent {
		what = fmt.Sprintf("velocity-dependent e(v) with e₀ = %g", c)
	}
	return fmt.Sprintf("operator qce is purely elastic (Zhang et al. Alg. 1): the restitution %s is ignored and every impact is elastic; qce_lcp (eq. 19) applies it", what)
}

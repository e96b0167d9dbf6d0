package impact

import (
	"fmt"
	"math"

	"impactsim/mech"
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
}

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
	for lo := 0; lo < m; lo += len(r.u) {
		hi := min(m, lo+len(r.u))
		p.RelNormalVelocitiesRange(r.u[:], p.V, lo, hi)
		for k, u := range r.u[:hi-lo] {
			p.CoR[lo+k] = r.E(p.CoR[lo+k], -u)
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

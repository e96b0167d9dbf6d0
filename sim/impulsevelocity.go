package sim

import (
	"fmt"
	"time"
)

// Scheme selects the time-stepping scheme of a Stepper.
type Scheme uint8

const (
	// CollisionIntegrator is Alg. 4 of Smith et al. 2012 (the default).
	CollisionIntegrator Scheme = iota
	// ImpulseVelocity is the impulse-velocity time stepping of Preclik et
	// al. (sec. 3.1): semi-implicit Euler with position-level discrete
	// non-penetration and error reduction.
	ImpulseVelocity
)

func (s Scheme) String() string {
	if s == ImpulseVelocity {
		return "impulse-velocity"
	}
	return "collision-integrator"
}

// ImpulseVelocitySystem is a System the impulse-velocity scheme can
// advance. Besides BuildProblem (contacts active at the prediction q1,
// gradients at q0, velocity v0) it provides the scheme's two half steps and
// the contacts' gaps.
type ImpulseVelocitySystem interface {
	System
	// Kick writes v̂ = v + M⁻¹z, the velocity after the explicit external
	// impulses of a step h at q: z = (h f_ext, h τ_ext − h ω × I(q)ω) for
	// rigid bodies (gravity and the gyroscopic term).
	Kick(q, v []float64, h float64, vOut []float64)
	// Drift writes x′ = x + h v (semi-implicit Euler), for rigid bodies
	// with the orientation ϕ′ = (ϕ + h Q(ϕ)ω)/‖·‖₂.
	Drift(q, v []float64, h float64, qOut []float64)
	// Gaps appends to dst the signed gap ξᵢ at q (negative: penetration)
	// of every contact of the last BuildProblem, in column order.
	Gaps(q []float64, dst []float64) []float64
}

// NewImpulseVelocityStepper returns a stepper at time zero for state
// (q, v), which it copies, that advances sys by the impulse-velocity time
// stepping of Preclik et al. (sec. 3.1) with error reduction eps ∈ [0, 1).
// One step of length h from (x, ϕ, v, ω):
//
//  1. v̂ = v + M⁻¹z (Kick: external impulses, explicit gyroscopic term);
//  2. x̃ = Drift(x, v̂): the unconstrained prediction; the contacts active
//     at x̃ are assembled at x with velocity v̂ (BuildProblem), and with
//     the gap ξᵢ at x each gets the known normal velocity
//     NRel[i] = ε·min(0, ξᵢ/h) + max(0, ξᵢ/h), so that the law imposes the
//     discrete non-penetration ξ̂ᵢ/h + ∇gᵢᵀv′ ≥ 0 ⊥ λᵢ ≥ 0;
//  3. the law (friction.NBGS) gives λ, β and v′ = v̂ + M⁻¹(Gλ + Dβ);
//  4. x′ = Drift(x, v′).
//
// A penetrating contact (ξ < 0) is pushed apart at ε·|ξ|/h; ε = 0 keeps
// the penetration (velocity-level non-penetration), ε → 1 removes it in
// one step. A separated contact that the prediction closes (ξ > 0) may
// approach by ξ within the step (a speculative contact). Everything else —
// Strict, StepStats, the pool, AfterStep — is as for Alg. 4.
func NewImpulseVelocityStepper(sys System, law ContactLaw, h, eps float64, q, v []float64) (*Stepper, error) {
	ivs, ok := sys.(ImpulseVelocitySystem)
	if !ok {
		return nil, fmt.Errorf("sim: the impulse-velocity scheme needs a system with Kick, Drift and Gaps; %T has not", sys)
	}
	if !(eps >= 0 && eps < 1) {
		return nil, fmt.Errorf("sim: error reduction ε = %v, want 0 ≤ ε < 1", eps)
	}
	s, err := NewStepper(sys, law, h, q, v)
	if err != nil {
		return nil, err
	}
	s.Scheme, s.ErrorReduction, s.ivs = ImpulseVelocity, eps, ivs
	return s, nil
}

// stepImpulseVelocity is Step for the ImpulseVelocity scheme (see
// NewImpulseVelocityStepper). Buffers: v̂ in vt, x̃ in qt; v′ is summed
// into them as in Alg. 4 (applyImpulses) and copied to vt.
func (s *Stepper) stepImpulseVelocity() error {
	h := s.H
	t0 := time.Now()
	if ss, ok := s.Sys.(StepStarter); ok {
		ss.StartStep(float64(s.N+1) * h)
	}
	s.ivs.Kick(s.Q, s.V, h, s.vt)
	s.ivs.Drift(s.Q, s.vt, h, s.qt)
	if s.corr != nil {
		s.corr.Prepare(s.qt)
	}
	t1 := time.Now()
	s.Sys.BuildProblem(s.Q, s.qt, s.vt, &s.Problem)
	p := &s.Problem
	s.keepWall(p)
	m := p.NContacts()
	if m > 0 {
		s.gaps = s.ivs.Gaps(s.Q, s.gaps[:0])
		if len(s.gaps) != m {
			return fmt.Errorf("sim: step %d: %d gaps for %d contacts", s.N+1, len(s.gaps), m)
		}
		// The gap term adds to the known velocities of moving geometry,
		// if the system set any.
		if err := p.NeedStoredRel("sim: the gap velocities"); err != nil {
			return err
		}
		moving := len(p.NRel) == m
		p.NRel = growF(p.NRel, m)
		for i, xi := range s.gaps {
			if moving {
				p.NRel[i] += GapVelocity(xi, h, s.ErrorReduction)
			} else {
				p.NRel[i] = GapVelocity(xi, h, s.ErrorReduction)
			}
		}
	}
	t2 := time.Now()
	s.Last = StepStats{Contacts: m, Integration: t1.Sub(t0), Detection: t2.Sub(t1)}
	if err := s.coefficients(p); err != nil {
		return err
	}
	qn := s.qn
	if qn == nil {
		qn = s.V // v is not read again
	}
	if m > 0 {
		if err := s.solveLaw(); err != nil {
			return err
		}
		s.Last.WallWork = s.wallWork()
		s.base = p.V // v̂ (BuildProblem copied it)
		s.applyImpulses()
		s.base = nil
		copy(s.vt, s.vp)
		s.vp, s.scr = nil, nil
	}
	t3 := time.Now()
	s.Last.Impact = t3.Sub(t2)
	s.ivs.Drift(s.Q, s.vt, h, qn)
	s.Last.Integration += time.Since(t3)
	return s.finish(qn)
}

// GapVelocity returns the known normal velocity ξ̂/h that the gap ξ of a
// contact at the start of a step h contributes to the discrete non-
// penetration condition ξ̂/h + ∇gᵀv′ ≥ 0 of Preclik et al. (sec. 3.1), with
// error reduction ε: ξ̂/h = ε·min(0, ξ/h) + max(0, ξ/h).
func GapVelocity(xi, h, eps float64) float64 {
	g := xi / h
	if g < 0 {
		g *= eps
	}
	return g
}

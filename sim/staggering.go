package sim

import (
	"fmt"
	"math"
	"time"

	"impactsim/mech"
)

// Staggering is how a step combines free flight, active-set detection and
// the contact law: SCISim's impact–friction maps (its scenes' staggering
// attribute). See the package documentation for the three maps.
type Staggering int

const (
	// Geometric is Alg. 4 (SCISim's GeometricImpactFrictionMap).
	Geometric Staggering = iota
	// Stabilized solves the contacts on the free flight's end velocity
	// and moves from qᵗ with the result (StabilizedImpactFrictionMap).
	Stabilized
	// SymplecticEuler kicks with the forces first and constrains the
	// kicked velocity (SymplecticEulerImpactFrictionMap).
	SymplecticEuler
)

func (g Staggering) String() string {
	switch g {
	case Geometric:
		return "geometric"
	case Stabilized:
		return "stabilized"
	case SymplecticEuler:
		return "symplectic_euler"
	}
	return fmt.Sprintf("Staggering(%d)", int(g))
}

// ParseStaggering maps SCISim's staggering names onto Staggering.
func ParseStaggering(name string) (Staggering, error) {
	switch name {
	case "", "geometric":
		return Geometric, nil
	case "stabilized":
		return Stabilized, nil
	case "symplectic_euler":
		return SymplecticEuler, nil
	}
	return 0, fmt.Errorf("unknown staggering %q (want geometric, stabilized or symplectic_euler)", name)
}

// ConfigurationUpdater is implemented by systems that can move their
// positions by a velocity without forces (SCISim's
// linearInertialConfigurationUpdate): q1 = q0 + h v for translations, a
// rotation by h ω for orientations. The Stabilized and SymplecticEuler
// staggerings end every step with it; the position correction moves
// positions with it in place (h = 1, q1 = q0), so an implementation must
// allow q1 to be q0.
type ConfigurationUpdater interface {
	UpdateConfiguration(q0, v []float64, h float64, q1 []float64)
}

// ForceKicker is implemented by systems that can write the velocity change
// dv = h M⁻¹ F(q0, v0) of their applied forces over h (gravity; no
// gyroscopic term, as SCISim's computeForce), which the SymplecticEuler
// staggering applies before the contacts.
type ForceKicker interface {
	ForceKick(q0, v0 []float64, h float64, dv []float64)
}

// GapEvaluator is implemented by systems that can append the gap gᵢ
// (signed distance, negative when penetrating) at q of every contact of
// their last BuildProblem, in column order (as ImpulseVelocitySystem). The
// SymplecticEuler staggering with stabilization needs it.
type GapEvaluator interface {
	Gaps(q []float64, dst []float64) []float64
}

// SetStaggering selects the stepper's staggering. With SymplecticEuler,
// stabilize adds the penetration min(0, gᵢ)/h of every contact deeper than
// threshold to its normal velocity (pushing it out over one step), as
// SCISim's stabilization and penetration_threshold. It fails if the system
// lacks what the staggering needs.
func (s *Stepper) SetStaggering(g Staggering, stabilize bool, threshold float64) error {
	s.staggering, s.stabilize, s.threshold = g, false, 0
	s.cfg, s.kick, s.gapper = nil, nil, nil
	if g == Geometric {
		return nil
	}
	cfg, ok := s.Sys.(ConfigurationUpdater)
	if !ok {
		return fmt.Errorf("sim: %s staggering needs a system that updates its configuration by a velocity (%T does not)", g, s.Sys)
	}
	s.cfg = cfg
	if g == Stabilized {
		if stabilize {
			return fmt.Errorf("sim: stabilization is an option of the symplectic_euler staggering, not of %s", g)
		}
	} else if g == SymplecticEuler {
		if s.kick, ok = s.Sys.(ForceKicker); !ok {
			return fmt.Errorf("sim: %s staggering needs a system that applies its forces as a kick (%T does not)", g, s.Sys)
		}
		if stabilize {
			if s.gapper, ok = s.Sys.(GapEvaluator); !ok {
				return fmt.Errorf("sim: stabilization needs a system that evaluates its contacts' gaps (%T does not)", s.Sys)
			}
		}
	} else {
		return fmt.Errorf("sim: unknown staggering %d", int(g))
	}
	if !(threshold >= 0) || math.IsInf(threshold, 0) {
		return fmt.Errorf("sim: penetration threshold %v, want a finite value ≥ 0", threshold)
	}
	s.staggering, s.stabilize, s.threshold = g, stabilize, threshold
	return nil
}

// Staggering returns the stepper's staggering.
func (s *Stepper) Staggering() Staggering { return s.staggering }

// stepStaggered is Step for the Stabilized and SymplecticEuler staggerings:
//
//	Stabilized:      (q̃, ṽ) = FF(qᵗ, vᵗ); 𝔸 on (qᵗ, q̃); v⁺ = ṽ + M⁻¹(Gλ + Dβ)
//	                 with the law on ṽ; qᵗ⁺¹ = qᵗ ⊕ h v⁺, vᵗ⁺¹ = v⁺.
//	SymplecticEuler: δ = h M⁻¹F(qᵗ); q̃ = qᵗ ⊕ h(vᵗ + δ); 𝔸 on (qᵗ, q̃);
//	                 the law on vᵗ with known relative velocities Gᵀδ, Dᵀδ
//	                 (+ min(0, g)/h when stabilizing); vᵗ⁺¹ = vᵗ + M⁻¹(Gλ + Dβ) + δ,
//	                 qᵗ⁺¹ = qᵗ ⊕ h vᵗ⁺¹ (without contacts vᵗ⁺¹ = vᵗ + δ).
//
// ⊕ is the system's ConfigurationUpdater. G and D are at qᵗ in both.
func (s *Stepper) stepStaggered(h float64, t0 time.Time) error {
	n := len(s.V)
	p := &s.Problem
	if s.staggering == SymplecticEuler {
		s.dv = growF(s.dv, n)
		s.kick.ForceKick(s.Q, s.V, h, s.dv)
		for i, v := range s.V {
			s.vt[i] = v + s.dv[i]
		}
		s.cfg.UpdateConfiguration(s.Q, s.vt, h, s.qt)
	} else {
		s.Sys.FreeFlight(s.Q, s.V, h, s.qt, s.vt)
	}
	if s.corr != nil {
		s.corr.Prepare(s.qt)
	}
	t1 := time.Now()
	if s.staggering == SymplecticEuler {
		s.Sys.BuildProblem(s.Q, s.qt, s.V, p)
	} else {
		s.Sys.BuildProblem(s.Q, s.qt, s.vt, p)
	}
	t2 := time.Now()
	s.keepWall(p)
	m := p.NContacts()
	s.Last = StepStats{Contacts: m, Integration: t1.Sub(t0), Detection: t2.Sub(t1)}
	if err := s.coefficients(p); err != nil {
		return err
	}
	if m == 0 {
		// Stabilized: the free flight is the step. SymplecticEuler: the
		// kicked velocity and q̃ = qᵗ ⊕ h(vᵗ + δ) are.
		s.Sys.AfterStep(s.qt, s.vt)
		s.Q, s.qt = s.qt, s.Q
		s.V, s.vt = s.vt, s.V
		return nil
	}
	if s.staggering == SymplecticEuler {
		if err := s.addKickVelocities(p, h); err != nil {
			return fmt.Errorf("sim: step %d (t = %.10g → %.10g), %d contacts: %w", s.N+1, s.T, s.T+h, m, err)
		}
	}
	if err := s.solveLaw(); err != nil {
		return err
	}
	s.Last.WallWork = s.wallWork()
	// v⁺ = v + M⁻¹(Gλ + Dβ) on the problem's velocity (ṽ or vᵗ), into vt
	// (ṽ is no longer needed), with the kick added for SymplecticEuler.
	s.scr2 = growF(s.scr2, n)
	p.ApplyImpulses(s.vt, p.V, s.Lambda, s.Beta[:p.D.NCols()], s.scr2)
	if s.staggering == SymplecticEuler {
		for i, d := range s.dv {
			s.vt[i] += d
		}
	}
	t3 := time.Now()
	s.Last.Impact = t3.Sub(t2)
	s.cfg.UpdateConfiguration(s.Q, s.vt, h, s.qt)
	s.Last.Integration += time.Since(t3)
	if err := s.correct(s.qt); err != nil {
		return err
	}
	s.Sys.AfterStep(s.qt, s.vt)
	s.Q, s.qt = s.qt, s.Q
	s.V, s.vt = s.vt, s.V
	return nil
}

// addKickVelocities adds the kick's relative velocities Gᵀδ and Dᵀδ to the
// problem's known relative velocities (NRel, DRel), and with stabilization
// min(0, gᵢ)/h for every contact deeper than the threshold.
func (s *Stepper) addKickVelocities(p *mech.Problem, h float64) error {
	if err := p.NeedStoredRel("sim: the kick's relative velocities"); err != nil {
		return err
	}
	m, nd := p.NContacts(), p.D.NCols()
	if len(p.NRel) != m {
		p.NRel = growF(p.NRel, m)
		clear(p.NRel)
	}
	if len(p.DRel) != nd {
		p.DRel = growF(p.DRel, nd)
		clear(p.DRel)
	}
	for k := 0; k < m; k++ {
		p.NRel[k] += p.G.ColDot(k, s.dv)
	}
	for j := 0; j < nd; j++ {
		p.DRel[j] += p.D.ColDot(j, s.dv)
	}
	if !s.stabilize {
		return nil
	}
	s.gap = s.gapper.Gaps(s.Q, s.gap[:0])
	if len(s.gap) != m {
		return fmt.Errorf("stabilization: %d gaps for %d contacts", len(s.gap), m)
	}
	for k, g := range s.gap {
		g = math.Min(0, g)
		if math.Abs(g) < s.threshold {
			g = 0
		}
		p.NRel[k] += g / h
	}
	return nil
}

package sim

import (
	"errors"
	"fmt"
	"time"

	"impactsim/mech"
)

// Closure configures the closed active set (Stepper.SetClosure; package
// documentation, "Closed active set"): after the law gives v⁺, the contacts
// that the motion qᵗ → qᵗ⁺¹(v⁺) meets and the active set lacks are added
// and the law solves the step again from vᵗ on the enlarged set, until the
// set is closed.
type Closure struct {
	// MaxRounds caps the re-solves of one step (0: DefaultClosureRounds).
	// A step whose last re-detection still finds contacts goes on with the
	// last solve and is recorded (ClosureStats.Capped, .Missing);
	// Stepper.Strict makes it an error.
	MaxRounds int
}

// DefaultClosureRounds is the default of Closure.MaxRounds.
const DefaultClosureRounds = 16

// ActiveSetCloser is what the closed active set needs from a system: its
// detection on another motion, compared with its current contact list.
type ActiveSetCloser interface {
	// MissingContacts runs the detection of BuildProblem on the motion
	// q0 → q1 and keeps the contacts it finds that the current list (the
	// last BuildProblem's, with those AddMissing merged in since) lacks;
	// it returns how many. The list and the problem are not changed.
	MissingContacts(q0, q1 []float64) int
	// AddMissing merges the contacts the last MissingContacts kept into
	// the list, in the detection's order, and refills p with the enlarged
	// list as BuildProblem does (gradients at q0, velocity v0).
	AddMissing(q0, v0 []float64, p *mech.Problem)
}

// ClosureStats describes the closure of one step's active set.
type ClosureStats struct {
	// Rounds is the number of re-solves of the law on an enlarged set
	// (0: the first active set was closed).
	Rounds int
	// Added is the number of contacts added to the first active set.
	Added int
	// Missing is the number of contacts the last re-detection found and
	// the cap left out (0 unless Capped).
	Missing int
	// Capped is true when the set was still growing after MaxRounds.
	Capped bool
	// Law sums the law's solves that the enlarged sets superseded (the
	// step's own, final solve is StepStats.Law).
	Law mech.Stats
	// Time covers the re-detections, re-solves and re-integrations.
	Time time.Duration
}

// ClosureCapError is the error of a step whose active set was still
// growing after Closure.MaxRounds re-solves, under Stepper.Strict.
type ClosureCapError struct {
	Rounds  int // the cap that was reached
	Missing int // contacts the last re-detection found
}

func (e *ClosureCapError) Error() string {
	return fmt.Sprintf("still growing after %d re-solves: %d contacts of the final motion not in the set (raise the rounds cap)", e.Rounds, e.Missing)
}

// SetClosure closes every step's active set under the corrected velocity
// as c says (nil: Alg. 4's active set, found on the free-flight
// prediction, the default). It needs a system that implements
// ActiveSetCloser and Alg. 4 with the geometric staggering.
func (s *Stepper) SetClosure(c *Closure) error {
	if c == nil {
		s.closure = nil
		return nil
	}
	if _, ok := s.Sys.(ActiveSetCloser); !ok {
		return fmt.Errorf("sim: closed active set: %T cannot detect contacts on another motion (no ActiveSetCloser)", s.Sys)
	}
	if s.Scheme != CollisionIntegrator || s.External != nil {
		return errors.New("sim: closed active set: only for Alg. 4 steps taken by the stepper")
	}
	if c.MaxRounds < 0 {
		return fmt.Errorf("sim: closed active set: %d rounds, want ≥ 0", c.MaxRounds)
	}
	cc := *c
	if cc.MaxRounds == 0 {
		cc.MaxRounds = DefaultClosureRounds
	}
	s.closure = &cc
	if s.qn == nil {
		// the step's new positions must not go into V's storage: the
		// re-solves start from vᵗ again
		s.qn = make([]float64, len(s.Q))
	}
	return nil
}

// ClosureConfig returns the installed closure (MaxRounds filled in; nil:
// none).
func (s *Stepper) ClosureConfig() *Closure { return s.closure }

// closeActiveSet closes the active set of the step whose new positions
// qn and velocity s.vt were computed from the law's first solve: while the
// motion Q → qn meets contacts the set lacks, they are added and the law,
// the impulses and the free flight are run again from Vᵗ on the enlarged
// problem. Last.Law is the final solve's; the superseded ones go to
// Last.Closure.
func (s *Stepper) closeActiveSet(qn []float64) error {
	if s.staggering != Geometric {
		return fmt.Errorf("sim: step %d: closed active set: needs the geometric staggering, not %v", s.N+1, s.staggering)
	}
	t0 := time.Now()
	sys := s.Sys.(ActiveSetCloser)
	p := &s.Problem
	cs := ClosureStats{}
	defer func() {
		cs.Time = time.Since(t0)
		s.Last.Closure = cs
		s.Last.Contacts = p.NContacts()
	}()
	for {
		s.phase("active set closure")
		k := sys.MissingContacts(s.Q, qn)
		if k == 0 {
			break
		}
		if cs.Rounds == s.closure.MaxRounds {
			cs.Capped, cs.Missing = true, k
			if s.Strict {
				return fmt.Errorf("sim: step %d (t = %.10g → %.10g), closed active set: %w", s.N+1, s.T, s.T+s.H,
					&ClosureCapError{Rounds: cs.Rounds, Missing: k})
			}
			break
		}
		cs.Law.Add(s.Last.Law)
		sys.AddMissing(s.Q, s.V, p)
		cs.Added += k
		cs.Rounds++
		s.keepWall(p)
		if err := s.coefficients(p); err != nil {
			return err
		}
		if err := s.solveLaw(); err != nil {
			return err
		}
		s.Last.WallWork = s.wallWork()
		s.applyImpulses()
		s.Sys.FreeFlight(s.Q, s.vp, s.H, qn, s.vt)
		s.vp, s.scr = nil, nil
	}
	if s.corr != nil && !cs.Capped {
		// every contact the final positions overlap is in the set: the
		// missed-contact search starts from them
		s.corr.Prepare(qn)
	}
	return nil
}

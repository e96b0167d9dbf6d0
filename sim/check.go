package sim

import (
	"fmt"
	"math"
)

// NonFiniteError reports the first coordinate of a state that is NaN or
// ±Inf: a run that left the range of float64 (an overflowing velocity, a
// vanishing mass) and must stop instead of writing NaN.
type NonFiniteError struct {
	Velocity bool    // the coordinate is in v (otherwise in q)
	Index    int     // its index in q or v
	Value    float64 // NaN, +Inf or -Inf
}

func (e *NonFiniteError) Error() string {
	vec := "q"
	if e.Velocity {
		vec = "v"
	}
	return fmt.Sprintf("%s[%d] is %v", vec, e.Index, e.Value)
}

// CheckFinite returns a *NonFiniteError for the first non-finite
// coordinate of q, then of v, or nil if every coordinate is finite.
func CheckFinite(q, v []float64) error {
	for i, x := range q {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &NonFiniteError{Index: i, Value: x}
		}
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &NonFiniteError{Velocity: true, Index: i, Value: x}
		}
	}
	return nil
}

// CheckError is a step refused by Stepper.Check: the stepper is back at
// the state before the step (step Step−1, time T−h), the last good one.
type CheckError struct {
	Step int     // the refused step
	T    float64 // the time it would have reached
	Err  error   // what Check found
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("sim: step %d (t = %.10g): %v", e.Step, e.T, e.Err)
}

func (e *CheckError) Unwrap() error { return e.Err }

// checkedStep runs one step and then s.Check on the new state; a refused
// step restores the state before it (kept in two vectors, reused from step
// to step) and returns a *CheckError. Only Q, V, T and N are restored, so
// the run is meant to stop there.
func (s *Stepper) checkedStep() error {
	s.keepQ = append(s.keepQ[:0], s.Q...)
	s.keepV = append(s.keepV[:0], s.V...)
	n, t := s.N, s.T
	if err := s.step(); err != nil {
		return err
	}
	err := s.Check(s.Q, s.V)
	if err == nil {
		return nil
	}
	refused := &CheckError{Step: s.N, T: s.T, Err: err}
	copy(s.Q, s.keepQ)
	copy(s.V, s.keepV)
	s.N, s.T = n, t
	return refused
}

// phase reports the step's current phase to OnPhase, if set.
func (s *Stepper) phase(name string) {
	if s.OnPhase != nil {
		s.OnPhase(name)
	}
}

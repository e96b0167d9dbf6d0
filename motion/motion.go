package motion

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Kind is the kind of a Term.
type Kind int

const (
	Oscillation Kind = iota // A a sin(2πf(t − t₀) + φ)
	Linear                  // u (t − t₀)
	Rotation                // rotation by ω(t − t₀) about a through c
)

func (k Kind) String() string {
	switch k {
	case Oscillation:
		return "oscillation"
	case Linear:
		return "linear"
	case Rotation:
		return "rotation"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Term is one part of a Motion (package documentation, "Terms").
type Term struct {
	Kind Kind
	// Axis is the unit direction of an oscillation or the unit axis of a
	// rotation (z in 2D).
	Axis r3.Vec
	// Amplitude A, Frequency f (Hz) and Phase φ (radians) of an oscillation.
	Amplitude, Frequency, Phase float64
	// Velocity u of a linear term.
	Velocity r3.Vec
	// Omega is the angular speed ω (rad/s) of a rotation about Axis
	// through Center.
	Omega  float64
	Center r3.Vec
	// Start is the time t₀ at which the term starts; Stop, if > 0, the
	// time t₁ > t₀ at which it stops: from then on it holds its value at
	// t₁ with zero velocity (one shake: Stop = Start + 1/f).
	Start, Stop float64
}

// Motion is a sum of terms. The zero Motion holds still.
type Motion struct {
	Terms []Term
}

// State is a motion's pose and velocity at one time: x ↦ C + R(x − C) + D
// (eq. 1), with translational velocity DV = d′(t) and angular velocity W.
type State struct {
	R     [3][3]float64
	C, D  r3.Vec
	DV, W r3.Vec
	// RotVec is the rotation R as a rotation vector (unit axis times
	// angle), for quaternions.
	RotVec r3.Vec
}

// Validate checks every term: finite numbers, unit axes (length 1 to
// 1e-9), f > 0, at most one rotation.
func (m Motion) Validate() error {
	rot := 0
	for k, t := range m.Terms {
		nums := []float64{t.Axis.X, t.Axis.Y, t.Axis.Z, t.Amplitude, t.Frequency, t.Phase,
			t.Velocity.X, t.Velocity.Y, t.Velocity.Z, t.Omega, t.Center.X, t.Center.Y, t.Center.Z, t.Start, t.Stop}
		for _, x := range nums {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("motion term %d (%s): %v is not a finite number", k, t.Kind, x)
			}
		}
		if t.Stop != 0 && !(t.Stop > t.Start) {
			return fmt.Errorf("motion term %d (%s): stops at %g, not after its start %g", k, t.Kind, t.Stop, t.Start)
		}
		switch t.Kind {
		case Oscillation, Rotation:
			if l := r3.Norm(t.Axis); math.Abs(l-1) > 1e-9 {
				return fmt.Errorf("motion term %d (%s): axis %v has length %g, want a unit vector", k, t.Kind, t.Axis, l)
			}
			if t.Kind == Oscillation && !(t.Frequency > 0) {
				return fmt.Errorf("motion term %d (oscillation): frequency %g, want f > 0", k, t.Frequency)
			}
			if t.Kind == Rotation {
				rot++
			}
		case Linear:
		default:
			return fmt.Errorf("motion term %d: unknown kind %d", k, int(t.Kind))
		}
	}
	if rot > 1 {
		return fmt.Errorf("motion: %d rotations, want at most one", rot)
	}
	return nil
}

// Moves reports whether the motion has a term that moves (a nonzero
// amplitude, velocity or angular speed).
func (m Motion) Moves() bool {
	for _, t := range m.Terms {
		if t.Amplitude != 0 || t.Velocity != (r3.Vec{}) || t.Omega != 0 {
			return true
		}
	}
	return false
}

// At returns the motion's state at time t (eqs. 1–2).
func (m Motion) At(t float64) State {
	s := State{R: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	t0 := t
	for _, k := range m.Terms {
		t := t0
		moving := 1.0 // the velocity's factor: 0 once the term stopped
		if k.Stop > 0 && t >= k.Stop {
			t, moving = k.Stop, 0
		}
		switch k.Kind {
		case Oscillation:
			w := 2 * math.Pi * k.Frequency
			if t < k.Start {
				continue
			}
			arg := w*(t-k.Start) + k.Phase
			s.D = r3.Add(s.D, r3.Scale(k.Amplitude*(math.Sin(arg)-math.Sin(k.Phase)), k.Axis))
			s.DV = r3.Add(s.DV, r3.Scale(moving*k.Amplitude*w*math.Cos(arg), k.Axis))
		case Linear:
			if t < k.Start {
				continue
			}
			s.D = r3.Add(s.D, r3.Scale(t-k.Start, k.Velocity))
			s.DV = r3.Add(s.DV, r3.Scale(moving, k.Velocity))
		case Rotation:
			s.C = k.Center
			if t < k.Start {
				continue
			}
			th := k.Omega * (t - k.Start)
			s.R = rotation(k.Axis, th)
			s.RotVec = r3.Scale(th, k.Axis)
			s.W = r3.Scale(moving*k.Omega, k.Axis)
		}
	}
	return s
}

// Acceleration returns d″(t), the acceleration of the translation (the
// rotation's is not included).
func (m Motion) Acceleration(t float64) r3.Vec {
	var a r3.Vec
	for _, k := range m.Terms {
		if k.Kind == Oscillation && t >= k.Start && (k.Stop == 0 || t < k.Stop) {
			w := 2 * math.Pi * k.Frequency
			a = r3.Add(a, r3.Scale(-k.Amplitude*w*w*math.Sin(w*(t-k.Start)+k.Phase), k.Axis))
		}
	}
	return a
}

// Point returns x(t) for the reference point x0 (eq. 1).
func (s *State) Point(x0 r3.Vec) r3.Vec {
	return r3.Add(r3.Add(s.C, s.Rotate(r3.Sub(x0, s.C))), s.D)
}

// Rotate returns R x (a reference direction at time t).
func (s *State) Rotate(x r3.Vec) r3.Vec {
	r := &s.R
	return r3.Vec{
		X: r[0][0]*x.X + r[0][1]*x.Y + r[0][2]*x.Z,
		Y: r[1][0]*x.X + r[1][1]*x.Y + r[1][2]*x.Z,
		Z: r[2][0]*x.X + r[2][1]*x.Y + r[2][2]*x.Z,
	}
}

// VelocityAt returns the velocity of the material point at x (eq. 2).
func (s *State) VelocityAt(x r3.Vec) r3.Vec {
	return r3.Add(s.DV, r3.Cross(s.W, r3.Sub(x, r3.Add(s.C, s.D))))
}

// rotation returns the matrix of the rotation by angle θ about the unit
// axis a (Rodrigues).
func rotation(a r3.Vec, th float64) [3][3]float64 {
	c, s := math.Cos(th), math.Sin(th)
	k := 1 - c
	return [3][3]float64{
		{c + a.X*a.X*k, a.X*a.Y*k - a.Z*s, a.X*a.Z*k + a.Y*s},
		{a.Y*a.X*k + a.Z*s, c + a.Y*a.Y*k, a.Y*a.Z*k - a.X*s},
		{a.Z*a.X*k - a.Y*s, a.Z*a.Y*k + a.X*s, c + a.Z*a.Z*k},
	}
}

// AmplitudeFromGamma returns the amplitude A = Γg/(2πf)² of a sinusoidal
// shaking of dimensionless acceleration Γ at frequency f under gravity g.
func AmplitudeFromGamma(gamma, f, g float64) float64 {
	w := 2 * math.Pi * f
	return gamma * g / (w * w)
}

// FrequencyFromFStar returns the frequency f = f*√(g/H) of the
// dimensionless shaking frequency f* = f√(H/g) in units of the length H.
func FrequencyFromFStar(fstar, h, g float64) float64 { return fstar * math.Sqrt(g/h) }

// Gamma returns Γ = A(2πf)²/g.
func Gamma(a, f, g float64) float64 {
	w := 2 * math.Pi * f
	return a * w * w / g
}

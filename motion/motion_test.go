package motion

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func sample() Motion {
	return Motion{Terms: []Term{
		{Kind: Oscillation, Axis: r3.Unit(r3.Vec{X: 1, Y: 2, Z: 2}), Amplitude: 0.3, Frequency: 1.7, Phase: 0.4, Start: 0.25},
		{Kind: Linear, Velocity: r3.Vec{X: -0.5, Y: 0.1, Z: 0.2}, Start: 0.1},
		{Kind: Rotation, Axis: r3.Unit(r3.Vec{X: 0, Y: 1, Z: 1}), Omega: 2.3, Center: r3.Vec{X: 1, Y: -1, Z: 0.5}, Start: 0.5},
	}}
}

// TestVelocityIsDerivative: the velocity of a material point (eq. 2) is
// the time derivative of its position (eq. 1), before and after the
// terms start (central differences, 1e-7).
func TestVelocityIsDerivative(t *testing.T) {
	m := sample()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	x0 := r3.Vec{X: 0.3, Y: 2, Z: -1}
	const h = 1e-5
	for _, tt := range []float64{0.05, 0.2, 0.4, 0.9, 3.7} {
		s := m.At(tt)
		x := s.Point(x0)
		sp, sm := m.At(tt+h), m.At(tt-h)
		fd := r3.Scale(1/(2*h), r3.Sub(sp.Point(x0), sm.Point(x0)))
		if d := r3.Norm(r3.Sub(fd, s.VelocityAt(x))); d > 1e-7 {
			t.Errorf("t = %g: velocity %v, finite difference %v", tt, s.VelocityAt(x), fd)
		}
		acc := r3.Scale(1/(h*h), r3.Sub(r3.Add(sp.D, sm.D), r3.Scale(2, s.D)))
		if d := r3.Norm(r3.Sub(acc, m.Acceleration(tt))); d > 1e-3 {
			t.Errorf("t = %g: acceleration %v, finite difference %v", tt, m.Acceleration(tt), acc)
		}
	}
	// Continuous at every start time.
	for _, t0 := range []float64{0.1, 0.25, 0.5} {
		a, b := m.At(t0-1e-12), m.At(t0+1e-12)
		if d := r3.Norm(r3.Sub(a.Point(x0), b.Point(x0))); d > 1e-10 {
			t.Errorf("jump of %g at t₀ = %g", d, t0)
		}
	}
}

// TestRotationIsRigid: R(t) is orthogonal with determinant 1, turns the
// axis into itself, and a quarter turn about z maps x to y.
func TestRotationIsRigid(t *testing.T) {
	m := Motion{Terms: []Term{{Kind: Rotation, Axis: r3.Vec{Z: 1}, Omega: math.Pi / 2}}}
	s := m.At(1)
	if got := s.Rotate(r3.Vec{X: 1}); r3.Norm(r3.Sub(got, r3.Vec{Y: 1})) > 1e-15 {
		t.Errorf("quarter turn of x: %v", got)
	}
	s = sample().At(2)
	a := r3.Unit(r3.Vec{Y: 1, Z: 1})
	if got := s.Rotate(a); r3.Norm(r3.Sub(got, a)) > 1e-15 {
		t.Errorf("axis moved to %v", got)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			var d float64
			for k := 0; k < 3; k++ {
				d += s.R[k][i] * s.R[k][j]
			}
			if want := map[bool]float64{true: 1, false: 0}[i == j]; math.Abs(d-want) > 1e-15 {
				t.Errorf("RᵀR[%d][%d] = %g", i, j, d)
			}
		}
	}
}

// TestVibrationParameters: Γ and f* convert to amplitude and frequency
// and back.
func TestVibrationParameters(t *testing.T) {
	f := FrequencyFromFStar(0.4, 0.01, 9.81)
	if got := f * math.Sqrt(0.01/9.81); math.Abs(got-0.4) > 1e-15 {
		t.Errorf("f* back: %g", got)
	}
	a := AmplitudeFromGamma(2.5, f, 9.81)
	if got := Gamma(a, f, 9.81); math.Abs(got-2.5) > 1e-14 {
		t.Errorf("Γ back: %g", got)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		m    Motion
		want string
	}{
		{Motion{Terms: []Term{{Kind: Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: math.NaN(), Frequency: 1}}}, "not a finite number"},
		{Motion{Terms: []Term{{Kind: Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: 1, Frequency: 0}}}, "want f > 0"},
		{Motion{Terms: []Term{{Kind: Oscillation, Axis: r3.Vec{Y: 2}, Amplitude: 1, Frequency: 1}}}, "unit vector"},
		{Motion{Terms: []Term{{Kind: Rotation, Axis: r3.Vec{Z: 1}}, {Kind: Rotation, Axis: r3.Vec{Z: 1}}}}, "at most one"},
	}
	for _, c := range cases {
		if err := c.m.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.m, err, c.want)
		}
	}
}

// TestStop: one shake (stop = start + 1/f) returns to its start value and
// holds still there with zero velocity; a stopped rotation keeps its
// angle.
func TestStop(t *testing.T) {
	m := Motion{Terms: []Term{{Kind: Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: 0.2, Frequency: 4, Start: 1, Stop: 1.25},
		{Kind: Rotation, Axis: r3.Vec{Z: 1}, Omega: 2, Start: 0, Stop: 0.5}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	s := m.At(3)
	if math.Abs(s.D.Y) > 1e-15 || s.DV != (r3.Vec{}) || s.W != (r3.Vec{}) || m.Acceleration(3) != (r3.Vec{}) {
		t.Errorf("after the shake: %+v", s)
	}
	if got := s.Rotate(r3.Vec{X: 1}); math.Abs(got.X-math.Cos(1)) > 1e-15 || math.Abs(got.Y-math.Sin(1)) > 1e-15 {
		t.Errorf("stopped rotation turned x to %v", got)
	}
	if s := m.At(1.0625); math.Abs(s.D.Y-0.2) > 1e-15 || math.Abs(s.DV.Y) > 1e-14 {
		t.Errorf("a quarter period in: %v, %v", s.D, s.DV)
	}
	bad := Motion{Terms: []Term{{Kind: Linear, Start: 2, Stop: 1}}}
	if err := bad.Validate(); err == nil {
		t.Error("stop before start accepted")
	}
}

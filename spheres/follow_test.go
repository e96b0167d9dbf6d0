package spheres_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/motion"
	"impactsim/spheres"
)

// TestVibratingFloor: on the fast sphere path a floor follows a vertical
// oscillation (Plane.Follow before every step): it is exactly where the
// motion has it after every step; a sphere resting on it with Γ = 0.8
// stays on it (its gap below 1e-4 of its radius), with Γ = 3 it leaves it.
func TestVibratingFloor(t *testing.T) {
	const g, f, h = 9.81, 10.0, 1e-4
	for _, gamma := range []float64{0.8, 3} {
		a := motion.AmplitudeFromGamma(gamma, f, g)
		m := motion.Motion{Terms: []motion.Term{{Kind: motion.Oscillation, Axis: r3.Vec{Z: 1}, Amplitude: a, Frequency: f}}}
		s := &spheres.System{Gravity: [3]float64{0, 0, -g}}
		ref := spheres.Plane{N: [3]float64{0, 0, 1}}
		s.Planes = []spheres.Plane{ref}
		s.Add([3]float64{0, 0, 0.01}, [3]float64{}, [3]float64{}, 0.01, 2650)
		cfg := &spheres.Config{H: h, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-12, MaxIter: 100}}
		var maxGap float64
		for k := 0; k < 2000; k++ { // two periods
			s.Planes[0].Follow(ref, m, float64(k)*h, h)
			s.Step(cfg)
			tt := float64(k+1) * h
			if want := a * math.Sin(2*math.Pi*f*tt); math.Abs(s.Planes[0].P[2]-want) > 1e-15 {
				t.Fatalf("Γ = %g, t = %g: floor at %g, want %g", gamma, tt, s.Planes[0].P[2], want)
			}
			maxGap = math.Max(maxGap, s.X[2]-0.01-s.Planes[0].P[2])
		}
		t.Logf("Γ = %g: largest gap under the sphere %.3g m", gamma, maxGap)
		if gamma < 1 && maxGap > 1e-6 {
			t.Errorf("Γ = %g: the sphere left the floor by %g", gamma, maxGap)
		}
		if gamma > 1 && maxGap < 1e-4 {
			t.Errorf("Γ = %g: the sphere never left the floor (gap %g)", gamma, maxGap)
		}
	}
}

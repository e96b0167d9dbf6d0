package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func topSystem(integ Integrator) *System {
	s := &System{Integrator: integ, CoR: 1}
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5, Y: 0.3, Z: 0.1}}, 2, r3.Vec{X: 1, Y: 2, Z: 3},
		FromRotationVector(r3.Vec{X: 0.3, Y: -0.2, Z: 0.5}), r3.Vec{X: 0.1, Y: -0.2, Z: 0.3}, r3.Vec{X: 1.3, Y: 0.4, Z: -2.1}, false)
	return s
}

// TestTorqueFreeTop: 10⁵ steps of an asymmetric top. DMV keeps the energy
// and the world angular momentum to rounding; split_ham and symplectic Euler
// keep L exactly and the energy only approximately.
func TestTorqueFreeTop(t *testing.T) {
	for _, c := range []struct {
		integ      Integrator
		eTol, lTol float64
	}{{DMV, 1e-11, 1e-11}, {SplitHam, 1e-2, 1e-11}, {SymplecticEuler, math.Inf(1), 1e-10}} {
		s := topSystem(c.integ)
		q, v := append([]float64(nil), s.Q...), append([]float64(nil), s.V...)
		q1, v1 := make([]float64, 7), make([]float64, 6)
		e0, l0 := s.Energy(q, v), s.AngularMomentum(q, v)
		var de, dl, dn float64
		for k := 0; k < 100000; k++ {
			s.FreeFlight(q, v, 0.01, q1, v1)
			q, q1 = q1, q
			v, v1 = v1, v
			if k%100 == 99 {
				_, o := Pose(q, 0)
				x, _ := Pose(q, 0)
				l := s.AngularMomentum(q, v)
				l = r3.Sub(l, r3.Cross(x, r3.Scale(s.Mass[0], r3.Vec{X: v[0], Y: v[1], Z: v[2]})))
				l0r := r3.Sub(l0, r3.Cross(r3.Vec{X: 1, Y: 2, Z: 3}, r3.Scale(s.Mass[0], r3.Vec{X: 0.1, Y: -0.2, Z: 0.3})))
				de = math.Max(de, math.Abs(s.Energy(q, v)-e0)/math.Abs(e0))
				dl = math.Max(dl, r3.Norm(r3.Sub(l, l0r))/r3.Norm(l0r))
				dn = math.Max(dn, math.Abs(o.W*o.W+o.X*o.X+o.Y*o.Y+o.Z*o.Z-1))
			}
		}
		t.Logf("%v: max relative energy drift %.3g, spin angular momentum drift %.3g, |q|−1 %.3g", c.integ, de, dl, dn)
		if de > c.eTol || dl > c.lTol || dn > 1e-14 {
			t.Errorf("%v: energy drift %.3g (tol %.0e), angular momentum drift %.3g (tol %.0e), quaternion norm error %.3g",
				c.integ, de, c.eTol, dl, c.lTol, dn)
		}
	}
}

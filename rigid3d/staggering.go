package rigid3d

import "gonum.org/v1/gonum/spatial/r3"

// What the stabilized and symplectic_euler staggerings of package sim need
// (sim.ConfigurationUpdater, sim.ForceKicker; sim.GapEvaluator is Gaps).

// UpdateConfiguration moves every free body by velocity v over h without
// forces, as SCISim's exponential Euler update: x₁ = x₀ + h u and
// R₁ = exp(h[ω]×) R₀ (the quaternion of the rotation by h|ω| about ω times
// o₀). Fixed bodies stay. q1 may be q0 (each body is read before it is
// written).
func (s *System) UpdateConfiguration(q0, v []float64, h float64, q1 []float64) {
	for i := range s.Mass {
		x, o := Pose(q0, i)
		if !s.Fixed[i] {
			u, w := Vel(v, i)
			x = r3.Add(x, r3.Scale(h, u))
			if n := r3.Norm(w); n > 0 {
				o = AxisAngle(r3.Scale(1/n, w), h*n).Mul(o).Normalized()
			}
		}
		setPose(q1, i, x, o)
	}
}

// ForceKick writes the velocity change h M⁻¹ F of gravity (h g on the
// linear velocity of every free body; no torque and, unlike Kick, no
// gyroscopic term: SCISim's computeForce).
func (s *System) ForceKick(q0, v0 []float64, h float64, dv []float64) {
	for i := range s.Mass {
		var u r3.Vec
		if !s.Fixed[i] {
			// as SCISim: h · (M⁻¹ (m g))
			m := s.Mass[i]
			u = r3.Scale(h, r3.Scale(1/m, r3.Scale(m, s.Gravity)))
		}
		setVel(dv, i, u, r3.Vec{})
	}
}

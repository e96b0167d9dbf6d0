// Package motion describes the prescribed motions of kinematic geometry —
// a vibrating floor, a shaken box, a rotating drum, a piston — as sums of
// simple terms, and evaluates them: the pose of the geometry and the
// velocity of its material points at any time. It knows nothing of
// systems; the scenario package applies a Motion to a plane, a drum or
// cylinder, or a fixed body at every step (sim.Hook), and the systems turn
// the geometry's velocity into the contacts' known relative velocities
// (mech.Problem.NRel, DRel), on which every contact law acts.
//
// # Terms
//
// A Motion is a sum of terms, each starting at its time t₀ (Start):
//
//	oscillation   d(t) = A a (sin(2πf(t − t₀) + φ) − sin φ)   (t ≥ t₀; 0 before)
//	linear        d(t) = u (t − t₀)                           (t ≥ t₀; 0 before)
//	rotation      R(t) = rotation by ω(t − t₀) about the unit axis a
//	              through the centre c                  (t ≥ t₀; identity before)
//
// with amplitude A, unit axis a, frequency f > 0, phase φ, velocity u,
// angular speed ω. The translations add up to d(t); a motion has at most
// one rotation. A point x₀ of the geometry (as given in the scene) is at
//
//	x(t) = c + R(t)(x₀ − c) + d(t),                                         (1)
//
// a direction n₀ (a plane's normal, a cylinder's axis) is R(t)n₀, and the
// material point at x moves with
//
//	v(x) = d′(t) + ω(t) × (x − c − d(t)),   ω(t) = ω a (t ≥ t₀), 0 before.  (2)
//
// Every term is zero before its start, so the geometry is where the scene
// puts it until its motion starts and never jumps: an oscillation of phase
// φ oscillates about the point A a sin φ below its starting place (φ =
// −π/2 starts at the bottom, at rest). A term may also stop at t₁ > t₀ (Stop), holding its value
// at t₁ with zero velocity from then on: one shake is an oscillation with
// t₁ = t₀ + 1/f. In 2D the axis of a rotation is z and vectors have z = 0.
//
// # Vibrated beds
//
// The literature on vibrated granular layers gives a sinusoidal shaking by
// the dimensionless acceleration Γ = A(2πf)²/g and the shaking frequency
// f* = f√(H/g) in units of a length H (a grain diameter, the bed depth):
// AmplitudeFromGamma and FrequencyFromFStar convert them. With Γ < 1 a
// grain resting on the floor never leaves it; with Γ > 1 it takes off when
// the floor's acceleration first reaches −g, at the phase
// 2πf(t − t₀) + φ = arcsin(1/Γ) of a vertical oscillation.
package motion

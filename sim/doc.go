// Package sim drives a system through time with the collision integrator
// of Smith et al. 2012 (Alg. 4):
//
//	1  (q̃, p̃) ← FF_Integrator(qᵗ, pᵗ, h)
//	2  𝔸 ← Get_Active_Set(q̃)
//	3–5 λ ← c λ₁ + (1 − c) λ₀          (the contact law on 𝔸 at qᵗ)
//	6  β ← Friction(qᵗ, pᵗ, 𝔸, λ)
//	7  p⁺ ← pᵗ + G_𝔸(qᵗ) λ + D_𝔸(qᵗ, pᵗ) β
//	8  (qᵗ⁺¹, pᵗ⁺¹) ← FF_Integrator(qᵗ, p⁺, h)
//
// The active set is found on the free-flight prediction q̃ but the
// constraint gradients are evaluated at qᵗ, and the final free flight
// restarts from qᵗ with the corrected velocity. A System supplies free
// flight and problem assembly; a ContactLaw (an impact operator followed by a
// friction operator, or a coupled frictional law) supplies lines 3–6.
//
// # Staggerings (SCISim's impact–friction maps)
//
// Alg. 4 is SCISim's geometric staggering. SCISim's scenes may ask for two
// others (the staggering attribute of its friction solvers), which
// Stepper.SetStaggering selects; ⊕ is the system's configuration update
// without forces (ConfigurationUpdater: x + h u, and R ← exp(h[ω]×) R for
// rigid bodies):
//
//	stabilized:        (q̃, ṽ) ← FF(qᵗ, vᵗ, h);  𝔸 ← Get_Active_Set(qᵗ, q̃)
//	                   v⁺ ← ṽ + M⁻¹(G λ + D β), the law solved on ṽ (restitution on Gᵀṽ)
//	                   qᵗ⁺¹ ← qᵗ ⊕ h v⁺,  vᵗ⁺¹ ← v⁺
//	symplectic_euler:  δ ← h M⁻¹ F(qᵗ);  q̃ ← qᵗ ⊕ h (vᵗ + δ);  𝔸 ← Get_Active_Set(qᵗ, q̃)
//	                   the law on vᵗ with known relative velocities Gᵀδ, Dᵀδ
//	                   (+ min(0, gᵢ(qᵗ))/h with stabilization, for gaps deeper
//	                   than the penetration threshold)
//	                   vᵗ⁺¹ ← vᵗ + M⁻¹(G λ + D β) + δ,  qᵗ⁺¹ ← qᵗ ⊕ h vᵗ⁺¹
//
// with G and D at qᵗ throughout; without contacts the stabilized step is
// the free flight and the symplectic_euler step is (qᵗ ⊕ h(vᵗ + δ), vᵗ + δ).
// Differences from Alg. 4: stabilized constrains the velocity at the end
// of the free flight, so gravity's kick of this step is already in the
// velocity the contacts see (a resting body keeps zero normal velocity and
// does not sink by h² g per step), and its positions move with the
// constrained velocity (first order, not the free-flight integrator);
// symplectic_euler drops the scene's integrator altogether (first-order
// Euler with the kick first), and its restitution must be 0 (SCISim
// refuses other values; so do the scene readers), because the law sees
// vᵗ + δ, not a pre-impact velocity.
//
// # Impulse-velocity time stepping (Preclik et al. sec. 3.1)
//
// NewImpulseVelocityStepper makes a Stepper that advances a system with the
// position-level scheme of Preclik et al. instead: with the external
// impulses z = (h f_ext, h τ_ext − h ω × I(ϕ)ω) (explicit gyroscopic term),
//
//	v̂ = v + M⁻¹z,
//	ξᵢ/h + ∇gᵢᵀv′ ≥ 0 ⊥ λᵢ ≥ 0 (with friction: the contact law's eq. 5),
//	v′ = v̂ + M⁻¹(Gλ + Dβ),   x′ = x + h v′,   ϕ′ = (ϕ + h Q(ϕ)ω′)/‖·‖₂,
//
// where the contacts are those active at the prediction x + h v̂, assembled
// at x, and the gap ξᵢ at x enters as the known normal velocity NRel[i] =
// ε·min(0, ξᵢ/h) + max(0, ξᵢ/h) (GapVelocity; error reduction ε ∈ [0, 1)).
// The system supplies Kick (v̂), Drift (x′, ϕ′) and Gaps (ξ)
// (ImpulseVelocitySystem); the law is friction.NBGS. If the system sets
// known velocities of moving walls, the gap term is added to them.
//
// # Hooks and moving geometry
//
// AddHook adds callbacks that every step runs, whatever the scheme: Begin
// before the step (it may place moving geometry where it is at the end of
// the step, s.T + s.H, with its velocity there, and set kinematic bodies in
// Q and V: a scene's <motion>, a SCISim script's startOfStep, the user's
// Go code), Coefficients once the contacts are known (per-contact CoR and
// Mu: scripts, velocity-dependent restitution), End after the step.
// SetState takes a state of a new size after a hook inserted bodies.
// StepStats.WallWork is the work the moving geometry did through the
// step's impulses: −Σλᵢ NRel[i] − Σβₖ DRel[k] over the known velocities the
// system set (mech.KnownWork; not the stepper's own gap and kick terms)
// plus the work of kinematic bodies carrying their velocity in v
// (mech.Problem.FixedWork), so that the change of kinetic and potential
// energy equals the wall work minus what the contacts dissipate.
package sim

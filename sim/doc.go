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
package sim

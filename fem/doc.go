// Package fem is linear finite-element elasticity on tetrahedral meshes:
// the stiffness and consistent mass matrices of 4-node tetrahedra with an
// isotropic material, the rigid-body modes, and mass properties from the
// same mass matrix. It serves the modal analysis of Bounce Maps (Wang et
// al. 2017, §3.1: "mass-normalized eigenmodes" of a "tetrahedral volume
// mesh"; the paper leaves element and mass type open).
//
// # Elements
//
// On tetrahedron e with vertices x₀…x₃ and volume V_e the linear shape
// functions have constant gradients ∇N_a (the rows of D⁻¹ for
// D = [x₁−x₀, x₂−x₀, x₃−x₀], ∇N₀ = −Σ∇N_a). With Lamé parameters
// λ = Eν/((1+ν)(1−2ν)), μ = E/(2(1+ν)) the 3×3 block (a, b) of the element
// stiffness is
//
//	K_e,ab = V_e (λ ∇N_a ∇N_bᵀ + μ ∇N_b ∇N_aᵀ + μ (∇N_a·∇N_b) I₃),          (F1)
//
// and the consistent mass (∫ρ N_a N_b dV, exact for linear N) is
//
//	M_e,ab = ρ V_e (1 + δ_ab)/20 · I₃.                                        (F2)
//
// K and M are assembled on one symmetric pattern, vertex i owning rows 3i,
// 3i+1, 3i+2:
//
//	K = Σ_e K_e,   M = Σ_e M_e.                                              (F3)
//
// A uniform strain ε has energy ½uᵀKu = ½V(λ tr(ε)² + 2μ ε:ε) exactly (the
// patch test; tested).
//
// # Mass properties (F4)
//
// With m_ab the scalar couplings of M (the (3a, 3b) entries), total mass
// Σ m_ab = ρV, first moment Σ m_ab x_b, and second moments
// S = Σ m_ab (x_a − c)(x_b − c)ᵀ, I = tr(S) I₃ − S: exact for the
// piecewise-linear solid, so the rigid part of a modal model agrees with
// its modes (the Bounce Maps checklist's requirement).
//
// # Rigid modes (F5)
//
// Translations e_d and infinitesimal rotations e_d × (x − c) span the null
// space of K (linear strain vanishes on them); RigidModes returns them
// M-orthonormalized, for deflation in package eigen.
package fem

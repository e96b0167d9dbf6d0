// Package singlecontact holds analytic frictional impact laws of a single
// contact: the maximum-dissipation impact of Preclik, Schwarz and Rüde
// (Preclik et al., "Maximum dissipation impact", sec. 3.2, eqs. 3–9, Fig. 3
// and Appendix A) and, for comparison, every solution of the Coulomb-like
// impulsive model of Stewart's time stepping (Fig. 1). They are the block
// solvers of the non-linear block Gauss–Seidel law of package friction
// (friction.NBGS) and are not to be confused with friction.MaxDissipation,
// which is Alg. 3 of Smith et al. (friction after a normal impact).
//
// # The problem (sec. 3.2)
//
// In the contact frame (n, t, o), with the contact's Delassus block A
// (eq. 2: A = Wᵀ M⁻¹ W, symmetric positive definite) and b = −Wᵀ(u⁻ +
// M⁻¹Δp) the negated predicted relative velocity, an impulse x changes the
// kinetic energy by f(x) = ½xᵀAx − xᵀb and leaves the relative velocity
// Ax − b. The constraints are the friction cone ‖x_to‖ ≤ μx_n, Signorini's
// condition with a purely inelastic impact, (Ax − b)_n ≥ 0 ⊥ x_n ≥ 0, and
// (Ax)_n ≥ 0. With b_n the normal component of b, the contact collides if
// b_n > 0, separates if b_n < 0 and grazes if b_n = 0 (the Painlevé case).
//
// # Maximum dissipation (MaxDissipation, Fig. 3)
//
// x* minimizes f under the constraints; it is unique (f is strictly convex
// and the feasible set, plane of maximum compression a_nᵀx = b_n ∩ cone, is
// convex). The structogram:
//
//  1. b_n < 0: x* = 0.
//  2. μ = 0: x* = (b_n/A_nn, 0, 0).
//  3. P1, x₀ = A⁻¹b with x₀,n ≥ 0 and ‖x₀,to‖ ≤ μx₀,n: x* = x₀ (sticking,
//     zero post-impulse velocity).
//  4. b_n = 0: P2, A_nn > μ‖(A_nt, A_no)‖ (the plane meets the cone only at
//     the apex, a degenerate ellipse): x* = 0. Otherwise (degenerate
//     hyperbola or parabola) eq. (9): on the rays α₀ ± Δα, Δα =
//     acos(−A_nn/(μ‖(A_nt, A_no)‖)), r* = max(0, uᵀb̂/uᵀÂu). The paper's
//     side test choosing one ray is not exact for anisotropic Â (the
//     checklist's regression case); both rays are evaluated and the lower
//     objective kept. The parabola's ray is −(A_nt, A_no) (the paper's
//     {r(A_nt, A_no)} has a sign typo), i.e. Δα = π.
//  5. b_n > 0: x* lies on the conic where the plane cuts the cone's
//     boundary, γ(α) = r(α)(cos α, sin α), r = μb_n/f_r(α), f_r(α) = A_nn
//     + μ‖(A_nt, A_no)‖cos(α − α₀), x_n = (b_n − A_nt γ_t − A_no γ_o)/A_nn,
//     for α in I = ]α₀ − Δα, α₀ + Δα[ (hyperbola, A_nn ≤ μ‖·‖) or all
//     angles (ellipse) (eq. 6). On the plane f = f_obj(γ) − b_n²/(2A_nn),
//     f_obj = ½γᵀÂγ − γᵀb̂ with the Schur complement Â and the reduced b̂.
//     x* is the root of eq. (8) (below) in I with the smallest f_obj.
//
// The stationary points of f_obj on the conic solve eq. (8),
//
//	c₀ + c₁cos(α + φ₁) + c₂cos(2α + φ₂) = 0,                        (8)
//
// with the Appendix A constants in their square-root-free form (checklist
// §1; verified there against a Fourier expansion of eq. 7):
//
//	P = (A_tt−A_oo)b_n − A_nt b_t + A_no b_o
//	Q = 2A_to b_n − A_no b_t − A_nt b_o
//	X = μ²((A_nt A_to − A_no A_tt)b_n + A_nt A_no b_t − A_nt² b_o) − A_nn² b_o + A_nn A_no b_n
//	Y = μ²((A_no A_to − A_nt A_oo)b_n − A_no² b_t + A_nt A_no b_o) − A_nn² b_t + A_nn A_nt b_n
//	c₀ = 1.5μA_nn(A_no b_t − A_nt b_o),  c₁e^{iφ₁} = X + iY,  c₂e^{iφ₂} = ½μA_nn(Q + iP).
//
// Eq. (8) is the quartic K₄y⁴ + K₃y³ + 2c₀y² + K̄₃y + K̄₄ = 0 in y = e^{iα}
// (K₄ = c₂e^{iφ₂}, K₃ = c₁e^{iφ₁}). Its leading coefficient collapses for
// every sphere contact (A_nt = A_no = A_to = 0, A_tt = A_oo give K₄ =
// c₀ = 0 and a spurious root y = 0) and is small whenever μ is, and then
// a closed-form solver in y loses the unit roots among roots near 0 and ∞
// (measured: Ferrari in complex arithmetic gave no valid root for μ = 4·10⁻⁵).
// The quartic is therefore solved after the Cayley transform y =
// e^{iα_s}(1 + it)/(1 − it), which maps the unit circle onto the real line:
// a real quartic in t = tan((α − α_s)/2) whose leading coefficient is
// T(α_s + π), with α_s + π the one of eight equally spaced angles where
// |T| is largest (by Parseval at least the RMS of T). Its roots are
// bounded, the collapse becomes a pair of non-real roots that are never
// reported, and real arithmetic suffices (Ferrari, the largest root of the
// resolvent cubic by Cardano or the trigonometric formula). Each real root
// gives (cos α, sin α) rationally; candidates are ranked by f_obj and
// polished by Newton's steps on eq. (8), from the best, until one passes
// the residual test |eq. (8)| ≤ 10⁻⁹(|c₀|+|c₁|+|c₂|) (measured after
// polishing: ≤ 10⁻¹⁰ on every test problem). If none survived, a scan of
// 256 angles and a golden-section search over I give the minimizer (Case
// SlidingFallback; it did not occur on 1.2·10⁴ random problems).
//
// A decoupled isotropic block (spheres) takes the closed form the
// structogram reduces to: x₀ when it is admissible, otherwise x_to =
// μ(b_n/A_nn) b_to/‖b_to‖ (checked against the quartic path).
//
// Grazing tolerance: |b_n| ≤ ε_b·max(|b_t|, |b_o|), ε_b = GrazingTol =
// 10⁻⁸, counts as b_n = 0 (see GrazingTol for the conditioning argument).
//
// MaxDissipation does not iterate beyond the Newton polish, does not
// allocate, and takes about 40 ns for a sphere contact and about 300 ns on
// the quartic path (BENCHMARKS.md, BenchmarkMaxDissipation).
//
// # Coulomb-like impulsive model (Coulomb)
//
// The same constraints with the friction impulse directly opposing the
// post-impulse slip: ‖δv⁺_to‖x_to = −μx_nδv⁺_to. Coulomb enumerates every
// solution: x = 0 when b_n ≤ 0, the sticking impulse x₀ when admissible,
// and the points of the conic where x_to ∥ −(Âγ − b̂) — the roots of
//
//	μb_n(Â_to cos 2α + ½(Â_oo−Â_tt) sin 2α) = f_r(α)(b̂_o cos α − b̂_t sin α),
//
// a trigonometric polynomial of degree two solved by the same quartic, kept
// when α ∈ I and the slip opposes the friction; for b_n = 0 the points of
// the boundary rays with r(u×Âu) = u×b̂. A ray on which both sides vanish
// identically carries a continuum of solutions (Mode Segment): the Painlevé
// rod at μ = μ* (sec. 4.2), where every sΛ₀, s ∈ [0, 1], solves the model.
// Within a relative 10⁻¹² of the parabola a grazing conic is taken as the
// parabola, so that this continuum shows at a rounded μ*.
//
// Solutions are not unique: Table 1's body has three sliding solutions,
// each dissipating less than the maximum-dissipation impulse.
//
// # Conventions
//
// A and b are given in the contact frame with the normal first; the normal
// points from the second body to the first, and the impulse acts + on the
// first body and − on the second (checklist §0). Only the upper triangle
// of A is read. The law is purely inelastic: restitution is not part of
// the problem (the paper leaves a Poisson extension unspecified).
package singlecontact

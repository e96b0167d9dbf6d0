// Package impact holds the multi-impact operators of Smith et al. 2012
// ("Reflections on Simultaneous Impact"), each a map from one instantaneous
// problem (mech.Problem: M⁻¹, v⁻, G, restitution) to normal impulses λ ≥ 0
// with v⁺ = v⁻ + M⁻¹Gλ.
//
//   - lcp (LCP, §3.1): the Signorini–Fischera condition with Newton
//     restitution,
//     0 ≤ λ ⊥ Gᵀv⁺ ≥ −c Gᵀv⁻                                  (3)
//     solved exactly as the convex QP min ½‖Gy + (1+c)p‖²_{M⁻¹}, y ≥ 0 whose
//     KKT conditions it is. At c = 0 this is Alg. 1 (inelastic impact), the
//     unique maximally dissipative answer. Fails BRK at c = 1 (sticking).
//   - gauss_seidel, jacobi (Pairwise, §3.2): isolated impacts (2) applied one
//     contact at a time (Gauss–Seidel; breaks SYM) or all at once from the same
//     velocity (Jacobi; breaks KIN), sweeping until nothing approaches. Below
//     c = 7 − 4√3 they suffer inelastic collapse on a three-ball chain (§5,
//     Fig. 4), so their sweep cap is an error, not a silent answer.
//   - gr (GR, §4, Alg. 2): generalized reflections, exact LCP solves on the
//     successive violator subsets 𝕍 = {k : ∇g_kᵀṽ < −v_tol} with ε = 1 + c.
//     Satisfies BRK, SYM, KIN, MOM and ONE.
//   - grr (GRR, §5): generalized restitution, v⁺ = (1−c)v⁺₀ + c v⁺₁ with v⁺₀
//     from the inelastic LCP and v⁺₁ from GR at c = 1; free of inelastic
//     collapse for every c. With per-contact coefficients see below.
//
// # Relative velocities: moving geometry (mech.Problem.NRel)
//
// Every operator acts on the contacts' relative normal velocities
//
//	uᵢ = ∇gᵢᵀv + NRel[i]
//
// (mech.Problem, "Affine terms"), not on ∇gᵢᵀv alone: a wall moving with
// velocity w contributes NRel[i] = −nᵢ·w, the sheared image behind a
// Lees–Edwards portal its shear velocity. Wherever the list above writes
// Gᵀv read Gᵀv + NRel: lcp solves 0 ≤ λ ⊥ u⁺ ≥ −c u⁻ with u = Gᵀv + NRel
// (the QP's linear term is ε∘u⁻), gr's violators are the contacts with
// uₖ < −v_tol and each reflection reverses and scales the relative
// velocity (the M-projection is onto the affine set {v : Gᵀv + NRel ≥ 0}),
// the pairwise laws use αₖ = −(1 + cₖ)uₖ/(∇gₖᵀM⁻¹∇gₖ), qce grows its
// impulses in the ratio of the approaching relative velocities and tracks
// uᵢ(s) = u⁰ᵢ + Σⱼ AᵢⱼPⱼ(s) from the relative u⁰, qce_lcp's target is
// c·u⁺(QCE) on relative velocities, and grr mixes λ₀ and λ₁ of those laws.
// Since the problem data enter only through u⁻ = Gᵀv⁻ + NRel and A, a
// whole scene moved at a constant velocity (bodies and walls) gets the same
// impulses (Galilean invariance, tested to 1e-12 for every operator), and
// a ball meeting a wall moving at w leaves with n·(v⁺ − w) = −c n·(v⁻ − w).
// Problems without NRel (static geometry) are solved with the same
// arithmetic as before, bit for bit. grr with unequal per-contact
// coefficients refuses a problem with nonzero NRel: its energy bound
// T(v⁺) ≤ T(v⁻) (below) is a statement about static geometry.
//
// # Propagation order
//
// GR, QCE (and QCE-LCP's QCE stage), Gauss–Seidel and Jacobi resolve a
// problem in iterations whose violator sets grow outwards from where the
// impact starts; Propagation.FirstPush gives, after Resolve, the iteration
// in which each contact first received an impulse. In a resting pile
// pushed from below it counts the layers the impact climbs (one per two
// iterations in a settled pile of disks): rigid contacts carry an impact
// through the pile within one time step, and this order is its wave front
// (Zhang et al.'s WAV; `impactsim shock`).
//
// # Velocity-dependent restitution
//
// VelocityRestitution sets each contact's coefficient from its approach
// speed v = −uᵢ⁻ before an operator runs: e(v) = 1 − (1 − e₀)(v/v₀)^{3/4}
// below v₀ and e₀ above (the vibrated-layer literature's model; e₀ the
// contact's own coefficient). Operators that take per-contact coefficients
// (lcp, gr, the pairwise laws, qce_lcp, grr by its vector rule) apply them
// as usual.
//
// # grr with a vector c (per-contact restitution)
//
// Smith et al. §12 leave per-contact restitution inside generalized
// restitution open; Bounce Maps (package bouncemap) give every contact its
// own cᵢ. With λ₀ the inelastic LCP's impulses and λ₁ GR's at c = 1:
//
//	λ_c = (1 − cᵢ)λ₀ᵢ + cᵢλ₁ᵢ,   v_c = v⁻ + M⁻¹Gλ_c,                        (R1)
//	v⁺ = P_K(v_c) = v_c + M⁻¹Gμ,   K = {v : Gᵀv ≥ 0},                          (R2)
//
// where P_K is the M-orthogonal projection onto the admissible cone — the
// inelastic LCP started from v_c, μ ≥ 0 its impulses (μ = 0 when nothing
// approaches at v_c). If v⁺ still has more kinetic energy than v⁻, the
// restitution part is shrunk,
//
//	λ(s) = λ₀ + s(λ_c − λ₀),   v⁺(s) = P_K(v⁻ + M⁻¹Gλ(s)),                     (R3)
//
// with s ∈ [0, 1) found by bisection (to 1e-12) as the largest tested s
// whose T(v⁺(s)) ≤ T(v⁻)(1 + 10⁻¹²); s = 0 is the inelastic answer, so one
// exists. Properties (tested on 600 random clusters and piles):
//
//   - equal cᵢ = c: v_c is a convex combination of two admissible
//     velocities, admissible itself, so μ = 0 and the result is grr at c bit
//     for bit (the uniform rule runs);
//   - all cᵢ = 1: GR, so kinetic energy is kept (KIN) to 1e-12;
//   - cᵢ ≤ 1: T(v⁺) ≤ T(v⁻)(1 + 10⁻¹²) by (R3): the projection never adds
//     energy (P_K is non-expansive toward 0 ∈ K), and mixing per contact
//     can — in 15 of 20,000 random piles with cᵢ ∈ {0, 1} the projected mix
//     gained up to 2.9% — which the shrink removes;
//   - Gᵀv⁺ ≥ 0 up to the LCP's tolerance (nothing approaches), every
//     impulse compressive ((1 − cᵢ)λ₀ᵢ + cᵢλ₁ᵢ ≥ 0, μ ≥ 0), and momentum
//     conserved (all changes are contact impulses);
//   - cᵢ → c moves v⁺ continuously to grr at c.
//
// The projection costs one more inelastic LCP when the mix approaches
// somewhere (almost always with unequal cᵢ), the shrink one per bisection
// step (rare).
//
// From Zhang et al., "Quadratic Contact Energy Model for Multi-impact
// Simulation" (see qce.go and qcelcp.go for the mathematics):
//
//   - qce (QCE, Alg. 1): every approaching contact's impulse grows along a
//     common parameter s at the rate of its approach speed (the ratio vector
//     F), each contact's energy is a piecewise quadratic in s and the contact
//     leaves when it returns to zero; a min-heap orders the terminations and
//     sweeps repeat until nothing approaches. Elastic (ignores c); conserves
//     energy exactly (KIN), BRK, SYM, MOM, ONE.
//   - qce_lcp (eq. 19): the LCP 0 ≤ λ ⊥ Aλ + Gᵀv⁻ ≥ c Gᵀv_c⁺ whose target
//     is QCE's elastic answer v_c⁺: the inelastic LCP at c = 0, QCE at c = 1.
//     Its LCP starts from (1 + cᵢ)/2 · λ_c, the answer for an isolated
//     contact (QCELCP).
//
// Inner QPs go to package qp: an exact dense active-set solver for small
// problems and a sparse iterative one for large problems, chosen by size
// ("auto") unless Config.Solver names one. An operator that reaches its
// iteration cap returns *NotConvergedError (iterations and worst remaining
// approach velocity); an inner solver that misses its tolerance returns its
// own error, wrapped. No operator returns an infeasible velocity silently.
//
// The QP of lcp and of each GR iteration is separable over the connected
// components (islands) of the contact graph; they are solved one by one,
// concurrently when the operator has a worker pool, each by the same
// arithmetic on whichever worker (lcp.go, islands.go). With
// Config.WarmStart, lcp and GR's first iteration start each island solve
// from the contacts' impulses at the two previous calls (warmstart.go); the
// violators of GR iteration k+1 had zero impulse at iteration k, so later
// iterations have nothing to start from. WarmStarter saves and restores
// that memory with a simulation's state. GR.LendArena lets a caller lend
// GR storage it does not read meanwhile (scratch.Arena) for one Resolve's
// per-reflection arrays — the violator list, the split's union–find and
// groups — and its first-push record, with the same bits
// (TestGRLentArena): the fast sphere path lends its step's arena, whose
// broad-phase and split arrays are dead by then and which Alg. 3 takes
// next.
package impact

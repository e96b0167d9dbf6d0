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
//     collapse for every c.
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
// that memory with a simulation's state.
package impact

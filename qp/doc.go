// Package qp solves the bound-constrained convex quadratic programs that
// every impact and friction law in impactsim reduces to.
//
// # The problem
//
// Given a symmetric positive semi-definite m×m matrix A (for impacts the
// Delassus matrix A = GᵀM⁻¹G), a vector b and bounds lo ≤ hi (lo may be −∞,
// hi may be +∞), find
//
//	y* ∈ argmin ½ yᵀA y + bᵀy   subject to  lo ≤ y ≤ hi.
//
// Because A is positive semi-definite the problem is convex, and the
// Karush–Kuhn–Tucker conditions are necessary and sufficient: with the
// gradient g = A y + b, y is a solution if and only if, for every i,
//
//	yᵢ = loᵢ  ⇒ gᵢ ≥ 0,    yᵢ = hiᵢ ⇒ gᵢ ≤ 0,    loᵢ < yᵢ < hiᵢ ⇒ gᵢ = 0,
//
// or, in one formula, mid(yᵢ − loᵢ, gᵢ, yᵢ − hiᵢ) = 0 for all i (mid is the
// median of three numbers). With lo = 0 and hi = +∞ these are the conditions
// of the linear complementarity problem
//
//	0 ≤ y  ⊥  A y + b ≥ 0
//
// whose solution is the vector of impact impulses; with lo = 0 and a finite
// hi = μλ they describe the friction impulses.
//
// A is often singular (G is rank deficient whenever bodies have more
// contacts than degrees of freedom, e.g. hexagonally packed balls). Then y*
// need not be unique, but A y* is: if y₁ and y₂ are both solutions, the
// convex objective is constant on the segment between them, so its
// quadratic part (y₁ − y₂)ᵀA(y₁ − y₂) vanishes and A y₁ = A y₂ (A is
// positive semi-definite). Hence the change of contact velocity is unique,
// and solutions of different solvers are compared through A y and the
// objective value, not y. A singular A also allows an unbounded problem (a
// ray d with A d = 0, bᵀd < 0 inside the box); the solvers then return an
// error (normally ErrUnbounded) rather than loop.
//
// # Accuracy
//
// Downstream tests check energy conservation and symmetry to 1e-10…1e-12,
// so an inexact answer is a bug. Every solver measures its answer with
// KKTResidual, the relative, scaled natural residual
//
//	r(y) = maxᵢ |mid(Aᵢᵢ(yᵢ − loᵢ), gᵢ, Aᵢᵢ(yᵢ − hiᵢ))| / max(‖b‖∞, ‖A y‖∞),
//
// which is zero exactly at a solution and carries the units of g (velocity,
// for impacts) in every component. A solver that does not reach its
// tolerance returns a *NotConvergedError with the iteration count and the
// residual reached, and leaves its best iterate in y.
//
// # Dense: an exact active-set method
//
// Dense (for m up to a few hundred) copies A into a dense workspace and runs
// the primal active-set method of Lawson & Hanson's NNLS, applied to the
// Gram form ½yᵀAy + bᵀy and generalised to two-sided bounds as in Stark &
// Parker's BVLS. Variables are split into a free set F and variables held
// at a bound. An inner loop takes the Newton step p = −A_FF⁻¹ g_F on the free
// set, cut back at the first bound it would cross (that variable then leaves
// F); when the full step is feasible y is optimal on F. The outer loop then
// prices the bound variables and frees the one whose gradient promises the
// largest decrease (largest |gⱼ|/√Aⱼⱼ). The Cholesky factor of A_FF is kept
// up to date by appending a row when a variable enters and by Givens
// rotations when one leaves (O(|F|²) per change).
//
// Rank deficiency: at the optimum on F, a column aⱼ that is linearly
// dependent on the free columns has gⱼ = bᵀd for the null vector d of A
// supported on F ∪ {j}, so a variable whose gradient asks to move can only be
// dependent when b is not in the range of A. The method never factors a
// singular A_FF: when the new pivot Aⱼⱼ − a_Fjᵀ A_FF⁻¹ a_Fj is zero to working
// precision (below 1e-10 Aⱼⱼ), y moves along the null direction
// d = ±(eⱼ − A_FF⁻¹ a_Fj), on which the objective falls linearly and A y does
// not change, until a bound stops it (a free variable then leaves F and j
// enters; the new free set is independent). No bound means an unbounded
// problem. Slopes along such directions below their rounding noise
// (the larger of the acceptance threshold tol · scale and
// 4 · m · ε · scale · (1 + ‖A_FF⁻¹ a_Fj‖₁), m the number of variables) are
// ignored, and unboundedness is
// only declared for slopes a thousand times larger, and only if bᵀd, the
// slope on an exact null direction (independent of y), is below zero by as
// much relative to ‖b‖∞(1 + ‖A_FF⁻¹ a_Fj‖₁). The curvature of d is known
// only to about m·ε·Aⱼⱼ·‖d‖₁² (at least |δ| when rounding made the pivot δ
// negative); a move to a bound at distance t whose slope is below t times
// that is rejected as unresolved: on a singular A with b in its range (an
// LCP of contacts) the true slope along a null direction is zero, and such
// moves only carried y along nearly null directions by ten orders of
// magnitude (a bunny-pile island: 3.2e7 for a slope of −9.4e-10), after
// which rounding in (A d)ᵀy posed as an unbounded ray. An entering variable
// whose first Newton step points back into its
// bound (possible only through rounding, which the Lawson–Hanson lemma
// otherwise excludes) is rejected until y next changes, which together with
// an iteration cap guarantees termination.
//
// The gradient is updated incrementally during the iteration and recomputed
// from scratch every few pivots. When pricing finds nothing, the solution on
// F is polished by iterative refinement with exactly recomputed gradients
// (and, if refinement stalls above rounding level, a fresh factorisation),
// and pricing is repeated on an exact gradient. On well-scaled problems the
// result satisfies KKTResidual ≈ 1e-16…1e-15 (default tolerance 1e-12). A
// warm start is used as the initial active set: its interior components form
// the initial free set (dependent ones are moved to a bound).
//
// # Sparse: MPRGP
//
// Sparse (large m) uses A only through Matrix.MulVec and its diagonal. It is
// Dostál's MPRGP (modified proportioning with reduced gradient projections)
// for two-sided bounds. With φ the gradient on the free variables, β the
// "chopped" gradient on variables at a bound that want to leave it, and φ̃
// the free gradient reduced so that a step of length ᾱ along it stays
// feasible, each iteration is one of
//
//   - a conjugate-gradient step on the current face, when the iterate is
//     proportional (‖β‖² ≤ Γ² φ̃ᵀφ) and the CG step stays feasible;
//   - an expansion step, when the CG step would leave the box: the projected
//     CG step P(y − α_cg p) is tried first (kept if it decreases the objective
//     more than the feasible part of the CG step), otherwise the feasible step
//     to the first bound is followed by a projected free-gradient step of
//     fixed length ᾱ = 1.8/‖A‖ (‖A‖ estimated by power iteration, increased if
//     the step ever fails to decrease the objective);
//   - a proportioning step along −β, releasing bounds, otherwise.
//
// The iteration runs on the Jacobi-scaled problem (variables scaled so that
// diag(A) = 1), which preserves the box and is equivalent to diagonal
// preconditioning. The gradient is recomputed from scratch every 64 steps
// and before convergence is accepted. Null-space directions are handled as
// in Dense: a conjugate direction without curvature and almost orthogonal to
// the gradient is rounding noise and restarts CG; a genuine descent
// direction without curvature and without a bound ahead means ErrUnbounded.
// (An unbounded problem whose recession ray MPRGP never meets on a face ends
// with a *NotConvergedError instead: still an error, never a loop.)
// The default tolerance is KKTResidual ≤ 1e-10 within 50·m + 1000 iterations
// (about one MulVec each): jittered hexagonal packings of 10⁴ contacts need
// 7.4·m (falling pile) to 12.5·m (random velocities) iterations, because the
// free-face CG runs unpreconditioned on a badly conditioned, singular A.
// The iterate y on entry is the warm start. A Sparse given a pool
// (SetPool) runs its vector loops and sums by fixed blocks of SparseBlock
// variables, the blocks' partial sums added in block order, on the pool's
// workers from 4096 variables on: bitwise the same answer for any number
// of workers (TestSparsePooledIsDeterministic); it rounds differently from
// a Sparse without a pool only above one block. Sparse.Lend (and
// Auto.Lend, for the MPRGP solver it owns) gives the next Solve storage
// the caller holds but does not read during it: MPRGP takes as many of its
// 13 vectors of length m as fit from it instead of its own storage, with
// the same bits (TestSparseLendIsExact, TestAutoLendOnlyToItsMPRGP).
//
// # Interior: primal–dual interior point with sparse Cholesky
//
// For the LCP form (finite lower bounds, no upper bounds) on a sparse
// matrix that exposes its rows (RowMatrix: mech.Delassus), Interior runs a
// primal–dual interior-point method on x = y − lo ≥ 0, w = A y + b ≥ 0,
// x∘w = 0. With D = W X⁻¹ and r = A y + b − w, each iteration solves
//
//	(A + D) Δx = −r − w + (σμ − Δx_aff∘Δw_aff)/x,   Δw = (σμ − Δx_aff∘Δw_aff)/x − w − D Δx
//
// twice with one factorization (Mehrotra's predictor with σ = 0 and no
// second-order term, then the corrector with σ = (μ_aff/μ)³), and steps
// 0.995 of the way to the boundary. A + D is positive definite even when A
// is singular, so a Cholesky factorization always exists; it is computed
// by the up-looking row algorithm on a nested-dissection order (the
// graph of A split at the middle level of a breadth-first level structure
// from a pseudo-peripheral node, recursively; analysed once per problem,
// factored once per iteration). Once the gap μ is below 1e-6 of
// its scale, each iterate is rounded — xᵢ = 0 where xᵢ ≤ wᵢ — and the
// rounded point is accepted when its KKTResidual, recomputed from A y,
// meets the tolerance (1e-10). Degenerate pairs (xᵢ and wᵢ both tending
// to 0) leave a residual of order √μ after rounding; when μ reaches its
// floating-point floor the rounded point is finished by MPRGP with a short
// budget. Its iteration count (13–56 on packings of 10²–10⁵ contacts)
// does not grow with the conditioning of A; a 10⁴-contact packing takes
// 1–1.5 s against MPRGP's 31–52 s.
//
// Auto picks Interior for LCPs on a RowMatrix above 160 variables (where
// it overtakes the dense active set), polished by Sparse from Interior's
// best point if Interior stops short; Dense for other problems up to 300
// variables and Sparse above. With Auto.InteriorMax set, LCPs above it go
// to Sparse first (budget SparseFirstBudget: m/8 + 1000 iterations) and to
// Interior only if Sparse stops short: the factor of a three-dimensional
// contact graph fills in (4.4 M entries on 85,146 contacts of a sphere
// layer, 0.8 s a factorization), where MPRGP's cost grows with its
// iteration count only. New builds a solver by
// name. Solvers keep their workspaces: repeated solves of the same size do
// not allocate.
//
// # References
//
//   - C. L. Lawson, R. J. Hanson, Solving Least Squares Problems,
//     Prentice-Hall, 1974, ch. 23 (NNLS).
//   - P. B. Stark, R. L. Parker, Bounded-variable least-squares: an algorithm
//     and applications, Computational Statistics 10 (1995) 129–141.
//   - Z. Dostál, Optimal Quadratic Programming Algorithms, Springer, 2009,
//     ch. 5 (MPRGP); Z. Dostál, J. Schöberl, Minimizing quadratic functions
//     subject to bound constraints with the rate of convergence and finite
//     termination, Comput. Optim. Appl. 30 (2005) 23–43.
//   - J. Kružík, D. Horák, M. Čermák, L. Pospíšil, M. Pecha, Active set
//     expansion strategies in MPRGP algorithm, Adv. Eng. Softw. 149 (2020)
//     (projected CG expansion).
//   - S. Mehrotra, On the implementation of a primal-dual interior point
//     method, SIAM J. Optim. 2 (1992) 575–601; S. J. Wright, Primal-Dual
//     Interior-Point Methods, SIAM, 1997, ch. 8 (monotone LCPs).
//   - A. George, Nested dissection of a regular finite element mesh, SIAM J.
//     Numer. Anal. 10 (1973) 345–363; T. A. Davis, Direct Methods for Sparse
//     Linear Systems, SIAM, 2006, ch. 4 (elimination tree, up-looking
//     Cholesky).
//   - B. Smith, D. M. Kaufman, E. Vouga, R. Tamstorf, E. Grinspun,
//     Reflections on simultaneous impact, ACM Trans. Graph. 31(4) (2012).
package qp

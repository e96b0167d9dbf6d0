// Package eigen computes the lowest eigenpairs of a sparse
// symmetric-definite pencil, K φ = λ M φ, with K positive semidefinite and
// M positive definite (linear elasticity: package fem), by block
// shift-invert Lanczos on impactsim's own sparse Cholesky factorization
// with nested-dissection ordering (qp.FactorSPD). No pure-Go sparse
// eigensolver exists; gonum's dense mat.EigenSym is the reference in the
// tests.
//
// # Method
//
// With a shift σ below every eigenvalue (default σ = −10⁻⁶·tr K/tr M, so
// K − σM is positive definite even for a free body whose K is singular),
// the operator
//
//	OP = (K − σM)⁻¹ M,   OP φ = θ φ  ⟺  K φ = λ M φ,  λ = σ + 1/θ,          (E1)
//
// is symmetric in the M inner product ⟨x, y⟩_M = xᵀMy, and the smallest λ
// are its largest θ. Block Lanczos builds an M-orthonormal basis V of the
// block Krylov space of OP from a random block (default 3 vectors; exact
// arithmetic finds at most as many copies of a repeated eigenvalue as the
// block has vectors, rounding finds the rest, as the six-fold rigid
// eigenvalue in the tests shows). Every new vector is M-orthogonalized
// against the whole basis and the deflated vectors by classical
// Gram–Schmidt, twice, so
//
//	OP V_k = V_k H_k + Q R E_kᵀ,   H_k = V_kᵀ M OP V_k,                        (E2)
//
// with Q the newest block. Rayleigh–Ritz on the symmetric part of H_k
// gives Ritz pairs (θ, y = V_k s) with residual ‖OP y − θ y‖_M = ‖R s_last‖
// (s_last the entries of s on the last block). When the basis reaches
// MaxBasis, a thick restart keeps the best Modes + max(block, Modes/2)
// Ritz vectors and Q: H becomes diag(θ) coupled to Q through R S_last.
//
// Deflation: vectors z spanning an invariant subspace (the six rigid modes
// of a free body, λ = 0) are projected out of every new vector, so the
// rigid modes never enter the basis and the wanted pairs are the lowest
// elastic modes; without deflation the rigid modes come first (tested: six
// eigenvalues below 10⁻⁸λ₇).
//
// # Convergence and checks
//
// The iteration stops when the Modes largest Ritz values have
// ‖OP y − θ y‖_M ≤ Tol·θ (default 1e-11); then every pair is measured
// against K and M themselves,
//
//	‖Kφ − λMφ‖₂ ≤ MaxResidual·λ‖Mφ‖₂ (default 1e-8),  ‖ΦᵀMΦ − I‖_max,  max|zᵀMφ|,
//
// and while a residual misses MaxResidual the iteration continues on the
// same basis with Tol/100. An unconverged solve returns an error with the
// solve count; it never returns unchecked pairs.
//
// The block's solves run on the workers of Options.Pool and the
// orthogonalization of each new vector against the basis is independent of
// the others; every number is computed by the same arithmetic on any
// worker, so results are bitwise the same for any worker count (tested).
package eigen

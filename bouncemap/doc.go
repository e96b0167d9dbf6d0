// Package bouncemap is modal restitution analysis and Bounce Maps (Wang,
// Setaluri, James and Pai, "Bounce Maps: An Improved Restitution Model for
// Real-Time Rigid-Body Impact", ACM TOG 36(4) 2017): the coefficient of
// restitution of a stiff elastic body as a function of the contact point
// and normal, computed from its lowest vibration modes, stored in a map
// file, looked up at run time, and combined for two bodies.
//
// Equation numbers (1)–(12) and Algorithm 1 are the paper's; (X1)–(X6) are
// this package's additions. The implementation checklist with the paper's
// misprints resolved is ../shared/specs/bounce-maps.md.
//
// # Modal model (§3.1)
//
// A body (Body) is a rigid body with mass M, principal moments I (the body
// frame has its origin at the centre of mass and principal axes) and m
// mass-normalized elastic modes of angular frequencies ωᵢ. A surface point
// X with outward normal N (a Site) moves as
//
//	x = c + R(X + U(X)q),   v = ċ − R[X + Uq]×w + RUq̇ = J q̇,              (2)–(5)
//
// with U(X) the 3×m mode shapes at X (barycentric interpolation in the
// tetrahedral mesh; a face sample takes the mean of its three vertices'
// values) and the mass matrix M = diag(M·I₃, I, I_m) (6). Modes come from
// packages tetmesh, fem and eigen (NewModalModel): 4-node tetrahedra,
// consistent mass, the lowest m modes of Kφ = ω²Mφ with the rigid modes
// deflated. M, I and the frame come from the same FEM mass matrix.
//
// # Algorithm 1 (Workspace.Alg1)
//
// The proxy problem (7): a plane through X with normal n = −N; the body
// starts in contact, undeformed, translating at v_n⁻ = −1 m/s along n.
// Each step of Δt: the predictor q̇ += Δt M⁻¹f_int (gyroscopic
// −w×(Iw), modal q̈ᵢ = −ωᵢ²(qᵢ + βq̇ᵢ)); if the deformed point touches
// (C(x) ≤ 0) and approaches (v·n < 0), the inelastic impulse
//
//	λ = −v·n / (n_gᵀM⁻¹n_g),   n_g = Jᵀn = (n, p × Rᵀn, UᵀRᵀn),  p = X + Uq,
//
// with v_n⁺ = nᵀJq̇_rigid cached and the deformation bound
//
//	R_bound = Σᵢ ΔRᵢ √Eᵢ,   ΔRᵢ = √2‖Uᵢ(X)‖/ωᵢ,   Eᵢ = ½(q̇ᵢ² + ωᵢ²qᵢ²)        (8)
//
// updated; then, every step (the misprint's indentation would freeze the
// body), symplectic Euler positions c += Δtċ, R ← R exp(Δt[w]×),
// q += Δtq̇. The loop runs while C(x_rigid) < R_bound; ε = −v_n⁺/v_n⁻ (1).
// Δt must satisfy ω_mΔt ≤ 0.1 (maps use 0.02/ω_m by default); the step
// count is capped (10⁶), a capped sample is flagged; the elastic variant
// (2λ, Fig. 23) and damping with the damping sign (§6) are options.
// Outcome.Collisions counts impulse runs separated by more than two
// impulse-free steps.
//
// # Exact analysis (Workspace.Exact, beyond the paper)
//
// At small impact speed the rotation during the contact is infinitesimal
// and the gyroscopic term vanishes (both are quadratic in the speed), and
// the proxy problem is linear in the rigid normal gap r of the point and
// the modal coordinates. With the rigid inverse mass of the point along n
// and the modal participations
//
//	a = 1/M + Σ_k (X × n)_k²/I_k,   gᵢ = Uᵢ(X)·n,                             (X1)
//
// the gap is C = r + gᵀq; an impulse λ changes ṙ by aλ and q̇ by gλ, and in
// free flight r̈ = 0, q̈ᵢ = −ωᵢ²qᵢ, so that
//
//	C(s) = r + ṙs + Σᵢ Re(Zᵢ e^{iωᵢs}),   Zᵢ = gᵢ(qᵢ − iq̇ᵢ/ωᵢ).                 (X2)
//
// Alg. 1's run of per-step impulses while the point is held on the plane
// is, as Δt → 0, a held phase: C ≡ 0 with a compressive contact force.
// Eliminating r = −gᵀq,
//
//	(I + ggᵀ/a) q̈ = −Ω²q,                                                  (X3)
//
// whose modes (frequencies νⱼ, (I + ggᵀ/a)-orthonormal φⱼ) follow from the
// secular equation of the rank-one modification D + ρzzᵀ, D = Ω⁻²,
// z ∝ Ω⁻¹g, ρ = ‖Ω⁻¹g‖²/a (eigenvalues 1/νⱼ², one between consecutive
// 1/ωᵢ²; roots by Newton in coordinates shifted to the nearer pole, weights
// recomputed from the roots as Gu and Eisenstat do, O(m²) per site, once):
//
//	1 + ρ Σ_k z_k²/(d_k − λ) = 0.                                             (X4)
//
// The force needed to hold the point is
//
//	λ_c = gᵀΩ²q/(a + Σgᵢ²) = Σⱼ κⱼηⱼ(s),   κⱼ = νⱼ² gᵀφⱼ/a,                    (X5)
//
// a sum of harmonics in the constrained modal coordinates
// ηⱼ = φⱼᵀ(I + ggᵀ/a)q. The analysis alternates: an impact (Ċ < 0) gets the
// inelastic impulse λ = −Ċ/(a + Σgᵢ²); if then λ_c > 0 (or λ_c = 0 rising)
// the point is held until λ_c's first zero; otherwise, or after the
// release, it flies freely until the first zero of (X2), or for ever once
//
//	r + ṙs > Σᵢ|Zᵢ|   (ṙ > 0),                                               (X6)
//
// and ε = ṙ at the end. Both searches for a first zero of a sum of
// harmonics are safe: the step from a point s with F(s) > 0 is proven
// root-free by F(s + σ) ≥ F(s) + F′(s)σ − ½L₂σ², L₂ = Σ|Aᵢ|ωᵢ²; the scan
// moves in steps of 1/ω_max with phasors rotated by a precomputed
// e^{iωᵢh} (one complex product per mode and step); where the bound fails
// the search walks by the bound's own root (which never passes a zero and
// converges quadratically on a transversal one) and falls back to
// bisection-by-proof on grazing approaches. The start of a phase, where C
// and its first derivatives vanish, is made safe by the Taylor bound of
// the first non-zero derivative. Nothing is integrated, so there is no
// Δt: ε is the Δt → 0, v_n⁻ → 0 limit of Alg. 1. The single-mode closed
// form (ε = u²/(a + u²), τ = π/(ω√(a/(a+u²)))) holds to 1e-12; Alg. 1 at
// 10⁻⁴ m/s and ω_mΔt = 0.002 agrees to 1e-6 on most sites (tested), with
// Alg. 1's first-order error in Δt visible where a grazing re-contact
// happens. At 1 m/s the two differ by Alg. 1's geometric nonlinearity of
// the rotation (the checklist's off-axis case: 0.37882 against the linear
// 0.378788).
//
// # Two bodies (§5.1, eq. 11; Workspace.Alg1Pair, Workspace.ExactPair)
//
// C = n·(x_A − x_B), n = −N_A: B is turned by the smallest rotation that
// opposes its outward normal to A's and placed so the sites coincide; A
// moves at v_n⁻ along −n, B rests; J = [J_A −J_B], M block-diagonal, the
// bound R_A + R_B (Alg1Pair, Algorithm 1 for both bodies). In the
// small-speed limit the contact is (X1)–(X6) with a = a_A + a_B and both
// bodies' modes side by side, each with gᵢ = Uᵢ·(−N) of its own outward
// normal (ExactPair); the two agree to 1e-6 at 10⁻⁴ m/s (tested). Two
// copies of a body at the same site give the one-body ε (Fig. 13's mirror
// argument): exactly in the small-speed limit (tested to 1e-9), and to
// 1e-4 with Alg1Pair at 1 mm/s; at 1 m/s the turned copy is not A's mirror
// image and the rotation's nonlinearity leaves differences up to 2e-3.
//
// # Combiners (§5.2, eq. 12)
//
// ε_ij ≈ F(εᵢ, εⱼ): arithmetic, geometric, harmonic means, their flipped
// forms 1 − F(1 − εᵢ, 1 − εⱼ), min and max (Combiners). All satisfy UNITY,
// SYMMETRY, MONOTONICITY and IDENTITY (tested). The Table 1 study
// (StratifiedPick, SelfPairs, PairTable.MeanError) collides each body with
// a copy of itself at n sites whose one-body ε spread evenly over the
// range, all n² ordered pairs (n(n+1)/2 runs).
//
// # Sampling (§4, PlanSamples)
//
// Face samples at triangle centroids with the triangle normal; with sharp
// features on, at each convex edge whose face normals differ by more than
// 9° the midpoint with normals slerped between the faces' at 9° steps, and
// at each vertex of such an edge the directions of a level-4 icosahedron
// (2,562) inside the closed normal cone {N : N·(w − v) ≤ 0 for every
// neighbour w}. Samples are analysed in parallel; each by the same
// arithmetic on any worker, so maps do not depend on the worker count.
//
// # Lookup (eqs. 9–10)
//
// dist² = ‖X − X′‖² + γ²‖N − N′‖², γ = h_x/h_θ, with h_x the surface's mean
// edge length and h_θ the edge step (9°). Map.Lookup returns the nearest
// sample's ε (a uniform grid of cells 1.5h_x, searched ring by ring until
// the ring is farther than the best distance; Euclidean nearness stands in
// for the paper's geodesic neighbourhood, the normal term keeps opposite
// sides of thin parts apart). Map.LookupMLS is a linear moving least-
// squares fit over the samples within 2h_x (weights (1 − d²/R²)⁴; basis
// {1, X − x} on smooth parts, {1, X − x, N − n} where edge or vertex
// samples take part; minimum-norm SVD solve; clamped to [0, 1]).
//
// # Map file format (version 1)
//
// A text file, one record per line, '#' comments allowed:
//
//	impactsim-bouncemap 1
//	surface <vertices> <triangles> sha256:<64 hex digits>
//	source <surface file, relative to the map's directory, or ->
//	scale <metres per surface unit used in the analysis>
//	material <density kg/m³> <Young's modulus Pa> <Poisson's ratio>
//	modes <m> <f₁ Hz> <f_m Hz>
//	method exact|alg1 <Δt s> <|v_n⁻| m/s>          (0 0 for exact)
//	frame <cx cy cz> <a00 a01 a02 a10 a11 a12 a20 a21 a22>
//	tets <vertices> <tetrahedra> <description>
//	lookup <h_x surface units> <h_θ radians>
//	samples <count>
//	f <face> <x y z> <nx ny nz> <ε> <τ_sim> <τ_last> <collisions> <capped 0|1>
//	e <vertex a> <vertex b> <x y z> <nx ny nz> <ε> <τ_sim> <τ_last> <collisions> <capped>
//	v <vertex> <x y z> <nx ny nz> <ε> <τ_sim> <τ_last> <collisions> <capped>
//	end
//
// Indices count from 1. Positions and normals are in the surface file's
// coordinates (the same for any scale: ε is invariant under uniform
// scaling, density and stiffness); frame is the modal body frame there
// (centre, then the principal axes as the columns of a row-major matrix).
// The surface hash (ShapeHash) is SHA-256 of the vertices (three
// little-endian float64 each) and the triangles (three little-endian int32
// each) in file order, so a map loaded for another mesh is an error
// (Map.CheckShape). Read reports the file and line of the first problem.
package bouncemap

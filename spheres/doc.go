// Package spheres is the fast path for many 3D spheres: flat arrays, a
// cell-sorted broad phase, walls that may move, periodic sides, spheres
// added and removed between steps, and two time steppings: Preclik et
// al.'s impulse-velocity time stepping with non-linear block Gauss–Seidel
// (sec. 3.1) specialized to spheres (Step; the granular channel flow of
// package channelflow), and the collision integrator of Smith et al.
// (Alg. 4) with any impact operator of package impact and Alg. 3 or
// boxed-LCP friction solved island by island (StepImpact; the vibrated
// layers of package patterns).
//
// # Why a new system and not a path inside rigid3d
//
// rigid3d keeps a fixed set of bodies of any shape in sim.Stepper's state
// vectors (7 + 6 numbers per body, quaternion poses), assembles a
// mech.Problem with 6×6 mass blocks and sparse 12-entry columns, and
// dispatches every pair on the shapes' kinds. For 2.5·10⁵ spheres and
// 3.2·10⁵ contacts that costs memory and time the sphere case does not
// need: a sphere's inertia is a scalar, its lever arm is −r n, its
// contact block is diag(A_nn, A_tt, A_tt), and the channel needs spheres to
// appear and disappear every few steps, which a fixed state vector cannot
// express. So the spheres live in arrays indexed by sphere (X, Q, VW, R,
// InvM, InvI, ID), contacts are small records, and the kernel reads and
// writes velocities in place. The general path stays the reference:
// ExportProblem gives the same contacts as a mech.Problem, and
// friction.NBGS on it reproduces the kernel's impulses and velocities to
// rounding (TestKernelMatchesGeneralNBGS: 1.4e-13 of 23 after 300 sweeps).
//
// The collision integrator lives here too, rather than in rigid3d, for the
// same reasons: 6·10⁴ spheres with 10⁵ contacts need the flat arrays, the
// half-stencil broad phase that runs on the pool, compact 6×6 mass blocks
// (8 bytes per sphere instead of rigid3d's two dense 36-entry blocks) and
// islands solved concurrently, none of which rigid3d's general shapes
// allow. rigid3d stays the reference: on the same scene, StepImpact and
// rigid3d under sim.Stepper (Alg. 4, DMV) give the same trajectories to
// 1e-10 over 100 steps for gr, grr, lcp, qce, qce_lcp with Alg. 3 or the
// boxed LCP, a rising floor and e(v) (TestImpactMatchesRigid3d; measured
// 1.5e-13 … 3.9e-12).
//
// # A collision-integrator step (StepImpact; Smith et al. Alg. 4)
//
//  1. Prediction: x̃ = x + (h v + ½h² g) (free flight under uniform
//     gravity is exact in translation).
//  2. Active set at the prediction, normals at x: sphere pairs with
//     |x̃ᵢ − x̃ⱼ| ≤ rᵢ + rⱼ (nearest periodic image), spheres whose
//     prediction touches a plane advanced by h V (n·(x̃ − P − hV) ≤ r), a
//     box or a cylinder; the broad phase keeps only pairs within h(2
//     max|v| + max|V|) + ½h²|g| of touching, so its cost is linear.
//  3. The contact law on every island of the contact graph (islands.go):
//     the impact operator with restitution e₀ or e(v) (impact.
//     VelocityRestitution on each contact's approach speed), then Alg. 3
//     (friction.MaxDissipation) or the boxed LCP (friction.BoxedLCP);
//     QCE-LCP's LCP stage (eq. 19) with the automatic QP solver takes
//     MPRGP above the dense size, never the interior point (Law's
//     operatorConfig: faster on the landing's 10⁴-contact islands, and
//     on the pool); the other operators' LCPs (GR's reflections) take
//     MPRGP first above GRInteriorMax = 20,000 contacts and the
//     interior point only if MPRGP stops short (qp.Auto.InteriorMax: at
//     h = 10⁻³ GR's first reflection of a landing covers islands of up
//     to 10⁵ contacts, where the interior point's factor fills in);
//     v⁺ = v + M⁻¹(Gλ + Dβ). A moving plane's velocity V enters the
//     relative velocities as NRel = −n·V, DRel = −t·V.
//  4. Free flight from x with v⁺: x′ = x + (h v⁺ + ½h² g), v′ = v⁺ + h g,
//     the orientation by the sphere's closed-form DMV step
//     (freeFlightChunk); planes advance by h V.
//
// Islands of at least 4096 contacts (the vibrated layer's landing is one
// island of 10⁵) are built and solved one at a time with the whole pool:
// the island's problem is counted and then written in place by contact
// ranges, and Alg. 3 runs its products with the Delassus matrix and its
// sliding velocities by row ranges (friction.MaxDissipation.SetPool) and
// the boxed LCP sweeps them by blocks of contacts and colours, each
// group split over the pool (friction.BoxedLCP.SetPool; every copy of the
// law sweeps islands from 4096 contacts so, whichever copy solves them);
// an island's problem (scalar blocks m·I₆, the normal and the tangents
// t, o = n × t with their moments) is what the boxed LCP sweeps in its
// compact form (friction.BoxedLCP's doc), every island, small or big; the
// others go to the workers, largest first. A steady step allocates nothing
// (TestImpactStepAllocs; on the shaken layer, TestLayerSteadyStepAllocs in
// package patterns), and its state is bitwise the same for any number of
// workers, with or without the pooled build
// (TestImpactDeterministicAcrossWorkers, and with coloured boxed-LCP
// sweeps TestImpactColouredAcrossWorkers).
//
// The phases of a step whose workspaces are never live together share one
// arena (scratch.Arena, workspace.scr): the broad phase's cell keys, cell
// starts and sorted order with the free-flight prediction x̃ (when no
// position correction reads it after the step) or the reordering's
// buffers; then the island split's union–find; then, island by island,
// the builds' sphere marks and Alg. 3's per-call arrays on the big islands
// (friction.MaxDissipation.LendArena: the slip record, the directions'
// lists, their compact form and the rows of A, as many as the arena
// holds). That lowers the 60k layer's peak, at its landing in Alg. 3, by
// the arena's size (BENCHMARKS.md, mem1kc).
//
// The island's friction basis D is not stored for Alg. 3 (nor without
// friction): the problem carries it matrix-free (mech.Problem.DBasis), the
// two tangent columns of a contact computed when read from its record and
// 24 bytes of island data (tanBasis) instead of 24 stored entries (≈ 320
// bytes per contact); the columns are the stored ones bit for bit
// (TestMatrixFreeTangentsAreExact). The boxed LCP reads D's storage, so
// its islands store it.
//
// Nor is G stored when every operator of the law reads it through
// mech.Problem.Normals (mech.MatrixFreeG: GR, LCP, Alg. 3): the problem
// carries it matrix-free (mech.Problem.GNormals, the type normals), a
// contact's normal column (n on sphere i, −n on j) computed when read from
// its record and the same island data, instead of 3 or 6 stored entries
// and a pointer (≈ 80 bytes per pair contact); every product (Gᵀv, G λ,
// the pooled G λ by row ranges, the violators' columns of GR's LCP kernel)
// has the stored columns' bits (TestMatrixFreeNormalsAreExact). The other
// laws get the stored G (TestMatrixFreeNormalsOnlyForReaders).
//
// Likewise the known relative velocities of a moving wall (NRel, DRel) are
// not stored when every operator reads them through mech.Problem's
// accessors (mech.MatrixFreeRel: GR, LCP, Alg. 3): the problem carries
// them as a mech.KnownRel (mech.Problem.Known, the type knownRel: the
// record's rel and System.relTangent), 24 bytes per contact less, with
// the stored values' bits (TestMatrixFreeKnownRelIsExact).
//
// # The closed active set (ImpactConfig.ActiveRounds)
//
// Alg. 4 finds the active set once, at the prediction with the step's v.
// An impulse can then drive a sphere into one that was not in the set: a
// floor rising under a column of resting spheres with small gaps lifts the
// bottom sphere only, and the free flight (line 8) puts it h·V deep into
// the one above (at h = 10⁻³ on the vibrated layer the deepest floor
// overlap reaches 0.7–1σ). Smith et al. §8.2 gather "all constraints
// expected to be violated along the course of" the step; with
// ActiveRounds = R > 1 the step takes that to be a fixed point: after a
// solve it predicts the end of the step with v⁺, x + h v⁺ + ½h²g (which is
// where line 8 puts the centres), and the active set becomes every contact
// that touches at this prediction or at any earlier round's, normals at x
// as before. If the set grew, the law is solved again on the larger set
// from the step's v (restored bit for bit), up to R solves; if it did not
// (the sets only grow, so an equal count is the same set), the set is
// closed: no contact outside it touches at the end of the step, and the
// law leaves no contact inside it approaching (up to its tolerance). Gaps
// between spheres then do not close (TestClosedActiveSetColumn: 5 solves
// close a column of 5; TestClosedActiveSetConserves: an elastic chain in
// free space keeps momentum and energy to 10⁻¹²); resting spheres still
// sink into a floor by ½h²|g| a step. At the cap the step goes on with
// the last solve and ImpactStats.Open reports it. The broad phase keeps
// the largest margin of the step's rounds, so that every contact of the
// previous round's set is still a candidate; a candidate stays in the set
// if it touches at this round's prediction or is in that set (listed by
// sphere after each solve: roundSet), so no earlier prediction is tested
// again. Each round is an exact solve of the whole law on the enlarged
// islands; the cost is that of R′ steps, R′ the solves taken.
//
// With ImpactConfig.RoundsContinue a later round starts from the last
// round's v⁺ instead of the step's v: the impulses already applied stay,
// and the contacts they drove together collide after them within the
// step — each round is still the law on the whole enlarged set, so
// momentum is kept and energy does not grow, but the rounds are a
// sequence of impacts rather than one simultaneous impact. A gapped
// elastic chain struck at one end then gives the event-driven answer
// (each sphere stops and passes its velocity on;
// TestClosedActiveSetContinue), one round per contact. A round from v⁺
// converges in a few reflections on contacts that are mostly separating
// already, so at h = 10⁻³ on the 60k layer a landing step costs seconds,
// not minutes.
//
// # Periodic sides (periodic.go)
//
// System.Periodic makes x and y periodic: nearest-image contacts, a broad
// phase whose cells tile the period and whose stencil wraps, centres kept
// inside the cell. A pair colliding across a side, or across the corner,
// gives the unwrapped space's result to 1e-13, momentum to 1e-16
// (TestPeriodicPairMatchesUnwrapped), for both steps.
//
// # A step (Step; Preclik et al. sec. 3.1)
//
//  1. Kick: v̂ = v + h g (a sphere's gyroscopic term ω × Iω is zero).
//  2. Contacts at the current positions x: sphere pairs and sphere–wall
//     pairs whose gap ξ is below the distance the step can close,
//     h·(2 max|v̂| + max|V_wall|) (penetrating pairs always). Each gets the
//     unit normal n from j (or the wall) to i, tangents t, o, and the known
//     relative velocity rel = (ξ̂/h − n·V_wall, −t·V_wall, −o·V_wall),
//     ξ̂/h = sim.GapVelocity(ξ, h, ε) (error reduction ε ∈ [0, 1)).
//  3. Sweeps: every contact solves its block with the single-contact law
//     (singlecontact.Isotropic for maximum dissipation, or the Coulomb-like
//     model) given the others' impulses; see friction.NBGS for the
//     residual, the cap and the domains. The sphere blocks are below.
//  4. Drift: x′ = x + h v′, ϕ′ = (ϕ + ½h(0, ω′) ⊗ ϕ)/‖·‖; planes move by
//     h·V.
//
// For spheres the block, the relative velocity and the effect of an
// impulse change Δ, P = Δ_n n + Δ_t t + Δ_o o, are
//
//	A_nn = 1/m_i + 1/m_j,   A_tt = A_oo = A_nn + r_i²/I_i + r_j²/I_j,
//	δv = v_i − v_j − (r_i ω_i + r_j ω_j) × n,   u = (n·δv, t·δv, o·δv) + rel,
//	v_i += P/m_i,  v_j −= P/m_j,  ω_{i,j} −= (r/I)_{i,j} (Δ_t o − Δ_o t).
//
// Walls: planes (free half-space N·(x − P) ≥ 0, moving with velocity V,
// infinite mass), static solid axis-aligned boxes and static solid
// cylinders (infinite along their axis). A sphere touches a wall where the
// centre's signed distance d to it is below its radius: ξ = d − r, normal
// along the distance's gradient.
//
// # Broad phase and order
//
// A uniform grid of cell size 2 max r + margin over the spheres' bounding
// box (at most 4N + 64 cells); spheres are counting-sorted by cell, pairs
// come from each cell and its 13 forward neighbours (a half stencil), in
// cell order, then wall contacts in sphere order. Every SortEvery steps the
// arrays themselves are reordered by cell, so that spheres near in space
// are near in memory and index; the sweeps' domains are index ranges and
// hence slabs of space along x, like the paper's subdomains. The chunks of
// the parallel loops are concatenated in order, the domains' exchange is
// summed in domain order: the state after any number of steps is bitwise
// the same for every number of workers (TestDeterministicAcrossWorkers),
// and depends on Law.Domains. A steady step allocates nothing
// (TestStepAllocs).
//
// # Position correction
//
// With Config.Correction the centres are projected after the drift
// (sim.Correction, sim.Corrector): the step's contacts, which include
// every pair whose gap the step could close (the speculative margin), are
// the constraints of min ½ΔxᵀMΔx s.t. ξᵢ(x) + ∇ξᵢ(x)ᵀΔx ≥ −tol/2, with
// gaps and normals at the drifted centres (correction.go); orientations
// and velocities are untouched, and StepStats.Correction records it. It
// replaces the error reduction ε as the remedy for penetration without
// adding velocity (ε may stay 0).
//
// With ImpactConfig.Correction the same projection is the last stage of
// StepImpact (Alg. 4), after the free flight and the walls' motion. Its
// constraints are the active set (found at the free-flight prediction,
// normals at the step's start), relinearized at the new centres, plus
// the contacts the prediction missed: Alg. 4 moves every sphere by
// h v⁺, so a resting sphere sinks by ½h²|g| per step, and a sphere whose
// path the impulses bent can end inside one the prediction never met
// (two spheres falling together do not touch at the prediction; the
// lower one stopped by the floor is then overlapped by the upper). With
// Correction.Search > 0 the system is a sim.MissedContactFinder: around
// every sphere that ended more than Search from its prediction it looks
// on a grid of the end positions (cells ≥ 2 r_max, the stencil wrapped
// across periodic sides, spheres scanned in index order, so the result
// does not depend on the workers) for spheres and walls overlapping it by
// more than Tol that are not contacts of the step; a missed contact
// between spheres that both moved less than Search overlaps by less than
// 2 Search + Tol and is in the next step's active set. Gaps and normals
// across a periodic side are the nearest image's, so a pair across the
// side is corrected as in the unwrapped space
// (TestImpactCorrectionPeriodicPair), and both steps accept periodic
// sides with the correction. Velocities and orientations are untouched,
// bit for bit (TestImpactCorrectionRestingLayer checks every step of every
// operator against the same step without it), so every impact
// desideratum of the operator is kept; ImpactStats.Correction records the
// passes, the missed contacts, the overlap before and after and the
// potential energy it changed.
//
// # Canonical order and the stages of a step (canonical.go, decompose.go)
//
// With ImpactConfig.Canonical the step's contacts are put in the order of
// the spheres' IDs: every pair oriented from the lower ID (the swap
// negates the normal, exactly) and ordered by (ID_i, ID_j), then the wall
// contacts by (wall, ID), tangents and blocks recomputed from the
// oriented pair. Islands, their contacts and their spheres then come in
// an order that depends on the spheres alone, not on the arrays' order or
// the grid, and so do the results, bit for bit
// (TestCanonicalOrderIndependentOfArrays; without it the same spheres
// stored in reverse order differ by 1.2e-14 after 100 steps). Package
// domain runs the stages of StepImpact and Step one at a time on each
// process's spheres and their neighbours' copies — DetectImpact,
// SolveImpact, FreeFlight; Kick, DetectNBGS with the whole system's margin
// (SetMargin), Sweep over the contacts a process answers for, Drift — and
// moves contacts between processes as ContactData (SetContacts,
// KeepContacts); a decomposed Alg. 4 equals StepImpact with the canonical
// order bitwise.
//
// # Adding and removing spheres, moving walls
//
// Add appends a sphere (identity orientation, a fresh ID), AddID one with
// a given ID and Put one as it is (a part of a larger system keeps the
// whole system's IDs: package domain's NewSpheresPart); Remove drops
// the spheres a predicate selects and keeps the others' order. Both act
// between steps. A plane with V ≠ 0 moves kinematically; callers may also
// reset its position P between steps (the channel's inflow plane does).
// These are the only mutations; everything else is derived per step.
// ReadStatePart reads a state file keeping the spheres whose centres a
// predicate accepts, in one pass, storing only those (and their indices
// while the arrays stream by).
package spheres

// Package friction holds impulsive friction laws that act on a
// mech.Problem.
//
// MaxDissipation is Alg. 3 of Smith et al. 2012 (§6, eqs. 4–5): given the
// normal impulses λ of an impact operator, one friction direction per
// contact opposes the pre-impact tangential velocity and the magnitudes
// solve the bound-constrained QP
//
//	β = argmin_z ½ ‖p + Gλ + Dz‖²_{M⁻¹},   0 ≤ z ≤ diag(μ) λ.
//
// With a pool (SetPool) and at least 4096 sliding contacts, its slip
// decisions and directions (by contact ranges), the QP's products A z
// and MPRGP's vector loops (qp.Sparse.SetPool: fixed blocks of variables,
// partial sums added in block order) run on the pool; every entry and
// every sum is computed in an order that does not depend on the split, so
// β is bitwise the same for any number of workers
// (TestMaxDissipationPooledIsExact, TestMaxDissipationPooledDirections).
// With MatrixFreeFrom set, the QP's matrix A = DᵀM⁻¹D of that many
// sliding directions or more is matrix-free (maxdiss_free.go):
// A z = Dᵀ(M⁻¹(D z)), D z by ranges of bodies (each row summed in
// direction order) and M⁻¹ applied per body, then one dot product per
// direction, with no entry of A stored; it agrees with the assembled
// matrix to rounding (TestMaxDissipationMatrixFreeAgrees) and trades the
// assembled matrix's memory for more CPU time. When the friction basis is
// a SphereBasis (the fast sphere path's scaled sphere contacts, scalar
// blocks of M⁻¹: maxdiss_sphere.go), the slip pass reads each contact's t,
// o and moment scales directly (the generic pass's bits), and by default
// A is assembled from the directions' compact form without storing their
// entries: a sliding direction is (s, −κ_i q | −s, −κ_j q) with s = a t +
// c o, q = a o − c t, and A_ac = Σ_b σ_b (±s_a·s_c + κ_b² q_a·q_c) over the
// spheres b the two share, row a merged from its two spheres' lists of
// directions (sphereDelassus: rows with int32 columns, no assembly
// workspace); it agrees with the generic assembly to rounding and is
// bitwise the same on any pool (TestMaxDissipationSphereFree,
// TestMaxDissipationSphereFreePooled); once A is assembled, the
// directions' compact form and the contacts' ‖w‖ are lent to the QP
// solver as MPRGP's vectors (qp.Sparse.Lend: the same bits, about 8 of its
// 13 vectors not held twice). A caller may also lend it an arena of
// storage it does not read meanwhile (LendArena, scratch.Arena: the fast
// sphere path's broad-phase and island-split arrays), from which the
// call takes its per-call arrays as far as the arena holds them (the same
// bits; TestMaxDissipationSphereFreePooled). It also reads a
// friction basis given matrix-free (mech.Problem.DBasis: the columns
// computed by the system when read, none stored), with the stored basis's
// bits (TestMaxDissipationMatrixFreeBasis); Coulomb, NBGS and the boxed LCP
// read D's storage and refuse such a problem. Staggered after an impact
// operator that keeps its post-impact velocity (impact.VelocityKeeper:
// GR's final ṽ = v⁻ + M⁻¹Gλ), ResolveAfter takes v′ from it instead of
// computing it again; given ApplyImpulses' bits, β is Resolve's bit for
// bit (TestMaxDissipationResolveAfterIsExact, TestGRVelocityIsApplyImpulses).
//
// Coulomb couples normal and friction impulses (Newton restitution plus
// Coulomb's law) and solves them by projected block Gauss–Seidel with exact
// per-contact solves; it stands in for SCISim's sobogus_friction_solver in
// 2D and 3D. Each contact takes its friction set from the tangent columns
// DContact gives it: with one column (2D) the interval |β_k| ≤ μ_k λ_k,
// solved by enumerating take-off, stick and the two slip directions; with
// two orthonormal columns (3D) the disk ‖β_k‖ ≤ μ_k λ_k, solved by
// take-off, stick or slip along the direction opposing the tangential
// velocity; with none, frictionless. All contacts share one sweep and one
// convergence test on contact relative velocities.
//
// NBGS is the non-linear block Gauss–Seidel law of Preclik et al. (sec.
// 3.1, eq. 5): normal and friction impulses of three-dimensional contacts
// together, each contact's 3×3 block solved analytically by the single-
// contact laws of package singlecontact (maximum-dissipation impact, or the
// Coulomb-like model), with the known relative velocities NRel/DRel (the
// gap term of the impulse-velocity time stepping, moving walls), a user-set
// tolerance and sweep cap, and the blend with weighted block Jacobi over
// index-range domains that runs in parallel (see NBGS).
//
// Every law acts on relative velocities: normal ∇gᵢᵀv + NRel[i] and
// tangential Dₖᵀv + DRel[k] (mech.Problem's known terms of moving walls,
// Lees–Edwards images and the impulse-velocity gap term). Alg. 3 takes its
// sliding direction from the relative tangential velocity and minimizes
// the kinetic energy of the relative motion, ½zᵀAz + zᵀ(dᵀv′ + d_rel);
// BoxedLCP's targets, sweeps and friction conditions read the relative
// velocities; a ball on a conveyor belt is carried to the belt's speed or
// slides against it with μ(1 + c) (TestConveyorBelt), and a whole scene
// moving at constant velocity gets the same impulses (TestFrictionGalilean).
// Without NRel/DRel every law computes exactly as before.
//
// BoxedLCP (eqs. 20–21 of Zhang et al.) wraps any normal impact operator:
// normal impulses with the operator's restitution targets and friction
// impulses in a friction pyramid, by projected Gauss–Seidel on the coupled
// problem (21) until both converge: contact by contact, each normal
// impulse and then its friction columns (the paper alternates whole
// sweeps of the two problems; the fixed points are the same, BoxedLCP's
// doc compares the two orders). Problems of 4096 contacts or more are
// swept in groups of contacts that share no body — the interiors of
// blocks of consecutive contacts, then the blocks' borders colour by
// colour — each group split over a pool's workers with bitwise the same
// result for any number of workers. Problems shaped as package spheres'
// islands (scalar M⁻¹ blocks, columns (x, aᵢ | −x, aⱼ), each contact's
// three M⁻¹-orthogonal) are swept from a compact copy of the columns,
// a contact's three products formed together (boxedlcp_compact.go). It
// changes λ as well as β, so
// it is a sim.ContactLaw (Name, Solve), used in place of sim.Staggered.
//
// TangentialRestitution (tangential_restitution.go) post-processes a
// friction solution with Walton's tangential restitution β₀ (Bizon et
// al.'s vibrated layer): each contact's impulse scaled by 1 + β₀ and
// clipped to μλ, so that a sticking contact's tangential velocity is
// reversed by β₀ instead of stopped (exact for one contact).
package friction

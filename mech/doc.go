// Package mech holds the instantaneous impact problem that every impact and
// friction model in impactsim operates on, and nothing that is specific to a
// system (balls, rigid bodies, frameworks).
//
// # The problem
//
// At an instant, bodies with generalized velocity v⁻ ∈ ℝⁿ and block-diagonal
// inverse mass M⁻¹ touch at m contacts. Contact i has constraint gradient
// ∇gᵢ (column i of the sparse matrix G ∈ ℝⁿˣᵐ), coefficient of restitution
// cᵢ and friction coefficient μᵢ. An impact model returns impulses λ ≥ 0 so
// that
//
//	v⁺ = v⁻ + M⁻¹ G λ                                  (Smith et al. 2012, §3.1)
//
// and a friction model adds β ≥ 0 along the friction basis D:
//
//	v⁺ = v⁻ + M⁻¹ G λ + M⁻¹ D β                         (Smith et al. 2012, eq. 4)
//
// The normal relative velocity at contact i is ∇gᵢᵀ v (eq. 1); a contact
// approaches when it is negative. The Delassus operator A = Gᵀ M⁻¹ G maps
// impulses to changes of normal relative velocity.
//
// # Affine terms of the relative velocities (NRel, DRel)
//
// In general a contact's relative velocities are affine in v:
//
//	uᵢ = ∇gᵢᵀ v + NRel[i]   (normal),   Dₖᵀ v + DRel[k]   (friction column k),
//
// and a law that reads these terms imposes its conditions (non-penetration
// uᵢ⁺ ≥ 0, restitution, friction opposing the slip) on the whole relative
// velocities. Three sources set them:
//
//   - moving geometry whose velocity is not a degree of freedom: the
//     sheared periodic image of a body behind a Lees–Edwards portal (NRel
//     and DRel), a wall or obstacle moving with known velocity w (issue 15:
//     NRel[i] = −nᵢ·w for a body touching it with normal nᵢ pointing from
//     the wall to the body, DRel likewise along the tangents);
//   - position-level time stepping (Preclik et al. sec. 3.1, sim's
//     impulse-velocity scheme): the discrete non-penetration condition
//     ξᵢ/δt + ∇gᵢᵀv′ ≥ 0 ⊥ λᵢ ≥ 0 with the gap ξᵢ at the start of the step,
//     error-reduced: NRel[i] = ε·min(0, ξᵢ/δt) + max(0, ξᵢ/δt), ε ∈ [0, 1).
//
// Empty slices mean zero terms (static geometry, the collision integrator
// of Smith et al.), so such problems are unchanged bit for bit. Every law
// reads them: the impact operators (LCP, GR, GRR, QCE, QCE-LCP,
// Gauss–Seidel, Jacobi) impose non-penetration and restitution on uᵢ, the
// friction laws (Alg. 3, boxed LCP, Coulomb, NBGS) their conditions on the
// relative tangential velocities (RelNormalVelocities,
// RelTangentVelocities, NRelAt, DRelAt). Restitution acts on the relative
// velocity: a ball meeting a wall moving at w leaves with
// n·(v⁺ − w) = −c n·(v⁻ − w).
//
// A system whose known velocities follow from its contact records may
// give them as a KnownRel in Problem.Known instead of storing NRel and
// DRel (package spheres: the wall's velocity along a contact's normal and
// tangents, 24 bytes per contact less). The accessors above (and AddNRel,
// HasNRel, HasDRel, RelWork, HasRel) read it with the stored values' bits;
// the operators that read only through them say so (MatrixFreeRel: GR,
// LCP, friction.MaxDissipation), and the laws that read or write the
// storage (QCE, Coulomb, NBGS, the stepper's kick and gap terms) refuse
// such a problem (NeedStoredRel) instead of seeing zeros.
//
// # A friction basis given matrix-free (Basis)
//
// A system whose tangent columns follow from compact per-contact records
// may hand them over as a Basis in Problem.DBasis instead of storing D
// (package spheres: 24 bytes per contact instead of ≈ 320). Its columns
// are exactly those a stored D would hold, so the laws that read it
// (friction.MaxDissipation through NTangents, TangentContact and
// TangentCol; ApplyImpulses) compute the same bits; the laws that read D's
// storage refuse such a problem (NeedStoredD). Without DBasis nothing
// changes: the stored columns are the default for every system.
//
// # Constraint gradients given matrix-free (Normals)
//
// Operators read G through Problem.Normals, which returns the stored
// columns (*Cols) or, when a system sets Problem.GNormals, a Normals that
// computes each column from compact per-contact records (package spheres:
// a contact's normal on its two spheres, no bytes of its own). Every
// Normals method has the arithmetic of the Cols method of the same name,
// so the operators compute the same bits either way. With GNormals set,
// G itself is empty and has no column pointers: a direct read of a column
// panics rather than seeing no contact; the operators that read G's
// storage (QCE, QCE-LCP, the position projection, pairwise, the boxed
// LCP, Coulomb, NBGS) refuse such a problem (NeedStoredG); and a system
// gives G matrix-free only to a law whose every operator says it reads G
// through Normals (MatrixFreeG: GR, LCP, friction.MaxDissipation).
//
// # Energy with moving geometry
//
// With v̄ = (v⁻ + v⁺)/2 the impulses change the kinetic energy by
//
//	ΔT = (Gλ + Dβ)ᵀ v̄ = Σᵢ λᵢ ūᵢ + Σₖ βₖ w̄ₖ − Σᵢ λᵢ NRel[i] − Σₖ βₖ DRel[k],
//
// ūᵢ and w̄ₖ the mean relative normal and tangential velocities. The last
// two sums are the work of the moving geometry (RelWork: the impulse λn
// on a body touching a wall of velocity w works λn·w = −λ NRel); the
// first two are minus the energy dissipated in the contacts, zero for GR
// at c = 1 (each reflection has λᵢ ūᵢ = 0). sim.Stepper reports the work
// of the geometry the system moves (StepStats.WallWork).
//
// # Conventions
//
// Each diagonal block of M⁻¹ belongs to one body. Its first Dim entries are
// that body's translational degrees of freedom (Dim = 2 or 3); the remaining
// ones (if any) are rotational. A fixed (infinite-mass) body has a zero M⁻¹
// block and a zero M block: its velocity cannot change and it carries no
// kinetic energy or momentum of its own.
//
// Problems are plain data; every method is read-only unless its name says
// otherwise. Methods that take an output slice write into it and do not
// allocate.
package mech

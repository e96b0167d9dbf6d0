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
// Where a contact touches moving geometry whose velocity is not a degree of
// freedom (the sheared periodic image of a body behind a Lees–Edwards
// portal), its relative velocities carry a known term: ∇gᵢᵀ v + NRel[i]
// normally and Dₖᵀ v + DRel[k] along friction column k, restitution acting
// on the whole relative velocity. Laws that do not read these terms refuse
// problems that have them (Problem.HasRel).
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

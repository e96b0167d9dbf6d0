// Package ball2d is the system of frictional 2D balls of Smith et al. 2012
// (§9, "2D Billiard Balls"), built to reproduce SCISim's ball2d trajectories:
// it knows the balls' state, their free flight and how geometry turns into
// contact constraints, and it fills a mech.Problem. It does not know which
// impact or friction operator will resolve the contacts.
//
// # State
//
// n balls with centres xᵢ ∈ ℝ², flat q = (x₀, y₀, x₁, y₁, …) ∈ ℝ²ⁿ and v = q̇.
// The mass matrix is M = diag(m₀ I₂, m₁ I₂, …); fixed balls have zero blocks
// in M and M⁻¹ (mech's convention for immovable bodies) and never move.
//
// # Constraints (§2)
//
// Every contact is a one-sided constraint gᵢ(q) ≥ 0, admissible iff
// non-negative; its gradient ∇gᵢ(q) is column i of G, and (eq. 1)
// ∇gᵢ(q)ᵀ q̇ ≥ 0 is the velocity condition the impact operators enforce.
//
//	ball–ball   g(q) = |xᵢ − xⱼ| − rᵢ − rⱼ,   ∇_{xᵢ} g = n,  ∇_{xⱼ} g = −n,  n = (xᵢ − xⱼ)/|xᵢ − xⱼ|
//	half-plane  g(q) = n·(xᵢ − p) − rᵢ,        ∇_{xᵢ} g = n             (n the plane's unit normal)
//	drum        g(q) = (R − rᵢ) − |xᵢ − c|,    ∇_{xᵢ} g = −(xᵢ − c)/|xᵢ − c|
//
// All other entries of a column are zero; ball–ball columns have i < j. The
// friction basis D has one column per contact, the unit tangent
// t = (−n_y, n_x) placed with the same signs as n (eq. 4, with SCISim's fixed
// tangent in place of the velocity-dependent direction; the friction
// operator's β may have either sign). For a teleported pair (planar portals)
// xⱼ is replaced by the image of ball j through the portal.
//
// # Time stepping (§8.2, Alg. 4)
//
// The stepper (package sim) drives Alg. 4 with this package:
//
//	1 (q̃, ṽ) ← FreeFlight(qᵗ, vᵗ, h)
//	2 active set from (qᵗ, q̃)                ┐ BuildProblem(qᵗ, q̃, vᵗ, p):
//	3 G, D evaluated at qᵗ, velocity vᵗ      ┘ gradients at qᵗ
//	4 impulses λ, β from the operators;      v⁺ = vᵗ + M⁻¹(Gλ + Dβ)
//	5 (qᵗ⁺¹, vᵗ⁺¹) ← FreeFlight(qᵗ, v⁺, h);   AfterStep(qᵗ⁺¹, vᵗ⁺¹) (portals)
//
// The active set is SCISim's (Ball2DSim::computeActiveSet): a ball pair is
// active when the straight paths of the two centres from qᵗ to q̃ come within
// rᵢ + rⱼ at some t ∈ [0, 1] (continuous collision detection: the roots of
// the quadratic |Δ₀ + t(Δ₁ − Δ₀)|² = (rᵢ + rⱼ)²), so a fast ball cannot pass
// through another within one step; a ball–plane pair when n·(x̃ − p) ≤ r; a
// ball–drum pair when |x̃ − c| ≥ R − r. With planar portals SCISim detects
// ball pairs discretely at q̃ instead (|x̃ᵢ − x̃ⱼ| ≤ rᵢ + rⱼ, for real balls
// and for images of balls within one radius of a portal plane), and so does
// this package. Candidate pairs come from a uniform-grid broad phase with
// cell size equal to the largest (swept) bounding box, so the cost is linear
// in the number of balls; the result equals the all-pairs test exactly.
// Each box is filed under the cell of its lower corner, so two overlapping
// boxes lie in the same or adjacent cells; each ball is tried against the
// later balls of its cell, the next cell of its row and the three cells
// above (a half stencil, every pair once), with the CCD test in the same
// parallel pass, and the hits are then sorted into (i, j) order.
//
// # Mirror-invariant contact order
//
// Floating-point sums depend on the order of their terms: GR's island
// solve takes its columns, and the stepper's v⁺ = v⁻ + M⁻¹Gλ sums a ball's
// contact terms, in the problem's contact order, and the (i, j) order is
// not invariant under a mirror image of the state, so an exactly
// mirror-symmetric pile loses its symmetry by rounding in the step.
// System.MirrorOrder (impactsim's <mirror_order/>, --mirror-order on; on
// by default for impactsim's built-in scenes with gravity, where the
// position correction is on by default; off for SCISim's files and the
// generated scenes, SCISim's order: package scenario) lists the contacts instead by the key
// (h, d) of contactorder.go, h = up·(xᵢ + xⱼ), d = |s(xᵢ) + s(xⱼ) − 2a|
// (up = −g/|g|, s the coordinate across up, a the middle of the balls'
// extent along s; 2·xᵢ for a wall contact), the (i, j) order breaking
// ties: both are two-term sums, bit for bit the same for a contact and
// its mirror image, so mirror pairs of islands and of balls meet their
// contacts in corresponding orders. An island that spans the axis holds
// mirror pairs of contacts itself, and one QP solve rounds them apart
// whatever the column order; BuildProblem therefore hands the keys to the
// impact operator (mech.Problem.Keys), and GR and LCP give such an island,
// when its problem is bitwise invariant under swapping its pairs, the
// average of its solution and the swapped one. The 10K mirror drop is
// then bitwise symmetric through all 2,000 steps run, with and without the
// position correction (143 steps in the detection's order; 290 with the
// order alone). With unequal masses an axis-spanning contact's Delassus
// diagonal (its two balls' terms, summed in index order) may round
// differently from its image's; such an island keeps its solve's
// rounding.
//
// # Free flight
//
// The only force is gravity, F = M g, and the integrators are SCISim's:
//
//	Verlet (§9):      v½ = v₀ + h/2 M⁻¹F(q₀),  q₁ = q₀ + h v½,  v₁ = v½ + h/2 M⁻¹F(q₁)
//	symplectic Euler: v₁ = v₀ + h M⁻¹F(q₀),    q₁ = q₀ + h v₁
//
// Under a constant force Verlet is exact (q₁ = q₀ + h v₀ + h²/2 g), so it
// conserves the energy ½ vᵀMv − Σ mᵢ g·xᵢ (KineticEnergy + PotentialEnergy)
// and the momentum to rounding; that is what lets elastic GR conserve total
// energy over long runs (§8.1, §9 "Long-term kinetic energy conservation").
//
// # Moving geometry
//
// Planes and drums may move: Plane.V, W and Drum.V, W are the velocity of
// the reference point (P, C) and the angular velocity (geom2d, eq. 3). A
// hook (sim.Hook; a scene's <motion>; a SCISim script) places them where
// they are at the end of each step with their velocity there; fixed balls
// may be kinematic the same way, the hook setting their position and
// velocity in the stepper's q and v (free flight keeps fixed balls where
// they are and zeroes their velocity). A contact with a moving plane or
// drum carries the velocity u of its surface at the contact point (the
// ball's surface point x − r n for a plane, the wall point C − R n for a
// drum) as NRel = −n·u, DRel = −t·u; a fixed ball's velocity enters through
// its entries of G. Without moving geometry NRel and DRel stay empty.
//
// # Position correction (correction.go)
//
// For sim's position correction the system evaluates the gaps of its
// contacts at any positions (Gaps), their gradients there (Relinearize:
// the pair and drum normals at q; one projection pass is exact for pairs
// and planes, whose gaps are convex or linear) and the contacts a step
// missed (FindMissed): the balls farther than the search distance from
// their position at the prediction q̃ (or at their last search) are
// counting-sorted into cells of side 2·r_max over their bounding box, every
// ball near that box is tried against the moved balls of its 3×3 cells,
// and pairs, drum and plane contacts overlapping by more than the
// tolerance that the active set does not hold are appended (in kind,
// object, ball order; serial, so independent of the worker count). Scenes
// with portals are not searched.
//
// # Planar and Lees–Edwards portals
//
// A portal joins two planes A and B whose normals point into the domain
// (SCISim's planar_portal; package geom2d). A point x in front of A at signed
// distance δ = n_A·(x − P_A) and tangential offset s = t_A·(x − P_A) has the
// image p_B − δ n_B − s t_B behind B (and symmetrically through B). AfterStep
// moves every ball whose centre has crossed a portal plane to its image,
// keeping its velocity. Portal planes are not collision planes.
//
// A Lees–Edwards portal (lees_edwards_portal v bounds) slides the images
// along the planes at speed v (offset δ(t) of geom2d, set by StartStep for
// the time at the end of the step, periodic with period 2·bounds): a ball
// crossing plane A gains the velocity −v t_A (through B: −v t_B), and a
// contact with the image of a ball near a sheared plane carries the image's
// extra velocity u (±v t of that plane, ball J's portal first, as SCISim) in
// mech.Problem's known relative velocities: NRel = −n·u, DRel = −t·u.
// Every contact law reads them (impact operators and friction laws act on
// relative velocities; package mech).
package ball2d

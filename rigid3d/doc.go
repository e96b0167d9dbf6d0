// Package rigid3d is a system of 3D rigid bodies (spheres and boxes) with
// static planes and cylinders, for the collision integrator of package sim
// (Smith et al. 2012, Alg. 4) and the impact operators of package impact.
//
// # State (sim.PositionSizer)
//
// q holds 7 numbers per body, the centre of mass x and the unit quaternion
// o = (w, x, y, z) of the body → world rotation R(o); v holds 6, the linear
// velocity u and the world-frame angular velocity ω. NQ() = 7N and
// NDof() = 6N; sim.Stepper sizes its position buffers with NQ().
//
// # Mass (eq. 1)
//
// A body of shape S and density ρ has mass m and body-frame principal
// moments I = (I₁, I₂, I₃) (Shape.MassProperties). Its 6×6 block of the mass
// matrix at orientation R is
//
//	M_b = diag(m, m, m, R diag(I) Rᵀ),   M_b⁻¹ = diag(1/m, 1/m, 1/m, R diag(I)⁻¹ Rᵀ);    (1)
//
// fixed bodies have zero blocks.
//
// # Constraint gradients (eq. 2)
//
// A contact between body I and body J (or static geometry) with unit
// normal n pointing from J to I at world point P has gap velocity
// ∇gᵀv = n·(u_I + ω_I × r_I) − n·(u_J + ω_J × r_J), r_I = P − x_I and
// r_J = P_J − x_J for the contact points P on I and P_J on J, so its
// column of G is
//
//	∇g = (n, r_I × n) on I,   (−n, −r_J × n) on J,                               (2)
//
// and each contact has two friction columns built the same way from unit
// tangents t₁, t₂ with (n, t₁, t₂) orthonormal (D, DContact). P = P_J
// except for spheres: a sphere's point is where its radius reaches along
// the normal (x_I − r n, x_J + r n), the point of touching at the impact
// even when the contact is predicted across a gap at qᵗ, so the friction
// impulse acts with lever arm r. For two spheres this reproduces the
// analytic frictional impact exactly (Newton restitution, Coulomb
// friction, sticking or slipping; TestSphereSphereFrictionalImpact), where
// a point between the centres at qᵗ (half the centre distance, or SCISim's
// split in the ratio of the radii) lengthens the lever arm by the gap.
// friction.MaxDissipation (Alg. 3) combines them into the single direction
// opposing the pre-impact tangential velocity with bound μλ.
//
// # Free flight (eqs. 3–7)
//
// Translation under uniform gravity g is integrated exactly by the kick –
// drift – kick scheme (DMV, split_ham):
//
//	u₁ = u₀ + h g,   x₁ = x₀ + h u₀ + ½ h² g;                                    (3)
//
// symplectic Euler uses u₁ = u₀ + h g, x₁ = x₀ + h u₁ (4). Gravity exerts no
// torque, so rotation is torque-free: the world angular momentum
// L = R diag(I) Rᵀ ω is constant and every integrator keeps it exactly
// (ω₁ = R₁ diag(I)⁻¹ R₁ᵀ L).
//
// DMV (discrete Moser–Veselov, eq. 5): with the body momentum m = R₀ᵀ L,
// the body-frame increment R₁ = R₀ Q, Q the rotation of the quaternion
// (1, c)/√(1+|c|²), solves
//
//	diag(I) c + c × (diag(I) c) = (h/2)(1 + |c|²) m,                           (5)
//
// solved by Newton's method to rounding. The map conserves the kinetic
// energy ½ mᵀ diag(I)⁻¹ m and L exactly; measured over 10⁵ steps of an
// asymmetric top the relative drift of both is ≈ 2e-13 (rounding only).
//
// split_ham (SCISim's SplitHamMap, eq. 6): Strang splitting of the free
// Hamiltonian T = Σ m_k²/2I_k into exact rotations about the body axes,
// Z(h/2) Y(h/2) X(h) Y(h/2) Z(h/2); L exact, energy to O(h²) (bounded).
//
// Symplectic Euler (eq. 7): R₁ = exp(h [ω₀]×) R₀ with L fixed; L exact,
// energy not conserved.
//
// Quaternions are renormalized after every step (|o| − 1 stays at 4e-16).
//
// # Shapes
//
// Spheres, boxes (half widths) and closed triangle meshes (Mesh, from
// ReadOBJ or the generators TrefoilMesh, TorusMesh, BoxMesh,
// HollowBoxMesh). NewMesh rejects degenerate triangles, open or
// inconsistently oriented surfaces and inward-facing meshes; it computes
// volume, centre of mass and inertia by the divergence theorem over the
// tetrahedra (0, a, b, c) (the covariance of a tetrahedron is
// V/20·(Σ pᵢpᵢᵀ + (Σpᵢ)(Σpᵢ)ᵀ)), diagonalizes the inertia tensor, moves the
// vertices to the principal frame, and samples a signed distance field on
// a regular grid: the distance is the minimum point–triangle distance, the
// sign the generalized winding number (sum of the triangles' solid angles
// / 4π). A hollow mesh (HollowBoxMesh: an outer shell and an inward-facing
// cavity) is a container that can itself move.
//
// # Contacts
//
// The active set is found at the free-flight prediction q₁ and the
// gradients are evaluated at qᵗ (Alg. 4): sphere–sphere, sphere–plane,
// sphere–box, sphere, box or mesh inside a static cylinder, box–plane (every corner
// within 1e-9 relative of the plane: a face landing flat gives four
// symmetric corners), box–box (separating-axis test over 15 axes, boxes
// within 1e-9 relative counting as touching, faces preferred unless an
// edge pair penetrates 5% less, as SCISim; a face axis clips the incident
// face against the reference face and keeps the clipped vertices below it;
// when the best face axes of both boxes tie — mirror-image pairs — both
// boxes serve as reference and each vertex found on both surfaces is merged,
// so the contact set does not depend on the pair's order; an edge–edge axis
// gives the midpoint of the closest points of the two edges, every tied
// edge pair one; points and normals are SCISim's, those at q₁, with lever
// arms P − x(qᵗ)), mesh–plane (every vertex within 1e-9 relative of the
// plane), and every pair with a mesh by sampling: the vertices (box
// corners; a sphere's centre with its radius) of each body are tested
// against the other body's signed distance φ (grid for meshes, exact for
// boxes and spheres) at q₁; a sample inside is a contact whose constraint
// g = φ(sample) − radius has its gradient taken at qᵗ: the normal ∇φ at
// the sample's position at qᵗ and the point midway between the sample and
// the other surface there (a sphere's: where its radius reaches). Where the
// field does not reach the sample at qᵗ, the normal and point found at q₁
// are carried back to qᵗ with both bodies' rigid motions and averaged, as
// sphere–box contacts are. (Normals taken at q₁ fail where a sample ends
// the step inside a thin part of the other body — ∇φ points every way
// there, and elastic GR cannot separate contacts pushing the pair from
// opposite sides: meshcontact.go.) Sphere contacts count from
// exact touching on (distance ≤ sum of radii, as SCISim). The
// broad phase tests bounding spheres: all pairs below 32 bodies, a uniform
// grid (cell = largest moving bounding diameter, larger fixed bodies
// tested against all) above.
//
// Boxes and meshes inside a static cylinder touch it with every corner or
// vertex beyond its radius (inward radial normal at qᵗ).
//
// # Restitution per contact (System.Maps)
//
// Every contact has restitution System.CoR unless bodies carry restitution
// maps (Bounce Maps, package bouncemap): body I is hit at its point P with
// outward normal −n, body J at PJ with n, both taken to the body frames at
// qᵗ, and the map gives ε there. Two mapped bodies combine through
// System.Combine (default the arithmetic mean, Wang et al.'s choice); a
// mapped body against static geometry (a plane, a cylinder, a fixed body
// without a map) takes its map's ε alone, the map having been made against
// a rigid plane; against a moving body without a map, Combine(ε, CoR). The
// per-contact values go to mech.Problem.CoR, which lcp, gr and the pairwise
// operators apply per contact and grr by its vector rule (package impact).
//
// # Moving geometry
//
// Planes and cylinders may move (Plane.V, W; Cylinder.V, W: the velocity of
// the reference point P and the angular velocity), and fixed bodies may be
// kinematic: a hook (sim.Hook, a scene's <motion>, a script) places them
// where they are at the end of each step and gives them their velocity
// there, the fixed body's in v (free flight copies a fixed body and zeroes
// its velocity; the hook sets both again). A contact's relative velocity
// then has a part no impulse changes, k = (velocity of a fixed body I at P)
// − (velocity of a fixed body J at PJ) − (velocity of the plane's or
// cylinder's surface at the point under P: V + W × (p − P_geom)), which
// goes into mech.Problem.NRel = n·k and DRel = t·k (both empty when nothing
// moves, so static scenes are unchanged bit for bit). Every contact law
// acts on the relative velocity: a sphere in a spinning cylinder is dragged
// until its contact point moves with the wall, a piston throws a sphere
// with the relative speed reversed and scaled by c, a scene moving at
// constant velocity keeps its relative motion.
//
// # Portals
//
// A Portal joins two planes into a periodic boundary (SCISim's planar
// portal, portal.go): bodies whose centre passes behind one plane are moved
// behind the other (AfterStep), and spheres whose bounding box touches a
// portal plane collide, through the portal, with the spheres near the
// other plane (normal between the teleported centres at qᵗ, radius lever
// arms). As in SCISim, only spheres may share a scene with portals.
package rigid3d

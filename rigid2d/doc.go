// Package rigid2d is the system of 2D rigid bodies of SCISim's rigidbody2d
// (circles and boxes with static half-planes, planar and Lees–Edwards
// portals, kinematic bodies), built on the same core as the other systems:
// it knows the bodies' state, their free flight and how geometry turns into
// contact constraints, and it fills a mech.Problem (Smith et al. 2012, §2,
// eqs. 1 and 4) for whatever impact or friction law the stepper (package
// sim, Alg. 4) is given.
//
// # State
//
// n bodies with centre xᵢ ∈ ℝ², angle θᵢ (counter-clockwise), velocity uᵢ
// and angular velocity ωᵢ: q = (x₀, y₀, θ₀, x₁, …) and v = (u₀, ω₀, …), both
// of length 3n. M = diag(m₀, m₀, I₀, …) with m = ρπr², I = m r²/2 for a
// circle of radius r and m = 4ρab, I = m(a² + b²)/3 for a box of half
// extents a, b. Fixed bodies are kinematic: zero blocks in M and M⁻¹, so no
// impulse changes their velocity, with which they move.
//
// # Constraints
//
// A contact between bodies i and j with unit normal n (pointing from j to
// i) at point p has the gradient (eq. 1)
//
//	∇_{(xᵢ,θᵢ)} g = (n, rᵢ × n),   ∇_{(xⱼ,θⱼ)} g = −(n, rⱼ × n),
//
// rᵢ = p − xᵢ the lever arm (a × b = a_x b_y − a_y b_x), and the friction
// column (eq. 4) the same with the tangent t = (−n_y, n_x) for n: the
// relative velocity of the material points at p along n and t. A plane
// contact has the body's entries only. As SCISim (RigidBody2DSim):
//
//   - circle–circle: continuous detection of the centres' straight paths
//     from qᵗ to the free-flight prediction q̃ (geom2d.CirclesMeet); n and p
//     from qᵗ, p on the centre segment at the ratio of the radii (against a
//     kinematic circle, on the free circle's surface); the arms are
//     parallel to n, so the normal's moments are exactly zero;
//   - box–box: separating axes at q̃ (boxBox), one or two points on the
//     incident face clipped to the reference face, moved half way through
//     the overlap; arms from the centres at qᵗ;
//   - circle–box: at q̃ (circleBox), normal from the box's edge or corner,
//     point half way through the overlap; arms at qᵗ;
//   - circle–plane when n·(x̃ − P) ≤ r, arm −r n; box–plane for every corner
//     of the box at q̃ on or behind the plane, arm the corner at qᵗ.
//
// Candidate pairs come from a sweep over the bodies' bounding boxes (of the
// swept circles, of boxes at q̃); contacts come in SCISim's order: body
// pairs by (i, j), teleported pairs by (i, j), then planes, plane by
// plane.
//
// # Portals
//
// Planar and Lees–Edwards portals (package geom2d) make the domain
// periodic. With portals, detection is at q̃ only: every body whose
// bounding box reaches behind a portal plane gets an image through it;
// pairs with an image give at most one contact per pair of bodies (circles
// only, as SCISim), with n and arms from the images at qᵗ. The image of a
// body behind a Lees–Edwards plane moves with the shear velocity u = ∓v t,
// which the contact carries as a known relative velocity
// (mech.Problem.NRel = −n·u, DRel = −t·u). AfterStep teleports bodies whose
// centre crossed a plane (adding the shear velocity for Lees–Edwards) and
// StartStep sets the portals' offsets for the end of the step.
//
// Planes may move (geom2d.Plane.V, W, set with their position by a
// sim.Hook): a contact with a moving plane carries the plane's velocity u
// at the contact point the same way, NRel = −n·u, DRel = −t·u.
//
// # Free flight
//
// Gravity only (F = m g, no torque), with SCISim's integrators: Verlet,
// v½ = v₀ + (h/2)m⁻¹F, q₁ = q₀ + h v½, v₁ = v½ + (h/2)m⁻¹F; symplectic
// Euler, v₁ = v₀ + h m⁻¹F, q₁ = q₀ + h v₁ (ω and θ̇ alike, with zero
// torque). Kinematic bodies move with their velocity.
package rigid2d

// Package geom2d holds the static geometry shared by the 2D systems (balls
// of package ball2d, rigid bodies of package rigid2d): half-planes and the
// periodic boundaries SCISim calls planar portals, including their
// Lees–Edwards (sheared) variant.
//
// # Planes
//
// A Plane is the line through P with unit normal N; its tangent is
// T = (−N_y, N_x), so that [N T] is a right-handed frame (SCISim's choice).
// A point x lies behind the plane when N·(x − P) < 0.
//
// # Moving geometry
//
// Planes (and the systems' other static geometry) may be kinematic: moved
// at every step to a prescribed pose (package motion, sim.Hook, SCISim's
// scripted setStaticPlanePosition/Velocity) with a rigid velocity field,
// the velocity V of the reference point P and the angular velocity W
// (counter-clockwise, rad/s):
//
//	v(x) = V + W ẑ × (x − P) = (V_x − W (x − P)_y, V_y + W (x − P)_x).     (3)
//
// A contact between a body and such geometry at point x, with normal n
// pointing from the geometry to the body and tangent t, carries the known
// relative velocities NRel = −n·v(x) and DRel = −t·v(x) (WallRel): the
// contact laws act on the body's velocity relative to the wall's surface.
// The geometry is placed where it is at the end of the step and moves
// with its velocity there, as SCISim's scripts set it.
//
// # Portals
//
// A Portal joins two planes A and B whose normals point into the domain.
// A point x at depth d = N_A·(P_A − x) behind A (d > 0) and tangential
// coordinate s = T_A·(δ T_A + P_A − x) re-enters in front of B at
//
//	x' = P_B + d N_B + s T_B                                       (1)
//
// and symmetrically through B. δ is the portal's current tangential offset.
// For a planar portal δ = 0 and the map is a rigid motion. A Lees–Edwards
// portal (SCISim's lees_edwards_portal planeA planeB v bounds) shears the
// periodic images: the image moves along the planes with speed v,
//
//	δ(t) = v t − 2 k L,   k = ⌊(v t + L)/(2L)⌋,                     (2)
//
// L = bounds, so δ ∈ [−L, L), and s is wrapped into [−L, L) the same way
// (the domain is also periodic along the planes with period 2L). A body
// that crosses plane A of a Lees–Edwards portal keeps its velocity plus the
// kick −v T_A (through B: −v T_B), and a body colliding with the image of a
// body behind A sees that image move with the extra velocity −v T_A: the
// contact's relative velocity carries this known term (mech.Problem.NRel,
// DRel). SCISim evaluates δ at the time at the end of the step being taken
// (Update before the step).
package geom2d

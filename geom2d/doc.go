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

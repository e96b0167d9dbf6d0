package geom2d

import (
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/motion"
)

// Plane is a line through P with unit normal N pointing to its free side.
// V and W are its velocity: V the velocity of P, W the angular velocity
// (eq. 3 of the package documentation); both zero for static planes.
type Plane struct {
	P, N, V [2]float64
	W       float64
}

// Moved returns the plane moved by the state s of a prescribed motion
// (package motion) from its pose pl at the motion's reference: the point
// and normal carried along, with the velocity of P and the angular
// velocity about z.
func (pl Plane) Moved(s *motion.State) Plane {
	p := s.Point(r3.Vec{X: pl.P[0], Y: pl.P[1]})
	n := s.Rotate(r3.Vec{X: pl.N[0], Y: pl.N[1]})
	v := s.VelocityAt(p)
	return Plane{P: [2]float64{p.X, p.Y}, N: [2]float64{n.X, n.Y}, V: [2]float64{v.X, v.Y}, W: s.W.Z}
}

// Moving reports whether the plane has a velocity.
func (pl *Plane) Moving() bool { return pl.V != [2]float64{} || pl.W != 0 }

// VelocityAt returns the velocity of the plane's point x (eq. 3).
func (pl *Plane) VelocityAt(x [2]float64) [2]float64 {
	return PointVelocity(pl.V, pl.W, [2]float64{x[0] - pl.P[0], x[1] - pl.P[1]})
}

// PointVelocity returns v + w ẑ × r, the velocity of the point at offset r
// from a reference point moving with v, of a body turning at w.
func PointVelocity(v [2]float64, w float64, r [2]float64) [2]float64 {
	return [2]float64{v[0] - w*r[1], v[1] + w*r[0]}
}

// WallRel returns the known relative velocities −n·u and −t·u of a contact
// with normal n and tangent t against geometry whose surface moves with u
// there (mech.Problem.NRel and DRel).
func WallRel(n, t, u [2]float64) (nrel, drel float64) {
	return -(n[0]*u[0] + n[1]*u[1]), -(t[0]*u[0] + t[1]*u[1])
}

// T returns the plane's unit tangent (−N_y, N_x).
func (pl Plane) T() [2]float64 { return [2]float64{-pl.N[1], pl.N[0]} }

// Dist returns the signed distance N·(x − P).
func (pl *Plane) Dist(x [2]float64) float64 {
	return pl.N[0]*(x[0]-pl.P[0]) + pl.N[1]*(x[1]-pl.P[1])
}

// Behind reports N·(x − P) < 0 (SCISim's distanceLessThanZero).
func (pl *Plane) Behind(x [2]float64) bool { return pl.Dist(x) < 0 }

package geom2d

import "math"

// Portal is a periodic boundary between planes A and B (see the package
// documentation). V and Bounds are zero for a planar portal; a
// Lees–Edwards portal has V ≠ 0 and Bounds = L > 0. Offset is δ of eq. (2),
// set by Update.
type Portal struct {
	A, B      Plane
	V, Bounds float64
	Offset    float64
}

// LeesEdwards reports whether the portal shears (V ≠ 0).
func (po *Portal) LeesEdwards() bool { return po.V != 0 }

// Update sets the offset δ for time t (eq. 2); a planar portal keeps δ = 0.
func (po *Portal) Update(t float64) {
	if po.Bounds <= 0 {
		po.Offset = 0
		return
	}
	k := math.Floor((po.V*t + po.Bounds) / (2 * po.Bounds))
	po.Offset = po.V*t - 2*k*po.Bounds
}

// Plane returns plane A (b false) or B (b true).
func (po *Portal) Plane(b bool) *Plane {
	if b {
		return &po.B
	}
	return &po.A
}

// Teleport maps x through plane A (throughB false) to the far side of B, or
// through B to A (eq. 1).
func (po *Portal) Teleport(x [2]float64, throughB bool) [2]float64 {
	from, to := &po.A, &po.B
	if throughB {
		from, to = to, from
	}
	t := from.T()
	ox, oy := from.P[0]-x[0], from.P[1]-x[1]
	d := from.N[0]*ox + from.N[1]*oy
	if po.Offset != 0 {
		ox, oy = po.Offset*t[0]+from.P[0]-x[0], po.Offset*t[1]+from.P[1]-x[1]
	}
	s := t[0]*ox + t[1]*oy
	if po.Bounds > 0 {
		k := math.Floor((s + po.Bounds) / (2 * po.Bounds))
		s -= 2 * k * po.Bounds
	}
	tt := to.T()
	return [2]float64{
		to.P[0] + d*to.N[0] + s*tt[0],
		to.P[1] + d*to.N[1] + s*tt[1],
	}
}

// Shear returns the velocity kick −V T of a body crossing plane A
// (throughB false) or B; zero for a planar portal.
func (po *Portal) Shear(throughB bool) [2]float64 {
	if po.V == 0 {
		return [2]float64{}
	}
	t := po.Plane(throughB).T()
	return [2]float64{-po.V * t[0], -po.V * t[1]}
}

// Cross moves a point that lies behind plane A (or B) to its image through
// that plane and returns the shear velocity a body crossing there gains
// (zero for a planar portal); crossed is false, and x returned unchanged,
// when the point is in front of both planes.
func (po *Portal) Cross(x [2]float64) (out, kick [2]float64, crossed bool) {
	var throughB bool
	switch {
	case po.A.Behind(x):
	case po.B.Behind(x):
		throughB = true
	default:
		return x, kick, false
	}
	return po.Teleport(x, throughB), po.Shear(throughB), true
}

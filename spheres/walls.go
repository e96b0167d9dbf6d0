package spheres

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/motion"
)

// Plane is a wall: the half-space N·(x − P) ≥ 0 is free, N a unit normal.
// A plane moves with velocity V (kinematic: System.Step advances P by V·h,
// and its contacts see the velocity; an infinite mass). The channel flow's
// inflow plane is one.
type Plane struct {
	P, N, V [3]float64
}

// Box is a static solid axis-aligned box of centre C and half widths Half;
// spheres stay outside.
type Box struct {
	C, Half [3]float64
}

// Cylinder is a static solid cylinder, infinite along its unit axis A
// through P, of radius R; spheres stay outside.
type Cylinder struct {
	P, A [3]float64
	R    float64
}

// distance returns the signed distance of x to the plane and its normal.
func (p *Plane) distance(x []float64) (float64, [3]float64) {
	return p.N[0]*(x[0]-p.P[0]) + p.N[1]*(x[1]-p.P[1]) + p.N[2]*(x[2]-p.P[2]), p.N
}

// distance returns the signed distance of x to the box's surface (negative
// inside) and the outward normal at the closest surface point.
func (b *Box) distance(x []float64) (float64, [3]float64) {
	var d, c [3]float64
	out := false
	for k := 0; k < 3; k++ {
		d[k] = x[k] - b.C[k]
		c[k] = math.Max(-b.Half[k], math.Min(b.Half[k], d[k]))
		if c[k] != d[k] {
			out = true
		}
	}
	if out {
		e := [3]float64{d[0] - c[0], d[1] - c[1], d[2] - c[2]}
		l := math.Sqrt(e[0]*e[0] + e[1]*e[1] + e[2]*e[2])
		return l, [3]float64{e[0] / l, e[1] / l, e[2] / l}
	}
	// inside: the nearest face
	best, k0 := math.Inf(1), 0
	for k := 0; k < 3; k++ {
		if g := b.Half[k] - math.Abs(d[k]); g < best {
			best, k0 = g, k
		}
	}
	var n [3]float64
	n[k0] = math.Copysign(1, d[k0])
	return -best, n
}

// distance returns the signed distance of x to the cylinder's surface and
// the outward radial normal.
func (c *Cylinder) distance(x []float64) (float64, [3]float64) {
	r := [3]float64{x[0] - c.P[0], x[1] - c.P[1], x[2] - c.P[2]}
	a := r[0]*c.A[0] + r[1]*c.A[1] + r[2]*c.A[2]
	for k := 0; k < 3; k++ {
		r[k] -= a * c.A[k]
	}
	l := math.Sqrt(r[0]*r[0] + r[1]*r[1] + r[2]*r[2])
	if l == 0 {
		return -c.R, perpendicular(c.A)
	}
	return l - c.R, [3]float64{r[0] / l, r[1] / l, r[2] / l}
}

// perpendicular returns a unit vector orthogonal to the unit vector a.
func perpendicular(a [3]float64) [3]float64 {
	t, _ := tangents(a)
	return t
}

// tangents returns unit t, o with (n, t, o) a right-handed orthonormal
// frame (o = n × t); t is built from the coordinate axis least aligned with
// n, as rigid3d does.
func tangents(n [3]float64) ([3]float64, [3]float64) {
	ax, ay, az := math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2])
	var t [3]float64
	switch {
	case ax <= ay && ax <= az: // t = e_x × n
		t = [3]float64{0, -n[2], n[1]}
	case ay <= az: // t = e_y × n
		t = [3]float64{n[2], 0, -n[0]}
	default: // t = e_z × n
		t = [3]float64{-n[1], n[0], 0}
	}
	l := math.Sqrt(t[0]*t[0] + t[1]*t[1] + t[2]*t[2])
	t = [3]float64{t[0] / l, t[1] / l, t[2] / l}
	return t, cross(n, t)
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Follow makes the plane follow the prescribed motion m (package motion)
// over the step from t to t + h, from its pose ref at the motion's
// reference: its point where the motion has it at t, its normal turned
// with it, and its velocity the mean over the step, (x(t + h) − x(t))/h,
// so that Step's advance P += hV lands exactly where the motion has it at
// t + h and the contacts see the displacement the step makes (a vibrating
// floor: call it before every Step).
func (p *Plane) Follow(ref Plane, m motion.Motion, t, h float64) {
	x0 := r3.Vec{X: ref.P[0], Y: ref.P[1], Z: ref.P[2]}
	s0, s1 := m.At(t), m.At(t+h)
	a, b := s0.Point(x0), s1.Point(x0)
	n := s0.Rotate(r3.Vec{X: ref.N[0], Y: ref.N[1], Z: ref.N[2]})
	p.P = [3]float64{a.X, a.Y, a.Z}
	p.N = [3]float64{n.X, n.Y, n.Z}
	p.V = [3]float64{(b.X - a.X) / h, (b.Y - a.Y) / h, (b.Z - a.Z) / h}
}

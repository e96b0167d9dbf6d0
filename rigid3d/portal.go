package rigid3d

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Portal is SCISim's rigidbody3d planar portal: two planes A and B that
// are not walls but the two faces of a periodic boundary. A body whose
// centre passes behind one plane reappears behind the other (AfterStep),
// and spheres near one plane collide with the images of spheres near the
// other. A point x behind A maps to
//
//	B.P + m₀ (n_A·(A.P − x)) n_B + m₁ (t0_A·(A.P − x)) t0_B + m₂ (t1_A·(A.P − x)) t1_B,
//
// and symmetrically from B to A, where (t0, t1) is each plane's tangent
// frame, the images of x̂ and ẑ under the shortest rotation taking ŷ to the
// normal (SCISim's StaticPlane::t0, t1), and m = Mult ∈ {−1, 1}³ (the
// scene's multiplier) fixes the frames' relative orientation. Positions
// are mapped, orientations and velocities are not.
type Portal struct {
	A, B Plane
	Mult [3]float64
}

// planeFrame returns the tangents t0 = Q x̂ and t1 = Q ẑ of a plane with
// unit normal n, Q the shortest rotation taking ŷ to n (a half turn about
// x̂ when n = −ŷ).
func planeFrame(n r3.Vec) (t0, t1 r3.Vec) {
	y := r3.Vec{Y: 1}
	var q Quat
	if c := r3.Dot(y, n); c < -1+1e-15 {
		q = Quat{W: 0, X: 1}
	} else {
		// (1 + c, y × n) normalized is the rotation by the angle between
		// y and n about y × n
		a := r3.Cross(y, n)
		q = Quat{W: 1 + c, X: a.X, Y: a.Y, Z: a.Z}.Normalized()
	}
	return q.Rotate(r3.Vec{X: 1}), q.Rotate(r3.Vec{Z: 1})
}

// teleport maps x through plane A (throughB false) or B.
func (p *Portal) teleport(x r3.Vec, throughB bool) r3.Vec {
	from, to := &p.A, &p.B
	if throughB {
		from, to = &p.B, &p.A
	}
	f0, f1 := planeFrame(from.N)
	g0, g1 := planeFrame(to.N)
	d := r3.Sub(from.P, x)
	a := p.Mult[0] * r3.Dot(from.N, d)
	b := p.Mult[1] * r3.Dot(f0, d)
	c := p.Mult[2] * r3.Dot(f1, d)
	return r3.Add(to.P, r3.Add(r3.Scale(a, to.N), r3.Add(r3.Scale(b, g0), r3.Scale(c, g1))))
}

// behind reports n·(x − P) < 0.
func (pl *Plane) behind(x r3.Vec) bool { return r3.Dot(pl.N, r3.Sub(x, pl.P)) < 0 }

// ballTouches reports whether the axis-aligned box of a ball (centre x,
// radius r) has a corner on or behind the plane (SCISim's AABB test).
func (pl *Plane) ballTouches(x r3.Vec, r float64) bool {
	// the box corner furthest behind the plane
	c := r3.Vec{X: x.X - math.Copysign(r, pl.N.X), Y: x.Y - math.Copysign(r, pl.N.Y), Z: x.Z - math.Copysign(r, pl.N.Z)}
	return r3.Dot(pl.N, r3.Sub(c, pl.P)) <= 0
}

// ValidatePortals checks that every body is a sphere when the system has
// portals: SCISim collides only spheres through portals (and exits for
// other shapes), and so does impactsim.
func (s *System) validatePortals() error {
	if len(s.Portals) == 0 {
		return nil
	}
	for i, sh := range s.Shapes {
		if sh.Kind != Sphere {
			return fmt.Errorf("body %d: a %v in a scene with planar portals; only spheres collide through portals (as in SCISim)", i, sh.Kind)
		}
	}
	for k := range s.Portals {
		for _, m := range s.Portals[k].Mult {
			if m != 1 && m != -1 {
				return fmt.Errorf("portal %d: multiplier %v, want each of ±1", k, s.Portals[k].Mult)
			}
		}
	}
	return nil
}

// applyPortals teleports every body whose centre lies behind a portal
// plane to the other side (SCISim's enforcePeriodicBoundaryConditions).
func (s *System) applyPortals(q []float64) {
	for k := range s.Portals {
		p := &s.Portals[k]
		for i := range s.Mass {
			x, o := Pose(q, i)
			switch {
			case p.A.behind(x):
				setPose(q, i, p.teleport(x, false), o)
			case p.B.behind(x):
				setPose(q, i, p.teleport(x, true), o)
			}
		}
	}
}

// portalImage is a sphere seen through a portal: body, portal and plane.
type portalImage struct {
	body, portal int
	throughB     bool
}

// portalContacts adds the sphere–sphere contacts through the portals, as
// SCISim: every sphere whose box touches a portal plane at q1 has an image
// across the portal; an image colliding at q1 with another sphere, or with
// another sphere's image when the two do not already collide directly,
// gives a contact at q0 between the two bodies with the normal between
// the (teleported) centres at q0 and each sphere's radius as its lever arm.
// Pairs of fixed spheres are skipped.
func (d *detector) portalContacts(s *System, q0, q1 []float64) {
	if len(s.Portals) == 0 {
		return
	}
	d.images = d.images[:0]
	for k := range s.Portals {
		p := &s.Portals[k]
		for i := range s.Mass {
			x, _ := Pose(q1, i)
			r := s.Shapes[i].R
			switch {
			case p.A.ballTouches(x, r):
				d.images = append(d.images, portalImage{i, k, false})
			case p.B.ballTouches(x, r):
				d.images = append(d.images, portalImage{i, k, true})
			}
		}
	}
	centre := func(q []float64, im portalImage) r3.Vec {
		x, _ := Pose(q, im.body)
		if im.portal < 0 {
			return x
		}
		return s.Portals[im.portal].teleport(x, im.throughB)
	}
	collide := func(q []float64, a, b portalImage) bool {
		d := r3.Sub(centre(q, a), centre(q, b))
		rr := s.Shapes[a.body].R + s.Shapes[b.body].R
		return r3.Dot(d, d) <= rr*rr
	}
	add := func(a, b portalImage) {
		if a.body > b.body {
			a, b = b, a
		}
		i, j := a.body, b.body
		if s.Fixed[i] && s.Fixed[j] {
			return
		}
		if !collide(q1, a, b) {
			return
		}
		n := r3.Unit(r3.Sub(centre(q0, a), centre(q0, b)))
		xi, _ := Pose(q0, i)
		xj, _ := Pose(q0, j)
		d.addSplit(Contact{Kind: SphereSphere, I: i, J: j, Other: -1, N: n,
			P: r3.Sub(xi, r3.Scale(s.Shapes[i].R, n)), PJ: r3.Add(xj, r3.Scale(s.Shapes[j].R, n))})
	}
	for ia, a := range d.images {
		for j := range s.Mass {
			if j != a.body {
				add(a, portalImage{j, -1, false})
			}
		}
		for _, b := range d.images[ia+1:] {
			if b.body == a.body {
				continue
			}
			// both images collide where the bodies themselves do
			if collide(q1, portalImage{a.body, -1, false}, portalImage{b.body, -1, false}) {
				continue
			}
			add(a, b)
		}
	}
}

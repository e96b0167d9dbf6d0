package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/mech"
)

// TestPortalMap: the plane frames are SCISim's (t0, t1 = Q x̂, Q ẑ with Q
// the shortest rotation from ŷ to n), the portal of SCISim's
// kinematic_object_test (planes x = ∓4 facing inwards, multiplier 1 1 −1)
// is the periodic shift by 8 along x both ways, and a sphere straddling
// plane A collides with a sphere near plane B through the portal, with
// the normal between the teleported centres and radius lever arms.
func TestPortalMap(t *testing.T) {
	near := func(a, b r3.Vec) bool { return r3.Norm(r3.Sub(a, b)) <= 1e-15 }
	for _, c := range []struct{ n, t0, t1 r3.Vec }{
		{r3.Vec{Y: 1}, r3.Vec{X: 1}, r3.Vec{Z: 1}},
		{r3.Vec{X: 1}, r3.Vec{Y: -1}, r3.Vec{Z: 1}},
		{r3.Vec{X: -1}, r3.Vec{Y: 1}, r3.Vec{Z: 1}},
		{r3.Vec{Y: -1}, r3.Vec{X: 1}, r3.Vec{Z: -1}},
	} {
		t0, t1 := planeFrame(c.n)
		if !near(t0, c.t0) || !near(t1, c.t1) {
			t.Errorf("n = %v: t0 = %v, t1 = %v, want %v, %v", c.n, t0, t1, c.t0, c.t1)
		}
	}
	p := Portal{A: NewPlane(r3.Vec{X: -4}, r3.Vec{X: 1}), B: NewPlane(r3.Vec{X: 4}, r3.Vec{X: -1}), Mult: [3]float64{1, 1, -1}}
	x := r3.Vec{X: -4.5, Y: 0.3, Z: -0.7}
	if got, want := p.teleport(x, false), r3.Add(x, r3.Vec{X: 8}); !near(got, want) {
		t.Errorf("through A: %v, want %v", got, want)
	}
	y := r3.Vec{X: 4.25, Y: -2, Z: 1}
	if got, want := p.teleport(y, true), r3.Sub(y, r3.Vec{X: 8}); !near(got, want) {
		t.Errorf("through B: %v, want %v", got, want)
	}

	s := &System{CoR: 1, Portals: []Portal{p}}
	s.AddBody(Shape{Kind: Sphere, R: 0.5}, 1, r3.Vec{X: -3.6, Y: 0.1}, Identity, r3.Vec{X: -1}, r3.Vec{}, false)
	s.AddBody(Shape{Kind: Sphere, R: 0.5}, 1, r3.Vec{X: 3.5}, Identity, r3.Vec{X: 1}, r3.Vec{}, false)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	var pr mech.Problem
	s.BuildProblem(s.Q, s.Q, s.V, &pr)
	cs := s.Contacts()
	if len(cs) == 0 {
		t.Fatal("no contact through the portal")
	}
	// image of body 0 at (4.4, 0.1, 0): normal from body 1 towards it
	want := r3.Unit(r3.Vec{X: 0.9, Y: 0.1})
	for _, c := range cs {
		if c.I != 0 || c.J != 1 || !near(c.N, want) {
			t.Errorf("contact %+v, want bodies 0, 1 and normal %v", c, want)
		}
		x0, _ := Pose(s.Q, 0)
		x1, _ := Pose(s.Q, 1)
		if math.Abs(r3.Norm(r3.Sub(c.P, x0))-0.5) > 1e-15 || math.Abs(r3.Norm(r3.Sub(c.PJ, x1))-0.5) > 1e-15 {
			t.Errorf("lever arms %v, %v, want radii", r3.Sub(c.P, x0), r3.Sub(c.PJ, x1))
		}
	}
	// AfterStep teleports a centre that passed plane A
	q := append([]float64(nil), s.Q...)
	setPose(q, 0, r3.Vec{X: -4.1}, Identity)
	s.AfterStep(q, s.V)
	if x, _ := Pose(q, 0); !near(x, r3.Vec{X: 3.9}) {
		t.Errorf("after the step the centre is at %v, want (3.9, 0, 0)", x)
	}
	bad := &System{CoR: 1, Portals: []Portal{p}}
	bad.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 1, Y: 1, Z: 1}}, 1, r3.Vec{}, Identity, r3.Vec{}, r3.Vec{}, false)
	if err := bad.Validate(); err == nil {
		t.Error("a box with portals validated")
	}
}

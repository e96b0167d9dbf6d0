package rigid3d

import (
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/mech"
)

func near3(a, b r3.Vec, tol float64) bool { return r3.Norm(r3.Sub(a, b)) <= tol }

// build runs BuildProblem with q1 = q0 (a static configuration).
func build(s *System) *mech.Problem {
	var p mech.Problem
	s.BuildProblem(s.Q, s.Q, s.V, &p)
	return &p
}

// TestBoxOnBoxFace: a box resting flat on a larger fixed box, overlapping
// by 1e-6, gives the four corners of the overlap rectangle with normal +y.
func TestBoxOnBoxFace(t *testing.T) {
	s := &System{CoR: 1}
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 2, Y: 0.5, Z: 2}}, 1, r3.Vec{}, Identity, r3.Vec{}, r3.Vec{}, true)
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5, Y: 0.25, Z: 0.3}}, 1, r3.Vec{X: 1.8, Y: 0.75 - 1e-6, Z: 0.1}, Identity, r3.Vec{}, r3.Vec{}, false)
	p := build(s)
	cs := s.Contacts()
	if len(cs) != 4 || p.NContacts() != 4 || p.D.NCols() != 8 {
		t.Fatalf("%d contacts, want 4: %+v", len(cs), cs)
	}
	// overlap rectangle x ∈ [1.3, 2], z ∈ [−0.2, 0.4] at y = 0.5
	want := map[[2]float64]bool{{1.3, -0.2}: true, {1.3, 0.4}: true, {2, -0.2}: true, {2, 0.4}: true}
	for _, c := range cs {
		if !near3(c.N, r3.Vec{Y: -1}, 1e-12) && !near3(c.N, r3.Vec{Y: 1}, 1e-12) {
			t.Errorf("normal %v", c.N)
		}
		// n points from J to I: I = 0 (the big box, below), so n = −y
		if c.I != 0 || c.J != 1 || !near3(c.N, r3.Vec{Y: -1}, 1e-12) {
			t.Errorf("pair (%d, %d) normal %v; want (0, 1) and −y", c.I, c.J, c.N)
		}
		if math.Abs(c.P.Y-0.5) > 1e-6 {
			t.Errorf("contact height %v", c.P.Y)
		}
		k := [2]float64{math.Round(c.P.X*1e6) / 1e6, math.Round(c.P.Z*1e6) / 1e6}
		if !want[k] {
			t.Errorf("unexpected contact point %v", c.P)
		}
		delete(want, k)
	}
	if p.Bodies[0] != -1 || p.Bodies[1] != 1 {
		t.Errorf("Bodies = %v, want the fixed box as −1", p.Bodies[:2])
	}
}

// pointVel returns u + ω × (P − x) for body i.
func pointVel(s *System, q, v []float64, i int, P r3.Vec) r3.Vec {
	x, _ := Pose(q, i)
	u, w := Vel(v, i)
	return r3.Add(u, r3.Cross(w, r3.Sub(P, x)))
}

// TestJacobianColumns: for random velocities, every column of G and D
// dotted with v equals the relative velocity of the contact points (P on
// body I, PJ on body J) along its direction, and the tangents are
// orthonormal to the normal.
func TestJacobianColumns(t *testing.T) {
	s := &System{CoR: 1, Mu: 0.5}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5, Y: 0.3, Z: 0.2}}, 1, r3.Vec{Y: 0.3}, FromRotationVector(r3.Vec{X: 0.1, Y: 0.2}), r3.Vec{X: 1, Y: -2, Z: 0.3}, r3.Vec{X: 0.4, Y: -1, Z: 2}, false)
	s.AddBody(Shape{Kind: Sphere, R: 0.4}, 2, r3.Vec{X: 0.1, Y: 0.95, Z: 0.05}, FromRotationVector(r3.Vec{Z: 1}), r3.Vec{X: -1, Y: 0.5, Z: 0.1}, r3.Vec{X: 3, Y: 1, Z: -2}, false)
	s.AddBody(Shape{Kind: Sphere, R: 0.3}, 1, r3.Vec{X: 0.3, Y: 1.6, Z: 0.1}, Identity, r3.Vec{Y: -1}, r3.Vec{X: 1}, false)
	p := build(s)
	cs := s.Contacts()
	kinds := map[ContactKind]int{}
	for _, c := range cs {
		kinds[c.Kind]++
	}
	if kinds[BoxPlane] == 0 || kinds[SphereBox] != 1 || kinds[SphereSphere] != 1 {
		t.Fatalf("contact kinds %v", kinds)
	}
	for k, c := range cs {
		rel := pointVel(s, s.Q, s.V, c.I, c.P)
		if c.J >= 0 {
			rel = r3.Sub(rel, pointVel(s, s.Q, s.V, c.J, c.PJ))
		}
		if got, want := p.G.ColDot(k, s.V), r3.Dot(c.N, rel); math.Abs(got-want) > 1e-12 {
			t.Errorf("contact %d (%v): ∇gᵀv = %.15g, want %.15g", k, c.Kind, got, want)
		}
		t1, t2 := tangents(c.N)
		if math.Abs(r3.Dot(t1, c.N))+math.Abs(r3.Dot(t2, c.N))+math.Abs(r3.Dot(t1, t2)) > 1e-15 ||
			math.Abs(r3.Norm(t1)-1)+math.Abs(r3.Norm(t2)-1) > 1e-15 {
			t.Errorf("contact %d: tangents not orthonormal", k)
		}
		if got, want := p.D.ColDot(2*k, s.V), r3.Dot(t1, rel); math.Abs(got-want) > 1e-12 {
			t.Errorf("contact %d: t₁ᵀv = %.15g, want %.15g", k, got, want)
		}
		if p.DContact[2*k] != k || p.DContact[2*k+1] != k {
			t.Errorf("DContact %v", p.DContact)
		}
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	// M M⁻¹ = I block by block
	for b := 0; b < 3; b++ {
		_, o := Pose(s.Q, b)
		iw := s.WorldInertia(b, o)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				var sum float64
				for k := 0; k < 3; k++ {
					sum += iw[i][k] * p.MInv.At(6*b+3+k, 6*b+3+j)
				}
				if want := b2f(i == j); math.Abs(sum-want) > 1e-12 {
					t.Errorf("body %d: (I_w I_w⁻¹)[%d][%d] = %v", b, i, j, sum)
				}
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestEdgeEdge: two boxes crossed at right angles, edge on edge, give one
// contact at the crossing with the normal along the common perpendicular.
func TestEdgeEdge(t *testing.T) {
	s := &System{CoR: 1}
	// box 0: edge along z at the top (rotated 45° about z); box 1: edge
	// along x at the bottom (rotated 45° about x), just interpenetrating.
	h := r3.Vec{X: 0.5, Y: 0.5, Z: 0.5}
	top := 0.5 * math.Sqrt2
	s.AddBody(Shape{Kind: Box, Half: h}, 1, r3.Vec{}, AxisAngle(r3.Vec{Z: 1}, math.Pi/4), r3.Vec{}, r3.Vec{}, false)
	s.AddBody(Shape{Kind: Box, Half: h}, 1, r3.Vec{Y: 2*top - 1e-6}, AxisAngle(r3.Vec{X: 1}, math.Pi/4), r3.Vec{}, r3.Vec{}, false)
	build(s)
	cs := s.Contacts()
	if len(cs) != 1 || cs[0].Kind != BoxBox {
		t.Fatalf("contacts %+v", cs)
	}
	c := cs[0]
	if !near3(c.N, r3.Vec{Y: -1}, 1e-9) || !near3(c.P, r3.Vec{Y: top - 0.5e-6}, 1e-9) {
		t.Errorf("edge contact n = %v, P = %v", c.N, c.P)
	}
}

// TestSphereInCylinder: the contact normal points back towards the axis.
func TestSphereInCylinder(t *testing.T) {
	s := &System{CoR: 1}
	s.Cyls = append(s.Cyls, Cylinder{P: r3.Vec{X: 1}, A: r3.Unit(r3.Vec{X: 1, Z: 1}), R: 2})
	// a point at distance 1.9 from the axis along −y, plus something along the axis
	x := r3.Add(r3.Vec{X: 1, Y: -1.9}, r3.Scale(3, r3.Unit(r3.Vec{X: 1, Z: 1})))
	s.AddBody(Shape{Kind: Sphere, R: 0.2}, 1, x, Identity, r3.Vec{}, r3.Vec{}, false)
	build(s)
	cs := s.Contacts()
	if len(cs) != 1 || !near3(cs[0].N, r3.Vec{Y: 1}, 1e-12) || !near3(cs[0].P, r3.Add(x, r3.Vec{Y: -0.2}), 1e-12) {
		t.Fatalf("contacts %+v", cs)
	}
}

// TestPairOrderIndependence: mirror-image boxes give the same contact set
// whichever comes first.
func TestPairOrderIndependence(t *testing.T) {
	mk := func(swap bool) []r3.Vec {
		s := &System{CoR: 1}
		h := r3.Vec{X: 0.5, Y: 0.5, Z: 0.5}
		a := FromRotationVector(r3.Vec{Y: 0.05, Z: 0.1})
		b := FromRotationVector(r3.Vec{Y: -0.05, Z: -0.1}) // mirror of a about x = 0
		xa, xb := r3.Vec{X: 0.5 - 1e-3, Y: 0.2}, r3.Vec{X: -0.5 + 1e-3, Y: 0.2}
		if swap {
			s.AddBody(Shape{Kind: Box, Half: h}, 1, xb, b, r3.Vec{}, r3.Vec{}, false)
			s.AddBody(Shape{Kind: Box, Half: h}, 1, xa, a, r3.Vec{}, r3.Vec{}, false)
		} else {
			s.AddBody(Shape{Kind: Box, Half: h}, 1, xa, a, r3.Vec{}, r3.Vec{}, false)
			s.AddBody(Shape{Kind: Box, Half: h}, 1, xb, b, r3.Vec{}, r3.Vec{}, false)
		}
		build(s)
		var ps []r3.Vec
		for _, c := range s.Contacts() {
			ps = append(ps, c.P)
		}
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].Y != ps[j].Y {
				return ps[i].Y < ps[j].Y
			}
			if ps[i].Z != ps[j].Z {
				return ps[i].Z < ps[j].Z
			}
			return ps[i].X < ps[j].X
		})
		return ps
	}
	p0, p1 := mk(false), mk(true)
	if len(p0) == 0 || len(p0) != len(p1) {
		t.Fatalf("%d vs %d contacts", len(p0), len(p1))
	}
	for i := range p0 {
		if !near3(p0[i], p1[i], 1e-12) {
			t.Errorf("contact %d: %v vs %v", i, p0[i], p1[i])
		}
		// the set is mirror-symmetric about x = 0
		m := p0[i]
		m.X = -m.X
		found := false
		for _, q := range p0 {
			found = found || near3(q, m, 1e-12)
		}
		if !found {
			t.Errorf("contact %d has no mirror image: %v", i, p0[i])
		}
	}
}

// TestBuildProblemDoesNotAllocate: after a warm-up call the assembly reuses
// its workspaces.
func TestBuildProblemDoesNotAllocate(t *testing.T) {
	s := EightCubes(1)
	var p mech.Problem
	q1 := append([]float64(nil), s.Q...)
	for i := 0; i < 8; i++ {
		q1[7*i] *= 0.999 // squeeze the block: every face pair in contact
		q1[7*i+1] *= 0.999
		q1[7*i+2] *= 0.999
	}
	s.BuildProblem(s.Q, q1, s.V, &p)
	if p.NContacts() < 12 {
		t.Fatalf("only %d contacts", p.NContacts())
	}
	if a := testing.AllocsPerRun(20, func() { s.BuildProblem(s.Q, q1, s.V, &p) }); a != 0 {
		t.Errorf("%v allocations per BuildProblem", a)
	}
}

// TestBoxInCylinder: a box pressed against a cylinder's wall touches it
// with the corners beyond the radius, normals pointing to the axis.
func TestBoxInCylinder(t *testing.T) {
	s := &System{CoR: 1}
	s.Cyls = append(s.Cyls, Cylinder{P: r3.Vec{}, A: r3.Vec{Z: 1}, R: 1})
	h := r3.Vec{X: 0.2, Y: 0.1, Z: 0.3}
	// the +x face's corners at radius hypot(0.9 + 0.2, 0.1) > 1
	s.AddBody(Shape{Kind: Box, Half: h}, 1, r3.Vec{X: 0.9}, Identity, r3.Vec{}, r3.Vec{}, false)
	build(s)
	cs := s.Contacts()
	if len(cs) != 4 {
		t.Fatalf("%d contacts", len(cs))
	}
	for _, c := range cs {
		want := r3.Unit(r3.Vec{X: -c.P.X, Y: -c.P.Y})
		if c.Kind != BodyCylinder || !near3(c.N, want, 1e-15) || math.Abs(c.P.X-1.1) > 1e-15 {
			t.Errorf("contact %+v", c)
		}
	}
}

package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// localSDF returns the signed distance of body-frame point p to shape sh
// and its gradient (outward normal direction); ok is false where it is not
// known (outside a mesh's grid).
func localSDF(sh *Shape, p r3.Vec) (float64, r3.Vec, bool) {
	switch sh.Kind {
	case Sphere:
		n := r3.Norm(p)
		if n == 0 {
			return -sh.R, r3.Vec{Z: 1}, true
		}
		return n - sh.R, r3.Scale(1/n, p), true
	case Box:
		h := sh.Half
		q := r3.Vec{X: math.Abs(p.X) - h.X, Y: math.Abs(p.Y) - h.Y, Z: math.Abs(p.Z) - h.Z}
		out := r3.Vec{X: math.Max(q.X, 0), Y: math.Max(q.Y, 0), Z: math.Max(q.Z, 0)}
		if on := r3.Norm(out); on > 0 {
			g := r3.Vec{X: math.Copysign(out.X, p.X), Y: math.Copysign(out.Y, p.Y), Z: math.Copysign(out.Z, p.Z)}
			return on, r3.Scale(1/on, g), true
		}
		// inside: nearest face
		switch {
		case q.X >= q.Y && q.X >= q.Z:
			return q.X, r3.Vec{X: math.Copysign(1, p.X)}, true
		case q.Y >= q.Z:
			return q.Y, r3.Vec{Y: math.Copysign(1, p.Y)}, true
		default:
			return q.Z, r3.Vec{Z: math.Copysign(1, p.Z)}, true
		}
	case MeshShape:
		phi, g, ok := sh.Mesh.SDF.Eval(p)
		if !ok {
			return 0, r3.Vec{}, false
		}
		gn := math.Sqrt(r3.Dot(g, g))
		if gn == 0 {
			return phi, r3.Vec{}, false
		}
		return phi, r3.Scale(1/gn, g), true
	}
	return 0, r3.Vec{}, false
}

// samplesAgainst adds the contacts of body a's surface samples (box
// corners, mesh vertices; a sphere's centre with its radius) found inside
// body b's signed distance field at q1 — the active set at the free-flight
// prediction (Alg. 4, line 2). Used for every pair involving a mesh (both
// orders are queried).
//
// The constraint of a sample s is g(q) = φ_b(s(q)) − radius, and Alg. 4
// (lines 3–7) applies impulses along its gradient at qᵗ = q0, not at the
// prediction: the normal is ∇φ_b at the sample's position at q0 (out of
// b), the point midway between the sample and b's surface there (a
// sphere's: where its radius reaches along the normal). Where b's field
// does not reach the sample at q0, the contact found at q1 is carried back
// to q0 with both bodies' motions (transport). Taking the normal at q1
// instead is not only off by the step's motion: a sample that ends the
// step inside a thin part of b (a bunny's ear is 1–2 cells of its 24³
// field) meets gradients pointing every way, and one pair of bodies then
// has contacts whose normals positively span all directions — no elastic
// impulse makes them all separate, and GR reflects between two violator
// sets forever (Fig. 9's 1,000-bunny pile, step 44: 11 contacts between
// two bunnies, normals at q1 up to 163° apart, at q0 at most 75°;
// TestMeshContactNormalsAtStart).
func (d *detector) samplesAgainst(s *System, q0, q1 []float64, a, b int) {
	sa, sb := &s.Shapes[a], &s.Shapes[b]
	xa, oa := Pose(q1, a)
	xb, ob := Pose(q1, b)
	ra, rb := oa.Matrix(), ob.Matrix()
	xa0, oa0 := Pose(q0, a)
	xb0, ob0 := Pose(q0, b)
	ra0, rb0 := oa0.Matrix(), ob0.Matrix()
	tol := 1e-9 * math.Max(sa.BoundingRadius(), sb.BoundingRadius())
	reach := sb.BoundingRadius()
	// loc is the sample in a's frame (the centre for a sphere)
	try := func(loc r3.Vec, radius float64) {
		world := r3.Add(xa, ra.MulVec(loc))
		rel := r3.Sub(world, xb)
		if lim := reach + radius + tol; r3.Dot(rel, rel) > lim*lim {
			return // outside b's bounding sphere
		}
		phi, g, ok := localSDF(sb, rb.MulTVec(rel))
		if !ok || phi-radius >= tol {
			return
		}
		n1 := rb.MulVec(g) // out of b at q1
		var p, n r3.Vec    // b's surface point and normal at q0
		w0 := r3.Add(xa0, ra0.MulVec(loc))
		phi0, g0, ok0 := localSDF(sb, rb0.MulTVec(r3.Sub(w0, xb0)))
		if ok0 {
			n = rb0.MulVec(g0)
			p = r3.Sub(w0, r3.Scale(phi0, n))
		}
		i, j := a, b
		if radius > 0 {
			// a sphere's centre: b's point is its surface point, the
			// sphere's the point its radius reaches towards b
			if !ok0 {
				p, n = transport(q0, q1, a, b, r3.Sub(world, r3.Scale(phi, n1)), n1)
			}
			c := Contact{Kind: MeshBody, I: a, J: b, Other: -1, N: n, P: r3.Sub(xa0, r3.Scale(radius, n)), PJ: p}
			if a > b {
				c.I, c.J, c.N, c.P, c.PJ = b, a, r3.Scale(-1, n), c.PJ, c.P
			}
			d.addSplit(c)
			return
		}
		if ok0 {
			p = r3.Scale(0.5, r3.Add(p, w0)) // midway between the surfaces
		}
		if a > b {
			i, j, n, n1 = b, a, r3.Scale(-1, n), r3.Scale(-1, n1)
		}
		if !ok0 {
			p, n = transport(q0, q1, i, j, r3.Sub(world, r3.Scale(0.5*phi, rb.MulVec(g))), n1)
		}
		d.add(Contact{Kind: MeshBody, I: i, J: j, Other: -1, N: n, P: p})
	}
	switch sa.Kind {
	case Sphere:
		if sb.Kind == MeshShape {
			try(r3.Vec{}, sa.R)
		}
	case Box:
		for c := 0; c < 8; c++ {
			try(corner(sa.Half, c), 0)
		}
	case MeshShape:
		for _, v := range sa.Mesh.V {
			try(v, 0)
		}
	}
}

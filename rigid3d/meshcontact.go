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
// body b's signed distance field at q1: normal ∇φ_b (out of b), point
// midway between the two surfaces, carried back to q0. Used for every pair
// involving a mesh (both orders are queried).
func (d *detector) samplesAgainst(s *System, q0, q1 []float64, a, b int) {
	sa, sb := &s.Shapes[a], &s.Shapes[b]
	xa, oa := Pose(q1, a)
	xb, ob := Pose(q1, b)
	ra, rb := oa.Matrix(), ob.Matrix()
	tol := 1e-9 * math.Max(sa.BoundingRadius(), sb.BoundingRadius())
	reach := sb.BoundingRadius()
	try := func(world r3.Vec, radius float64) {
		rel := r3.Sub(world, xb)
		if lim := reach + radius + tol; r3.Dot(rel, rel) > lim*lim {
			return // outside b's bounding sphere
		}
		loc := rb.MulTVec(rel)
		phi, g, ok := localSDF(sb, loc)
		if !ok || phi-radius >= tol {
			return
		}
		n := rb.MulVec(g) // out of b: from b towards a
		if radius > 0 {
			// a sphere's centre: b's point is its surface point, the
			// sphere's the point its radius reaches towards b
			p, n := transport(q0, q1, a, b, r3.Sub(world, r3.Scale(phi, n)), n)
			xa0, _ := Pose(q0, a)
			c := Contact{Kind: MeshBody, I: a, J: b, Other: -1, N: n, P: r3.Sub(xa0, r3.Scale(radius, n)), PJ: p}
			if a > b {
				c.I, c.J, c.N, c.P, c.PJ = b, a, r3.Scale(-1, n), c.PJ, c.P
			}
			d.addSplit(c)
			return
		}
		p := r3.Sub(world, r3.Scale(0.5*phi, n))
		i, j := a, b
		if a > b {
			i, j, n = b, a, r3.Scale(-1, n)
		}
		p, n = transport(q0, q1, i, j, p, n)
		d.add(Contact{Kind: MeshBody, I: i, J: j, Other: -1, N: n, P: p})
	}
	switch sa.Kind {
	case Sphere:
		if sb.Kind == MeshShape {
			try(xa, sa.R)
		}
	case Box:
		for c := 0; c < 8; c++ {
			try(r3.Add(xa, ra.MulVec(corner(sa.Half, c))), 0)
		}
	case MeshShape:
		for _, v := range sa.Mesh.V {
			try(r3.Add(xa, ra.MulVec(v)), 0)
		}
	}
}

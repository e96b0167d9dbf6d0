package rigid3d

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"
)

// OverlapTol is the relative tolerance for interpenetration in a starting
// state: two bodies may overlap by at most OverlapTol·(Rᵢ + Rⱼ), a body and
// a plane or cylinder by OverlapTol·Rᵢ (R the bounding radius), as
// package ball2d's balls.
const OverlapTol = 1e-4

// Overlap is an interpenetration in a state: bodies I and J (J = −1: the
// static plane or cylinder Other of Kind) by Depth > 0.
type Overlap struct {
	I, J  int
	Other int // plane or cylinder index when J = −1
	Kind  ContactKind
	Depth float64
}

// Overlaps returns the interpenetrations of state q deeper than the
// tolerance (OverlapTol), the deepest of each pair of bodies (or body and
// wall), ordered by bodies. They are the contacts of q at rest (detection
// with the prediction q itself) deeper than the tolerance: exactly for
// spheres, planes, cylinders and sphere–box (the box's distance at the
// centre), by the separating axes for two boxes, along the distance fields
// (Gaps) for meshes.
func (s *System) Overlaps(q []float64) []Overlap {
	s.det.detect(s, q, q)
	gaps := s.Gaps(q, nil)
	deepest := map[[3]int]Overlap{}
	for k, c := range s.det.contacts {
		j, other := c.J, -1
		if s.Fixed[c.I] && (c.J < 0 || s.Fixed[c.J] || c.Kind.static()) {
			continue // never move: no contact between them
		}
		tol := OverlapTol * s.Shapes[c.I].BoundingRadius()
		switch {
		case c.Kind.static():
			j, other = -1, c.Other
		default:
			tol += OverlapTol * s.Shapes[c.J].BoundingRadius()
		}
		d := -gaps[k]
		switch c.Kind {
		case BoxBox: // the separating-axis depth (the distance fields'
			// sum at a clipped corner can miss a face's overlap)
			A, B := makeOBB(q, c.I, s.Shapes[c.I].Half), makeOBB(q, c.J, s.Shapes[c.J].Half)
			var es [9]float64
			if _, fs, _, esep, ok := boxSeparations(&A, &B, 0, &es); ok {
				d = -math.Max(fs, esep)
			}
		case SphereBox: // the box's distance at the sphere's centre
			sp, bx := c.I, c.J
			if s.Shapes[sp].Kind != Sphere {
				sp, bx = bx, sp
			}
			xs, _ := Pose(q, sp)
			xb, ob := Pose(q, bx)
			rot := ob.Matrix()
			phi, _, _ := localSDF(&s.Shapes[bx], rot.MulTVec(r3.Sub(xs, xb)))
			d = s.Shapes[sp].R - phi
		}
		if d > tol {
			key := [3]int{c.I, j, other}
			if o, ok := deepest[key]; !ok || d > o.Depth {
				deepest[key] = Overlap{I: c.I, J: j, Other: other, Kind: c.Kind, Depth: d}
			}
		}
	}
	out := make([]Overlap, 0, len(deepest))
	for _, o := range deepest {
		out = append(out, o)
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.I != y.I {
			return x.I < y.I
		}
		if x.J != y.J {
			return x.J < y.J
		}
		return x.Other < y.Other
	})
	return out
}

// static reports whether the contact is with a static plane or cylinder.
func (k ContactKind) static() bool {
	switch k {
	case SpherePlane, BoxPlane, MeshPlane, SphereCylinder, BodyCylinder:
		return true
	}
	return false
}

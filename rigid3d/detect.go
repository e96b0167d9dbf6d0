package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// ContactKind names the geometric routine that produced a contact.
type ContactKind int8

const (
	SphereSphere ContactKind = iota
	SpherePlane
	BoxPlane
	SphereCylinder
	BoxBox
	SphereBox
	MeshPlane
	MeshBody
	BodyCylinder
)

func (k ContactKind) String() string {
	return [...]string{"sphere-sphere", "sphere-plane", "box-plane", "sphere-cylinder", "box-box", "sphere-box", "mesh-plane", "mesh-body", "body-cylinder"}[k]
}

// Contact is one active contact of a step, evaluated at qᵗ: body I (and J,
// or −1 for static geometry), unit normal N pointing from J (or the static
// geometry) towards I, and the world contact points P on body I and PJ on
// body J. The gap velocity is
// N·(u_I + ω_I × (P − x_I)) − N·(u_J + ω_J × (PJ − x_J)).
//
// P and PJ coincide except where a sphere takes part: a sphere's point is
// the one its radius reaches along the normal (x − r N for I, x + r N for
// J), the point where the bodies touch at the moment of impact even when
// the contact was predicted across a gap at qᵗ, so the lever arm of the
// friction impulse is the radius (package documentation, eq. 2).
type Contact struct {
	Kind  ContactKind
	I, J  int
	Other int // index of the plane or cylinder for static contacts, else −1
	N, P  r3.Vec
	PJ    r3.Vec
	// Loc is P in body I's frame for vertex contacts (a box corner or
	// mesh vertex on a plane or cylinder wall), so that Gaps can follow the
	// vertex to other positions.
	Loc r3.Vec
}

type pair struct{ i, j int }

type detector struct {
	contacts []Contact
	pairs    []pair
	grid     grid
	clip     [2][16]r3.Vec
	face     []facePoint
	images   []portalImage
}

// facePoint is a clipped incident vertex of a box–box face contact at q1:
// the point, the incident body it belongs to, and the normal at q0 (from J
// to I, carried with the reference body).
type facePoint struct {
	p   r3.Vec
	inc int
	n   r3.Vec
}

// Contacts returns the contacts of the last BuildProblem, in column order.
func (s *System) Contacts() []Contact { return s.det.contacts }

// detect finds the contacts active at the prediction q1 (penetrating or
// touching-and-approaching) and evaluates them at q0. Sphere and plane
// contacts are recomputed at q0 from the same features; box contacts are
// found at q1 and carried back to q0 rigidly with the bodies (the point and
// normal are averaged over the two bodies' motions so that the result does
// not depend on the pair's order).
//
// Broad phase: pairs with overlapping bounding spheres at q1, from all
// pairs below gridThreshold bodies and from a uniform grid above.
func (d *detector) detect(s *System, q0, q1 []float64) {
	d.contacts = d.contacts[:0]
	n := s.N()
	if n >= gridThreshold {
		d.pairs = d.grid.pairs(s, q1, d.pairs[:0])
	} else {
		d.pairs = allPairs(s, q1, d.pairs[:0])
	}
	for _, p := range d.pairs {
		d.bodyBody(s, q0, q1, p.i, p.j)
	}
	d.portalContacts(s, q0, q1)
	for i := 0; i < n; i++ {
		if s.Fixed[i] {
			continue
		}
		for k := range s.Planes {
			d.bodyPlane(s, q0, q1, i, k)
		}
		for k := range s.Cyls {
			d.bodyCylinder(s, q0, q1, i, k)
		}
	}
}

// add appends c with one contact point shared by both bodies (PJ = P).
func (d *detector) add(c Contact) {
	c.PJ = c.P
	d.contacts = append(d.contacts, c)
}

// addSplit appends c with its own point PJ on body J (sphere contacts).
func (d *detector) addSplit(c Contact) { d.contacts = append(d.contacts, c) }

func (d *detector) bodyPlane(s *System, q0, q1 []float64, i, k int) {
	pl := s.Planes[k]
	sh := s.Shapes[i]
	x1, o1 := Pose(q1, i)
	x0, o0 := Pose(q0, i)
	switch sh.Kind {
	case Sphere:
		if r3.Dot(pl.N, r3.Sub(x1, pl.P)) <= sh.R {
			d.add(Contact{Kind: SpherePlane, I: i, J: -1, Other: k, N: pl.N, P: r3.Sub(x0, r3.Scale(sh.R, pl.N))})
		}
	case Box:
		r1, r0 := o1.Matrix(), o0.Matrix()
		// corners within a relative 1e-9 of the plane count as touching, so
		// that a face landing flat yields all four corners regardless of
		// rounding
		tol := 1e-9 * r3.Norm(sh.Half)
		for c := 0; c < 8; c++ {
			loc := corner(sh.Half, c)
			if r3.Dot(pl.N, r3.Sub(r3.Add(x1, r1.MulVec(loc)), pl.P)) < tol {
				d.add(Contact{Kind: BoxPlane, I: i, J: -1, Other: k, N: pl.N, P: r3.Add(x0, r0.MulVec(loc)), Loc: loc})
			}
		}
	case MeshShape:
		r1, r0 := o1.Matrix(), o0.Matrix()
		tol := 1e-9 * sh.Mesh.Radius
		if r3.Dot(pl.N, r3.Sub(x1, pl.P)) > sh.Mesh.Radius+tol {
			return
		}
		for _, loc := range sh.Mesh.V {
			if r3.Dot(pl.N, r3.Sub(r3.Add(x1, r1.MulVec(loc)), pl.P)) < tol {
				d.add(Contact{Kind: MeshPlane, I: i, J: -1, Other: k, N: pl.N, P: r3.Add(x0, r0.MulVec(loc)), Loc: loc})
			}
		}
	}
}

// corner returns box corner c (bit 0: x sign, bit 1: y, bit 2: z).
func corner(h r3.Vec, c int) r3.Vec {
	v := h
	if c&1 != 0 {
		v.X = -v.X
	}
	if c&2 != 0 {
		v.Y = -v.Y
	}
	if c&4 != 0 {
		v.Z = -v.Z
	}
	return v
}

// radial returns the component of x − P orthogonal to the cylinder axis.
func (c Cylinder) radial(x r3.Vec) r3.Vec {
	d := r3.Sub(x, c.P)
	return r3.Sub(d, r3.Scale(r3.Dot(d, c.A), c.A))
}

func (d *detector) bodyCylinder(s *System, q0, q1 []float64, i, k int) {
	cy := s.Cyls[k]
	sh := &s.Shapes[i]
	x1, o1 := Pose(q1, i)
	x0, o0 := Pose(q0, i)
	if sh.Kind == Sphere {
		if dr, rr := cy.radial(x1), cy.R-sh.R; r3.Dot(dr, dr) >= rr*rr {
			rad := cy.radial(x0)
			rn := r3.Norm(rad)
			if rn == 0 {
				return
			}
			nrm := r3.Scale(-1/rn, rad)
			d.add(Contact{Kind: SphereCylinder, I: i, J: -1, Other: k, N: nrm, P: r3.Sub(x0, r3.Scale(sh.R, nrm))})
		}
		return
	}
	// boxes and meshes: every corner or vertex outside the radius (within a
	// relative 1e-9) is a contact with the inward radial normal at qᵗ
	rb := sh.BoundingRadius()
	if r3.Norm(cy.radial(x1))+rb <= cy.R {
		return
	}
	tol := 1e-9 * rb
	r1, r0 := o1.Matrix(), o0.Matrix()
	test := func(loc r3.Vec) {
		if r3.Norm(cy.radial(r3.Add(x1, r1.MulVec(loc)))) > cy.R-tol {
			p := r3.Add(x0, r0.MulVec(loc))
			rad := cy.radial(p)
			if rn := r3.Norm(rad); rn > 0 {
				d.add(Contact{Kind: BodyCylinder, I: i, J: -1, Other: k, N: r3.Scale(-1/rn, rad), P: p, Loc: loc})
			}
		}
	}
	switch sh.Kind {
	case Box:
		for c := 0; c < 8; c++ {
			test(corner(sh.Half, c))
		}
	case MeshShape:
		for _, v := range sh.Mesh.V {
			test(v)
		}
	}
}

func (d *detector) bodyBody(s *System, q0, q1 []float64, i, j int) {
	a, b := s.Shapes[i], s.Shapes[j]
	switch {
	case a.Kind == Sphere && b.Kind == Sphere:
		xi1, _ := Pose(q1, i)
		xj1, _ := Pose(q1, j)
		if dx, rr := r3.Sub(xi1, xj1), a.R+b.R; r3.Dot(dx, dx) <= rr*rr {
			xi0, _ := Pose(q0, i)
			xj0, _ := Pose(q0, j)
			dv := r3.Sub(xi0, xj0)
			dn := r3.Norm(dv)
			if dn == 0 {
				return
			}
			nrm := r3.Scale(1/dn, dv)
			// each sphere's lever arm is its radius along the normal
			d.addSplit(Contact{Kind: SphereSphere, I: i, J: j, Other: -1, N: nrm,
				P: r3.Sub(xi0, r3.Scale(a.R, nrm)), PJ: r3.Add(xj0, r3.Scale(b.R, nrm))})
		}
	case a.Kind == Box && b.Kind == Box:
		d.boxBox(s, q0, q1, i, j)
	case a.Kind == Sphere && b.Kind == Box:
		d.sphereBox(s, q0, q1, i, j, false)
	case a.Kind == Box && b.Kind == Sphere:
		d.sphereBox(s, q0, q1, j, i, true)
	default: // at least one mesh
		d.samplesAgainst(s, q0, q1, i, j)
		d.samplesAgainst(s, q0, q1, j, i)
	}
}

// transport carries a contact (point p, normal n pointing towards body i)
// found at q1 back to q0 with the rigid motions of both bodies and averages
// the two images.
func transport(q0, q1 []float64, i, j int, p, n r3.Vec) (r3.Vec, r3.Vec) {
	xi1, oi1 := Pose(q1, i)
	xj1, oj1 := Pose(q1, j)
	xi0, oi0 := Pose(q0, i)
	xj0, oj0 := Pose(q0, j)
	ri1, rj1, ri0, rj0 := oi1.Matrix(), oj1.Matrix(), oi0.Matrix(), oj0.Matrix()
	pi := r3.Add(xi0, ri0.MulVec(ri1.MulTVec(r3.Sub(p, xi1))))
	pj := r3.Add(xj0, rj0.MulVec(rj1.MulTVec(r3.Sub(p, xj1))))
	ni := ri0.MulVec(ri1.MulTVec(n))
	nj := rj0.MulVec(rj1.MulTVec(n))
	return r3.Scale(0.5, r3.Add(pi, pj)), r3.Unit(r3.Add(ni, nj))
}

// sphereBox handles sphere i against box j: closest point of the box to the
// sphere's centre at q1. swapped records that the pair was given as
// (box, sphere) so the contact keeps the pair order (I < J).
func (d *detector) sphereBox(s *System, q0, q1 []float64, i, j int, swapped bool) {
	r := s.Shapes[i].R
	h := s.Shapes[j].Half
	xs, _ := Pose(q1, i)
	xb, ob := Pose(q1, j)
	rb := ob.Matrix()
	loc := rb.MulTVec(r3.Sub(xs, xb))
	cl := r3.Vec{X: clamp(loc.X, h.X), Y: clamp(loc.Y, h.Y), Z: clamp(loc.Z, h.Z)}
	diff := r3.Sub(loc, cl)
	dist := r3.Norm(diff)
	var nLoc r3.Vec
	if dist > 0 {
		if dist >= r {
			return
		}
		nLoc = r3.Scale(1/dist, diff)
	} else {
		// centre inside the box: push out through the nearest face
		best, ax, sg := math.Inf(1), 0, 1.0
		for k := 0; k < 3; k++ {
			e := comp(h, k) - math.Abs(comp(loc, k))
			if e < best {
				best, ax = e, k
				sg = math.Copysign(1, comp(loc, k))
			}
		}
		switch ax {
		case 0:
			nLoc.X = sg
		case 1:
			nLoc.Y = sg
		default:
			nLoc.Z = sg
		}
	}
	n := rb.MulVec(nLoc)
	p := r3.Add(xb, rb.MulVec(cl))
	p, n = transport(q0, q1, i, j, p, n) // n points from the box to the sphere
	xs0, _ := Pose(q0, i)
	// the box's point is its surface point, the sphere's the point its
	// radius reaches towards the box
	c := Contact{Kind: SphereBox, I: i, J: j, Other: -1, N: n, P: r3.Sub(xs0, r3.Scale(r, n)), PJ: p}
	if swapped {
		c.I, c.J, c.N, c.P, c.PJ = j, i, r3.Scale(-1, n), c.PJ, c.P
	}
	d.addSplit(c)
}

func clamp(x, h float64) float64 { return math.Max(-h, math.Min(h, x)) }

type obb struct {
	c    r3.Vec
	ax   [3]r3.Vec
	half [3]float64
}

func makeOBB(q []float64, i int, h r3.Vec) obb {
	x, o := Pose(q, i)
	r := o.Matrix()
	return obb{c: x, ax: [3]r3.Vec{r.Col(0), r.Col(1), r.Col(2)}, half: [3]float64{h.X, h.Y, h.Z}}
}

// radius returns the half-length of the box's projection on unit axis l.
func (b *obb) radius(l r3.Vec) float64 {
	return b.half[0]*math.Abs(r3.Dot(b.ax[0], l)) + b.half[1]*math.Abs(r3.Dot(b.ax[1], l)) + b.half[2]*math.Abs(r3.Dot(b.ax[2], l))
}

// boxBox finds the contacts of boxes i and j at q1 by the separating-axis
// test over the 15 candidate axes; boxes touching to within a relative 1e-9
// are in contact (SCISim counts exact touching; the tolerance makes a face
// that arrives exactly on another in exact arithmetic count whatever the
// rounding, as for box–plane contacts). The axis of least penetration
// decides the feature, with SCISim's bias towards faces: an edge–edge axis
// is taken only if its penetration is smaller than the best face axis's by
// more than 5%. A face axis clips the incident face of the other box against
// the reference face's side planes and keeps every clipped vertex below the
// reference face — four symmetric corners for a face landing flat on a face,
// the whole overlap polygon when one face turns on the other; an edge–edge
// axis gives the midpoint of the closest points of the two edges (every
// edge pair within tol of the best: mirror-image boxes tie between (a, b)
// and (b, a)).
//
// As in SCISim, the contact points (clipped incident vertices, on the
// incident box's surface) and normals are those found at q1, and the lever
// arms at q0 are P − x(q0) with the one point P for both boxes (so linear
// and angular momentum are kept exactly). This matches SCISim's contact set
// wherever that set is valid (box_box_test_2 and the ipopt box tests to
// 3e-12 … 2e-10 after 2 s); where the best face axes of both boxes tie
// (mirror images) both serve as reference and each overlap vertex, found
// once on either surface, becomes one contact at the mean point and normal,
// so the set does not depend on the pair's order (SCISim takes the first
// box's face).
func (d *detector) boxBox(s *System, q0, q1 []float64, i, j int) {
	A := makeOBB(q1, i, s.Shapes[i].Half)
	B := makeOBB(q1, j, s.Shapes[j].Half)
	t := r3.Sub(B.c, A.c)
	scale := math.Max(r3.Norm(s.Shapes[i].Half), r3.Norm(s.Shapes[j].Half))
	tol := 1e-9 * scale
	var edgeSep [9]float64
	bestFace, bestFaceSep, bestEdge, bestEdgeSep, ok := boxSeparations(&A, &B, tol, &edgeSep)
	if !ok {
		return
	}
	// edge only if its penetration depth is below the face's by more than
	// 5% (never for touching boxes)
	if bestEdge >= 0 && -1.05*bestEdgeSep < -bestFaceSep-tol {
		// every edge pair within tol of the best is a contact: mirror-image
		// boxes tie between the pairs (a, b) and (b, a), and taking one of
		// them would break the symmetry
		for e := 0; e < 9; e++ {
			ea, eb := e/3, e%3
			l := r3.Cross(A.ax[ea], B.ax[eb])
			ln := r3.Norm(l)
			if ln < 1e-6 || edgeSep[e] < bestEdgeSep-tol {
				continue
			}
			// n points from B (j) towards A (i)
			n := r3.Scale(1/ln, l)
			if r3.Dot(t, n) > 0 {
				n = r3.Scale(-1, n)
			}
			pa := supportEdge(&A, ea, r3.Scale(-1, n))
			pb := supportEdge(&B, eb, n)
			ca, cb := closestLineLine(pa, A.ax[ea], pb, B.ax[eb])
			d.add(Contact{Kind: BoxBox, I: i, J: j, Other: -1, N: n, P: r3.Scale(0.5, r3.Add(ca, cb))})
		}
		return
	}
	// Face contact. If the best face axes of both boxes tie (mirror-image
	// boxes), both are used as reference faces so that the contact set does
	// not depend on the pair's order; coincident points are merged.
	sepA, kA := math.Inf(-1), 0
	sepB, kB := math.Inf(-1), 0
	for k := 0; k < 3; k++ {
		if sp := math.Abs(r3.Dot(t, A.ax[k])) - (A.radius(A.ax[k]) + B.radius(A.ax[k])); sp > sepA+tol {
			sepA, kA = sp, k
		}
		if sp := math.Abs(r3.Dot(t, B.ax[k])) - (A.radius(B.ax[k]) + B.radius(B.ax[k])); sp > sepB+tol {
			sepB, kB = sp, k
		}
	}
	d.face = d.face[:0]
	useA := bestFace < 3 || sepA >= sepB-tol
	useB := bestFace >= 3 || sepB >= sepA-tol
	if useA {
		// reference A, outward normal towards B; n (B→A) = −nOut
		nOut := A.ax[kA]
		if r3.Dot(t, nOut) < 0 {
			nOut = r3.Scale(-1, nOut)
		}
		d.faceContacts(q0, q1, i, j, i, &A, &B, kA, nOut, tol)
	}
	nA := len(d.face)
	if useB {
		nOut := B.ax[kB]
		if r3.Dot(t, nOut) > 0 {
			nOut = r3.Scale(-1, nOut)
		}
		d.faceContacts(q0, q1, i, j, j, &B, &A, kB, nOut, tol)
	}
	// With both references, a vertex of the overlap polygon is found twice,
	// once on each surface: the pair (equal across the normal at q1 to
	// within 1e-7·size) becomes one contact at the mean of the two carried
	// points with the mean normal, the same whichever box comes first.
	merge := 1e-7 * scale
	for a := 0; a < len(d.face); a++ {
		fa := d.face[a]
		if fa.inc < 0 {
			continue
		}
		c := Contact{Kind: BoxBox, I: i, J: j, Other: -1, N: fa.n, P: fa.p}
		if a < nA {
			for b := nA; b < len(d.face); b++ {
				fb := &d.face[b]
				dp := r3.Sub(fb.p, fa.p)
				if fb.inc >= 0 && r3.Norm(r3.Sub(dp, r3.Scale(r3.Dot(dp, fa.n), fa.n))) <= merge {
					c.P = r3.Scale(0.5, r3.Add(c.P, fb.p))
					c.N = r3.Unit(r3.Add(fa.n, fb.n))
					fb.inc = -1
					break
				}
			}
		}
		d.add(c)
	}
}

// boxSeparations returns the separations of boxes A and B along their
// face axes (0–2 A's, 3–5 B's) and the nine edge–edge axes (into
// edgeSep, 3a+b for A's edge a and B's edge b; parallel edges skipped):
// the best (largest, ties within tol to the first) of each kind. ok is
// false, and the search stops, at the first axis separating them by more
// than tol. The penetration depth of overlapping boxes is
// −max(bestFaceSep, bestEdgeSep).
func boxSeparations(A, B *obb, tol float64, edgeSep *[9]float64) (bestFace int, bestFaceSep float64, bestEdge int, bestEdgeSep float64, ok bool) {
	t := r3.Sub(B.c, A.c)
	bestFace, bestFaceSep = -1, math.Inf(-1)
	for k := 0; k < 6; k++ {
		var l r3.Vec
		if k < 3 {
			l = A.ax[k]
		} else {
			l = B.ax[k-3]
		}
		sep := math.Abs(r3.Dot(t, l)) - (A.radius(l) + B.radius(l))
		if sep > tol {
			return
		}
		if sep > bestFaceSep+tol {
			bestFace, bestFaceSep = k, sep
		}
	}
	bestEdge, bestEdgeSep = -1, math.Inf(-1)
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			l := r3.Cross(A.ax[a], B.ax[b])
			ln := r3.Norm(l)
			if ln < 1e-6 {
				continue
			}
			l = r3.Scale(1/ln, l)
			sep := math.Abs(r3.Dot(t, l)) - (A.radius(l) + B.radius(l))
			if sep > tol {
				return
			}
			edgeSep[3*a+b] = sep
			if sep > bestEdgeSep+tol {
				bestEdge, bestEdgeSep = 3*a+b, sep
			}
		}
	}
	return bestFace, bestFaceSep, bestEdge, bestEdgeSep, true
}

// faceContacts clips the incident face of inc (the face most opposed to
// nOut, the outward normal of ref's face k; ref is body r, which is i or j)
// against the side planes of the reference face and adds every clipped
// vertex below the reference face to d.face with the normal carried back to
// q0 with the reference body, oriented from j to i.
func (d *detector) faceContacts(q0, q1 []float64, i, j, r int, ref, inc *obb, k int, nOut r3.Vec, tol float64) {
	ib := i
	if r == i {
		ib = j
	}
	n := nOut
	if r == i {
		n = r3.Scale(-1, n)
	}
	ik, isg, most := 0, 1.0, math.Inf(1)
	for a := 0; a < 3; a++ {
		dd := r3.Dot(inc.ax[a], nOut)
		if dd < most {
			ik, isg, most = a, 1, dd
		}
		if -dd < most {
			ik, isg, most = a, -1, -dd
		}
	}
	poly := d.clip[0][:0]
	fc := r3.Add(inc.c, r3.Scale(isg*inc.half[ik], inc.ax[ik]))
	u, w := (ik+1)%3, (ik+2)%3
	for _, sg := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		poly = append(poly, r3.Add(fc, r3.Add(r3.Scale(sg[0]*inc.half[u], inc.ax[u]), r3.Scale(sg[1]*inc.half[w], inc.ax[w]))))
	}
	buf := d.clip[1][:0]
	for _, a := range [2]int{(k + 1) % 3, (k + 2) % 3} {
		for _, sg := range [2]float64{1, -1} {
			dir := r3.Scale(sg, ref.ax[a])
			off := r3.Dot(dir, ref.c) + ref.half[a]
			buf = clipPoly(poly, buf[:0], dir, off, tol)
			poly, buf = buf, poly
		}
	}
	refOff := r3.Dot(nOut, ref.c) + ref.half[k]
	for _, p := range poly {
		if r3.Dot(nOut, p)-refOff < tol {
			d.face = append(d.face, facePoint{p: p, inc: ib, n: n})
		}
	}
}

// clipPoly keeps the part of polygon in with dir·x ≤ off (within tol; points
// inside the tolerance band are kept unchanged so that coincident edges do
// not create extra vertices).
func clipPoly(in, out []r3.Vec, dir r3.Vec, off, tol float64) []r3.Vec {
	n := len(in)
	for k := 0; k < n; k++ {
		p, q := in[k], in[(k+1)%n]
		dp, dq := r3.Dot(dir, p)-off, r3.Dot(dir, q)-off
		if dp <= tol {
			out = append(out, p)
		}
		if (dp < -tol && dq > tol) || (dp > tol && dq < -tol) {
			s := dp / (dp - dq)
			out = append(out, r3.Add(p, r3.Scale(s, r3.Sub(q, p))))
		}
	}
	return out
}

// supportEdge returns a point on the edge of b parallel to axis e that lies
// furthest along dir.
func supportEdge(b *obb, e int, dir r3.Vec) r3.Vec {
	p := b.c
	for a := 0; a < 3; a++ {
		if a == e {
			continue
		}
		p = r3.Add(p, r3.Scale(math.Copysign(b.half[a], r3.Dot(b.ax[a], dir)), b.ax[a]))
	}
	return p
}

// closestLineLine returns the closest points of lines p + s·u and q + t·v.
func closestLineLine(p, u, q, v r3.Vec) (r3.Vec, r3.Vec) {
	w := r3.Sub(p, q)
	a, b, c := r3.Dot(u, u), r3.Dot(u, v), r3.Dot(v, v)
	dd, e := r3.Dot(u, w), r3.Dot(v, w)
	den := a*c - b*b
	if den <= 1e-300 {
		return p, q
	}
	s := (b*e - c*dd) / den
	t := (a*e - b*dd) / den
	return r3.Add(p, r3.Scale(s, u)), r3.Add(q, r3.Scale(t, v))
}

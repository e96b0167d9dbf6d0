package rigid2d

import (
	"math"
	"slices"

	"impactsim/geom2d"
)

// Contact is one active constraint at the start of a step (q₀), in the form
// the problem needs: the unit normal N (the gradient with respect to body
// I's position; body J gets −N) and the lever arms RI, RJ from the bodies'
// centres at q₀ to the contact point.
type Contact struct {
	I, J int32 // J = -1 for a static plane
	// Plane is the static plane's index (-1 for body pairs).
	Plane int32
	// Torque says whether the normal has a moment about the centres (boxes);
	// for circles the arms are parallel to N and the normal's rotational
	// entries are exactly zero, as in SCISim.
	Torque bool
	N      [2]float64
	RI, RJ [2]float64
	// Kick is the extra velocity of body J's image relative to body I's
	// (Lees–Edwards portals); zero otherwise.
	Kick [2]float64
}

type detector struct {
	boxes    []aabb
	order    []int32
	pairs    [][2]int32
	pts      [][2]float64
	img      []image
	tele     []geom2d.ImagePair
	contacts []Contact
}

// image is a body's copy through a portal plane.
type image struct {
	body, portal int32
	throughB     bool
	x            [2]float64
}

func pos(q []float64, i int) [2]float64 { return [2]float64{q[3*i], q[3*i+1]} }

// candidates fills d.pairs with the pairs (a < b) of d.boxes that overlap,
// sorted, by sweep and prune along x.
func (d *detector) candidates() {
	d.order = d.order[:0]
	for i := range d.boxes {
		d.order = append(d.order, int32(i))
	}
	slices.SortFunc(d.order, func(a, b int32) int {
		switch xa, xb := d.boxes[a].lo[0], d.boxes[b].lo[0]; {
		case xa < xb:
			return -1
		case xa > xb:
			return 1
		}
		return int(a - b)
	})
	d.pairs = d.pairs[:0]
	for k, a := range d.order {
		ba := d.boxes[a]
		for _, b := range d.order[k+1:] {
			bb := d.boxes[b]
			if bb.lo[0] > ba.hi[0] {
				break
			}
			if ba.overlaps(bb) {
				d.pairs = append(d.pairs, [2]int32{min(a, b), max(a, b)})
			}
		}
	}
	slices.SortFunc(d.pairs, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
}

// detect fills d.contacts for the step q0 → q1 (q1 the free-flight
// prediction) in SCISim's order (RigidBody2DSim::computeActiveSet): body
// pairs in (i, j) order, then contacts with images through portals in
// (i, j) order, then plane contacts, plane by plane, body by body.
func (d *detector) detect(s *System, q0, q1, v0 []float64) {
	d.contacts = d.contacts[:0]
	n := s.N()
	d.boxes = d.boxes[:0]
	if len(s.Portals) == 0 {
		for i := 0; i < n; i++ {
			d.boxes = append(d.boxes, s.Shapes[i].swept(pos(q0, i), q0[3*i+2], pos(q1, i), q1[3*i+2]))
		}
		d.candidates()
		for _, p := range d.pairs {
			d.pair(s, int(p[0]), int(p[1]), q0, q1)
		}
	} else {
		d.withPortals(s, q0, q1)
	}
	for pi := range s.Planes {
		pl := &s.Planes[pi]
		for i := 0; i < n; i++ {
			if s.Fixed[i] {
				continue
			}
			sh := &s.Shapes[i]
			if sh.Kind == Circle {
				if pl.Dist(pos(q1, i)) <= sh.R {
					r := sh.R
					d.contacts = append(d.contacts, Contact{I: int32(i), J: -1, Plane: int32(pi), N: pl.N,
						RI: [2]float64{-r * pl.N[0], -r * pl.N[1]}})
				}
				continue
			}
			// Every corner of the box below the plane at q₁, arms at q₀.
			e0, e1 := rot(q1[3*i+2])
			f0, f1 := rot(q0[3*i+2])
			for _, sx := range [2]float64{-1, 1} {
				for _, sy := range [2]float64{-1, 1} {
					a := [2]float64{sx * sh.Half[0], sy * sh.Half[1]}
					v := [2]float64{q1[3*i] + e0[0]*a[0] + e1[0]*a[1], q1[3*i+1] + e0[1]*a[0] + e1[1]*a[1]}
					if pl.Dist(v) <= 0 {
						arm := [2]float64{f0[0]*a[0] + f1[0]*a[1], f0[1]*a[0] + f1[1]*a[1]}
						d.contacts = append(d.contacts, Contact{I: int32(i), J: -1, Plane: int32(pi), Torque: true, N: pl.N, RI: arm})
					}
				}
			}
		}
	}
}

// pair runs the narrow phase of bodies i < j (SCISim's
// dispatchNarrowPhaseCollision): circles by swept (continuous) detection
// from q₀ to q₁ with the normal and contact point at q₀, pairs with a box
// at q₁ with the lever arms taken at q₀.
func (d *detector) pair(s *System, i, j int, q0, q1 []float64) {
	if s.Fixed[i] && s.Fixed[j] {
		return
	}
	si, sj := &s.Shapes[i], &s.Shapes[j]
	switch {
	case si.Kind == Circle && sj.Kind == Circle:
		a0, b0 := pos(q0, i), pos(q0, j)
		if !geom2d.CirclesMeet(a0, pos(q1, i), si.R, b0, pos(q1, j), sj.R) {
			return
		}
		if s.Fixed[i] {
			i, j, si, sj, a0, b0 = j, i, sj, si, b0, a0 // the kinematic body second
		}
		nrm := normalize(a0[0]-b0[0], a0[1]-b0[1])
		c := Contact{I: int32(i), J: int32(j), Plane: -1, N: nrm}
		if s.Fixed[j] {
			// Against a kinematic circle SCISim puts the point on the
			// free circle's surface.
			p := [2]float64{a0[0] - si.R*nrm[0], a0[1] - si.R*nrm[1]}
			c.RI = [2]float64{-si.R * nrm[0], -si.R * nrm[1]}
			c.RJ = [2]float64{p[0] - b0[0], p[1] - b0[1]}
		} else {
			k := si.R / (si.R + sj.R)
			p := [2]float64{a0[0] + k*(b0[0]-a0[0]), a0[1] + k*(b0[1]-a0[1])}
			c.RI = [2]float64{p[0] - a0[0], p[1] - a0[1]}
			c.RJ = [2]float64{p[0] - b0[0], p[1] - b0[1]}
		}
		d.contacts = append(d.contacts, c)
	case si.Kind == Box && sj.Kind == Box:
		var nrm [2]float64
		var ok bool
		d.pts = d.pts[:0]
		nrm, d.pts, ok = boxBox(pos(q1, i), q1[3*i+2], si.Half, pos(q1, j), q1[3*j+2], sj.Half, d.pts)
		if !ok {
			return
		}
		for _, p := range d.pts {
			d.contacts = append(d.contacts, d.bodyBody(i, j, p, nrm, q0))
		}
	default:
		ci, bi := i, j
		if si.Kind == Box {
			ci, bi = j, i
		}
		nrm, p, ok := circleBox(pos(q1, ci), s.Shapes[ci].R, pos(q1, bi), q1[3*bi+2], s.Shapes[bi].Half)
		if !ok {
			return
		}
		if s.Fixed[bi] && !s.Fixed[ci] {
			// Against a kinematic box SCISim puts the point on the
			// circle's surface at q₀.
			r := s.Shapes[ci].R
			x := pos(q0, ci)
			pp := [2]float64{x[0] - r*nrm[0], x[1] - r*nrm[1]}
			xb := pos(q0, bi)
			d.contacts = append(d.contacts, Contact{I: int32(ci), J: int32(bi), Plane: -1, Torque: true, N: nrm,
				RI: [2]float64{-r * nrm[0], -r * nrm[1]}, RJ: [2]float64{pp[0] - xb[0], pp[1] - xb[1]}})
			return
		}
		if ci < bi {
			d.contacts = append(d.contacts, d.bodyBody(ci, bi, p, nrm, q0))
		} else {
			d.contacts = append(d.contacts, d.bodyBody(bi, ci, p, [2]float64{-nrm[0], -nrm[1]}, q0))
		}
	}
}

// bodyBody is SCISim's BodyBodyConstraint: normal n (gradient for body i)
// and point p found at q₁, lever arms from the centres at q₀.
func (d *detector) bodyBody(i, j int, p, n [2]float64, q0 []float64) Contact {
	return Contact{I: int32(i), J: int32(j), Plane: -1, Torque: true, N: n,
		RI: [2]float64{p[0] - q0[3*i], p[1] - q0[3*i+1]},
		RJ: [2]float64{p[0] - q0[3*j], p[1] - q0[3*j+1]}}
}

// withPortals is SCISim's computeBodyBodyActiveSetSpatialGridWithPortals:
// boxes at q₁ only, plus for every portal and body touching one of its
// planes (the box of the body at q₁ reaches behind it) an image through
// that plane. Pairs of bodies go through the ordinary narrow phase; pairs
// with an image give at most one contact per pair of bodies (the first
// found), tested for overlap at q₁, with normal and arms from the images at
// q₀; both-image pairs of bodies that meet directly are skipped.
func (d *detector) withPortals(s *System, q0, q1 []float64) {
	n := s.N()
	for i := 0; i < n; i++ {
		d.boxes = append(d.boxes, s.Shapes[i].box(pos(q1, i), q1[3*i+2]))
	}
	d.img = d.img[:0]
	for pi := range s.Portals {
		po := &s.Portals[pi]
		for i := 0; i < n; i++ {
			var throughB bool
			switch b := d.boxes[i]; {
			case boxBehind(&po.A, b):
			case boxBehind(&po.B, b):
				throughB = true
			default:
				continue
			}
			x := po.Teleport(pos(q1, i), throughB)
			d.img = append(d.img, image{body: int32(i), portal: int32(pi), throughB: throughB, x: x})
			d.boxes = append(d.boxes, s.Shapes[i].box(x, q1[3*i+2]))
		}
	}
	d.candidates()
	d.tele = d.tele[:0]
	for _, p := range d.pairs {
		a, b := int(p[0]), int(p[1])
		if a < n && b < n {
			d.pair(s, a, b, q0, q1)
			continue
		}
		// b is an image (b > a); a is a body or an image.
		im := d.img[b-n]
		tc := geom2d.ImagePair{B0: int32(a), B1: im.body, P0: -1, P1: im.portal, ThroughB1: im.throughB}
		x1 := im.x
		var x0 [2]float64
		if a >= n {
			im := d.img[a-n]
			tc.B0, tc.P0, tc.ThroughB0, x0 = im.body, im.portal, im.throughB, im.x
		} else {
			x0 = pos(q1, a)
		}
		i, j := int(tc.B0), int(tc.B1)
		if i == j || s.Fixed[i] && s.Fixed[j] {
			continue
		}
		ri, rj := s.Shapes[i].R, s.Shapes[j].R
		if a >= n && overlap(pos(q1, i), pos(q1, j), ri, rj) {
			continue // met directly, found as an ordinary pair
		}
		if !overlap(x0, x1, ri, rj) {
			continue
		}
		d.tele = append(d.tele, tc.Ordered())
	}
	for _, tc := range geom2d.FirstPerPair(d.tele) {
		i, j := int(tc.B0), int(tc.B1)
		x0, x1 := s.imageAt(q0, i, int(tc.P0), tc.ThroughB0), s.imageAt(q0, j, int(tc.P1), tc.ThroughB1)
		ri, rj := s.Shapes[i].R, s.Shapes[j].R
		k := ri / (ri + rj)
		c := Contact{I: tc.B0, J: tc.B1, Plane: -1, N: normalize(x0[0]-x1[0], x0[1]-x1[1]),
			RI: [2]float64{k * (x1[0] - x0[0]), k * (x1[1] - x0[1])},
			RJ: [2]float64{(k - 1) * (x1[0] - x0[0]), (k - 1) * (x1[1] - x0[1])}}
		// The image of a body behind a Lees–Edwards plane moves with the
		// shear velocity (body J's portal first, as SCISim).
		switch {
		case tc.P1 >= 0 && s.Portals[tc.P1].LeesEdwards():
			c.Kick = s.Portals[tc.P1].Shear(tc.ThroughB1)
		case tc.P0 >= 0 && s.Portals[tc.P0].LeesEdwards():
			u := s.Portals[tc.P0].Shear(tc.ThroughB0)
			c.Kick = [2]float64{-u[0], -u[1]}
		}
		d.contacts = append(d.contacts, c)
	}
}

// imageAt returns body i's centre in q, through the given portal plane
// (unchanged when portal < 0).
func (s *System) imageAt(q []float64, i, portal int, throughB bool) [2]float64 {
	if portal < 0 {
		return pos(q, i)
	}
	return s.Portals[portal].Teleport(pos(q, i), throughB)
}

// boxBehind reports whether a corner of b lies on or behind the plane
// (SCISim's aabbInHalfPlane).
func boxBehind(pl *Plane, b aabb) bool {
	for _, c := range [4][2]float64{{b.lo[0], b.lo[1]}, {b.lo[0], b.hi[1]}, {b.hi[0], b.lo[1]}, {b.hi[0], b.hi[1]}} {
		if pl.Dist(c) <= 0 {
			return true
		}
	}
	return false
}

func overlap(a, b [2]float64, ra, rb float64) bool {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return dx*dx+dy*dy <= (ra+rb)*(ra+rb)
}

// normalize returns (x, y)/|(x, y)| as Eigen's normalized() (unchanged when
// zero).
func normalize(x, y float64) [2]float64 {
	n2 := x*x + y*y
	if n2 == 0 {
		return [2]float64{x, y}
	}
	l := math.Sqrt(n2)
	return [2]float64{x / l, y / l}
}

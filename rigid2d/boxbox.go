package rigid2d

import "math"

// boxBox finds the contacts of two boxes at (x0, θ0) and (x1, θ1) with half
// extents h0 and h1 by the separating-axis test over the four face normals,
// as SCISim's BoxBoxTools. If no axis separates them, the axis of least
// penetration (the first of equals, in the order box 0's x and y axes, box
// 1's x and y axes) gives the reference face; the incident face is the face
// of the other box most opposed to it. The incident face, projected onto the
// reference face and clipped to it, gives one or two points; those below
// the reference face (depth d ≥ 0) become contacts, moved up by d/2 so that
// neither body is favoured. n is the unit normal pointing from box 1 to
// box 0 (the gradient with respect to box 0's position). It appends the
// points to pts and returns them with ok false when the boxes are apart.
func boxBox(x0 [2]float64, th0 float64, h0 [2]float64, x1 [2]float64, th1 float64, h1 [2]float64, pts [][2]float64) (n [2]float64, out [][2]float64, ok bool) {
	a0, a1 := rot(th0) // box 0's axes
	b0, b1 := rot(th1) // box 1's axes
	axes0, axes1 := [2][2]float64{a0, a1}, [2][2]float64{b0, b1}
	// |R0ᵀ R1|: box 1's extent along box 0's axes and vice versa.
	var q [2][2]float64
	for r := 0; r < 2; r++ {
		for c := 0; c < 2; c++ {
			q[r][c] = math.Abs(dot(axes0[r], axes1[c]))
		}
	}
	p := [2]float64{x1[0] - x0[0], x1[1] - x0[1]}
	best, feature, invert := math.Inf(-1), -1, false
	test := func(d, w float64, f int) bool {
		pen := math.Abs(d) - w
		if pen > 0 {
			return true
		}
		if pen > best {
			best, invert, feature = pen, d < 0, f
		}
		return false
	}
	for k := 0; k < 2; k++ {
		if test(dot(axes0[k], p), q[k][0]*h1[0]+q[k][1]*h1[1]+h0[k], k) {
			return n, pts, false
		}
	}
	for k := 0; k < 2; k++ {
		if test(dot(axes1[k], p), q[0][k]*h0[0]+q[1][k]*h0[1]+h1[k], 2+k) {
			return n, pts, false
		}
	}
	// Reference box a (its face normal is the contact normal), incident b.
	firstRef := feature < 2
	an := feature % 2
	ra, rb := axes0, axes1
	xa, xb := x0, x1
	ha, hb := h0, h1
	if !firstRef {
		ra, rb, xa, xb, ha, hb = axes1, axes0, x1, x0, h1, h0
	}
	n = ra[an]
	if invert {
		n = [2]float64{-n[0], -n[1]}
	}
	nab := n // from a towards b
	if !firstRef {
		nab = [2]float64{-n[0], -n[1]}
	}
	nb := [2]float64{dot(rb[0], nab), dot(rb[1], nab)}
	bn := 0
	if math.Abs(nb[1]) > math.Abs(nb[0]) {
		bn = 1
	}
	bt, at := 1-bn, 1-an
	// Centre of the incident face relative to xa.
	sgn := -1.0
	if nb[bn] < 0 {
		sgn = 1
	}
	f := [2]float64{xb[0] - xa[0] + sgn*hb[bn]*rb[bn][0], xb[1] - xa[1] + sgn*hb[bn]*rb[bn][1]}
	c := dot(f, ra[at])
	cos := dot(ra[at], rb[bt])
	lo, hi := c-cos*hb[bt], c+cos*hb[bt]
	if lo > hi {
		lo, hi = hi, lo
	}
	lo, hi = math.Min(lo, ha[at]), math.Max(hi, -ha[at])
	lo, hi = math.Max(-ha[at], lo), math.Min(ha[at], hi)
	ends := [2]float64{lo, hi}
	m := 2
	if lo == hi {
		m = 1
	}
	for k := 0; k < m; k++ {
		s := (ends[k] - c) / cos
		pt := [2]float64{f[0] + s*rb[bt][0], f[1] + s*rb[bt][1]}
		depth := ha[an] - dot(nab, pt)
		if depth >= 0 {
			pts = append(pts, [2]float64{xa[0] + pt[0] + 0.5*depth*nab[0], xa[1] + pt[1] + 0.5*depth*nab[1]})
		}
	}
	return [2]float64{-n[0], -n[1]}, pts, true
}

// circleBox finds the contact of a circle of radius r at x0 with a box of
// half extents h at (x1, θ), as SCISim's CircleBoxTools: the circle centre
// in the box frame is reflected into the first quadrant; facing an edge the
// normal is that edge's, beyond a corner it points from the corner to the
// centre. n is the unit normal from the box towards the circle and p the
// point halfway through the overlap; ok is false when they are apart.
func circleBox(x0 [2]float64, r float64, x1 [2]float64, th float64, h [2]float64) (n, p [2]float64, ok bool) {
	c0, c1 := rot(th)
	d := [2]float64{x0[0] - x1[0], x0[1] - x1[1]}
	xc := [2]float64{dot(c0, d), dot(c1, d)}
	fx, fy := xc[0] < 0, xc[1] < 0
	if fx {
		xc[0] = -xc[0]
	}
	if fy {
		xc[1] = -xc[1]
	}
	var pen float64
	corner := false
	if h[0]*xc[1] < h[1]*xc[0] {
		if xc[1] <= h[1] {
			pen = xc[0] - r - h[0]
			if pen > 0 {
				return n, p, false
			}
			n = [2]float64{1, 0}
		} else {
			corner = true
		}
	} else {
		if xc[0] <= h[0] {
			pen = xc[1] - r - h[1]
			if pen > 0 {
				return n, p, false
			}
			n = [2]float64{0, 1}
		} else {
			corner = true
		}
	}
	if corner {
		n = [2]float64{xc[0] - h[0], xc[1] - h[1]}
		d2 := n[0]*n[0] + n[1]*n[1]
		if d2 > r*r {
			return n, p, false
		}
		l := math.Sqrt(d2)
		n = [2]float64{n[0] / l, n[1] / l}
		pen = l - r
	}
	k := r + 0.5*pen
	p = [2]float64{xc[0] - k*n[0], xc[1] - k*n[1]}
	if fx {
		n[0], p[0] = -n[0], -p[0]
	}
	if fy {
		n[1], p[1] = -n[1], -p[1]
	}
	// back to the world frame
	n = [2]float64{c0[0]*n[0] + c1[0]*n[1], c0[1]*n[0] + c1[1]*n[1]}
	p = [2]float64{c0[0]*p[0] + c1[0]*p[1] + x1[0], c0[1]*p[0] + c1[1]*p[1] + x1[1]}
	return n, p, true
}

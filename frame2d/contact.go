package frame2d

import "math"

// Triple is a vertex–edge sidedness constraint (sec. 2, Fig. 5): vertex K
// must stay on the outer side of the edge from I to J, i.e. the doubled
// signed area A(p_I, p_J, p_K) ≥ 0. The edge is oriented so that the
// outside of its brick is on the left. I = J = −1 denotes the ground: the
// constraint is then y_K ≥ 0.
type Triple struct {
	I, J, K int
	A, B    int     // the bodies owning the edge (−1: ground) and the vertex
	T       float64 // the foot of K on the edge at step ℓ: (1 − T) p_I + T p_J
	N       Vec     // (p_J − p_I)^⊥ at step ℓ (the ground: (0, 1))
	Gap     float64 // A(p_I, p_J, p_K) at step ℓ (the ground: y_K)
}

// edgeScore returns, for each edge m of convex polygon a (counter-clockwise)
// the minimum over the vertices of b of the signed distance from the line
// through the edge (positive outside a), and the best (largest) one. Ties
// prefer the edge whose outward normal points up most, then the lower
// index, so that the choice is mirror-invariant for bricks at rest.
func edgeScore(a, b [4]Vec) (best float64, bestEdge int, ny float64) {
	best = math.Inf(-1)
	scale := 0.0
	for _, v := range a {
		scale = math.Max(scale, math.Max(math.Abs(v.X), math.Abs(v.Y)))
	}
	tie := 1e-12 * math.Max(scale, 1)
	for m := 0; m < 4; m++ {
		c0, c1 := a[m], a[(m+1)%4]
		e := c1.Sub(c0)
		l := e.Norm()
		out := Vec{e.Y / l, -e.X / l}
		s := math.Inf(1)
		for _, v := range b {
			s = math.Min(s, v.Sub(c0).Dot(out))
		}
		if s > best+tie || (s > best-tie && out.Y > ny+1e-12) {
			best, bestEdge, ny = s, m, out.Y
		}
	}
	return
}

// separation returns the separating-axis distance of two convex
// quadrilaterals (negative: penetration depth) and the critical edge of
// sec. 8.5: which polygon owns it (0: a, 1: b) and its index.
//
// Sec. 8.5 picks, for each of the two polygons, its best separating edge
// and then the "least satisfied" of the two. We take the better (more
// separating) of the two instead: when only one polygon has a separating
// edge, the other's best edge is violated at step ℓ already and would push
// the bricks apart; the larger of the two is the separating-axis distance
// (exact for touching and penetrating convex polygons).
func separation(a, b [4]Vec) (s float64, owner, edge int) {
	sa, ea, nya := edgeScore(a, b)
	sb, eb, nyb := edgeScore(b, a)
	scale := 0.0
	for k := range a {
		scale = math.Max(scale, math.Max(math.Max(math.Abs(a[k].X), math.Abs(a[k].Y)), math.Max(math.Abs(b[k].X), math.Abs(b[k].Y))))
	}
	tie := 1e-12 * math.Max(scale, 1)
	if sb > sa+tie || (sb > sa-tie && nyb > nya+1e-12) {
		return sb, 1, eb
	}
	return sa, 0, ea
}

// triples appends to dst the sidedness constraints at the positions pos
// (sec. 8.5, applied per vertex): for every pair of bodies (not both
// fixed) whose bounding boxes come within margin, every vertex of one body
// is constrained against its best separating edge of the other — the edge
// whose line it is "most satisfied or least violated" by (largest signed
// distance) — if that distance is at most margin. For a convex polygon
// the line through that edge separates the vertex from the whole polygon
// whenever the distance is positive, so the constraint never blocks a
// motion that keeps the bodies apart (a vertex beyond the end of an edge
// is held by the adjacent edge, so a brick can tip over the edge of the
// brick below it), and both ends of a contact interval are constrained.
// Ties (a vertex exactly at a corner) prefer the edge facing the vertex's
// body (largest ⟨n, c_vertex body − c_edge body⟩), then the edge whose
// normal points up, which keeps the choice mirror-invariant. Corners
// within margin of the ground get y ≥ 0.
func (f *Framework) triples(dst []Triple, pos []Vec, margin float64) []Triple {
	nb := len(f.Bodies)
	corners := func(b int) [4]Vec {
		var c [4]Vec
		for k, p := range f.Bodies[b].Hull {
			c[k] = pos[p]
		}
		return c
	}
	type box struct{ x0, y0, x1, y1 float64 }
	boxes := make([]box, nb)
	for b := range f.Bodies {
		c := corners(b)
		bx := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, v := range c {
			bx.x0, bx.y0 = math.Min(bx.x0, v.X), math.Min(bx.y0, v.Y)
			bx.x1, bx.y1 = math.Max(bx.x1, v.X), math.Max(bx.y1, v.Y)
		}
		boxes[b] = bx
	}
	for a := 0; a < nb; a++ {
		ba := f.Bodies[a]
		if f.Ground && !ba.Fixed {
			for _, k := range ba.Hull {
				if pos[k].Y <= margin {
					dst = append(dst, Triple{I: -1, J: -1, K: k, A: -1, B: a, N: Vec{0, 1}, Gap: pos[k].Y})
				}
			}
		}
		for b := a + 1; b < nb; b++ {
			bb := f.Bodies[b]
			if ba.Fixed && bb.Fixed {
				continue
			}
			x, y := boxes[a], boxes[b]
			if x.x0 > y.x1+margin || y.x0 > x.x1+margin || x.y0 > y.y1+margin || y.y0 > x.y1+margin {
				continue
			}
			dst = f.vertexTriples(dst, pos, a, b, margin)
			dst = f.vertexTriples(dst, pos, b, a, margin)
		}
	}
	return dst
}

// vertexTriples appends, for each vertex of body vb, the triple with its
// best separating edge of body eb (if within margin).
func (f *Framework) vertexTriples(dst []Triple, pos []Vec, eb, vb int, margin float64) []Triple {
	hull := f.Bodies[eb].Hull
	var ce, cv Vec
	for k := 0; k < 4; k++ {
		ce = ce.Add(pos[hull[k]].Scale(0.25))
		cv = cv.Add(pos[f.Bodies[vb].Hull[k]].Scale(0.25))
	}
	dir := cv.Sub(ce)
	dir = dir.Scale(1 / dir.Norm())
	scale := 0.0
	for _, p := range hull {
		scale = math.Max(scale, pos[p].Sub(ce).Norm())
	}
	tie := 1e-9 * scale
	for _, k := range f.Bodies[vb].Hull {
		best, bm := math.Inf(-1), -1
		var bFace, bUp float64
		for m := 0; m < 4; m++ {
			c0, c1 := pos[hull[m]], pos[hull[(m+1)%4]]
			e := c1.Sub(c0)
			out := Vec{e.Y, -e.X}.Scale(1 / e.Norm())
			d := pos[k].Sub(c0).Dot(out)
			face := out.Dot(dir)
			better := d > best+tie
			if !better && d > best-tie {
				better = face > bFace+1e-9 || (face > bFace-1e-9 && out.Y > bUp+1e-9)
			}
			if better {
				best, bm, bFace, bUp = d, m, face, out.Y
			}
		}
		if best > margin {
			continue
		}
		// outside on the left: from corner m+1 to corner m.
		i, j := hull[(bm+1)%4], hull[bm]
		e := pos[j].Sub(pos[i])
		t := pos[k].Sub(pos[i]).Dot(e) / e.Dot(e)
		dst = append(dst, Triple{I: i, J: j, K: k, A: eb, B: vb, T: t, N: e.Perp(), Gap: area2(pos[i], pos[j], pos[k])})
	}
	return dst
}

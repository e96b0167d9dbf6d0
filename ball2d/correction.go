package ball2d

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"impactsim/mech"
)

// The missed-contact search of the position correction (sim.Correction,
// sim.MissedContactFinder). Alg. 4 finds its active set on the free-flight
// prediction q̃; the impulses then bend the balls' paths, and a ball can
// end the step inside one that the active set never met (a ball bouncing
// off the pile at 60 m/s with h = 0.01 moves 0.6 radii into the next
// falling ball). FindMissed looks around the balls that ended farther than
// a search distance from where the active set was found.

// missed holds FindMissed's workspaces.
type missed struct {
	moved   []int32 // balls searched in this call
	isMoved []bool  // per ball, true while a call runs
	cellPtr []int32 // the balls near the moved ones by cell (counting sort)
	byCell  []int32
	key     []int32 // per ball: its cell, −1 outside the grid
	cand    []Contact
	// extras found since the last BuildProblem, sorted by (Kind, Obj, I,
	// J), for the "found before" test
	sorted []Contact
	// the arguments of the current scan (scanChunk) and the grid
	q      []float64
	tol    float64
	nx, ny int32
	fScan  func(w, lo, hi int)
	self   *missed
	sys    *System
}

// contactLess orders contacts by kind, then object, then balls.
func contactCmp(a, b Contact) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Obj, b.Obj); c != 0 {
		return c
	}
	if c := cmp.Compare(a.I, b.I); c != 0 {
		return c
	}
	return cmp.Compare(a.J, b.J)
}

// FindMissed implements sim.MissedContactFinder: around every movable ball
// whose centre in q is more than search from its centre in ref, it finds
// the ball pairs, drum and plane contacts that overlap at q by more than
// tol and are neither contacts of the last BuildProblem nor found before,
// and moves those balls' ref to q. Each contact found is appended to the
// system's contacts (Gaps covers it; Contacts does not list it) and to p
// with its gradient at q (BuildProblem's column conventions; no friction
// column). Scenes with portals are not searched (their pairs go through
// images); it returns 0 for them. The search is serial and its result is
// in a fixed order, independent of the worker count. It does not allocate
// once its workspaces have grown.
func (s *System) FindMissed(ref, q []float64, search, tol float64, p *mech.Problem) int {
	if len(s.Portals) > 0 {
		return 0
	}
	d := &s.det
	mf := &s.miss
	n := s.N()
	mf.isMoved = grow(mf.isMoved, n)
	mf.moved = mf.moved[:0]
	rmax := 0.0
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	s2 := search * search
	for i := 0; i < n; i++ {
		rmax = math.Max(rmax, s.R[i])
		if s.Fixed[i] {
			continue
		}
		dx, dy := q[2*i]-ref[2*i], q[2*i+1]-ref[2*i+1]
		if !(dx*dx+dy*dy > s2) || !finite(q[2*i]) || !finite(q[2*i+1]) {
			continue // a state gone non-finite is the stepper's Check's
		}
		ref[2*i], ref[2*i+1] = q[2*i], q[2*i+1]
		mf.isMoved[i] = true
		mf.moved = append(mf.moved, int32(i))
		minX, maxX = math.Min(minX, q[2*i]), math.Max(maxX, q[2*i])
		minY, maxY = math.Min(minY, q[2*i+1]), math.Max(maxY, q[2*i+1])
	}
	if len(mf.moved) == 0 {
		return 0
	}
	defer func() {
		for _, i := range mf.moved {
			mf.isMoved[i] = false
		}
	}()
	mf.cand = mf.cand[:0]
	s.missedPairs(q, tol, rmax, minX, minY, maxX, maxY)
	s.missedWalls(q, tol)
	// Keep the contacts neither in the last BuildProblem's list nor found
	// before, in (kind, object, ball) order.
	slices.SortFunc(mf.cand, contactCmp)
	added := 0
	for _, c := range mf.cand {
		if d.known(c) {
			continue
		}
		if _, dup := slices.BinarySearchFunc(mf.sorted, c, contactCmp); dup {
			continue
		}
		d.contacts = append(d.contacts, c)
		s.appendColumn(p, &c)
		added++
	}
	if added > 0 {
		mf.sorted = mergeSorted(mf.sorted, d.contacts[len(d.contacts)-added:], contactCmp)
	}
	return added
}

// mergeSorted returns sorted with the elements of add merged in, both in
// cmp order and with no element in both: the slice that sorting their
// concatenation gives (the keys are distinct), in O(len) instead of a sort
// of the whole, merged backwards in place (it grows sorted only; add must
// not share its storage).
func mergeSorted[T any](sorted, add []T, cmp func(a, b T) int) []T {
	i, j := len(sorted)-1, len(add)-1
	sorted = append(sorted, add...)
	for w := len(sorted) - 1; j >= 0; w-- {
		if i >= 0 && cmp(sorted[i], add[j]) > 0 {
			sorted[w] = sorted[i]
			i--
		} else {
			sorted[w] = add[j]
			j--
		}
	}
	return sorted
}

// missedPairs appends to s.miss.cand every pair of a moved ball and another
// ball overlapping at q by more than tol, once each. The balls within h =
// 2·rmax of the moved balls' bounding box are counting-sorted into cells of
// side h (doubled while the grid would have more than 4k + 1024 cells for
// k balls in it), and every moved ball is tried against the balls of its
// 3×3 cells: the work is that of the moved balls and their neighbours,
// plus one look at every ball to sort it.
func (s *System) missedPairs(q []float64, tol, rmax, minX, minY, maxX, maxY float64) {
	mf := &s.miss
	// a pair that overlaps is closer than rᵢ + rⱼ ≤ 2·rmax < h: the factor
	// keeps it within adjacent cells through the divisions' rounding
	h := 2 * rmax * (1 + 1e-9)
	if !(h > 0) || math.IsInf(h, 0) {
		return
	}
	ox, oy := minX-h, minY-h
	w, ht := maxX+h-ox, maxY+h-oy
	n := s.N()
	mf.key = grow(mf.key, n)
	inBox := 0
	for j := 0; j < n; j++ {
		x, y := q[2*j], q[2*j+1]
		if x >= ox && x <= ox+w && y >= oy && y <= oy+ht {
			inBox++
		}
	}
	limit := float64(4*inBox + 1024)
	for (math.Floor(w/h)+1)*(math.Floor(ht/h)+1) > limit {
		h *= 2
	}
	nx, ny := int32(w/h)+1, int32(ht/h)+1
	nc := int(nx) * int(ny)
	mf.cellPtr = grow(mf.cellPtr, nc+1)
	clear(mf.cellPtr)
	// key[j]: ball j's cell, −1 outside the grid (or not finite)
	for j := 0; j < n; j++ {
		fx, fy := (q[2*j]-ox)/h, (q[2*j+1]-oy)/h
		if !(fx >= 0 && fy >= 0 && fx < float64(nx) && fy < float64(ny)) {
			mf.key[j] = -1
			continue
		}
		c := int32(fy)*nx + int32(fx)
		mf.key[j] = c
		mf.cellPtr[c+1]++
	}
	for c := 0; c < nc; c++ {
		mf.cellPtr[c+1] += mf.cellPtr[c]
	}
	mf.byCell = grow(mf.byCell, int(mf.cellPtr[nc]))
	for j := 0; j < n; j++ {
		if c := mf.key[j]; c >= 0 {
			mf.byCell[mf.cellPtr[c]] = int32(j)
			mf.cellPtr[c]++
		}
	}
	// cellPtr[c] is now the end of cell c; shift back to starts
	for c := nc; c > 0; c-- {
		mf.cellPtr[c] = mf.cellPtr[c-1]
	}
	mf.cellPtr[0] = 0
	// Every moved ball against the balls of its 3×3 cells, on the pool;
	// the hits are gathered in chunk order (and sorted by the caller).
	if mf.self != mf {
		mf.self, mf.fScan = mf, mf.scanChunk
	}
	mf.sys, mf.q, mf.tol, mf.nx, mf.ny = s, q, tol, nx, ny
	d := &s.det
	nch := d.run(len(mf.moved), mf.fScan)
	for _, hs := range d.wcont[:nch] {
		for _, ht := range hs {
			mf.cand = append(mf.cand, ht.ballPair())
		}
	}
	mf.sys, mf.q = nil, nil
}

// scanChunk tries the moved balls moved[lo:hi] against the balls of their
// 3×3 cells (a pair of two moved balls from the one with the smaller
// index); pairs overlapping by more than the tolerance go to chunk w's hits.
func (mf *missed) scanChunk(w, lo, hi int) {
	s, q, nx, ny := mf.sys, mf.q, mf.nx, mf.ny
	out := s.det.wcont[w]
	for _, i32 := range mf.moved[lo:hi] {
		i := int(i32)
		c := mf.key[i]
		cx, cy := c%nx, c/nx
		xi, yi := q[2*i], q[2*i+1]
		for yy := max(cy-1, 0); yy <= min(cy+1, ny-1); yy++ {
			for xx := max(cx-1, 0); xx <= min(cx+1, nx-1); xx++ {
				c := yy*nx + xx
				for _, j32 := range mf.byCell[mf.cellPtr[c]:mf.cellPtr[c+1]] {
					j := int(j32)
					if j == i || mf.isMoved[j] && j < i || s.Fixed[j] && s.Fixed[i] {
						continue
					}
					rr := s.R[i] + s.R[j] - mf.tol
					dx, dy := xi-q[2*j], yi-q[2*j+1]
					if rr > 0 && dx*dx+dy*dy < rr*rr {
						a, b := min(i, j), max(i, j)
						out = append(out, hit{int32(a), int32(b), pairNormal(pos(q, a), pos(q, b), pos(q, a), pos(q, b))})
					}
				}
			}
		}
	}
	s.det.wcont[w] = out
}

// missedWalls appends to s.miss.cand the drum and plane contacts of the
// moved balls that overlap at q by more than tol.
func (s *System) missedWalls(q []float64, tol float64) {
	mf := &s.miss
	for _, i32 := range mf.moved {
		i := int(i32)
		x := pos(q, i)
		for di := range s.Drums {
			dr := &s.Drums[di]
			if (dr.R-s.R[i])-math.Hypot(x[0]-dr.C[0], x[1]-dr.C[1]) < -tol {
				nrm := pairNormal(dr.C, x, dr.C, x)
				mf.cand = append(mf.cand, Contact{Kind: BallDrum, I: i32, J: -1, Obj: int32(di), PortalI: -1, PortalJ: -1, N: nrm})
			}
		}
		for pi := range s.Planes {
			pl := &s.Planes[pi]
			if pl.N[0]*(x[0]-pl.P[0])+pl.N[1]*(x[1]-pl.P[1])-s.R[i] < -tol {
				mf.cand = append(mf.cand, Contact{Kind: BallPlane, I: i32, J: -1, Obj: int32(pi), PortalI: -1, PortalJ: -1, N: pl.N})
			}
		}
	}
}

// known reports whether the last detection has contact c (ball pairs by
// (I, J), drums and planes by (Obj, I), in detect's order).
func (d *detector) known(c Contact) bool {
	cs := d.cmpOrdered()
	lo := sort.Search(len(cs), func(k int) bool { return cs[k].Kind >= c.Kind })
	hi := lo + sort.Search(len(cs)-lo, func(k int) bool { return cs[lo+k].Kind > c.Kind })
	g := cs[lo:hi]
	var k int
	if c.Kind == BallBall {
		k = sort.Search(len(g), func(k int) bool { return g[k].I > c.I || g[k].I == c.I && g[k].J >= c.J })
		return k < len(g) && g[k].I == c.I && g[k].J == c.J
	}
	k = sort.Search(len(g), func(k int) bool { return g[k].Obj > c.Obj || g[k].Obj == c.Obj && g[k].I >= c.I })
	return k < len(g) && g[k].Obj == c.Obj && g[k].I == c.I
}

// appendColumn appends contact c's gradient (its normal N, at the
// positions where it was found) to p's G, with its coefficients and bodies.
func (s *System) appendColumn(p *mech.Problem, c *Contact) {
	i := 2 * int(c.I)
	p.G.Append(i, c.N[0])
	p.G.Append(i+1, c.N[1])
	if c.J >= 0 {
		j := 2 * int(c.J)
		p.G.Append(j, -c.N[0])
		p.G.Append(j+1, -c.N[1])
	}
	p.G.EndCol()
	p.AppendContact(s.CoR, s.Mu, s.block(int(c.I)), s.block(int(c.J)))
}

// Relinearize implements sim.Relinearizer: it overwrites the columns of
// G in p (the last BuildProblem's contacts, then those FindMissed
// appended) with the gradients at q — the unit normals of the pairs
// (through their portals' images) and drums at q; planes keep theirs.
func (s *System) Relinearize(q []float64, p *mech.Problem) {
	for k := range s.det.contacts {
		s.relinearize(q, p, k)
	}
}

// RelinearizeMoved implements sim.MovedReevaluator: Relinearize for the
// contacts that touch a ball whose block is marked in moved.
func (s *System) RelinearizeMoved(q []float64, p *mech.Problem, moved []bool) {
	for k := range s.det.contacts {
		if s.touchesMoved(&s.det.contacts[k], moved) {
			s.relinearize(q, p, k)
		}
	}
}

// relinearize overwrites contact k's column of G with its gradient at q.
func (s *System) relinearize(q []float64, p *mech.Problem, k int) {
	c := &s.det.contacts[k]
	var n [2]float64
	switch c.Kind {
	case BallBall, TeleportedBallBall:
		xi := s.imageAt(q, int(c.I), int(c.PortalI), c.PlaneI)
		xj := s.imageAt(q, int(c.J), int(c.PortalJ), c.PlaneJ)
		n = pairNormal(xi, xj, xi, xj)
	case BallDrum:
		dr := &s.Drums[c.Obj]
		x := pos(q, int(c.I))
		n = pairNormal(dr.C, x, dr.C, x)
	default:
		return
	}
	v := p.G.Val[p.G.Ptr[k]:p.G.Ptr[k+1]]
	v[0], v[1] = n[0], n[1]
	if len(v) == 4 {
		v[2], v[3] = -n[0], -n[1]
	}
}

package ball2d

import (
	"impactsim/geom2d"
	"math"
	"slices"
)

// ContactKind says which constraint a contact is.
type ContactKind uint8

const (
	// BallBall is gᵢⱼ(q) = |xᵢ − xⱼ| − rᵢ − rⱼ ≥ 0.
	BallBall ContactKind = iota
	// TeleportedBallBall is a ball–ball constraint between the images of
	// two balls across a planar portal (at least one of them teleported).
	TeleportedBallBall
	// BallDrum is g(q) = (R − r) − |x − c| ≥ 0.
	BallDrum
	// BallPlane is g(q) = n·(x − p) − r ≥ 0.
	BallPlane
)

func (k ContactKind) String() string {
	switch k {
	case BallBall:
		return "ball_ball"
	case TeleportedBallBall:
		return "teleported_ball_ball"
	case BallDrum:
		return "ball_drum"
	case BallPlane:
		return "ball_plane"
	}
	return "ContactKind(?)"
}

// Contact is one active constraint of the last BuildProblem, in column order.
//
// The fields are 32-bit (8-bit for the portal planes) so that a contact
// takes 40 bytes: a drum pile holds about one contact per ball.
type Contact struct {
	Kind ContactKind
	// PlaneI/PlaneJ say through which plane of its portal (0 = A, 1 = B)
	// the image of ball I/J was taken for a TeleportedBallBall contact.
	PlaneI, PlaneJ int8
	// I and J are the balls (I < J); J = -1 for drum and plane contacts.
	I, J int32
	// Obj is the drum or plane index, -1 for ball pairs.
	Obj int32
	// PortalI/PortalJ give the portal through which the image of ball I/J
	// was taken for a TeleportedBallBall contact (-1 if that ball is not
	// teleported).
	PortalI, PortalJ int32
	// N is the unit contact normal at q₀: the gradient of the constraint with
	// respect to ball I's position (ball J gets −N).
	N [2]float64
}

type detector struct {
	g          grid
	bruteForce bool // tests: use the all-pairs reference instead of the grid

	boxes    []aabb
	imgBall  []int32
	imgPort  []int32
	imgPlane []int8
	imgPos   [][2]float64
	tele     []geom2d.ImagePair
	contacts []Contact
	// ndetect is the number of contacts the last detection found; the
	// missed-contact search (FindMissed) appends after them.
	ndetect int
	// ordered says contacts[:ndetect] is in the mirror order
	// (System.MirrorOrder); byCmp then holds the same contacts in the
	// detection's (contactCmp) order, for known and the closure's merge.
	ordered bool
	byCmp   []Contact
	okeys   []orderKey
	otmp    []orderKey // sortOrderKeys' scratch
	cnt     []int32    // sortHits: per ball, then the end of its group

	// Parallel tasks: the arguments of the current call and per-chunk
	// outputs, concatenated in chunk order (so the result does not depend on
	// the number of workers).
	s        *System
	q0, q1   []float64
	curPairs []pair
	drum     int
	wcont    [][]hit
	fBoxes   func(w, lo, hi int)
	fCCD     func(w, lo, hi int)
	fDrum    func(w, lo, hi int)
	fCells   func(w, lo, hi int)
	self     *detector
}

func (d *detector) init() {
	if d.self == d {
		return
	}
	d.self = d // first call, or the System was copied
	d.fBoxes = d.boxesChunk
	d.fCCD = d.ccdChunk
	d.fDrum = d.drumChunk
	d.fCells = d.cellsChunk
}

// hit is a contact found by a parallel task, in compact form (a Contact is
// three times larger): ball pair (i, j) with normal n, or ball i and drum
// d.drum when j < 0.
type hit struct {
	i, j int32
	n    [2]float64
}

// run runs f over [0, n) on the pool with emptied per-chunk hit buffers
// and returns the number of chunks.
func (d *detector) run(n int, f func(w, lo, hi int)) int {
	nch := d.g.pool.Chunks(n, parGrain)
	if len(d.wcont) < nch {
		d.wcont = append(d.wcont, make([][]hit, nch-len(d.wcont))...)
	}
	for w := range d.wcont[:nch] {
		d.wcont[w] = d.wcont[w][:0]
	}
	d.g.pool.For(n, parGrain, f)
	return nch
}

// ballPair is the BallBall contact of hit h (h.j ≥ 0).
func (h hit) ballPair() Contact {
	return Contact{Kind: BallBall, I: h.i, J: h.j, Obj: -1, PortalI: -1, PortalJ: -1, N: h.n}
}

// gather runs f over [0, n) on the pool with per-chunk hit buffers and
// appends the hits to d.contacts in chunk order.
func (d *detector) gather(n int, f func(w, lo, hi int)) {
	nch := d.run(n, f)
	for _, hs := range d.wcont[:nch] {
		for _, h := range hs {
			if h.j >= 0 {
				d.contacts = append(d.contacts, h.ballPair())
			} else {
				d.contacts = append(d.contacts, Contact{Kind: BallDrum, I: h.i, J: -1, Obj: int32(d.drum), PortalI: -1, PortalJ: -1, N: h.n})
			}
		}
	}
}

func (d *detector) pairs() []pair {
	if d.bruteForce {
		d.g.pairs = bruteForcePairs(d.boxes, d.g.pairs)
		return d.g.pairs
	}
	return d.g.find(d.boxes)
}

func pos(q []float64, i int) [2]float64 { return [2]float64{q[2*i], q[2*i+1]} }

// unit returns d/|d| computed as Eigen's normalized() (componentwise division
// by the square root of the squared norm); ok is false for a zero or
// non-finite d.
func unit(dx, dy float64) ([2]float64, bool) {
	n := math.Sqrt(dx*dx + dy*dy)
	if !(n > 0) || math.IsInf(n, 0) {
		return [2]float64{}, false
	}
	return [2]float64{dx / n, dy / n}, true
}

// pairNormal returns the unit vector from b to a at q₀, falling back to the
// direction at q₁ and then to +x if the centres coincide.
func pairNormal(a0, b0, a1, b1 [2]float64) [2]float64 {
	if n, ok := unit(a0[0]-b0[0], a0[1]-b0[1]); ok {
		return n
	}
	if n, ok := unit(a1[0]-b1[0], a1[1]-b1[1]); ok {
		return n
	}
	return [2]float64{1, 0}
}

// ccd is the swept circle test of geom2d (SCISim's
// ballBallCCDCollisionHappens).
func ccd(a0, a1 [2]float64, ra float64, b0, b1 [2]float64, rb float64) bool {
	return geom2d.CirclesMeet(a0, a1, ra, b0, b1, rb)
}

// detect fills d.contacts for the step q0 → q1 (q1 the free-flight
// prediction), in SCISim's order: ordinary ball pairs sorted by (i, j),
// teleported pairs sorted by (i, j), drums (drum-major, then ball), planes
// (plane-major, then ball).
func (d *detector) detect(s *System, q0, q1 []float64) {
	d.init()
	d.s, d.q0, d.q1 = s, q0, q1
	d.contacts = d.contacts[:0]
	if len(s.Portals) == 0 {
		d.ballBallCCD(s, q0, q1)
	} else {
		d.ballBallPortals(s, q0, q1)
	}
	n := s.N()
	for di := range s.Drums {
		d.drum = di
		d.gather(n, d.fDrum)
	}
	for pi := range s.Planes {
		pl := &s.Planes[pi]
		for i := 0; i < n; i++ {
			if s.Fixed[i] {
				continue
			}
			if touches(pl, pos(q1, i), s.R[i]) {
				d.contacts = append(d.contacts, Contact{Kind: BallPlane, I: int32(i), J: -1, Obj: int32(pi), PortalI: -1, PortalJ: -1, N: pl.N})
			}
		}
	}
	d.s, d.q0, d.q1, d.curPairs = nil, nil, nil, nil
	d.ndetect = len(d.contacts)
	d.ordered = false
	s.miss.sorted = s.miss.sorted[:0]
	s.sweep.n = -1
}

// ballBallCCD: without portals, SCISim bounds each ball's straight path from
// q₀ to q₁ by a box, and keeps the pairs whose boxes overlap and whose paths
// come within rᵢ + rⱼ (ccd).
func (d *detector) ballBallCCD(s *System, q0, q1 []float64) {
	n := s.N()
	d.boxes = grow(d.boxes, n)
	nch := d.g.chunkBounds(n)
	d.g.pool.For(n, parGrain, d.fBoxes)
	if !d.bruteForce && d.g.cellLists(d.boxes, d.g.reduce(nch)) {
		// Broad and narrow phase in one parallel pass over the cells.
		nch := d.run(int(d.g.cellPtr[len(d.g.cellPtr)-1]), d.fCells)
		d.sortHits(n, nch)
		d.g.boxes = nil
		return
	}
	d.curPairs = d.pairs()
	d.gather(len(d.curPairs), d.fCCD)
}

// cellsChunk finds the contacts of the cell-sorted balls byCell[lo:hi]
// with the balls of their half stencils (grid.halfStencil: every pair of
// balls whose lower box corners lie in the same or adjacent cells is tried
// once), as hits (i, j) with i < j. sortHits puts them in (i, j) order.
func (d *detector) cellsChunk(w, lo, hi int) {
	s, q0, q1, g := d.s, d.q0, d.q1, &d.g
	boxes := d.boxes
	out := d.wcont[w]
	for p := lo; p < hi; p++ {
		a := int(g.byCell[p])
		near, above := g.halfStencil(p)
		out = d.tryPairs(out, a, near, s, q0, q1, boxes)
		out = d.tryPairs(out, a, above, s, q0, q1, boxes)
	}
	d.wcont[w] = out
}

// tryPairs appends a hit for every ball b of bs whose box overlaps ball a's
// and whose path comes within r_a + r_b of a's (ccd), as (min, max).
func (d *detector) tryPairs(out []hit, a int, bs []int32, s *System, q0, q1 []float64, boxes []aabb) []hit {
	ba := boxes[a]
	for _, b32 := range bs {
		if !ba.overlaps(boxes[b32]) {
			continue
		}
		i, j := a, int(b32)
		if j < i {
			i, j = j, i
		}
		if s.Fixed[i] && s.Fixed[j] {
			continue
		}
		i0, i1, j0, j1 := pos(q0, i), pos(q1, i), pos(q0, j), pos(q1, j)
		if ccd(i0, i1, s.R[i], j0, j1, s.R[j]) {
			out = append(out, hit{int32(i), int32(j), pairNormal(i0, j0, i1, j1)})
		}
	}
	return out
}

// sortHits appends the ball-pair hits of the first nch chunks to
// d.contacts sorted by (i, j) (pairs are unique, so the order is total):
// a counting sort on i over the n balls, then an insertion sort of each
// (short) group on j; or, when there are few hits for many balls (a gas),
// a comparison sort, which does not touch every ball.
func (d *detector) sortHits(n, nch int) {
	m := 0
	for _, hs := range d.wcont[:nch] {
		m += len(hs)
	}
	if m < n/32 {
		base := len(d.contacts)
		for _, hs := range d.wcont[:nch] {
			for _, h := range hs {
				d.contacts = append(d.contacts, h.ballPair())
			}
		}
		slices.SortFunc(d.contacts[base:], func(x, y Contact) int {
			if x.I != y.I {
				return int(x.I - y.I)
			}
			return int(x.J - y.J)
		})
		return
	}
	cnt := grow(d.cnt, n+1)
	d.cnt = cnt
	clear(cnt)
	for _, hs := range d.wcont[:nch] {
		for _, h := range hs {
			cnt[h.i+1]++
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	base := len(d.contacts)
	d.contacts = slices.Grow(d.contacts, m)[:base+m]
	out := d.contacts[base:]
	for _, hs := range d.wcont[:nch] {
		for _, h := range hs {
			out[cnt[h.i]] = h.ballPair()
			cnt[h.i]++
		}
	}
	// cnt[i] is now the end of group i.
	lo := int32(0)
	for i := 0; i < n; i++ {
		hi := cnt[i]
		grp := out[lo:hi]
		for x := 1; x < len(grp); x++ {
			for y := x; y > 0 && grp[y].J < grp[y-1].J; y-- {
				grp[y], grp[y-1] = grp[y-1], grp[y]
			}
		}
		lo = hi
	}
}

// boxesChunk bounds the paths of balls [lo, hi) and reduces the chunk's
// bounds for the cell lists (one pass over the boxes instead of two).
func (d *detector) boxesChunk(w, lo, hi int) {
	q0, q1 := d.q0, d.q1
	bd := emptyBounds()
	for i := lo; i < hi; i++ {
		a, b := pos(q0, i), pos(q1, i)
		r := d.s.R[i]
		// The builtins agree with math.Min/Max (NaN and signed zeros
		// included) and compile to fewer instructions.
		box := aabb{
			min(a[0], b[0]) - r, min(a[1], b[1]) - r,
			max(a[0], b[0]) + r, max(a[1], b[1]) + r,
		}
		d.boxes[i] = box
		bd.add(box)
	}
	d.g.red[w] = bd
}

func (d *detector) ccdChunk(w, lo, hi int) {
	s, q0, q1 := d.s, d.q0, d.q1
	out := d.wcont[w]
	for _, p := range d.curPairs[lo:hi] {
		i, j := int(p.a), int(p.b)
		if s.Fixed[i] && s.Fixed[j] {
			continue
		}
		a0, a1, b0, b1 := pos(q0, i), pos(q1, i), pos(q0, j), pos(q1, j)
		if ccd(a0, a1, s.R[i], b0, b1, s.R[j]) {
			out = append(out, hit{int32(i), int32(j), pairNormal(a0, b0, a1, b1)})
		}
	}
	d.wcont[w] = out
}

func (d *detector) drumChunk(w, lo, hi int) {
	s, q0, q1 := d.s, d.q0, d.q1
	dr := &s.Drums[d.drum]
	out := d.wcont[w]
	for i := lo; i < hi; i++ {
		if s.Fixed[i] {
			continue
		}
		x1 := pos(q1, i)
		dx, dy := dr.C[0]-x1[0], dr.C[1]-x1[1]
		rr := dr.R - s.R[i]
		if dx*dx+dy*dy >= rr*rr {
			x0 := pos(q0, i)
			nrm := pairNormal(dr.C, x0, dr.C, x1)
			out = append(out, hit{int32(i), -1, nrm})
		}
	}
	d.wcont[w] = out
}

func overlapping(a, b [2]float64, ra, rb float64) bool {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return dx*dx+dy*dy <= (ra+rb)*(ra+rb)
}

// ballBallPortals mirrors SCISim's computeBallBallActiveSetSpatialGridWithPortals:
// detection is discrete at q₁ (boxes of the balls at q₁, no CCD), plus one
// image per ball and portal for every ball within its radius of a portal
// plane (teleported through that plane). Pairs of real balls overlapping at
// q₁ give BallBall contacts; pairs involving an image give at most one
// TeleportedBallBall contact per pair of balls (the first found in box
// order), skipped when both are images of balls that also overlap directly.
func (d *detector) ballBallPortals(s *System, q0, q1 []float64) {
	n := s.N()
	d.boxes = grow(d.boxes, n)
	for i := 0; i < n; i++ {
		x, r := pos(q1, i), s.R[i]
		d.boxes[i] = aabb{x[0] - r, x[1] - r, x[0] + r, x[1] + r}
	}
	d.imgBall, d.imgPort, d.imgPlane, d.imgPos = d.imgBall[:0], d.imgPort[:0], d.imgPlane[:0], d.imgPos[:0]
	for pi := range s.Portals {
		po := &s.Portals[pi]
		for i := 0; i < n; i++ {
			x, r := pos(q1, i), s.R[i]
			var img [2]float64
			var plane int8
			switch {
			case touches(&po.A, x, r):
				// A ball touching both planes (a domain narrower than the
				// ball) is an error in SCISim; here it is imaged through A.
				img, plane = po.Teleport(x, false), 0
			case touches(&po.B, x, r):
				img, plane = po.Teleport(x, true), 1
			default:
				continue
			}
			d.boxes = append(d.boxes, aabb{img[0] - r, img[1] - r, img[0] + r, img[1] + r})
			d.imgBall = append(d.imgBall, int32(i))
			d.imgPort = append(d.imgPort, int32(pi))
			d.imgPlane = append(d.imgPlane, plane)
			d.imgPos = append(d.imgPos, img)
		}
	}
	d.tele = d.tele[:0]
	for _, p := range d.pairs() {
		a, b := int(p.a), int(p.b)
		ta, tb := a >= n, b >= n
		if !ta && !tb {
			if s.Fixed[a] && s.Fixed[b] {
				continue
			}
			if overlapping(pos(q1, a), pos(q1, b), s.R[a], s.R[b]) {
				d.contacts = append(d.contacts, Contact{Kind: BallBall, I: int32(a), J: int32(b), Obj: -1, PortalI: -1, PortalJ: -1,
					N: pairNormal(pos(q0, a), pos(q0, b), pos(q1, a), pos(q1, b))})
			}
			continue
		}
		// a is never an image unless b is one too (images follow the balls).
		tc := geom2d.ImagePair{B0: int32(a), P0: -1, P1: -1}
		var x0 [2]float64
		if ta {
			k := a - n
			tc.B0, tc.P0, tc.ThroughB0, x0 = d.imgBall[k], d.imgPort[k], d.imgPlane[k] == 1, d.imgPos[k]
		} else {
			x0 = pos(q1, a)
		}
		k := b - n
		tc.B1, tc.P1, tc.ThroughB1 = d.imgBall[k], d.imgPort[k], d.imgPlane[k] == 1
		x1 := d.imgPos[k]
		i, j := int(tc.B0), int(tc.B1)
		if i == j || (s.Fixed[i] && s.Fixed[j]) {
			continue
		}
		if ta && tb && overlapping(pos(q1, i), pos(q1, j), s.R[i], s.R[j]) {
			continue // found untranslated as an ordinary pair
		}
		if !overlapping(x0, x1, s.R[i], s.R[j]) {
			continue
		}
		d.tele = append(d.tele, tc.Ordered())
	}
	for _, tc := range geom2d.FirstPerPair(d.tele) {
		pl0, pl1 := plane(tc.ThroughB0), plane(tc.ThroughB1)
		c0 := s.imageAt(q0, int(tc.B0), int(tc.P0), pl0)
		c1 := s.imageAt(q0, int(tc.B1), int(tc.P1), pl1)
		e0 := s.imageAt(q1, int(tc.B0), int(tc.P0), pl0)
		e1 := s.imageAt(q1, int(tc.B1), int(tc.P1), pl1)
		d.contacts = append(d.contacts, Contact{
			Kind: TeleportedBallBall, I: tc.B0, J: tc.B1, Obj: -1,
			PortalI: tc.P0, PortalJ: tc.P1, PlaneI: pl0, PlaneJ: pl1,
			N: pairNormal(c0, c1, e0, e1),
		})
	}
}

// plane returns the Contact's plane code: 1 for plane B, 0 for A.
func plane(throughB bool) int8 {
	if throughB {
		return 1
	}
	return 0
}

// imageAt returns ball i's centre in q, teleported through plane `plane` of
// portal `portal` (unchanged when portal < 0).
func (s *System) imageAt(q []float64, i, portal int, plane int8) [2]float64 {
	x := pos(q, i)
	if portal < 0 {
		return x
	}
	po := &s.Portals[portal]
	return po.Teleport(x, plane == 1)
}

// firstOverlap returns the first pair (i, j), in (i, j) order, of balls at
// s.Q that interpenetrate by more than OverlapTol·(rᵢ + rⱼ), and the depth;
// (-1, -1, 0) if there is none.
func (d *detector) firstOverlap(s *System) (int, int, float64) {
	n := s.N()
	d.boxes = grow(d.boxes, n)
	for i := 0; i < n; i++ {
		x, r := pos(s.Q, i), s.R[i]
		d.boxes[i] = aabb{x[0] - r, x[1] - r, x[0] + r, x[1] + r}
	}
	for _, p := range d.pairs() {
		i, j := int(p.a), int(p.b)
		a, b := pos(s.Q, i), pos(s.Q, j)
		rs := s.R[i] + s.R[j]
		depth := rs - math.Hypot(a[0]-b[0], a[1]-b[1])
		if depth > OverlapTol*rs {
			return i, j, depth
		}
	}
	return -1, -1, 0
}

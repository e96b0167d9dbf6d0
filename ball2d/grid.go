package ball2d

import "math"

// aabb is a closed axis-aligned box [x0, x1] × [y0, y1].
type aabb struct{ x0, y0, x1, y1 float64 }

// ok reports whether the box is finite and well formed. Boxes that are not
// (a ball whose state went non-finite) take part in no pair.
func (b aabb) ok() bool {
	return b.x0 <= b.x1 && b.y0 <= b.y1 && // false for NaN
		!math.IsInf(b.x0, 0) && !math.IsInf(b.x1, 0) && !math.IsInf(b.y0, 0) && !math.IsInf(b.y1, 0)
}

// overlaps is SCISim's AABB::overlaps: no separating axis, boxes closed.
func (b aabb) overlaps(c aabb) bool {
	return !(b.x1 < c.x0 || c.x1 < b.x0 || b.y1 < c.y0 || c.y1 < b.y0)
}

// pair is a candidate pair of box indices, a < b.
type pair struct{ a, b int32 }

type gridEntry struct {
	box    int32
	cx, cy int64
}

// grid is a uniform-grid broad phase with hashed cells. Its cell size is the
// largest box extent, so each box covers at most 2×2 cells and the work is
// linear in the number of boxes for bounded density. All storage is reused
// between calls; the output is sorted by (a, b) and independent of hashing,
// so results are deterministic without maps.
type grid struct {
	rng    []int64 // per box: cx0, cy0, cx1, cy1 (cx1 < cx0 for excluded boxes)
	start  []int32 // bucket offsets into ent, len T+1
	fill   []int32
	ent    []gridEntry
	pairs  []pair
	sorted []pair
	cnt    []int32
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// maxCells bounds the number of cells per axis so that cell indices stay
// exact in int64; cells grow beyond the largest box when the scene is huge.
const maxCells = 1 << 40

func cellHash(cx, cy int64) uint64 {
	h := uint64(cx)*0x9E3779B97F4A7C15 ^ uint64(cy)*0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

// find returns all pairs (a < b) of well-formed boxes that overlap, sorted by
// (a, b). The slice is reused by the next call.
func (g *grid) find(boxes []aabb) []pair {
	g.pairs = g.pairs[:0]
	nb := len(boxes)
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	var ext float64
	nvalid := 0
	for _, b := range boxes {
		if !b.ok() {
			continue
		}
		nvalid++
		minX, minY = math.Min(minX, b.x0), math.Min(minY, b.y0)
		maxX, maxY = math.Max(maxX, b.x1), math.Max(maxY, b.y1)
		ext = math.Max(ext, math.Max(b.x1-b.x0, b.y1-b.y0))
	}
	if nvalid < 2 {
		return g.pairs
	}
	span := math.Max(maxX-minX, maxY-minY)
	if math.IsInf(span, 0) || math.IsInf(ext, 0) {
		// Coordinates near the float64 limit: differences overflow. Such
		// states are physically meaningless; stay correct, not fast.
		g.pairs = bruteForcePairs(boxes, g.pairs)
		return g.pairs
	}
	h := ext
	if span/maxCells > h {
		h = span / maxCells
	}
	if !(h > 0) {
		h = 1 // all boxes are the same point
	}
	// cell maps a coordinate to its cell index. It is monotone, so two
	// overlapping boxes always share a cell (the one holding a common point).
	cell := func(v, lo float64) int64 {
		c := (v - lo) / h
		if !(c >= 0) {
			return 0
		}
		if !(c < maxCells) {
			return maxCells
		}
		return int64(c)
	}

	g.rng = grow(g.rng, 4*nb)
	nent := 0
	for i, b := range boxes {
		r := g.rng[4*i : 4*i+4]
		if !b.ok() {
			r[0], r[1], r[2], r[3] = 1, 1, 0, 0
			continue
		}
		r[0], r[1] = cell(b.x0, minX), cell(b.y0, minY)
		r[2], r[3] = cell(b.x1, minX), cell(b.y1, minY)
		nent += int((r[2] - r[0] + 1) * (r[3] - r[1] + 1))
	}
	T := 16
	for T < 2*nent {
		T <<= 1
	}
	mask := uint64(T - 1)
	g.start = grow(g.start, T+1)
	clear(g.start)
	for i := range boxes {
		r := g.rng[4*i : 4*i+4]
		for cx := r[0]; cx <= r[2]; cx++ {
			for cy := r[1]; cy <= r[3]; cy++ {
				g.start[cellHash(cx, cy)&mask+1]++
			}
		}
	}
	for k := 0; k < T; k++ {
		g.start[k+1] += g.start[k]
	}
	g.fill = grow(g.fill, T)
	copy(g.fill, g.start[:T])
	g.ent = grow(g.ent, nent)
	for i := range boxes {
		r := g.rng[4*i : 4*i+4]
		for cx := r[0]; cx <= r[2]; cx++ {
			for cy := r[1]; cy <= r[3]; cy++ {
				k := cellHash(cx, cy) & mask
				g.ent[g.fill[k]] = gridEntry{int32(i), cx, cy}
				g.fill[k]++
			}
		}
	}
	// Pairs sharing a cell. Entries of a bucket are in box order, so a < b.
	// A pair sharing several cells is reported only from the first of them,
	// (max cx0, max cy0).
	for k := 0; k < T; k++ {
		bucket := g.ent[g.start[k]:g.start[k+1]]
		for x := 0; x+1 < len(bucket); x++ {
			ea := bucket[x]
			for _, eb := range bucket[x+1:] {
				if ea.cx != eb.cx || ea.cy != eb.cy {
					continue
				}
				a, b := ea.box, eb.box
				ra, rb := g.rng[4*a:4*a+4], g.rng[4*b:4*b+4]
				if ea.cx != max(ra[0], rb[0]) || ea.cy != max(ra[1], rb[1]) {
					continue
				}
				if boxes[a].overlaps(boxes[b]) {
					g.pairs = append(g.pairs, pair{a, b})
				}
			}
		}
	}
	g.sortPairs(nb)
	return g.pairs
}

// sortPairs sorts g.pairs by (a, b): a counting sort on a, then insertion
// sort of each (short) group on b.
func (g *grid) sortPairs(nb int) {
	g.cnt = grow(g.cnt, nb+1)
	clear(g.cnt)
	for _, p := range g.pairs {
		g.cnt[p.a+1]++
	}
	for i := 0; i < nb; i++ {
		g.cnt[i+1] += g.cnt[i]
	}
	g.sorted = grow(g.sorted, len(g.pairs))
	for _, p := range g.pairs {
		g.sorted[g.cnt[p.a]] = p
		g.cnt[p.a]++
	}
	lo := int32(0)
	for a := 0; a < nb; a++ {
		hi := g.cnt[a]
		grp := g.sorted[lo:hi]
		for i := 1; i < len(grp); i++ {
			for j := i; j > 0 && grp[j].b < grp[j-1].b; j-- {
				grp[j], grp[j-1] = grp[j-1], grp[j]
			}
		}
		lo = hi
	}
	g.pairs, g.sorted = g.sorted, g.pairs
}

// bruteForcePairs is the all-pairs reference for find (tests and tiny
// systems): same output, O(n²).
func bruteForcePairs(boxes []aabb, out []pair) []pair {
	out = out[:0]
	for a := range boxes {
		if !boxes[a].ok() {
			continue
		}
		for b := a + 1; b < len(boxes); b++ {
			if boxes[b].ok() && boxes[a].overlaps(boxes[b]) {
				out = append(out, pair{int32(a), int32(b)})
			}
		}
	}
	return out
}

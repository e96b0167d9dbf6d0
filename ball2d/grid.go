package ball2d

import (
	"math"

	"impactsim/par"
)

// aabb is a closed axis-aligned box [x0, x1] × [y0, y1].
type aabb struct{ x0, y0, x1, y1 float64 }

// ok reports whether the box is finite and well formed. Boxes that are not
// (a ball whose state went non-finite) take part in no pair. (−∞ < x0 ≤ x1 <
// ∞ makes both ends finite; every comparison is false for NaN.)
func (b aabb) ok() bool {
	return -math.MaxFloat64 <= b.x0 && b.x0 <= b.x1 && b.x1 <= math.MaxFloat64 &&
		-math.MaxFloat64 <= b.y0 && b.y0 <= b.y1 && b.y1 <= math.MaxFloat64
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

	// Dense cell lists (the common case: boxes fill their bounding box).
	pool    *par.Pool
	boxes   []aabb   // the boxes of the current call (for the tasks)
	red     []bounds // per chunk: bounds of its boxes
	key     []int32  // per box: its cell, −1 if excluded
	cellPtr []int32  // per cell: offset into byCell, len nc+1
	byCell  []int32  // boxes sorted by cell, by index inside a cell
	nx, ny  int32
	h       float64
	lo      [2]float64
	wpairs  [][]pair // per chunk: pairs found
	fBounds func(w, lo, hi int)
	fKeys   func(w, lo, hi int)
	fPairs  func(w, lo, hi int)
	self    *grid
}

type bounds struct {
	minX, minY, maxX, maxY, ext float64
	n                           int
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
	bd := g.bounds(boxes)
	minX, minY, maxX, maxY, ext, nvalid := bd.minX, bd.minY, bd.maxX, bd.maxY, bd.ext, bd.n
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
	if g.findDense(boxes, minX, minY, maxX, maxY, ext) {
		g.boxes = nil
		return g.pairs
	}
	g.boxes = nil
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

// parGrain is the smallest number of boxes (or pairs) worth a worker.
var parGrain = 4096

// maxDenseCells bounds the dense cell array relative to the number of boxes:
// beyond it (boxes scattered far apart) the hashed grid is used instead.
func maxDenseCells(nb int) int64 { return 4*int64(nb) + 1024 }

// bounds reduces the bounding box, largest extent and count of the
// well-formed boxes over the pool's chunks, in chunk order.
func (g *grid) bounds(boxes []aabb) bounds {
	nb := len(boxes)
	g.init()
	g.boxes = boxes
	nch := g.chunkBounds(nb)
	g.pool.For(nb, parGrain, g.fBounds)
	return g.reduce(nch)
}

// chunkBounds readies g.red for a For over nb boxes (whose chunks fill it)
// and returns the number of chunks.
func (g *grid) chunkBounds(nb int) int {
	nch := g.pool.Chunks(nb, parGrain)
	g.red = grow(g.red, nch)
	return nch
}

// reduce folds the bounds of the first nch chunks, in chunk order.
func (g *grid) reduce(nch int) bounds {
	bd := g.red[0]
	for _, r := range g.red[1:nch] {
		bd.minX, bd.minY = min(bd.minX, r.minX), min(bd.minY, r.minY)
		bd.maxX, bd.maxY = max(bd.maxX, r.maxX), max(bd.maxY, r.maxY)
		bd.ext = max(bd.ext, r.ext)
		bd.n += r.n
	}
	return bd
}

// emptyBounds is the identity of add.
func emptyBounds() bounds {
	return bounds{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
}

// add folds box b into r if it is well formed.
func (r *bounds) add(b aabb) {
	if !b.ok() {
		return
	}
	r.n++
	r.minX, r.minY = min(r.minX, b.x0), min(r.minY, b.y0)
	r.maxX, r.maxY = max(r.maxX, b.x1), max(r.maxY, b.y1)
	r.ext = max(r.ext, b.x1-b.x0, b.y1-b.y0)
}

func (g *grid) init() {
	if g.self == g {
		return
	}
	g.self = g // first call, or the grid was copied
	g.fBounds = g.boundsChunk
	g.fKeys = g.keysChunk
	g.fPairs = g.pairsChunk
}

func (g *grid) boundsChunk(w, lo, hi int) {
	r := emptyBounds()
	for _, b := range g.boxes[lo:hi] {
		r.add(b)
	}
	g.red[w] = r
}

// findDense is the cell-list broad phase: each well-formed box is filed
// under the cell of its lower corner (cells of side h slightly above the
// largest extent, so overlapping boxes have lower corners in the same or
// adjacent cells), boxes are counting-sorted by cell, and each box is tested
// against the later boxes of its cell and all boxes of the four "forward"
// neighbour cells. The pair search runs on all workers, each on a range of
// the cell-sorted boxes; the pairs are then sorted by (a, b), so the output
// is the same as the hashed grid's for any worker count. It reports false
// (doing nothing) when the dense cell array would be too large.
func (g *grid) findDense(boxes []aabb, minX, minY, maxX, maxY, ext float64) bool {
	nb := len(boxes)
	h, nx, ny, ok := cellSize(nb, minX, minY, maxX, maxY, ext)
	if !ok {
		return false
	}
	g.buildCells(boxes, h, minX, minY, nx, ny)
	nvalid := int(g.cellPtr[nx*ny])
	nch := g.pool.Chunks(nvalid, parGrain)
	if len(g.wpairs) < nch {
		g.wpairs = append(g.wpairs, make([][]pair, nch-len(g.wpairs))...)
	}
	g.pool.For(nvalid, parGrain, g.fPairs)
	g.pairs = g.pairs[:0]
	for _, wp := range g.wpairs[:nch] {
		g.pairs = append(g.pairs, wp...)
	}
	g.sortPairs(nb)
	return true
}

// cellSize returns the dense cell side and grid shape for boxes with the
// given bounds, or ok = false when the dense cell array would be too large.
func cellSize(nb int, minX, minY, maxX, maxY, ext float64) (h float64, nx, ny int64, ok bool) {
	h = ext * (1 + 1e-6)
	if !(h > 0) {
		return 0, 0, 0, false
	}
	fx, fy := (maxX-minX)/h, (maxY-minY)/h
	if !(fx < 1<<30 && fy < 1<<30) {
		return 0, 0, 0, false
	}
	nx, ny = int64(fx)+1, int64(fy)+1
	nc := nx * ny
	if nc > maxDenseCells(nb) || nc >= math.MaxInt32 {
		return 0, 0, 0, false
	}
	return h, nx, ny, true
}

// cellLists builds the dense cell lists of boxes, whose bounds are bd, for
// callers that search the cells themselves. It reports false, doing nothing
// useful, when find would not use the dense cells (fewer than two
// well-formed boxes, overflowing or sparse coordinates).
func (g *grid) cellLists(boxes []aabb, bd bounds) bool {
	nb := len(boxes)
	g.init()
	g.boxes = boxes
	if bd.n < 2 || math.IsInf(math.Max(bd.maxX-bd.minX, bd.maxY-bd.minY), 0) || math.IsInf(bd.ext, 0) {
		return false
	}
	h, nx, ny, ok := cellSize(nb, bd.minX, bd.minY, bd.maxX, bd.maxY, bd.ext)
	if !ok {
		return false
	}
	g.buildCells(boxes, h, bd.minX, bd.minY, nx, ny)
	return true
}

// buildCells files every well-formed box under the cell of its lower
// corner and counting-sorts the boxes by cell (by index inside a cell).
func (g *grid) buildCells(boxes []aabb, h, minX, minY float64, nx, ny int64) {
	nb := len(boxes)
	nc := nx * ny
	g.h, g.lo, g.nx, g.ny = h, [2]float64{minX, minY}, int32(nx), int32(ny)
	g.key = grow(g.key, nb)
	g.pool.For(nb, parGrain, g.fKeys)
	g.cellPtr = grow(g.cellPtr, int(nc)+1)
	clear(g.cellPtr)
	for _, k := range g.key {
		if k >= 0 {
			g.cellPtr[k+1]++
		}
	}
	for c := 0; c < int(nc); c++ {
		g.cellPtr[c+1] += g.cellPtr[c]
	}
	nvalid := int(g.cellPtr[nc])
	g.byCell = grow(g.byCell, nvalid)
	g.cnt = grow(g.cnt, int(nc))
	copy(g.cnt, g.cellPtr[:nc])
	for i, k := range g.key {
		if k >= 0 {
			g.byCell[g.cnt[k]] = int32(i)
			g.cnt[k]++
		}
	}
}

func (g *grid) keysChunk(w, lo, hi int) {
	nx, ny := int64(g.nx), int64(g.ny)
	for i := lo; i < hi; i++ {
		b := g.boxes[i]
		if !b.ok() {
			g.key[i] = -1
			continue
		}
		cx := min(max(int64((b.x0-g.lo[0])/g.h), 0), nx-1)
		cy := min(max(int64((b.y0-g.lo[1])/g.h), 0), ny-1)
		g.key[i] = int32(cy*nx + cx)
	}
}

// halfStencil returns the boxes that the cell-sorted box byCell[p] is
// tried against, as two ranges of byCell: the later boxes of its cell and
// the boxes of the next cell in its row (one range), and the boxes of the
// three cells above (cx−1 … cx+1, cy+1), nil in the top row. Over all p,
// every two boxes whose cells are the same or adjacent meet exactly once.
func (g *grid) halfStencil(p int) (near, above []int32) {
	nx, ny := g.nx, g.ny
	c := g.key[g.byCell[p]]
	cx, cy := c%nx, c/nx
	end := g.cellPtr[c+1]
	if cx+1 < nx {
		end = g.cellPtr[c+2]
	}
	near = g.byCell[p+1 : end]
	if cy+1 < ny {
		c0, c1 := c+nx-1, c+nx+1
		if cx == 0 {
			c0 = c + nx
		}
		if cx+1 == nx {
			c1 = c + nx
		}
		above = g.byCell[g.cellPtr[c0]:g.cellPtr[c1+1]]
	}
	return near, above
}

// pairsChunk finds the pairs of the cell-sorted boxes byCell[lo:hi] with
// the boxes of their half stencils.
func (g *grid) pairsChunk(w, lo, hi int) {
	out := g.wpairs[w][:0]
	boxes := g.boxes
	for p := lo; p < hi; p++ {
		a := g.byCell[p]
		ba := boxes[a]
		near, above := g.halfStencil(p)
		for _, bs := range [2][]int32{near, above} {
			for _, b := range bs {
				if ba.overlaps(boxes[b]) {
					out = append(out, pair{min(a, b), max(a, b)})
				}
			}
		}
	}
	g.wpairs[w] = out
}

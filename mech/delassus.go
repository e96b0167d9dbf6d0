package mech

import "sort"

// Delassus is the assembled sparse symmetric matrix A = Gᵀ M⁻¹ G of a set of
// constraint columns, stored by rows (CSR with sorted column indices). It
// satisfies the qp.Matrix interface (Dim, MulVec, At) so the QP solvers can
// use it without knowing where it came from.
//
// A Delassus value is a reusable workspace: Assemble reuses its storage, so
// assembling the same-sized problem again does not allocate.
type Delassus struct {
	n    int
	Ptr  []int
	Col  []int
	Val  []float64
	diag []float64

	// workspace
	blkLocal []int32 // per block of M⁻¹: its local id in this call, −1 between calls
	blocks   []int   // local id → block of M⁻¹
	adjPtr   []int   // local block → columns touching it (CSR)
	adjCol   []int32
	colBlk   []int32 // per column: up to two touched local blocks (−1 if none)
	sc       asmScratch
	more     []asmScratch // AssembleRanges' workers 1, 2, …
	// AssembleRanges' passes and the columns they read
	fCount, fRows, fMirror func(w, lo, hi int)
	rg                     *Cols
	rminv                  *BlockDiag
}

// asmScratch is one row builder's workspace.
type asmScratch struct {
	mark    []int32 // scatter marker per column (the row that marked it)
	acc     []float64
	touched []int
	u       []float64 // M⁻¹ gᵢ on the (at most two) blocks of the row's column i
}

// Dim returns the number of columns m (A is m×m).
func (d *Delassus) Dim() int { return d.n }

// MulVec sets dst = A x.
func (d *Delassus) MulVec(dst, x []float64) { d.MulVecRows(dst, x, 0, d.n) }

// MulVecRows sets dst[i] = (A x)_i for the rows lo ≤ i < hi. Each row is
// summed in the same order as MulVec's, so disjoint row ranges computed
// concurrently give MulVec's result bit for bit.
func (d *Delassus) MulVecRows(dst, x []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		var s float64
		for k := d.Ptr[i]; k < d.Ptr[i+1]; k++ {
			s += d.Val[k] * x[d.Col[k]]
		}
		dst[i] = s
	}
}

// At returns A_ij.
func (d *Delassus) At(i, j int) float64 {
	cols := d.Col[d.Ptr[i]:d.Ptr[i+1]]
	k := sort.SearchInts(cols, j)
	if k < len(cols) && cols[k] == j {
		return d.Val[d.Ptr[i]+k]
	}
	return 0
}

// Rows returns A in compressed sparse row form (sorted columns, every
// diagonal stored), for solvers that factor it.
func (d *Delassus) Rows() (ptr, col []int, val []float64) {
	return d.Ptr[:d.n+1], d.Col[:d.Ptr[d.n]], d.Val[:d.Ptr[d.n]]
}

// Diag returns A_ii.
func (d *Delassus) Diag(i int) float64 { return d.diag[i] }

// NNZ returns the number of stored entries.
func (d *Delassus) NNZ() int { return len(d.Val) }

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4+8)
	}
	return s[:n]
}

// Assemble computes A = Gᵀ M⁻¹ G for the columns of g. The rows of every
// column of g must lie in at most two diagonal blocks of minv (true for all
// contact constraints between two bodies). The cost is proportional to the
// size of g (its columns, nonzeros and touched blocks), not to the size of
// minv, so an island of a large system costs what the island costs.
func (d *Delassus) Assemble(g *Cols, minv *BlockDiag) {
	m := d.prepare(g, minv)
	d.sc.ready(m)
	d.Col = d.Col[:0]
	d.Val = d.Val[:0]
	for i := 0; i < m; i++ {
		sc := &d.sc
		d.row(i, g, minv, sc, true)
		for _, j := range sc.touched {
			d.Col = append(d.Col, j)
			d.Val = append(d.Val, sc.acc[j])
			if j == i {
				d.diag[i] = sc.acc[j]
			}
		}
		d.Ptr[i+1] = len(d.Col)
	}
}

// AssembleRanges is Assemble with the rows built in ranges: run(n, f) must
// call f(w, lo, hi) for ranges [lo, hi) covering [0, n) once each, with
// worker indices 0 ≤ w < workers, concurrently or not (a pool's For). The
// rows are counted, then written in place, then the entries left of the
// diagonal are copied from their mirror (as Assemble does), so A is the
// same bit for bit as Assemble's for any ranges.
func (d *Delassus) AssembleRanges(g *Cols, minv *BlockDiag, workers int, run func(n int, f func(w, lo, hi int))) {
	m := d.prepare(g, minv)
	if len(d.more) < workers-1 {
		d.more = append(d.more, make([]asmScratch, workers-1-len(d.more))...)
	}
	for w := 0; w < workers; w++ {
		d.scratch(w).ready(m)
	}
	if d.fCount == nil {
		d.fCount, d.fRows, d.fMirror = d.countRows, d.fillRows, d.mirrorRows
	}
	d.rg, d.rminv = g, minv
	run(m, d.fCount) // row lengths at Ptr[i+1]
	d.Ptr[0] = 0
	for i := 0; i < m; i++ {
		d.Ptr[i+1] += d.Ptr[i]
	}
	d.Col = grow(d.Col, d.Ptr[m])
	d.Val = grow(d.Val, d.Ptr[m])
	run(m, d.fRows)   // the rows, right of and on the diagonal
	run(m, d.fMirror) // left of the diagonal: the mirror
	d.rg, d.rminv = nil, nil
}

func (d *Delassus) scratch(w int) *asmScratch {
	if w == 0 {
		return &d.sc
	}
	return &d.more[w-1]
}

func (d *Delassus) countRows(w, lo, hi int) {
	sc := d.scratch(w)
	for i := lo; i < hi; i++ {
		d.touch(i, sc)
		d.Ptr[i+1] = len(sc.touched)
		for _, j := range sc.touched {
			sc.mark[j] = -1 // the row pass marks them again
		}
	}
}

func (d *Delassus) fillRows(w, lo, hi int) {
	sc := d.scratch(w)
	for i := lo; i < hi; i++ {
		d.row(i, d.rg, d.rminv, sc, false)
		k := d.Ptr[i]
		for _, j := range sc.touched {
			d.Col[k], d.Val[k] = j, sc.acc[j]
			if j == i {
				d.diag[i] = sc.acc[j]
			}
			k++
		}
	}
}

func (d *Delassus) mirrorRows(_, lo, hi int) {
	for i := lo; i < hi; i++ {
		for k := d.Ptr[i]; k < d.Ptr[i+1] && d.Col[k] < i; k++ {
			d.Val[k] = d.At(d.Col[k], i)
		}
	}
}

// ready sizes a row builder's workspace for m columns (no column marked).
func (sc *asmScratch) ready(m int) {
	sc.acc = grow(sc.acc, m)
	sc.mark = grow(sc.mark, m)
	for i := range sc.mark {
		sc.mark[i] = -1
	}
}

// prepare maps the blocks g touches to local ids, builds the block →
// columns adjacency and the offsets of the scatter vector, sizes Ptr and
// the diagonal, and returns the number of columns.
func (d *Delassus) prepare(g *Cols, minv *BlockDiag) int {
	m := g.NCols()
	nb := minv.NumBlocks()
	d.n = m

	// Local ids for the blocks g touches. The per-block array is −1 outside
	// this call (the blocks it sets are reset once the columns are mapped),
	// so it needs no clearing between calls and costs 4 bytes per block of
	// M⁻¹.
	if len(d.blkLocal) < nb {
		d.blkLocal = make([]int32, nb)
		for b := range d.blkLocal {
			d.blkLocal[b] = -1
		}
	}
	local := func(b int) int {
		if b < 0 {
			return -1
		}
		if d.blkLocal[b] < 0 {
			d.blkLocal[b] = int32(len(d.blocks))
			d.blocks = append(d.blocks, b)
		}
		return int(d.blkLocal[b])
	}
	d.blocks = d.blocks[:0]
	d.colBlk = grow(d.colBlk, 2*m)
	for j := 0; j < m; j++ {
		b0, b1 := g.colBlocks(j, minv.BlockOf)
		d.colBlk[2*j], d.colBlk[2*j+1] = int32(local(b0)), int32(local(b1))
	}
	nl := len(d.blocks)
	for _, b := range d.blocks {
		d.blkLocal[b] = -1
	}

	// Local block → columns touching it (CSR).
	d.adjPtr = grow(d.adjPtr, nl+1)
	clear(d.adjPtr)
	for _, l := range d.colBlk {
		if l >= 0 {
			d.adjPtr[l+1]++
		}
	}
	for l := 0; l < nl; l++ {
		d.adjPtr[l+1] += d.adjPtr[l]
	}
	d.adjCol = grow(d.adjCol, d.adjPtr[nl])
	fill := append(d.sc.touched[:0], d.adjPtr[:nl]...)
	for j := 0; j < m; j++ {
		for s := 0; s < 2; s++ {
			if l := d.colBlk[2*j+s]; l >= 0 {
				d.adjCol[fill[l]] = int32(j)
				fill[l]++
			}
		}
	}
	d.sc.touched = fill[:0]

	d.Ptr = grow(d.Ptr, m+1)
	d.Ptr[0] = 0
	d.diag = grow(d.diag, m)
	clear(d.diag) // a column without entries has A_ii = 0 (no stale value on reuse)

	return m
}

// touch sets sc.touched to the columns sharing a block with column i
// (unsorted; sc.mark[j] = i for them).
func (d *Delassus) touch(i int, sc *asmScratch) {
	sc.touched = sc.touched[:0]
	for s := 0; s < 2; s++ {
		l := d.colBlk[2*i+s]
		if l < 0 {
			continue
		}
		for a := d.adjPtr[l]; a < d.adjPtr[l+1]; a++ {
			j := int(d.adjCol[a])
			if sc.mark[j] != int32(i) {
				sc.mark[j] = int32(i)
				sc.acc[j] = 0
				sc.touched = append(sc.touched, j)
			}
		}
	}
}

// row computes row i of A into sc: sc.touched its columns (sorted) and
// sc.acc[j] their entries, A_ij = gⱼᵀ M⁻¹ gᵢ for j ≥ i; for j < i the
// mirror A_ji from row j when mirror is set (rows below i complete),
// else 0.
func (d *Delassus) row(i int, g *Cols, minv *BlockDiag, sc *asmScratch, mirror bool) {
	// u = M⁻¹ gᵢ on the blocks of column i: block li[0] at sc.u[0:],
	// li[1] at sc.u[n0:]; zero on every other block (as if scattered over
	// all the local blocks' degrees of freedom, but only 2 blocks long).
	li := [2]int32{-2, -2} // −2: no block (never a column's block)
	n0, nu := 0, 0
	for s := 0; s < 2; s++ {
		if l := d.colBlk[2*i+s]; l >= 0 {
			st, en := minv.Bounds(d.blocks[l])
			li[s] = l
			if s == 0 {
				n0 = en - st
			}
			nu += en - st
		}
	}
	sc.u = grow(sc.u, nu)
	for s := 0; s < 2; s++ {
		l := li[s]
		if l < 0 {
			continue
		}
		b := d.blocks[l]
		st, en := minv.Bounds(b)
		u := sc.u[:en-st]
		if s == 1 {
			u = sc.u[n0 : n0+en-st]
		}
		for r := 0; r < en-st; r++ {
			var sum float64
			for e := g.Ptr[i]; e < g.Ptr[i+1]; e++ {
				row := int(g.Row[e])
				if row >= st && row < en {
					sum += minv.Entry(b, r, row-st) * g.Val[e]
				}
			}
			u[r] = sum
		}
	}
	// Row i: A_ij = gⱼᵀ u for every column j sharing a block with i.
	d.touch(i, sc)
	for _, j := range sc.touched {
		if j < i {
			// Row j is complete: mirror it so A is exactly symmetric in
			// floating point (gⱼᵀM⁻¹gᵢ and gᵢᵀM⁻¹gⱼ round differently).
			if mirror {
				sc.acc[j] = d.At(j, i)
			}
			continue
		}
		// Column j's rows lie in its (at most two) local blocks.
		var sum float64
		l0, l1 := d.colBlk[2*j], d.colBlk[2*j+1]
		s0, e0 := minv.Bounds(d.blocks[l0])
		for e := g.Ptr[j]; e < g.Ptr[j+1]; e++ {
			row := int(g.Row[e])
			l, st := l0, s0
			if row < s0 || row >= e0 {
				l = l1
				st, _ = minv.Bounds(d.blocks[l1])
			}
			var uv float64 // +0 off column i's blocks
			switch l {
			case li[0]:
				uv = sc.u[row-st]
			case li[1]:
				uv = sc.u[n0+row-st]
			}
			sum += g.Val[e] * uv
		}
		sc.acc[j] = sum
	}
	sort.Ints(sc.touched)
}

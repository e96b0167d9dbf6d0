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
	rowBlock []int // block of each degree of freedom
	adjPtr   []int // block → columns touching it (CSR)
	adjCol   []int // …
	colBlk   []int // per column: up to two touched blocks (-1 if none)
	mark     []int // scatter marker per column
	acc      []float64
	touched  []int
	u        []float64 // M⁻¹ gⱼ restricted to the column's rows, aligned with G's entries
}

// Dim returns the number of columns m (A is m×m).
func (d *Delassus) Dim() int { return d.n }

// MulVec sets dst = A x.
func (d *Delassus) MulVec(dst, x []float64) {
	for i := 0; i < d.n; i++ {
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

// Diag returns A_ii.
func (d *Delassus) Diag(i int) float64 { return d.diag[i] }

// NNZ returns the number of stored entries.
func (d *Delassus) NNZ() int { return len(d.Val) }

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Assemble computes A = Gᵀ M⁻¹ G for the columns of g. The rows of every
// column of g must lie in at most two diagonal blocks of minv (true for all
// contact constraints between two bodies).
func (d *Delassus) Assemble(g *Cols, minv *BlockDiag) {
	m := g.NCols()
	n := minv.N()
	nb := minv.NumBlocks()
	d.n = m

	// Block of each degree of freedom.
	d.rowBlock = grow(d.rowBlock, n)
	for b := 0; b < nb; b++ {
		for i := minv.Start[b]; i < minv.Start[b+1]; i++ {
			d.rowBlock[i] = b
		}
	}

	// Touched blocks per column.
	d.colBlk = grow(d.colBlk, 2*m)
	d.adjPtr = grow(d.adjPtr, nb+1)
	for i := range d.adjPtr {
		d.adjPtr[i] = 0
	}
	for j := 0; j < m; j++ {
		b0, b1 := g.colBlocks(j, func(row int) int { return d.rowBlock[row] })
		d.colBlk[2*j], d.colBlk[2*j+1] = b0, b1
		if b0 >= 0 {
			d.adjPtr[b0+1]++
		}
		if b1 >= 0 {
			d.adjPtr[b1+1]++
		}
	}
	for b := 0; b < nb; b++ {
		d.adjPtr[b+1] += d.adjPtr[b]
	}
	d.adjCol = grow(d.adjCol, d.adjPtr[nb])
	fill := d.touched[:0]
	fill = append(fill, d.adjPtr[:nb]...)
	for j := 0; j < m; j++ {
		for s := 0; s < 2; s++ {
			if b := d.colBlk[2*j+s]; b >= 0 {
				d.adjCol[fill[b]] = j
				fill[b]++
			}
		}
	}
	d.touched = fill[:0]

	// u = M⁻¹ g restricted to each column's rows. Because M⁻¹ is block
	// diagonal, (M⁻¹ gⱼ) is nonzero only in the blocks gⱼ touches; we store it
	// densely per touched block in a scratch indexed by the dof.
	d.acc = grow(d.acc, m)
	d.mark = grow(d.mark, m)
	for i := range d.mark {
		d.mark[i] = -1
	}
	d.u = grow(d.u, n)
	for i := range d.u {
		d.u[i] = 0
	}

	d.Ptr = grow(d.Ptr, m+1)
	d.Ptr[0] = 0
	d.Col = d.Col[:0]
	d.Val = d.Val[:0]
	d.diag = grow(d.diag, m)

	for i := 0; i < m; i++ {
		// u = M⁻¹ gᵢ on the blocks of column i (scattered into d.u).
		for s := 0; s < 2; s++ {
			b := d.colBlk[2*i+s]
			if b < 0 {
				continue
			}
			st, en := minv.Start[b], minv.Start[b+1]
			k := en - st
			blk := minv.Data[minv.Off[b]:minv.Off[b+1]]
			for r := 0; r < k; r++ {
				var sum float64
				for e := g.Ptr[i]; e < g.Ptr[i+1]; e++ {
					row := g.Row[e]
					if row >= st && row < en {
						sum += blk[r*k+row-st] * g.Val[e]
					}
				}
				d.u[st+r] = sum
			}
		}
		// Row i: A_ij = gⱼᵀ u for every column j sharing a block with i.
		d.touched = d.touched[:0]
		for s := 0; s < 2; s++ {
			b := d.colBlk[2*i+s]
			if b < 0 {
				continue
			}
			for a := d.adjPtr[b]; a < d.adjPtr[b+1]; a++ {
				j := d.adjCol[a]
				if d.mark[j] != i {
					d.mark[j] = i
					d.acc[j] = 0
					d.touched = append(d.touched, j)
				}
			}
		}
		for _, j := range d.touched {
			if j < i {
				// Row j is complete: mirror it so A is exactly symmetric in
				// floating point (gⱼᵀM⁻¹gᵢ and gᵢᵀM⁻¹gⱼ round differently).
				d.acc[j] = d.At(j, i)
				continue
			}
			var sum float64
			for e := g.Ptr[j]; e < g.Ptr[j+1]; e++ {
				sum += g.Val[e] * d.u[g.Row[e]]
			}
			d.acc[j] = sum
		}
		sort.Ints(d.touched)
		for _, j := range d.touched {
			d.Col = append(d.Col, j)
			d.Val = append(d.Val, d.acc[j])
			if j == i {
				d.diag[i] = d.acc[j]
			}
		}
		d.Ptr[i+1] = len(d.Col)
		// Clear u on the blocks of column i.
		for s := 0; s < 2; s++ {
			if b := d.colBlk[2*i+s]; b >= 0 {
				for r := minv.Start[b]; r < minv.Start[b+1]; r++ {
					d.u[r] = 0
				}
			}
		}
	}
}

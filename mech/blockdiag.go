package mech

import "fmt"

// BlockDiag is a block-diagonal n×n matrix stored block by block. Block b
// covers rows and columns Start[b] ≤ i < Start[b+1]; its entries are stored
// row-major in Data[Off[b]:Off[b+1]].
//
// A matrix shaped by ShapeUniform (nb blocks s_b·I of one size k: the mass
// matrix of balls) is stored compactly instead: Data[b] = s_b, and Start
// and Off are nil (8 bytes per block instead of 16 + 8k²; 80 MB less for M
// and M⁻¹ of a million 2D balls). Code outside this file reads blocks
// through Bounds and Entry, which serve both forms.
type BlockDiag struct {
	Start []int     // len nblocks+1, Start[0] = 0, Start[nblocks] = n
	Off   []int     // len nblocks+1, offsets into Data
	Data  []float64 // concatenated row-major blocks, or the scalars s_b

	// uni is the common block size when every block was appended with the
	// same size (BlockOf is then a division), −1 when sizes differ, 0 when
	// unknown (no block appended by the methods yet, or fields set directly).
	uni int
	// scalar marks the compact form (set by ShapeUniform).
	scalar bool
}

// Bounds returns the rows [s, e) of block blk.
func (b *BlockDiag) Bounds(blk int) (s, e int) {
	if b.scalar {
		return blk * b.uni, (blk + 1) * b.uni
	}
	return b.Start[blk], b.Start[blk+1]
}

// Entry returns entry (r, c) of block blk, in the block's local indices.
func (b *BlockDiag) Entry(blk, r, c int) float64 {
	if b.scalar {
		if r == c {
			return b.Data[blk]
		}
		return 0
	}
	n := b.Start[blk+1] - b.Start[blk]
	return b.Data[b.Off[blk]+r*n+c]
}

// expand turns the compact form into the general one (for AppendBlock on
// a ShapeUniform matrix).
func (b *BlockDiag) expand() {
	if !b.scalar {
		return
	}
	nb, k := len(b.Data), b.uni
	sc := b.Data
	b.scalar = false
	b.Start = make([]int, nb+1)
	b.Off = make([]int, nb+1)
	b.Data = make([]float64, nb*k*k)
	for blk, v := range sc {
		b.Start[blk+1], b.Off[blk+1] = (blk+1)*k, (blk+1)*k*k
		for i := 0; i < k; i++ {
			b.Data[blk*k*k+i*k+i] = v
		}
	}
}

// NewBlockDiag returns an empty block-diagonal matrix with room for nblocks
// blocks of total size ndata.
func NewBlockDiag(nblocks, ndata int) *BlockDiag {
	b := &BlockDiag{
		Start: make([]int, 1, nblocks+1),
		Off:   make([]int, 1, nblocks+1),
		Data:  make([]float64, 0, ndata),
	}
	return b
}

// Reset empties the matrix, keeping its storage.
func (b *BlockDiag) Reset() {
	b.scalar = false
	b.Start = append(b.Start[:0], 0)
	b.Off = append(b.Off[:0], 0)
	b.Data = b.Data[:0]
	b.uni = 0
}

func (b *BlockDiag) noteSize(k int) {
	b.expand()
	switch {
	case len(b.Start) == 1 && k > 0:
		b.uni = k
	case b.uni != k:
		b.uni = -1
	}
}

// AppendBlock appends a k×k block given row-major in data (len k*k).
func (b *BlockDiag) AppendBlock(k int, data ...float64) {
	if len(data) != k*k {
		panic(fmt.Sprintf("mech: block of size %d needs %d entries, got %d", k, k*k, len(data)))
	}
	b.noteSize(k)
	b.Start = append(b.Start, b.Start[len(b.Start)-1]+k)
	b.Data = append(b.Data, data...)
	b.Off = append(b.Off, len(b.Data))
}

// AppendScalarBlock appends the k×k block s·I without allocating.
func (b *BlockDiag) AppendScalarBlock(k int, s float64) {
	b.noteSize(k)
	b.Start = append(b.Start, b.Start[len(b.Start)-1]+k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if i == j {
				b.Data = append(b.Data, s)
			} else {
				b.Data = append(b.Data, 0)
			}
		}
	}
	b.Off = append(b.Off, len(b.Data))
}

// N returns the dimension of the matrix.
func (b *BlockDiag) N() int {
	if b.scalar {
		return len(b.Data) * b.uni
	}
	return b.Start[len(b.Start)-1]
}

// NumBlocks returns the number of diagonal blocks.
func (b *BlockDiag) NumBlocks() int {
	if b.scalar {
		return len(b.Data)
	}
	return len(b.Start) - 1
}

// BlockOf returns the block index holding row i (a division for uniform
// blocks, else a binary search).
func (b *BlockDiag) BlockOf(i int) int {
	if b.scalar {
		return min(i/b.uni, len(b.Data)-1)
	}
	if u := b.uni; u > 0 && i >= 0 && len(b.Start) > 1 && b.Start[len(b.Start)-1] == u*(len(b.Start)-1) {
		return min(i/u, len(b.Start)-2)
	}
	lo, hi := 0, len(b.Start)-1
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if b.Start[mid] <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// MulVec sets dst = B x. dst and x must not alias.
func (b *BlockDiag) MulVec(dst, x []float64) {
	if b.scalar {
		b.MulVecAddBlocks(dst, x, nil, 0, len(b.Data))
		return
	}
	for k := 0; k+1 < len(b.Start); k++ {
		s, e := b.Start[k], b.Start[k+1]
		n := e - s
		d := b.Data[b.Off[k]:b.Off[k+1]]
		for i := 0; i < n; i++ {
			var sum float64
			row := d[i*n : i*n+n]
			for j, a := range row {
				sum += a * x[s+j]
			}
			dst[s+i] = sum
		}
	}
}

// MulVecBlock computes y = B_kk x for block k, where x and y are the block's
// slices (length of the block).
func (b *BlockDiag) MulVecBlock(k int, y, x []float64) {
	if b.scalar {
		for i := range b.uni {
			y[i] = b.Data[k] * x[i]
		}
		return
	}
	n := b.Start[k+1] - b.Start[k]
	d := b.Data[b.Off[k]:b.Off[k+1]]
	for i := 0; i < n; i++ {
		var sum float64
		for j := 0; j < n; j++ {
			sum += d[i*n+j] * x[j]
		}
		y[i] = sum
	}
}

// At returns entry (i, j).
func (b *BlockDiag) At(i, j int) float64 {
	k := b.BlockOf(i)
	s, e := b.Bounds(k)
	if j < s || j >= e {
		return 0
	}
	return b.Entry(k, i-s, j-s)
}

// QuadForm returns xᵀ B y.
func (b *BlockDiag) QuadForm(x, y []float64) float64 {
	var sum float64
	if b.scalar {
		// The general loop's arithmetic without its zero terms.
		k := b.uni
		for blk, v := range b.Data {
			for i := blk * k; i < (blk+1)*k; i++ {
				sum += x[i] * (v * y[i])
			}
		}
		return sum
	}
	for k := 0; k+1 < len(b.Start); k++ {
		s, e := b.Start[k], b.Start[k+1]
		n := e - s
		d := b.Data[b.Off[k]:b.Off[k+1]]
		for i := 0; i < n; i++ {
			var r float64
			for j := 0; j < n; j++ {
				r += d[i*n+j] * y[s+j]
			}
			sum += x[s+i] * r
		}
	}
	return sum
}

// SetScalarBlocks replaces the contents with nb blocks of size k, block b
// being s(b)·I. It reuses the storage (no allocation once grown) and is the
// bulk form of Reset followed by nb AppendScalarBlock calls.
func (b *BlockDiag) SetScalarBlocks(nb, k int, s func(blk int) float64) {
	b.ShapeUniform(nb, k)
	b.FillScalar(0, nb, s)
}

// ShapeUniform sizes the matrix for nb blocks s_b·I of size k ≥ 1 (the
// compact form) without setting any s_b; FillScalar must then fill every
// block (in any order, on any goroutines, for disjoint ranges).
func (b *BlockDiag) ShapeUniform(nb, k int) {
	if k < 1 {
		panic(fmt.Sprintf("mech: ShapeUniform with block size %d", k))
	}
	// Start and Off keep their storage (unused in this form) so that
	// Reset followed by ShapeUniform, once per step, does not allocate.
	b.Start, b.Off = b.Start[:0], b.Off[:0]
	b.scalar, b.uni = true, k
	if cap(b.Data) < nb {
		b.Data = make([]float64, nb)
	}
	b.Data = b.Data[:nb]
}

// FillScalar sets blocks [lo, hi) of a ShapeUniform matrix to s(b)·I.
func (b *BlockDiag) FillScalar(lo, hi int, s func(blk int) float64) {
	if !b.scalar {
		panic("mech: FillScalar needs ShapeUniform first")
	}
	for blk := lo; blk < hi; blk++ {
		b.Data[blk] = s(blk)
	}
}

// Scalar reports whether the matrix is in the compact form of
// ShapeUniform: every block s_b·I, s_b = Entry(b, 0, 0).
func (b *BlockDiag) Scalar() bool { return b.scalar }

// MaxInPlaceBlock is the largest block size for which MulVecAddBlocks
// accepts dst = x.
const MaxInPlaceBlock = 16

// MaxBlock returns the size of the largest block (0 for no blocks).
func (b *BlockDiag) MaxBlock() int {
	if b.uni > 0 {
		return b.uni
	}
	k := 0
	for i := 0; i+1 < len(b.Start); i++ {
		k = max(k, b.Start[i+1]-b.Start[i])
	}
	return k
}

// MulVecAddBlocks sets dst = B x + v on the rows of blocks [lo, hi) (the
// same arithmetic as MulVec followed by adding v), so that disjoint block
// ranges can be done concurrently; v may be nil (dst = B x, MulVec's
// arithmetic). dst may be x itself when no block is larger than
// MaxInPlaceBlock: each block of x is read before the block of dst is
// written.
func (b *BlockDiag) MulVecAddBlocks(dst, x, v []float64, lo, hi int) {
	if b.scalar {
		// s_b·I: the general loop's arithmetic without its zero terms
		// (adding +0 changes no sum), so both forms agree bit for bit.
		k := b.uni
		for blk := lo; blk < hi; blk++ {
			var vb []float64
			if v != nil {
				vb = v[blk*k : (blk+1)*k]
			}
			mulAddScalar(b.Data[blk], dst[blk*k:(blk+1)*k], x[blk*k:(blk+1)*k], vb)
		}
		return
	}
	if b.uni == 2 && b.Start[len(b.Start)-1] == 2*(len(b.Start)-1) && v != nil {
		// 2×2 blocks (2D bodies), the same operations unrolled.
		data := b.Data[4*lo : 4*hi]
		x, v, dst := x[2*lo:2*hi], v[2*lo:2*hi], dst[2*lo:2*hi]
		for k := 0; k < hi-lo; k++ {
			d := data[4*k : 4*k+4 : 4*k+4]
			x0, x1 := x[2*k], x[2*k+1]
			var s0, s1 float64
			s0 += d[0] * x0
			s0 += d[1] * x1
			s1 += d[2] * x0
			s1 += d[3] * x1
			dst[2*k] = s0 + v[2*k]
			dst[2*k+1] = s1 + v[2*k+1]
		}
		return
	}
	var buf [MaxInPlaceBlock]float64
	for k := lo; k < hi; k++ {
		s, e := b.Start[k], b.Start[k+1]
		n := e - s
		d := b.Data[b.Off[k]:b.Off[k+1]]
		xb := x[s:e]
		if n <= len(buf) {
			xb = buf[:n]
			copy(xb, x[s:e])
		}
		for i := 0; i < n; i++ {
			var sum float64
			row := d[i*n : i*n+n]
			for j, a := range row {
				sum += a * xb[j]
			}
			if v != nil {
				sum += v[s+i]
			}
			dst[s+i] = sum
		}
	}
}

// MulVecAddBlock sets dst = M_k x + v on block k's rows of a ShapeUniform
// matrix, with dst, x and v (nil: none) holding only those rows, which
// may lie anywhere (dst may be x): MulVecAddBlocks's arithmetic for one
// block.
func (b *BlockDiag) MulVecAddBlock(k int, dst, x, v []float64) {
	if !b.scalar {
		panic("mech: MulVecAddBlock needs a ShapeUniform matrix")
	}
	mulAddScalar(b.Data[k], dst, x, v)
}

// mulAddScalar sets dst = s·x + v (v nil: none) entry by entry, each sum
// from zero.
func mulAddScalar(s float64, dst, x, v []float64) {
	for i := range dst {
		var sum float64
		sum += s * x[i]
		if v != nil {
			sum += v[i]
		}
		dst[i] = sum
	}
}

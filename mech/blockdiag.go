package mech

import "fmt"

// BlockDiag is a block-diagonal n×n matrix stored block by block. Block b
// covers rows and columns Start[b] ≤ i < Start[b+1]; its entries are stored
// row-major in Data[Off[b]:Off[b+1]].
type BlockDiag struct {
	Start []int     // len nblocks+1, Start[0] = 0, Start[nblocks] = n
	Off   []int     // len nblocks+1, offsets into Data
	Data  []float64 // concatenated row-major blocks
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
	b.Start = append(b.Start[:0], 0)
	b.Off = append(b.Off[:0], 0)
	b.Data = b.Data[:0]
}

// AppendBlock appends a k×k block given row-major in data (len k*k).
func (b *BlockDiag) AppendBlock(k int, data ...float64) {
	if len(data) != k*k {
		panic(fmt.Sprintf("mech: block of size %d needs %d entries, got %d", k, k*k, len(data)))
	}
	b.Start = append(b.Start, b.Start[len(b.Start)-1]+k)
	b.Data = append(b.Data, data...)
	b.Off = append(b.Off, len(b.Data))
}

// AppendScalarBlock appends the k×k block s·I without allocating.
func (b *BlockDiag) AppendScalarBlock(k int, s float64) {
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
func (b *BlockDiag) N() int { return b.Start[len(b.Start)-1] }

// NumBlocks returns the number of diagonal blocks.
func (b *BlockDiag) NumBlocks() int { return len(b.Start) - 1 }

// BlockOf returns the block index holding row i (binary search).
func (b *BlockDiag) BlockOf(i int) int {
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
	if j < b.Start[k] || j >= b.Start[k+1] {
		return 0
	}
	n := b.Start[k+1] - b.Start[k]
	return b.Data[b.Off[k]+(i-b.Start[k])*n+(j-b.Start[k])]
}

// QuadForm returns xᵀ B y.
func (b *BlockDiag) QuadForm(x, y []float64) float64 {
	var sum float64
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

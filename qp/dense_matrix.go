package qp

// DenseMatrix is a dense symmetric m×m matrix stored row-major.
type DenseMatrix struct {
	N    int
	Data []float64
}

// Dim returns N.
func (d *DenseMatrix) Dim() int { return d.N }

// At returns entry (i, j).
func (d *DenseMatrix) At(i, j int) float64 { return d.Data[i*d.N+j] }

// MulVec sets dst = A x.
func (d *DenseMatrix) MulVec(dst, x []float64) {
	for i := 0; i < d.N; i++ {
		row := d.Data[i*d.N : (i+1)*d.N]
		var s float64
		for j, a := range row {
			s += a * x[j]
		}
		dst[i] = s
	}
}

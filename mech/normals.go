package mech

import "fmt"

// Normals is the constraint gradient matrix G, one column ∇gᵢ per contact,
// as the operators read it: *Cols (stored, Problem.G) implements it, and a
// system whose normal columns follow from compact per-contact records (a
// sphere contact's normal n on its two spheres) may give one matrix-free in
// Problem.GNormals instead, so that G's entries are never stored. Each
// method has the arithmetic of the Cols method of the same name (the same
// terms in the same order), so an operator gets the same bits from either.
//
// Operators read G through Problem.Normals. With GNormals set, Problem.G is
// empty and has no column pointers: a direct read of one of its columns
// (ColDot, AddMulVec with a nonzero impulse, SubCols, …) panics instead of
// seeing no contact, and the operators that read G's storage refuse such a
// problem (NeedStoredG). A system gives G matrix-free only to laws whose
// every operator reads it through Normals (MatrixFreeG).
type Normals interface {
	// NCols returns m, the number of columns.
	NCols() int
	// AppendCol appends column j's entries (rows and values, in storage
	// order) to rows and vals and returns them.
	AppendCol(j int, rows []int32, vals []float64) ([]int32, []float64)
	// ColDots sets dst[j−lo] = ∇gⱼᵀ x for the columns j in [lo, hi)
	// (Cols.ColDot's summation): dst holds hi − lo values, so that a
	// caller may take the products a range at a time.
	ColDots(dst, x []float64, lo, hi int)
	// AddMulVec sets dst += G y (by column, zero yⱼ skipped, entries in
	// storage order).
	AddMulVec(dst, y []float64)
	// ColRuns appends the runs of columns with an entry in the rows
	// [lo, hi), gaps shorter than gap bridged (Cols.ColRuns).
	ColRuns(dst [][2]int, lo, hi, gap int) [][2]int
	// AddMulVecRows adds G y to dst[lo:hi] only, reading the columns of
	// runs (Cols.AddMulVecRows).
	AddMulVecRows(dst, y []float64, lo, hi int, runs [][2]int)
}

// MatrixFreeG is implemented by the operators that read G only through
// Problem.Normals (and the Problem methods built on it), so that a system
// may hand them a problem whose G is given matrix-free (GNormals). A system
// gives G matrix-free only when every operator of its law implements it.
type MatrixFreeG interface {
	// ReadsNormals reports whether the operator, as configured, reads G
	// only through Problem.Normals.
	ReadsNormals() bool
}

// Normals returns G as the operators read it: GNormals when G is given
// matrix-free, else the stored columns.
func (p *Problem) Normals() Normals {
	if p.GNormals != nil {
		return p.GNormals
	}
	return &p.G
}

// NeedStoredG returns an error naming law when the problem's G is given
// matrix-free (GNormals), which law does not read.
func (p *Problem) NeedStoredG(law string) error {
	if p.GNormals != nil {
		return fmt.Errorf("mech: %s needs the constraint gradients G stored; this problem gives them matrix-free (GNormals)", law)
	}
	return nil
}

// AppendCol implements Normals: it appends column j's entries to rows
// and vals.
func (c *Cols) AppendCol(j int, rows []int32, vals []float64) ([]int32, []float64) {
	a, b := c.Ptr[j], c.Ptr[j+1]
	return append(rows, c.Row[a:b]...), append(vals, c.Val[a:b]...)
}

// ColDots sets dst[j−lo] = ColDot(j, x) for the columns j in [lo, hi).
func (c *Cols) ColDots(dst, x []float64, lo, hi int) {
	for j := lo; j < hi; j++ {
		dst[j-lo] = c.ColDot(j, x)
	}
}

// AddEntries sets dst += y·(the column with entries rows, vals) unless
// y = 0, with Cols.AddMulVec's arithmetic for one column.
func AddEntries(dst []float64, rows []int32, vals []float64, y float64) {
	if y == 0 {
		return
	}
	for e, r := range rows {
		dst[r] += vals[e] * y
	}
}

// SubNormals writes into dst the columns of g listed in idx, in that
// order, with nrows rows (Cols.SubCols for any Normals).
func SubNormals(dst *Cols, g Normals, nrows int, idx []int) {
	if c, ok := g.(*Cols); ok {
		c.SubCols(dst, idx)
		return
	}
	dst.Reset(nrows)
	for _, j := range idx {
		dst.Row, dst.Val = g.AppendCol(j, dst.Row, dst.Val)
		dst.EndCol()
	}
}

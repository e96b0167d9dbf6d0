package mech

// Cols is a sparse n×m matrix stored by columns (compressed sparse column).
// Column j holds Val[Ptr[j]:Ptr[j+1]] at rows Row[Ptr[j]:Ptr[j+1]]. Impact
// problems store G and D this way: each column touches the degrees of freedom
// of at most two bodies.
type Cols struct {
	NRows int
	Ptr   []int   // len m+1, Ptr[0] = 0
	Row   []int32 // 32-bit: the rows are degrees of freedom of one system
	Val   []float64
}

// Reset empties the matrix to zero columns with nrows rows, keeping storage.
func (c *Cols) Reset(nrows int) {
	c.NRows = nrows
	c.Ptr = append(c.Ptr[:0], 0)
	c.Row = c.Row[:0]
	c.Val = c.Val[:0]
}

// NCols returns the number of columns.
func (c *Cols) NCols() int {
	if len(c.Ptr) == 0 {
		return 0
	}
	return len(c.Ptr) - 1
}

// Truncate drops every column from k on (k ≤ NCols()), keeping storage.
func (c *Cols) Truncate(k int) {
	if len(c.Ptr) == 0 {
		return
	}
	c.Ptr = c.Ptr[:k+1]
	c.Row = c.Row[:c.Ptr[k]]
	c.Val = c.Val[:c.Ptr[k]]
}

// Append adds entry (row, val) to the column being built. Call EndCol to
// finish the column.
func (c *Cols) Append(row int, val float64) {
	c.Row = append(c.Row, int32(row))
	c.Val = append(c.Val, val)
}

// EndCol finishes the current column.
func (c *Cols) EndCol() {
	if len(c.Ptr) == 0 {
		c.Ptr = append(c.Ptr, 0)
	}
	c.Ptr = append(c.Ptr, len(c.Row))
}

// ColDot returns column j dotted with x.
func (c *Cols) ColDot(j int, x []float64) float64 {
	if k := c.Ptr[j]; c.Ptr[j+1]-k == 4 {
		// Typically a two-body contact in 2D (x, y of body I, then x, y
		// of body J): sum the x terms and the y terms first. Each pair sum is commutative,
		// so the result is the same bit for bit when the bodies swap
		// places, as they do for a contact and its mirror image; the
		// sequential sum is not, and seeds asymmetry in symmetric scenes.
		// The conversions forbid fused multiply-adds, which would break
		// the symmetry of the pairs.
		v, r := c.Val[k:k+4:k+4], c.Row[k:k+4:k+4]
		return (float64(v[0]*x[r[0]]) + float64(v[2]*x[r[2]])) + (float64(v[1]*x[r[1]]) + float64(v[3]*x[r[3]]))
	}
	var s float64
	for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
		s += c.Val[k] * x[c.Row[k]]
	}
	return s
}

// MulTVec sets dst = Cᵀ x (len(dst) = m).
func (c *Cols) MulTVec(dst, x []float64) {
	for j := range dst {
		dst[j] = c.ColDot(j, x)
	}
}

// AddMulVec sets dst += C y (len(y) = m, len(dst) = n).
func (c *Cols) AddMulVec(dst, y []float64) {
	for j, yj := range y {
		c.addCol(dst, j, yj)
	}
}

// addCol sets dst += yj·(column j) unless yj = 0.
func (c *Cols) addCol(dst []float64, j int, yj float64) {
	if yj == 0 {
		return
	}
	for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
		dst[c.Row[k]] += c.Val[k] * yj
	}
}

// AddMulVecIn is AddMulVec with the columns added in the order listed in
// order (a permutation of C's columns): each row sums its terms in that
// order, so a caller can choose an order in which mirror-image columns
// hold corresponding places.
func (c *Cols) AddMulVecIn(dst, y []float64, order []int) {
	for _, j := range order {
		c.addCol(dst, j, y[j])
	}
}

// ColRuns appends to dst the runs [from, to) of consecutive columns that
// hold every entry in the rows [lo, hi): the columns with such an entry,
// with gaps shorter than gap columns bridged. Contacts listed body by body
// (pairs, then the walls, say) touch a row range in a few long runs.
func (c *Cols) ColRuns(dst [][2]int, lo, hi, gap int) [][2]int {
	l, h := int32(lo), int32(hi)
	for j := 0; j+1 < len(c.Ptr); j++ {
		for _, r := range c.Row[c.Ptr[j]:c.Ptr[j+1]] {
			if r >= l && r < h {
				dst = AppendRun(dst, j, gap)
				break
			}
		}
	}
	return dst
}

// AppendRun adds column j (after every column of dst) to the runs dst,
// extending the last run when the gap to it is shorter than gap columns
// (ColRuns).
func AppendRun(dst [][2]int, j, gap int) [][2]int {
	if k := len(dst) - 1; k >= 0 && j-dst[k][1] < gap {
		dst[k][1] = j + 1
		return dst
	}
	return append(dst, [2]int{j, j + 1})
}

// AddMulVecRows adds C y to dst[lo:hi] only (the rows [lo, hi)), reading
// the columns of runs, which must hold every entry of those rows in
// increasing order (see ColRuns). Every entry receives its terms in the
// same order as in AddMulVec (by column, zero yⱼ skipped), so AddMulVec
// split into disjoint row ranges on several goroutines gives AddMulVec's
// result bit for bit.
func (c *Cols) AddMulVecRows(dst, y []float64, lo, hi int, runs [][2]int) {
	l, h := int32(lo), int32(hi)
	for _, run := range runs {
		for j := run[0]; j < run[1]; j++ {
			yj := y[j]
			if yj == 0 {
				continue
			}
			for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
				if r := c.Row[k]; r >= l && r < h {
					dst[r] += c.Val[k] * yj
				}
			}
		}
	}
}

// AddScaledCol sets dst += s·(column j).
func (c *Cols) AddScaledCol(dst []float64, j int, s float64) {
	for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
		dst[c.Row[k]] += c.Val[k] * s
	}
}

// SubCols writes into dst the columns of c listed in idx, in that order.
func (c *Cols) SubCols(dst *Cols, idx []int) {
	dst.Reset(c.NRows)
	for _, j := range idx {
		for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
			dst.Append(int(c.Row[k]), c.Val[k])
		}
		dst.EndCol()
	}
}

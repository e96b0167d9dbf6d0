package friction

import "impactsim/mech"

// blcpPack holds a problem's columns for BoxedLCP's contact-by-contact
// sweep, packed in the order the sweep reads them. Contact k owns a local
// row set rows[rowPtr[k]:rowPtr[k+1]] — the union of the rows of its
// normal column gₖ, of its friction columns dⱼ (DContact[j] = k) and of
// their M⁻¹ images, first gₖ's rows in gₖ's order — and the columns
// cols[colPtr[k]:colPtr[k+1]], its normal column first. Each column keeps
// its values over the local rows densely, as a prefix: the column itself
// (ng values) and then its M⁻¹ image (nm values), trailing zeros dropped.
// A sweep then gathers the velocities of a contact's rows once, runs the
// contact's coordinate updates on that local copy and scatters it back:
// one pass over v per contact instead of two per column, and the values in
// the order they are read.
type blcpPack struct {
	rowPtr, colPtr []int32
	rows           []int32
	cols           []packCol
	val            []float64
	loc            []float64 // the gathered velocities of one contact
	mark           []int32   // per row of v: 1 + its local index in the contact being packed, 0 elsewhere
}

// packCol is one column of a blcpPack.
type packCol struct {
	off    int32   // val[off:off+ng] the column, val[off+ng:off+ng+nm] M⁻¹ times it
	ng, nm int32   // prefix lengths over the contact's local rows
	j      int32   // friction: the column of D (β index); normal: −1
	diag   float64 // cᵀM⁻¹c
	rel    float64 // the known part of the column's velocity: NRel − t, or DRel
}

// build packs p's columns; mg and md are M⁻¹G and M⁻¹D, dg and dd the
// diagonals, t the normal targets. It keeps the storage between calls.
func (k *blcpPack) build(p *mech.Problem, mg, md *mech.Cols, dg, dd, t []float64) {
	m, nd := p.NContacts(), p.D.NCols()
	k.rowPtr = growI32(k.rowPtr, m+1)
	k.colPtr = growI32(k.colPtr, m+1)
	// friction columns of each contact, in D's order: counting sort
	for i := range k.colPtr {
		k.colPtr[i] = 0
	}
	for j := 0; j < nd; j++ {
		k.colPtr[p.DContact[j]+1]++
	}
	for i := 0; i < m; i++ {
		k.colPtr[i+1] += k.colPtr[i] + 1 // + the normal column
	}
	// k.cols[colPtr[i]] is the normal; the friction columns follow
	k.cols = growCols(k.cols, m+nd)
	next := k.rowPtr[:m] // reuse rowPtr as the per-contact write cursor
	for i := 0; i < m; i++ {
		next[i] = k.colPtr[i] + 1
	}
	for j := 0; j < nd; j++ {
		c := p.DContact[j]
		k.cols[next[c]].j = int32(j)
		next[c]++
	}
	k.rows = k.rows[:0]
	k.val = k.val[:0]
	k.mark = growI32(k.mark, p.NDof())
	clear(k.mark)
	for i := 0; i < m; i++ {
		k.rowPtr[i] = int32(len(k.rows))
		lo := len(k.rows)
		addRows := func(c *mech.Cols, j int) {
			for a := c.Ptr[j]; a < c.Ptr[j+1]; a++ {
				if r := c.Row[a]; k.mark[r] == 0 {
					k.rows = append(k.rows, r)
					k.mark[r] = int32(len(k.rows) - lo)
				}
			}
		}
		addRows(&p.G, i)
		for c := k.colPtr[i] + 1; c < k.colPtr[i+1]; c++ {
			addRows(&p.D, int(k.cols[c].j))
		}
		addRows(mg, i)
		for c := k.colPtr[i] + 1; c < k.colPtr[i+1]; c++ {
			addRows(md, int(k.cols[c].j))
		}
		local := k.rows[lo:]
		put := func(pc *packCol, c, mc *mech.Cols, j int) {
			pc.off = int32(len(k.val))
			pc.ng = k.appendDense(local, c, j)
			pc.nm = k.appendDense(local, mc, j)
		}
		nc := &k.cols[k.colPtr[i]]
		nc.j, nc.diag, nc.rel = -1, dg[i], p.NRelAt(i)-t[i]
		put(nc, &p.G, mg, i)
		for c := k.colPtr[i] + 1; c < k.colPtr[i+1]; c++ {
			fc := &k.cols[c]
			j := int(fc.j)
			fc.diag, fc.rel = dd[j], p.DRelAt(j)
			put(fc, &p.D, md, j)
		}
		for _, r := range local {
			k.mark[r] = 0
		}
	}
	k.rowPtr[m] = int32(len(k.rows))
	maxRows := 0
	for i := 0; i < m; i++ {
		maxRows = max(maxRows, int(k.rowPtr[i+1]-k.rowPtr[i]))
	}
	k.loc = grow(k.loc, maxRows)
}

// appendDense appends column j of c over the local rows, up to its last
// nonzero, and returns how many values it appended.
func (k *blcpPack) appendDense(local []int32, c *mech.Cols, j int) int32 {
	at := len(k.val)
	for range local {
		k.val = append(k.val, 0)
	}
	dense := k.val[at:]
	n := 0
	for a := c.Ptr[j]; a < c.Ptr[j+1]; a++ {
		if v := c.Val[a]; v != 0 {
			r := int(k.mark[c.Row[a]]) - 1
			dense[r] += v
			n = max(n, r+1)
		}
	}
	k.val = k.val[:at+n]
	return int32(n)
}

// dot returns Σ g[a]·x[a]. Four values (a two-body contact in 2D) are
// summed as mech.Cols.ColDot sums them, x terms and y terms first, so
// that mirror-image contacts give the same bits.
func dot(g, x []float64) float64 {
	if len(g) == 4 {
		x = x[:4]
		return (float64(g[0]*x[0]) + float64(g[2]*x[2])) + (float64(g[1]*x[1]) + float64(g[3]*x[3]))
	}
	x = x[:len(g)]
	var s float64
	for a, v := range g {
		s += v * x[a]
	}
	return s
}

// axpy adds s·m to the first len(m) values of loc.
func axpy(loc, m []float64, s float64) {
	loc = loc[:len(m)]
	for a, x := range m {
		loc[a] += x * s
	}
}

func growI32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func growCols(s []packCol, n int) []packCol {
	if cap(s) < n {
		return make([]packCol, n)
	}
	return s[:n]
}

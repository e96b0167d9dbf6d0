package friction

import "impactsim/mech"

// blcpPack holds a problem's columns for BoxedLCP's contact-by-contact
// sweep, packed in the order the sweep reads them. The contact at sweep
// position q is con[q] (the identity, or the colour order of
// boxedlcp_colour.go); it owns a local row set rows[rowPtr[q]:rowPtr[q+1]]
// — the union of the rows of its normal column g, of its friction columns
// dⱼ (DContact[j] = con[q]) and of their M⁻¹ images, first g's rows in g's
// order — and the columns cols[colPtr[q]:colPtr[q+1]], its normal column
// first. Each column keeps its values over the local rows densely, as a
// prefix: the column itself (ng values) and then its M⁻¹ image (nm
// values), trailing zeros dropped. A sweep then gathers the velocities of
// a contact's rows once, runs the contact's coordinate updates on that
// local copy and scatters it back: one pass over v per contact instead of
// two per column, and the values in the order they are read.
type blcpPack struct {
	con            []int32 // per position: its contact
	rowPtr, colPtr []int32 // per position
	rows           []int32
	cols           []packCol
	val            []float64
	maxRows        int       // the largest local row set
	loc            []float64 // the gathered velocities of one contact
	mark           []int32   // per row of v: 1 + its local index in the contact being packed, 0 elsewhere
	fPtr, fCol     []int32   // per contact: its friction columns fCol[fPtr[i]:fPtr[i+1]], in D's order
}

// packCol is one column of a blcpPack.
type packCol struct {
	off    int32   // val[off:off+ng] the column, val[off+ng:off+ng+nm] M⁻¹ times it
	ng, nm int32   // prefix lengths over the contact's local rows
	j      int32   // friction: the column of D (β index); normal: −1
	diag   float64 // cᵀM⁻¹c
	inv    float64 // 1/diag (0 if diag is 0)
	rel    float64 // the known part of the column's velocity: NRel − t, or DRel
}

// frictionColumns fills fPtr and fCol: each contact's columns of D, in
// D's order (a counting sort over DContact).
func (k *blcpPack) frictionColumns(p *mech.Problem) {
	m, nd := p.NContacts(), p.D.NCols()
	k.fPtr = growI32(k.fPtr, m+1)
	clear(k.fPtr)
	for j := 0; j < nd; j++ {
		k.fPtr[p.DContact[j]+1]++
	}
	for i := 0; i < m; i++ {
		k.fPtr[i+1] += k.fPtr[i]
	}
	k.fCol = growI32(k.fCol, nd)
	k.mark = growI32(k.mark, max(p.NDof(), m))
	next := k.mark[:m] // per-contact write cursor (mark is cleared after)
	copy(next, k.fPtr[:m])
	for j := 0; j < nd; j++ {
		c := p.DContact[j]
		k.fCol[next[c]] = int32(j)
		next[c]++
	}
	clear(next)
}

// build packs p's columns in the sweep order order (nil: contact order);
// mg and md are M⁻¹G and M⁻¹D, dg and dd the diagonals, t the normal
// targets. It needs frictionColumns first and keeps the storage between
// calls.
func (k *blcpPack) build(p *mech.Problem, mg, md *mech.Cols, dg, dd, t []float64, order []int32) {
	m, nd := p.NContacts(), p.D.NCols()
	k.con = growI32(k.con, m)
	if order == nil {
		for i := range k.con {
			k.con[i] = int32(i)
		}
	} else {
		copy(k.con, order)
	}
	k.rowPtr = growI32(k.rowPtr, m+1)
	k.colPtr = growI32(k.colPtr, m+1)
	k.cols = growCols(k.cols, m+nd)
	k.rows = k.rows[:0]
	k.val = k.val[:0]
	k.mark = growI32(k.mark, max(p.NDof(), m))
	clear(k.mark)
	k.maxRows = 0
	var nc int32
	for q, i32 := range k.con {
		i := int(i32)
		fc := k.fCol[k.fPtr[i]:k.fPtr[i+1]]
		k.colPtr[q] = nc
		k.rowPtr[q] = int32(len(k.rows))
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
		for _, j := range fc {
			addRows(&p.D, int(j))
		}
		addRows(mg, i)
		for _, j := range fc {
			addRows(md, int(j))
		}
		local := k.rows[lo:]
		k.maxRows = max(k.maxRows, len(local))
		put := func(pc *packCol, c, mc *mech.Cols, j int) {
			pc.off = int32(len(k.val))
			pc.ng = k.appendDense(local, c, j)
			pc.nm = k.appendDense(local, mc, j)
		}
		ncol := &k.cols[nc]
		nc++
		ncol.j, ncol.diag, ncol.rel = -1, dg[i], p.NRelAt(i)-t[i]
		ncol.inv = recip(ncol.diag)
		put(ncol, &p.G, mg, i)
		for _, j := range fc {
			fcol := &k.cols[nc]
			nc++
			fcol.j, fcol.diag, fcol.rel = j, dd[j], p.DRelAt(int(j))
			fcol.inv = recip(fcol.diag)
			put(fcol, &p.D, md, int(j))
		}
		for _, r := range local {
			k.mark[r] = 0
		}
	}
	k.rowPtr[m] = int32(len(k.rows))
	k.colPtr[m] = nc
	k.loc = grow(k.loc, k.maxRows)
}

// step returns the coordinate step (cᵀv + rel)/diag of a column whose
// product cᵀv is cv: by the reciprocal if fast (a multiplication instead
// of a division, 10 % of a sweep's time on a 3,237-contact pile; it rounds
// differently), else by division.
func (c *packCol) step(cv float64, fast bool) float64 {
	if fast {
		return (cv + c.rel) * c.inv
	}
	return (cv + c.rel) / c.diag
}

func recip(d float64) float64 {
	if d > 0 {
		return 1 / d
	}
	return 0
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

// dotSplit returns Σ g[a]·x[a] summed in four partial sums, of the
// entries a ≡ 0, 1, 2, 3 (mod 4), added as (s₀ + s₁) + (s₂ + s₃): the
// coloured sweep's product. A sum in order is one chain of dependent
// additions (12 for a sphere's friction column), which bounds the sweep's
// speed; four chains run side by side. It rounds differently from dot.
func dotSplit(g, x []float64) float64 {
	x = x[:len(g)]
	var s0, s1, s2, s3 float64
	a := 0
	for ; a+4 <= len(g); a += 4 {
		s0 += g[a] * x[a]
		s1 += g[a+1] * x[a+1]
		s2 += g[a+2] * x[a+2]
		s3 += g[a+3] * x[a+3]
	}
	for ; a < len(g); a++ {
		s0 += g[a] * x[a]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotBy is dotSplit if split, else dot; four values (a two-body contact
// in 2D) are always summed by dot, so that mirror-image contacts keep the
// same bits.
func dotBy(g, x []float64, split bool) float64 {
	if split && len(g) != 4 {
		return dotSplit(g, x)
	}
	return dot(g, x)
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

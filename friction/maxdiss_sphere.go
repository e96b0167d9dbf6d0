package friction

import (
	"fmt"
	"math"
	"slices"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/scratch"
)

// SphereBasis is a friction basis (mech.Basis) whose contacts are between
// spheres, or a sphere and a wall, in the scaled coordinates of the fast
// sphere path (spheres.tanBasis): block b of the problem is sphere b's six
// rows (v, ω̂), M⁻¹'s block b is σ_b·I₆ (mech.BlockDiag.Scalar), and
// contact k has exactly the two columns 2k and 2k+1,
//
//	t: (t, −κ_i o) on sphere i, (−t, −κ_j o) on sphere j,
//	o: (o,  κ_i t) on sphere i, (−o,  κ_j t) on sphere j,
//
// with o = n × t and sphere b's moment scale κ_b (= r/√(I/m)), the same in
// all its contacts (no entries on j for a wall). Alg. 3's direction of a
// sliding contact, −(w_t·col_t + w_o·col_o)/‖w‖ = a·col_t + c·col_o, is
// then
//
//	(s, −κ_i q) on sphere i, (−s, −κ_j q) on sphere j,  s = a t + c o, q = a o − c t,
//
// six numbers and two sphere indices, from which MaxDissipation's
// matrix-free QP (sphereDelassus) computes its products without storing
// the directions' entries or the matrix DᵀM⁻¹D.
type SphereBasis interface {
	mech.Basis
	// SphereContact returns contact k's spheres (block indices; j < 0: a
	// wall) and its t and o = n × t as its columns use them.
	SphereContact(k int) (i, j int32, t, o [3]float64)
	// MomentScales returns κ_b of every block b.
	MomentScales() []float64
}

// sphereDelassus is Alg. 3's QP matrix A = DᵀM⁻¹D on the directions of a
// SphereBasis problem, assembled from the directions' compact form without
// their entries: direction a is (s_a, −κ_i q_a) on its sphere i and
// (−s_a, −κ_j q_a) on its sphere j (sq: s, q; ij: i, j), so with σ_b
// M⁻¹'s scalar on sphere b
//
//	A_ac = Σ over the spheres b that a and c share of σ_b (g_ab g_cb s_a·s_c + κ_b² q_a·q_c),
//
// g = +1 on a direction's sphere i and −1 on its j. Each sphere's list of
// directions (adj, increasing; 2a + side) gives row a's columns as the
// union of its two spheres' lists, merged in increasing order; the rows
// are counted, then written, by ranges of rows, and A is kept in
// compressed rows with int32 columns (≈ 12 bytes per entry, 4–6 entries
// a row at the 60k landing). The products are the assembled matrix's (one
// row per goroutine, in column order), so they cost what mech.Delassus's
// do; the memory is the compact directions (56 bytes), the lists (8) and
// the rows, where the generic path stores each direction's 12 entries
// (≈ 150 bytes), mech.Delassus's rows with int columns and its assembly
// workspace.
//
// Every value is computed by one goroutine in an order that does not
// depend on the split, so A and its products are the same bits for any
// number of workers. The rounding differs from the generic assembly's
// (the same sums in another form): the QP is the same, and MPRGP solves
// it to the same tolerance.
type sphereDelassus struct {
	sq   []float64  // per direction k: s, q at [6k, 6k+6) (sqAt)
	ij   [][2]int32 // per direction: its spheres i, j (j < 0: a wall)
	ptr  []int32    // sphere b's directions are adj[ptr[b]:ptr[b+1]]
	adj  []int32    // 2a: direction a on its sphere i; 2a+1: on its j
	rp   []int32    // row a of A is col, val [rp[a], rp[a+1])
	col  []int32
	val  []float64
	sig  []float64 // σ_b: M⁻¹'s scalar blocks (the problem's storage)
	kap  []float64 // κ_b (the basis's storage)
	pool *par.Pool
	// grain: range size on the pool; from: the size from which a pass
	// goes to the pool
	grain, from int

	dst, x, v     []float64
	fFill, fB     func(w, lo, hi int)
	fCount, fRows func(w, lo, hi int)
	fMul          func(w, lo, hi int)
	basis         SphereBasis
	w, norm       []float64
	idx           []int32
	// the per-call arrays' own storage, for what a lent arena
	// (MaxDissipation.LendArena) does not hold; the lists ptr and adj,
	// read only while A is assembled, in an arena of their own (lists),
	// whose storage is then lent to the QP solver (MaxDissipation)
	own struct {
		sq, val    []float64
		ij         [][2]int32
		rp, col    []int32
		lists      scratch.Arena
		listsTaken bool
	}
}

// slot returns n elements for one of a call's arrays: from the lent arena
// ar when it holds them (scratch.TryTake), else from own (grown with
// slack as before).
func slot[T scratch.Plain](ar *scratch.Arena, own *[]T, n int) []T {
	if ar != nil {
		if s, ok := scratch.TryTake[T](ar, n); ok {
			return s
		}
	}
	*own = growSlack(*own, n)
	return *own
}

// list returns n int32s for the lists ptr, adj: from the lent arena ar
// when it holds them, else from own.lists.
func (a *sphereDelassus) list(ar *scratch.Arena, n int) []int32 {
	if ar != nil {
		if s, ok := scratch.TryTake[int32](ar, n); ok {
			return s
		}
	}
	a.own.listsTaken = true
	return a.own.lists.Int32s(n)
}

// listsRest returns own.lists' storage once A is assembled (the lists are
// not read again in the call), for the QP solver's vectors; nil when this
// call took nothing from it (the lists in a lent arena).
func (a *sphereDelassus) listsRest() []float64 {
	if !a.own.listsTaken {
		return nil
	}
	a.ptr, a.adj = nil, nil
	a.own.lists.Reset()
	return a.own.lists.Rest()
}

// drop forgets the call's arrays (after a call whose arrays may be in a
// lent arena, which is the lender's again).
func (a *sphereDelassus) drop() {
	a.sq, a.ij, a.ptr, a.adj, a.rp, a.col, a.val = nil, nil, nil, nil, nil, nil, nil
}

// sphereFree reports whether p's friction basis is a SphereBasis on
// scalar 6×6 blocks of M⁻¹, which sphereDelassus needs.
func sphereFree(p *mech.Problem) (SphereBasis, bool) {
	sb, ok := p.DBasis.(SphereBasis)
	if !ok || !p.MInv.Scalar() || p.MInv.MaxBlock() != 6 {
		return nil, false
	}
	return sb, true
}

// run calls f on ranges of [0, n): on the pool when n ≥ a.from.
func (a *sphereDelassus) run(n int, f func(w, lo, hi int)) {
	if a.pool.Workers() > 1 && n >= a.from {
		a.pool.For(n, a.grain, f)
	} else if n > 0 {
		f(0, 0, n)
	}
}

// build sets the directions from the sliding contacts' first columns idx
// (their t, o follow), w = Dᵀv⁻ + DRel per column and ‖w‖ per direction,
// d = −(w_t col_t + w_o col_o)/‖w‖, and assembles A on minv's blocks. Its
// arrays are taken from ar where it holds them (nil: all its own).
func (a *sphereDelassus) build(sb SphereBasis, minv *mech.BlockDiag, idx []int32, w, norm []float64, ar *scratch.Arena) {
	m, nb := len(idx), minv.NumBlocks()
	a.sig, a.kap = minv.Data[:nb], sb.MomentScales()
	if a.fFill == nil {
		a.fFill, a.fB, a.fCount, a.fRows, a.fMul = a.fillRange, a.bRange, a.countRows, a.writeRows, a.mulRows
	}
	// the directions, by ranges
	a.sq, a.ij = slot(ar, &a.own.sq, 6*m), slot(ar, &a.own.ij, m)
	a.basis, a.idx, a.w, a.norm = sb, idx, w, norm
	a.run(m, a.fFill)
	a.basis, a.idx, a.w, a.norm = nil, nil, nil, nil
	// each sphere's list of directions (a counting sort: increasing)
	a.own.lists.Reset()
	a.own.listsTaken = false
	a.ptr = a.list(ar, nb+1)
	clear(a.ptr)
	for _, ij := range a.ij[:m] {
		a.ptr[ij[0]+1]++
		if ij[1] >= 0 {
			a.ptr[ij[1]+1]++
		}
	}
	for b := 0; b < nb; b++ {
		a.ptr[b+1] += a.ptr[b]
	}
	a.adj = a.list(ar, int(a.ptr[nb]))
	for k, ij := range a.ij[:m] {
		a.adj[a.ptr[ij[0]]] = int32(2 * k)
		a.ptr[ij[0]]++
		if ij[1] >= 0 {
			a.adj[a.ptr[ij[1]]] = int32(2*k + 1)
			a.ptr[ij[1]]++
		}
	}
	copy(a.ptr[1:], a.ptr[:nb])
	a.ptr[0] = 0
	// the rows: their lengths, their places, their entries
	a.rp = slot(ar, &a.own.rp, m+1)
	a.rp[0] = 0
	a.run(m, a.fCount)
	for k := 0; k < m; k++ {
		a.rp[k+1] += a.rp[k]
	}
	a.col, a.val = slot(ar, &a.own.col, int(a.rp[m])), slot(ar, &a.own.val, int(a.rp[m]))
	a.run(m, a.fRows)
}

func (a *sphereDelassus) fillRange(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		c0 := int(a.idx[k])
		if a.basis.Contact(c0+1) != a.basis.Contact(c0) {
			panic(fmt.Sprintf("friction: a SphereBasis contact with one column (%d)", c0))
		}
		ca, cc := -a.w[c0]/a.norm[k], -a.w[c0+1]/a.norm[k]
		i, j, t, o := a.basis.SphereContact(a.basis.Contact(c0))
		d := a.sqAt(k)
		for r := 0; r < 3; r++ {
			d[r] = ca*t[r] + cc*o[r]
			d[3+r] = ca*o[r] - cc*t[r]
		}
		a.ij[k] = [2]int32{i, j}
	}
}

// sqAt returns direction k's s and q.
func (a *sphereDelassus) sqAt(k int) *[6]float64 { return (*[6]float64)(a.sq[6*k : 6*k+6]) }

// lists returns the lists of direction k's spheres (the second empty for a
// wall).
func (a *sphereDelassus) lists(k int) (li, lj []int32) {
	i, j := a.ij[k][0], a.ij[k][1]
	li = a.adj[a.ptr[i]:a.ptr[i+1]]
	if j >= 0 {
		lj = a.adj[a.ptr[j]:a.ptr[j+1]]
	}
	return li, lj
}

// countRows sets rp[k+1] to the number of entries of the rows [lo, hi):
// the directions in the union of their two spheres' lists.
func (a *sphereDelassus) countRows(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		li, lj := a.lists(k)
		n := int32(0)
		for p, q := 0, 0; p < len(li) || q < len(lj); n++ {
			switch {
			case q == len(lj) || p < len(li) && li[p]>>1 < lj[q]>>1:
				p++
			case p == len(li) || lj[q]>>1 < li[p]>>1:
				q++
			default:
				p, q = p+1, q+1
			}
		}
		a.rp[k+1] = n
	}
}

// term returns σ_b (g_k g_c s_k·s_c + κ_b² q_k·q_c) of directions k and c
// (entries ek, ec of the list of sphere b: 2·direction + side).
func (a *sphereDelassus) term(b int32, ek, ec int32) float64 {
	x, y := a.sqAt(int(ek>>1)), a.sqAt(int(ec>>1))
	ss := x[0]*y[0] + x[1]*y[1] + x[2]*y[2]
	if (ek^ec)&1 != 0 {
		ss = -ss
	}
	kk := a.kap[b]
	return a.sig[b] * (ss + kk*kk*(x[3]*y[3]+x[4]*y[4]+x[5]*y[5]))
}

// writeRows writes the rows [lo, hi) of A, their columns in increasing
// order, a column shared by both lists (the diagonal) summed sphere i
// first.
func (a *sphereDelassus) writeRows(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		i, j := a.ij[k][0], a.ij[k][1]
		li, lj := a.lists(k)
		e := a.rp[k]
		ek, ej := int32(2*k), int32(2*k+1)
		for p, q := 0, 0; p < len(li) || q < len(lj); e++ {
			var c int32
			var v float64
			switch {
			case q == len(lj) || p < len(li) && li[p]>>1 < lj[q]>>1:
				c, v = li[p]>>1, a.term(i, ek, li[p])
				p++
			case p == len(li) || lj[q]>>1 < li[p]>>1:
				c, v = lj[q]>>1, a.term(j, ej, lj[q])
				q++
			default:
				c, v = li[p]>>1, a.term(i, ek, li[p])+a.term(j, ej, lj[q])
				p, q = p+1, q+1
			}
			a.col[e], a.val[e] = c, v
		}
	}
}

// dots sets b_a = d_aᵀ v for the directions (the QP's linear term before
// the known velocities).
func (a *sphereDelassus) dots(b, v []float64) {
	a.dst, a.v = b, v
	a.run(len(a.ij), a.fB)
	a.dst, a.v = nil, nil
}

func (a *sphereDelassus) bRange(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		d, i, j := a.sqAt(k), a.ij[k][0], a.ij[k][1]
		vi := a.v[6*i : 6*i+6 : 6*i+6]
		x := d[0]*vi[0] + d[1]*vi[1] + d[2]*vi[2] - a.kap[i]*(d[3]*vi[3]+d[4]*vi[4]+d[5]*vi[5])
		if j >= 0 {
			vj := a.v[6*j : 6*j+6 : 6*j+6]
			x += -(d[0]*vj[0] + d[1]*vj[1] + d[2]*vj[2]) - a.kap[j]*(d[3]*vj[3]+d[4]*vj[4]+d[5]*vj[5])
		}
		a.dst[k] = x
	}
}

// Dim returns the number of directions.
func (a *sphereDelassus) Dim() int { return len(a.ij) }

// Diag returns A_kk, found in row k, which holds it (no vector of its
// own: MPRGP reads the diagonal once per solve, to scale).
func (a *sphereDelassus) Diag(k int) float64 { return a.At(k, k) }

// At returns A_kl.
func (a *sphereDelassus) At(k, l int) float64 {
	cols := a.col[a.rp[k]:a.rp[k+1]]
	if e, ok := slices.BinarySearch(cols, int32(l)); ok {
		return a.val[int(a.rp[k])+e]
	}
	return 0
}

// MulVec sets dst = A x (by row ranges, on the pool for large problems).
func (a *sphereDelassus) MulVec(dst, x []float64) {
	if len(dst) != len(a.ij) || len(x) != len(a.ij) {
		panic(fmt.Sprintf("friction: sphereDelassus.MulVec of dimension %d on %d and %d", len(a.ij), len(dst), len(x)))
	}
	a.dst, a.x = dst, x
	a.run(len(a.ij), a.fMul)
	a.dst, a.x = nil, nil
}

func (a *sphereDelassus) mulRows(_, lo, hi int) {
	x := a.x
	for k := lo; k < hi; k++ {
		var s float64
		e0, e1 := a.rp[k], a.rp[k+1]
		for e, c := range a.col[e0:e1] {
			s += a.val[int(e0)+e] * x[c]
		}
		a.dst[k] = s
	}
}

// slipSpheres is slipChunk for a SphereBasis problem: the same w, ‖w‖,
// slip decisions and direction sizes bit for bit, with each column's
// entries taken in putColumn's order straight from the contact's t, o and
// moment scales instead of being written out and merged row by row.
func (o *MaxDissipation) slipSpheres(sb SphereBasis, lo, hi int) {
	p := o.p
	kap := sb.MomentScales()
	drel := p.HasDRel()
	for k := (lo + 1) / 2; 2*k < hi; k++ {
		i, j, t, to := sb.SphereContact(k)
		ki, kj := kap[i], 0.0
		if j >= 0 {
			kj = kap[j]
		}
		vi := p.V[6*i : 6*i+6 : 6*i+6]
		var vj []float64
		if j >= 0 {
			vj = p.V[6*j : 6*j+6 : 6*j+6]
		}
		// the columns (t, −κ_i o | −t, −κ_j o) and (o, κ_i t | −o, κ_j t)
		ai0, aj0 := scaled(-ki, to), scaled(-kj, to)
		ai1, aj1 := scaled(ki, t), scaled(kj, t)
		var norm2, terms float64
		for c := 0; c < 2; c++ {
			d, ai, aj := t, ai0, aj0
			if c == 1 {
				d, ai, aj = to, ai1, aj1
			}
			var r float64
			if drel {
				r = p.DRelAt(2*k + c)
			}
			w, tm := columnDot(vi, vj, d, ai, aj, math.Abs(r))
			if drel {
				w += r
			}
			o.w[2*k+c] = w
			norm2 += w * w
			terms += tm
		}
		ne := int32(3)
		if ai0 != ([3]float64{}) || ai1 != ([3]float64{}) {
			ne += 3
		}
		if j >= 0 {
			ne += 3
			if aj0 != ([3]float64{}) || aj1 != ([3]float64{}) {
				ne += 3
			}
		}
		o.nent[k] = 0
		bound := p.Mu[k] * o.lambda[k]
		if bound > 0 && norm2 > 0 && math.Sqrt(norm2) > SlipRoundoff*terms {
			o.norm[k], o.nent[k] = math.Sqrt(norm2), ne
		}
	}
}

func scaled(a float64, v [3]float64) [3]float64 { return [3]float64{a * v[0], a * v[1], a * v[2]} }

// columnDot returns Σ vals[e]·v[rows[e]] over the entries of the column
// (d, ai on the sphere with velocity vi, −d, aj on vj; vj nil: a wall; a
// zero moment has no entries), summed in putColumn's order from zero as
// mech.DotEntries sums them, and t0 + Σ |vals[e]·v[rows[e]]| in the same
// order (slipTerms).
func columnDot(vi, vj []float64, d, ai, aj [3]float64, t0 float64) (w, terms float64) {
	terms = t0
	add := func(x float64) {
		w += x
		terms += math.Abs(x)
	}
	add(d[0] * vi[0])
	add(d[1] * vi[1])
	add(d[2] * vi[2])
	if ai != ([3]float64{}) {
		add(ai[0] * vi[3])
		add(ai[1] * vi[4])
		add(ai[2] * vi[5])
	}
	if vj != nil {
		add(-d[0] * vj[0])
		add(-d[1] * vj[1])
		add(-d[2] * vj[2])
		if aj != ([3]float64{}) {
			add(aj[0] * vj[3])
			add(aj[1] * vj[4])
			add(aj[2] * vj[5])
		}
	}
	return w, terms
}

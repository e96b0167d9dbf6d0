package friction

import (
	"fmt"
	"math"
	"slices"

	"impactsim/mech"
	"impactsim/par"
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
// SphereBasis problem, given matrix-free from the directions' compact form
// kept sphere by sphere: a direction (s, −κ_i q | −s, −κ_j q) is an entry
// (s, q) in sphere i's list and an entry (−s, q) in sphere j's (ent, in
// increasing direction order; adj names each entry's direction and side).
// With σ_b M⁻¹'s scalar on sphere b, (A x)_a = d_a,iᵀ u_i + d_a,jᵀ u_j with
// u_b = M⁻¹_b (D x)_b, and each term needs sphere b's list only: one pass
// by ranges of spheres computes
//
//	L_b = Σ x_a s_e, Q_b = Σ x_a q_e over b's entries e (direction a),
//	then for each entry  part_e = σ_b (s_e·L_b + κ_b² q_e·Q_b),
//
// and (A x)_a = part of its entry on i + part of its entry on j (0 for a
// wall). The entries are read in order, the direction-indexed vectors at
// random, and no vector of the spheres' dimension is needed. Storage: two
// entries of 52 bytes and two partial sums per direction (≈ 130 bytes),
// where a stored direction has 12 entries of 12 bytes and the assembled A
// ≈ 4–6 entries of 16 bytes a row plus its assembly workspace.
//
// Every value is computed by one goroutine in an order that does not
// depend on the split, so the products are the same bits for any number
// of workers. The rounding differs from the assembled matrix's (the same
// sums in another order and form): the QP is the same, and MPRGP solves it
// to the same tolerance.
type sphereDelassus struct {
	ent  [][6]float64 // per entry: ±s, q
	adj  []int32      // per entry: 2a (direction a's sphere i) or 2a+1 (its j)
	ptr  []int32      // sphere b's entries are [ptr[b], ptr[b+1])
	at   [][2]int32   // per direction: its spheres, then its two entries (−1: none)
	part []float64    // per entry: its term of the product
	diag []float64
	sig  []float64 // σ_b: M⁻¹'s scalar blocks (the problem's storage)
	kap  []float64 // κ_b (the basis's storage)
	pool *par.Pool
	// grain: range size on the pool; from: the size from which a pass
	// goes to the pool
	grain, from int

	// what the passes read and write
	dst, x, v []float64
	mode      int // sphereProduct, sphereDots, sphereDiag
	fSph      func(w, lo, hi int)
	fSum      func(w, lo, hi int)
	fFill     func(w, lo, hi int)
	basis     SphereBasis
	w, norm   []float64
	idx       []int32
}

// the per-sphere pass computes A x, Dᵀv or the diagonal
const (
	sphereProduct = iota
	sphereDots
	sphereDiag
)

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
// d = −(w_t col_t + w_o col_o)/‖w‖, as entries of the lists of minv's
// blocks, and the diagonal.
func (a *sphereDelassus) build(sb SphereBasis, minv *mech.BlockDiag, idx []int32, w, norm []float64) {
	m, nb := len(idx), minv.NumBlocks()
	a.sig, a.kap = minv.Data[:nb], sb.MomentScales()
	if a.fFill == nil {
		a.fSph, a.fSum, a.fFill = a.spheres, a.sums, a.fillRange
	}
	// the spheres of each direction, then the lists' places (a counting
	// sort: each list in increasing direction order)
	a.at = growSlack(a.at, m)
	a.ptr = growI32(a.ptr, nb+1)
	clear(a.ptr)
	for k, c0 := range idx {
		i, j, _, _ := sb.SphereContact(sb.Contact(int(c0)))
		a.at[k] = [2]int32{i, j}
		a.ptr[i+1]++
		if j >= 0 {
			a.ptr[j+1]++
		}
	}
	for b := 0; b < nb; b++ {
		a.ptr[b+1] += a.ptr[b]
	}
	ne := int(a.ptr[nb])
	a.ent, a.adj = growSlack(a.ent, ne), growSlack(a.adj, ne)
	for k, ij := range a.at[:m] {
		ei, ej := a.ptr[ij[0]], int32(-1)
		a.ptr[ij[0]]++
		a.adj[ei] = int32(2 * k)
		if ij[1] >= 0 {
			ej = a.ptr[ij[1]]
			a.ptr[ij[1]]++
			a.adj[ej] = int32(2*k + 1)
		}
		a.at[k] = [2]int32{ei, ej}
	}
	copy(a.ptr[1:], a.ptr[:nb])
	a.ptr[0] = 0
	// the entries, by direction ranges
	a.basis, a.idx, a.w, a.norm = sb, idx, w, norm
	a.run(m, a.fFill)
	a.basis, a.idx, a.w, a.norm = nil, nil, nil, nil
	a.part = growSlack(a.part, ne)
	a.diag = grow(a.diag, m)
	a.pass(sphereDiag, a.diag, nil, nil)
}

func (a *sphereDelassus) fillRange(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		c0 := int(a.idx[k])
		if a.basis.Contact(c0+1) != a.basis.Contact(c0) {
			panic(fmt.Sprintf("friction: a SphereBasis contact with one column (%d)", c0))
		}
		ca, cc := -a.w[c0]/a.norm[k], -a.w[c0+1]/a.norm[k]
		_, _, t, o := a.basis.SphereContact(a.basis.Contact(c0))
		var e [6]float64
		for r := 0; r < 3; r++ {
			e[r] = ca*t[r] + cc*o[r]
			e[3+r] = ca*o[r] - cc*t[r]
		}
		a.ent[a.at[k][0]] = e
		if ej := a.at[k][1]; ej >= 0 {
			e[0], e[1], e[2] = -e[0], -e[1], -e[2]
			a.ent[ej] = e
		}
	}
}

// pass runs the per-sphere pass in the given mode into part, then sums
// each direction's two terms into dst.
func (a *sphereDelassus) pass(mode int, dst, x, v []float64) {
	a.mode, a.dst, a.x, a.v = mode, dst, x, v
	a.run(len(a.sig), a.fSph)
	a.run(len(a.at), a.fSum)
	a.dst, a.x, a.v = nil, nil, nil
}

// spheres is the per-sphere pass on the spheres [lo, hi): part_e of each
// of their entries e.
func (a *sphereDelassus) spheres(_, lo, hi int) {
	for b := lo; b < hi; b++ {
		e0, e1 := a.ptr[b], a.ptr[b+1]
		if e0 == e1 {
			continue
		}
		ent, adj, part := a.ent[e0:e1], a.adj[e0:e1], a.part[e0:e1:e1]
		part = part[:len(ent)]
		sg, kk := a.sig[b], a.kap[b]
		switch a.mode {
		case sphereProduct:
			var l0, l1, l2, q0, q1, q2 float64
			for n, e := range ent {
				x := a.x[adj[n]>>1]
				l0 += x * e[0]
				l1 += x * e[1]
				l2 += x * e[2]
				q0 += x * e[3]
				q1 += x * e[4]
				q2 += x * e[5]
			}
			sk := sg * kk * kk
			l0, l1, l2, q0, q1, q2 = sg*l0, sg*l1, sg*l2, sk*q0, sk*q1, sk*q2
			for n, e := range ent {
				part[n] = e[0]*l0 + e[1]*l1 + e[2]*l2 + (e[3]*q0 + e[4]*q1 + e[5]*q2)
			}
		case sphereDots: // d_aᵀv on sphere b: ±s·v_lin − κ_b q·v_ang
			v := a.v[6*b : 6*b+6 : 6*b+6]
			for n, e := range ent {
				part[n] = e[0]*v[0] + e[1]*v[1] + e[2]*v[2] - kk*(e[3]*v[3]+e[4]*v[4]+e[5]*v[5])
			}
		case sphereDiag: // σ_b (s·s + κ_b² q·q)
			for n, e := range ent {
				part[n] = sg * (e[0]*e[0] + e[1]*e[1] + e[2]*e[2] + kk*kk*(e[3]*e[3]+e[4]*e[4]+e[5]*e[5]))
			}
		}
	}
}

// sums sets dst_a = the terms of direction a on its two spheres, for the
// directions [lo, hi).
func (a *sphereDelassus) sums(_, lo, hi int) {
	for k, e := range a.at[lo:hi] {
		x := a.part[e[0]]
		if e[1] >= 0 {
			x += a.part[e[1]]
		}
		a.dst[lo+k] = x
	}
}

// dots sets b_a = d_aᵀ v (the QP's linear term before the known
// velocities).
func (a *sphereDelassus) dots(b, v []float64) { a.pass(sphereDots, b, nil, v) }

// Dim returns the number of directions.
func (a *sphereDelassus) Dim() int { return len(a.at) }

// Diag returns A_aa.
func (a *sphereDelassus) Diag(k int) float64 { return a.diag[k] }

// At returns A_kl: the sum over the spheres b both directions touch of
// σ_b (s_e·s_f + κ_b² q_e·q_f), e and f their entries on b.
func (a *sphereDelassus) At(k, l int) float64 {
	if k == l {
		return a.diag[k]
	}
	var sum float64
	for _, e := range a.at[k] {
		if e < 0 {
			continue
		}
		b := a.sphereOf(e)
		for _, f := range a.at[l] {
			if f < 0 || a.sphereOf(f) != b {
				continue
			}
			x, y := &a.ent[e], &a.ent[f]
			sum += a.sig[b] * (x[0]*y[0] + x[1]*y[1] + x[2]*y[2] + a.kap[b]*a.kap[b]*(x[3]*y[3]+x[4]*y[4]+x[5]*y[5]))
		}
	}
	return sum
}

// sphereOf returns the sphere whose list holds entry e.
func (a *sphereDelassus) sphereOf(e int32) int {
	b, _ := slices.BinarySearch(a.ptr, e+1)
	return b - 1
}

// MulVec sets dst = A x (on the pool for large problems).
func (a *sphereDelassus) MulVec(dst, x []float64) {
	if len(dst) != len(a.at) || len(x) != len(a.at) {
		panic(fmt.Sprintf("friction: sphereDelassus.MulVec of dimension %d on %d and %d", len(a.at), len(dst), len(x)))
	}
	a.pass(sphereProduct, dst, x, nil)
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

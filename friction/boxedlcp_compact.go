package friction

import (
	"math"

	"impactsim/mech"
)

// blcpCompact is BoxedLCP's contact data in compact form, for problems
// whose contacts have the structure of package spheres' islands: 3D bodies
// of 6 degrees of freedom whose M⁻¹ blocks are scalars mᵦ·I₆
// (mech.BlockDiag's compact form), and contacts between two bodies i, j
// (Bodies; j may be −1, static geometry) with a normal and two friction
// columns
//
//	g = (n, 0 | −n, 0),  dₜ = (t, −kᵢo | −t, −kⱼo),  dₒ = (o, kᵢt | −o, kⱼt),  o = n × t
//
// (translational rows first, then the rotational ones, of body i, then of
// body j), n and t orthonormal: a sphere's normal and tangents, kᵢ its
// radius in the scaled rotational coordinates (package spheres). They are
// mutually M⁻¹-orthogonal: the cross terms are mᵢ(n·t) + mⱼ(n·t) = 0,
// and mᵢ(1 − kᵢ²)(t·o) + mⱼ(1 − kⱼ²)(t·o) = 0.
//
// Two things follow. Each contact keeps only its two bodies, their M⁻¹
// scalars, n, t, kᵢ, kⱼ, the three reciprocal diagonals and known
// velocities, and its impulses and μ (in sweep order: 168 bytes; the
// indices that write the impulses back at the end lie apart): o = n × t,
// the columns and their M⁻¹ images are formed in the update, the rows
// follow from the bodies. The packed form (blcpPack) keeps ≈ 650 bytes: each
// column over the contact's local rows, its image, the row list and the
// columns' headers. And, since the contact's columns are M⁻¹-orthogonal,
// the update of one coordinate leaves the others' products cᵀv unchanged,
// so the three products are formed from the same gathered velocities, side
// by side, before the three updates: the same Gauss–Seidel step (the exact
// sequential products differ from these by the cross terms, zero up to
// rounding), with a dependency chain of one product instead of three. The
// fixed points, the stopping test, the tolerance and the cap are
// BoxedLCP's; the iterates differ from the packed form's by rounding only.
//
// compactFrom decides whether a problem has this structure, checking
// every contact: the blocks, the ±x pattern bit for bit, a normal without
// moments, two friction columns that are, entry by entry, those formed
// from n, t, kᵢ, kⱼ to 10⁻¹³ (compactForm), cross terms below 10⁻¹² of
// the diagonals; if not, BoxedLCP packs it as before.
type blcpCompact struct {
	c   []compactContact // in sweep order
	idx []compactIndex   // the same order
	// BoxedLCP's local sweeps: with track, each sweep writes each
	// record's largest impulse change to last; list, the records swept
	// locally; mark, their stamps; the records of body b are
	// badj[bptr[b]:bptr[b+1]]
	track      bool
	last       []float64
	list, mark []int32
	bptr, badj []int32
}

// compactContact is one contact of a blcpCompact (168 bytes).
type compactContact struct {
	bi, bj int32 // the blocks (bj −1: static geometry)
	mi, mj float64
	ki, kj float64 // the moment arms of the friction columns
	// the impulses λ, βₜ, βₒ, kept here in sweep order during the solve
	// (scatter writes them back), and μ
	lam, bt, bo, mu float64
	n, t            [3]float64
	// the reciprocal diagonals 1/cᵀM⁻¹c (0 when the diagonal is 0) and
	// the known parts of the velocities (NRel − target, DRel)
	ninv, tinv, oinv float64
	nrel, trel, orel float64
}

// compactIndex is where a compact contact's impulses go: its λ index and
// its friction columns' β indices, in D's order.
type compactIndex struct{ con, jt, jo int32 }

// compactCol is one column (x, aᵢ | −x, aⱼ) as compactFrom reads it.
type compactCol struct{ x, ai, aj [3]float64 }

// compactCross is the largest cross term cₐᵀM⁻¹c_b, relative to
// √(diagₐ diag_b), that compactFrom accepts as orthogonal.
const compactCross = 1e-12

// compactForm is the largest difference, relative to the column's
// largest entry, between a stored friction column and the one formed
// from n, t, kᵢ, kⱼ that compactFrom accepts.
const compactForm = 1e-13

// compactFrom fills k from p in the sweep order order (nil: contact
// order), with the normal targets t and the starting λ (β = 0), writes
// the diagonals cᵀM⁻¹c into dg, dd, and reports whether p has the
// compact structure; fPtr, fCol are each contact's friction columns.
func (k *blcpCompact) compactFrom(p *mech.Problem, dg, dd, t, lambda []float64, fPtr, fCol []int32, order []int32) bool {
	m := p.NContacts()
	if cap(k.c) < m {
		k.c = make([]compactContact, m)
		k.idx = make([]compactIndex, m)
	}
	k.c, k.idx = k.c[:m], k.idx[:m]
	minv := p.MInv.Data
	for q := 0; q < m; q++ {
		i := q
		if order != nil {
			i = int(order[q])
		}
		fc := fCol[fPtr[i]:fPtr[i+1]]
		bi, bj := p.Bodies[2*i], p.Bodies[2*i+1]
		if len(fc) != 2 || bi < 0 {
			return false
		}
		cc := &k.c[q]
		cc.bi, cc.bj = int32(bi), int32(bj)
		k.idx[q] = compactIndex{int32(i), fc[0], fc[1]}
		cc.mi, cc.mj = minv[bi], 0
		if bj >= 0 {
			cc.mj = minv[bj]
		}
		var nc, tc, oc compactCol
		if !compactColumn(&nc, &p.G, i, bi, bj) || nc.ai != ([3]float64{}) || nc.aj != ([3]float64{}) ||
			!compactColumn(&tc, &p.D, int(fc[0]), bi, bj) || !compactColumn(&oc, &p.D, int(fc[1]), bi, bj) {
			return false
		}
		cc.n, cc.t = nc.x, tc.x
		if !cc.arms(&tc, &oc) {
			return false
		}
		dg[i], dd[fc[0]], dd[fc[1]] = cc.cross(&nc, &nc), cc.cross(&tc, &tc), cc.cross(&oc, &oc)
		cc.lam, cc.bt, cc.bo, cc.mu = lambda[i], 0, 0, p.Mu[i]
		cc.ninv, cc.nrel = recip(dg[i]), p.NRelAt(i)-t[i]
		cc.tinv, cc.trel = recip(dd[fc[0]]), p.DRelAt(int(fc[0]))
		cc.oinv, cc.orel = recip(dd[fc[1]]), p.DRelAt(int(fc[1]))
		d := [3]float64{dg[i], dd[fc[0]], dd[fc[1]]}
		cs := [3]*compactCol{&nc, &tc, &oc}
		for a := 0; a < 3; a++ {
			for b := a + 1; b < 3; b++ {
				if math.Abs(cc.cross(cs[a], cs[b])) > compactCross*math.Sqrt(d[a]*d[b]) {
					return false
				}
			}
		}
	}
	return true
}

// arms finds kᵢ, kⱼ from the stored friction columns tc, oc (cc.n, cc.t
// set) and reports whether the columns are, to compactForm, those the
// sweep forms: (t, −kᵢo | −t, −kⱼo) and (o, kᵢt | −o, kⱼt), o = n × t.
func (cc *compactContact) arms(tc, oc *compactCol) bool {
	o := cross3(cc.n, cc.t)
	oo, tt := dot3(o, o), dot3(cc.t, cc.t)
	if !(oo > 0) || !(tt > 0) {
		return false
	}
	// least squares over both columns' moments
	cc.ki = (dot3(oc.ai, cc.t) - dot3(tc.ai, o)) / (oo + tt)
	cc.kj = (dot3(oc.aj, cc.t) - dot3(tc.aj, o)) / (oo + tt)
	if cc.bj < 0 {
		cc.kj = 0
	}
	var big, dif float64
	for r := 0; r < 3; r++ {
		for _, e := range [...][2]float64{
			{tc.ai[r], -cc.ki * o[r]}, {tc.aj[r], -cc.kj * o[r]}, {oc.x[r], o[r]},
			{oc.ai[r], cc.ki * cc.t[r]}, {oc.aj[r], cc.kj * cc.t[r]},
			{tc.x[r], cc.t[r]},
		} {
			big = max(big, math.Abs(e[0]))
			dif = max(dif, math.Abs(e[0]-e[1]))
		}
	}
	return dif <= compactForm*big
}

func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// compactShape reports whether p's bodies are those of the compact form:
// 3D, M⁻¹ in scalar blocks of 6 (mech.BlockDiag's compact form), every
// contact's bodies listed; compactFrom checks the columns.
func compactShape(p *mech.Problem) bool {
	if p.Dim != 3 || !p.MInv.Scalar() || p.MInv.NumBlocks() == 0 || len(p.Bodies) < 2*p.NContacts() {
		return false
	}
	s, e := p.MInv.Bounds(0)
	return s == 0 && e == 6
}

// scatter writes the impulses the contacts hold into λ and β.
func (k *blcpCompact) scatter(lambda, beta []float64) {
	for q := range k.c {
		cc, x := &k.c[q], k.idx[q]
		lambda[x.con], beta[x.jt], beta[x.jo] = cc.lam, cc.bt, cc.bo
	}
}

// cross returns aᵀM⁻¹b for two columns of the contact.
func (cc *compactContact) cross(a, b *compactCol) float64 {
	var s float64
	for r := 0; r < 3; r++ {
		s += (cc.mi+cc.mj)*a.x[r]*b.x[r] + cc.mi*a.ai[r]*b.ai[r] + cc.mj*a.aj[r]*b.aj[r]
	}
	return s
}

// compactColumn reads column j of c into cl as (x, aᵢ | −x, aⱼ) on blocks
// bi, bj, and reports whether it has that form (every entry in one of
// the two blocks, j's translational part exactly −x).
func compactColumn(cl *compactCol, c *mech.Cols, j, bi, bj int) bool {
	var xj [3]float64
	*cl = compactCol{}
	for a := c.Ptr[j]; a < c.Ptr[j+1]; a++ {
		r, v := int(c.Row[a]), c.Val[a]
		switch b, o := r/6, r%6; {
		case b == bi && o < 3:
			cl.x[o] += v
		case b == bi:
			cl.ai[o-3] += v
		case b == bj && o < 3:
			xj[o] += v
		case b == bj:
			cl.aj[o-3] += v
		default:
			return false
		}
	}
	if bj < 0 {
		return true
	}
	return xj[0] == -cl.x[0] && xj[1] == -cl.x[1] && xj[2] == -cl.x[2]
}

// relaxCompact is relax for a compact pack: the contacts at positions
// [lo, hi) (of list, when not nil: the local sweeps), each by one step of
// its three coordinates from the same velocities (blcpCompact), v updated
// once per contact; with k.track each record's largest change goes to
// k.last.
func (o *BoxedLCP) relaxCompact(lo, hi int, list []int32, s float64) (change, scale float64) {
	v := o.v
	// The largest change and impulse are kept as the bits of non-negative
	// floats, whose order as integers is theirs as numbers (a NaN, after
	// Abs, is above +Inf, so it survives to the caller's test): a
	// conditional move per contact instead of the floats' max, whose
	// NaN and ±0 handling is a chain of eight instructions.
	var cb, sb uint64
	track, last := o.compact.track, o.compact.last
	for qi := lo; qi < hi; qi++ {
		q := qi
		if list != nil {
			q = int(list[qi])
		}
		cc := &o.compact.c[q]
		vi := (*[6]float64)(v[6*cc.bi : 6*cc.bi+6])
		var vj [6]float64
		if cc.bj >= 0 {
			vj = *(*[6]float64)(v[6*cc.bj : 6*cc.bj+6])
		}
		d0, d1, d2 := vi[0]-vj[0], vi[1]-vj[1], vi[2]-vj[2]
		n, t := &cc.n, &cc.t
		// o = n × t
		o0, o1, o2 := n[1]*t[2]-n[2]*t[1], n[2]*t[0]-n[0]*t[2], n[0]*t[1]-n[1]*t[0]
		un := (n[0]*d0 + n[1]*d1) + (n[2]*d2 + cc.nrel)
		// dₜᵀv = t·d − kᵢ o·ωᵢ − kⱼ o·ωⱼ, dₒᵀv = o·d + kᵢ t·ωᵢ + kⱼ t·ωⱼ
		ut := (t[0]*d0 + t[1]*d1) + (t[2]*d2 + cc.trel) -
			(cc.ki*(o0*vi[3]+o1*vi[4]+o2*vi[5]) + cc.kj*(o0*vj[3]+o1*vj[4]+o2*vj[5]))
		uo := (o0*d0 + o1*d1) + (o2*d2 + cc.orel) +
			(cc.ki*(t[0]*vi[3]+t[1]*vi[4]+t[2]*vi[5]) + cc.kj*(t[0]*vj[3]+t[1]*vj[4]+t[2]*vj[5]))
		// λᵢ ← max(0, λᵢ − (gᵢᵀv + NRelᵢ − tᵢ)/Aᵢᵢ)
		l0 := cc.lam
		l := l0
		if cc.ninv > 0 {
			l = l0 - un*cc.ninv
			if l <= 0 { // not for a NaN, which goes on to the test
				l = 0
			}
			cc.lam = l
			sb = max(sb, math.Float64bits(l))
		}
		dl := l - l0
		// βⱼ ← clamp(βⱼ − (dⱼᵀv + DRelⱼ)/(dⱼᵀM⁻¹dⱼ), ±μᵢλᵢ)
		bnd := cc.mu * l
		bt0, bo0 := cc.bt, cc.bo
		bt, bo := 0.0, 0.0
		if bnd > 0 {
			if cc.tinv > 0 {
				bt = clampBox(bt0-ut*cc.tinv, bnd)
			}
			if cc.oinv > 0 {
				bo = clampBox(bo0-uo*cc.oinv, bnd)
			}
		}
		dbt, dbo := bt-bt0, bo-bo0
		cc.bt, cc.bo = bt, bo
		cb = max(cb, math.Float64bits(math.Abs(dl)), math.Float64bits(math.Abs(dbt)), math.Float64bits(math.Abs(dbo)))
		if track {
			last[q] = max(math.Abs(dl), math.Abs(dbt), math.Abs(dbo))
		}
		sb = max(sb, math.Float64bits(math.Abs(bt)), math.Float64bits(math.Abs(bo)))
		if dl == 0 && dbt == 0 && dbo == 0 {
			continue
		}
		// v += M⁻¹(g dλ + dₜ dβₜ + dₒ dβₒ): translations n dλ + t dβₜ + o dβₒ
		// (−… on j), moments kᵢe, kⱼe with e = t dβₒ − o dβₜ
		p0 := n[0]*dl + t[0]*dbt + o0*dbo
		p1 := n[1]*dl + t[1]*dbt + o1*dbo
		p2 := n[2]*dl + t[2]*dbt + o2*dbo
		e0, e1, e2 := t[0]*dbo-o0*dbt, t[1]*dbo-o1*dbt, t[2]*dbo-o2*dbt
		mi, mk := cc.mi, cc.mi*cc.ki
		vi[0] += mi * p0
		vi[1] += mi * p1
		vi[2] += mi * p2
		vi[3] += mk * e0
		vi[4] += mk * e1
		vi[5] += mk * e2
		if cc.bj >= 0 {
			mj, mk := cc.mj, cc.mj*cc.kj
			wj := (*[6]float64)(v[6*cc.bj : 6*cc.bj+6])
			wj[0] -= mj * p0
			wj[1] -= mj * p1
			wj[2] -= mj * p2
			wj[3] += mk * e0
			wj[4] += mk * e1
			wj[5] += mk * e2
		}
	}
	change, scale = math.Float64frombits(cb), max(s, math.Float64frombits(sb))
	return change, scale
}

// clampBox returns x clamped to [−b, b] (b > 0), a NaN unchanged: the
// same value as max(−b, min(b, x)), by comparisons.
func clampBox(x, b float64) float64 {
	if x > b {
		return b
	}
	if x < -b {
		return -b
	}
	return x
}

// prepareLocal sizes the local sweeps' arrays for nb bodies and lists
// each body's records.
func (k *blcpCompact) prepareLocal(nb int) {
	m := len(k.c)
	k.last = grow(k.last, m)
	clear(k.last)
	k.mark = growI32(k.mark, m)
	clear(k.mark)
	k.bptr = growI32(k.bptr, nb+1)
	clear(k.bptr)
	for q := range k.c {
		cc := &k.c[q]
		k.bptr[cc.bi]++
		if cc.bj >= 0 {
			k.bptr[cc.bj]++
		}
	}
	var s int32
	for b := 0; b < nb; b++ {
		s, k.bptr[b] = s+k.bptr[b], s
	}
	k.bptr[nb] = s
	k.badj = growI32(k.badj, int(s))
	fill := k.list[:0]
	fill = append(fill, k.bptr...)
	for q := range k.c {
		cc := &k.c[q]
		k.badj[fill[cc.bi]] = int32(q)
		fill[cc.bi]++
		if cc.bj >= 0 {
			k.badj[fill[cc.bj]] = int32(q)
			fill[cc.bj]++
		}
	}
	k.list = fill[:0]
}

// localList lists, in record order, the records whose last change was
// above thr and the records sharing a body with them (stamp, unique to
// the call within a solve, marks them); it returns nil when none or more
// than limit records are above thr.
func (k *blcpCompact) localList(thr float64, limit int, stamp int32) []int32 {
	n := 0
	for q := range k.c {
		if k.last[q] > thr {
			n++
		}
	}
	if n == 0 || n > limit {
		return nil
	}
	for q := range k.c {
		if !(k.last[q] > thr) {
			continue
		}
		cc := &k.c[q]
		for _, b := range [2]int32{cc.bi, cc.bj} {
			if b < 0 {
				continue
			}
			for _, r := range k.badj[k.bptr[b]:k.bptr[b+1]] {
				k.mark[r] = stamp
			}
		}
	}
	k.list = k.list[:0]
	for q := range k.c {
		if k.mark[q] == stamp {
			k.list = append(k.list, int32(q))
		}
	}
	return k.list
}

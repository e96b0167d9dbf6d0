package friction

import (
	"math"

	"impactsim/mech"
)

// blcpCompact is BoxedLCP's contact data in compact form, for problems
// whose contacts have the structure of package spheres' islands: 3D bodies
// of 6 degrees of freedom whose M⁻¹ blocks are scalars mᵦ·I₆
// (mech.BlockDiag's compact form), and contacts between two bodies i, j
// (Bodies; j may be −1, static geometry) with one normal and two friction
// columns, each of the form
//
//	c = (x, aᵢ | −x, aⱼ)
//
// (x on i's translational rows, −x on j's, moments aᵢ, aⱼ on their
// rotational rows; the normal without moments), mutually M⁻¹-orthogonal: cₐᵀM⁻¹c_b = 0 for a ≠ b. A
// sphere's normal (n, 0 | −n, 0) and tangents (t, −kᵢo | −t, −kⱼo),
// (o, kᵢt | −o, kⱼt) with o = n × t are such columns: their cross terms
// are mᵢ(n·t) + mⱼ(n·t) = 0 and mᵢ(1 − kᵢ²)(t·o) + mⱼ(1 − kⱼ²)(t·o) = 0.
//
// Two things follow. The M⁻¹ images need not be stored (mᵢx, mᵢaᵢ, −mⱼx,
// mⱼaⱼ are formed in the update), nor the rows (the body indices give
// them; the contact's impulses and μ kept in it, in sweep order): 288
// bytes per contact against the packed form's ≈ 650
// (blcpPack: each column over the contact's local rows, its image, the
// row list and the columns' headers). And, since the contact's columns
// are M⁻¹-orthogonal, the update of one coordinate leaves the others'
// products cᵀv unchanged, so the three products are formed from the same
// gathered velocities, side by side, before the three updates: the same
// Gauss–Seidel step (the exact sequential products differ from these by
// the cross terms, zero up to rounding), with a dependency chain of one
// product instead of three. The fixed points, the stopping test, the
// tolerance and the cap are BoxedLCP's; the iterates differ from the
// packed form's by rounding only.
//
// compactFrom decides whether a problem has this structure (checking every
// contact: the blocks, the ±x pattern bit for bit, a normal without
// moments, two friction columns,
// cross terms below 10⁻¹² of the diagonals); if not, BoxedLCP packs it
// as before.
type blcpCompact struct {
	c []compactContact // in sweep order
}

// compactContact is one contact of a blcpCompact.
type compactContact struct {
	bi, bj int32 // the blocks (bj −1: static geometry)
	con    int32 // the contact (λ index)
	jt, jo int32 // its friction columns (β indices), in D's order
	mi, mj float64
	// the impulses λ, βₜ, βₒ, kept here in sweep order during the solve
	// (scatter writes them back), and μ
	lam, bt, bo, mu float64
	// the normal (n, 0 | −n, 0): its direction, reciprocal diagonal and
	// known velocity
	n          [3]float64
	ninv, nrel float64
	t, o       compactCol // the two friction columns
}

// compactCol is one column (x, aᵢ | −x, aⱼ) with its reciprocal diagonal
// 1/cᵀM⁻¹c (0 when the diagonal is 0) and the known part of its velocity
// (NRel − target, or DRel).
type compactCol struct {
	x, ai, aj [3]float64
	inv, rel  float64
}

// compactCross is the largest cross term cₐᵀM⁻¹c_b, relative to
// √(diagₐ diag_b), that compactFrom accepts as orthogonal.
const compactCross = 1e-12

// compactFrom fills k from p in the sweep order order (nil: contact
// order), with the normal targets t and the starting λ (β = 0), writes
// the diagonals cᵀM⁻¹c into dg, dd, and reports whether p has the
// compact structure; fPtr, fCol are each contact's friction columns.
func (k *blcpCompact) compactFrom(p *mech.Problem, dg, dd, t, lambda []float64, fPtr, fCol []int32, order []int32) bool {
	m := p.NContacts()
	if cap(k.c) < m {
		k.c = make([]compactContact, m)
	}
	k.c = k.c[:m]
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
		cc.bi, cc.bj, cc.con = int32(bi), int32(bj), int32(i)
		cc.jt, cc.jo = fc[0], fc[1]
		cc.mi, cc.mj = minv[bi], 0
		if bj >= 0 {
			cc.mj = minv[bj]
		}
		var nc compactCol
		if !compactColumn(&nc, &p.G, i, bi, bj) || nc.ai != ([3]float64{}) || nc.aj != ([3]float64{}) ||
			!compactColumn(&cc.t, &p.D, int(fc[0]), bi, bj) || !compactColumn(&cc.o, &p.D, int(fc[1]), bi, bj) {
			return false
		}
		dg[i], dd[fc[0]], dd[fc[1]] = cc.cross(&nc, &nc), cc.cross(&cc.t, &cc.t), cc.cross(&cc.o, &cc.o)
		cc.lam, cc.bt, cc.bo, cc.mu = lambda[i], 0, 0, p.Mu[i]
		cc.n, cc.ninv, cc.nrel = nc.x, recip(dg[i]), p.NRelAt(i)-t[i]
		cc.t.inv, cc.t.rel = recip(dd[fc[0]]), p.DRelAt(int(fc[0]))
		cc.o.inv, cc.o.rel = recip(dd[fc[1]]), p.DRelAt(int(fc[1]))
		d := [3]float64{dg[i], dd[fc[0]], dd[fc[1]]}
		cs := [3]*compactCol{&nc, &cc.t, &cc.o}
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
		cc := &k.c[q]
		lambda[cc.con], beta[cc.jt], beta[cc.jo] = cc.lam, cc.bt, cc.bo
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
// [lo, hi), each by one step of its three coordinates from the same
// velocities (blcpCompact), v updated once per contact.
func (o *BoxedLCP) relaxCompact(lo, hi int, s float64) (change, scale float64) {
	v := o.v
	// The largest change and impulse are kept as the bits of non-negative
	// floats, whose order as integers is theirs as numbers (a NaN, after
	// Abs, is above +Inf, so it survives to the caller's test): a
	// conditional move per contact instead of the floats' max, whose
	// NaN and ±0 handling is a chain of eight instructions.
	var cb, sb uint64
	for q := lo; q < hi; q++ {
		cc := &o.compact.c[q]
		vi := (*[6]float64)(v[6*cc.bi : 6*cc.bi+6])
		var vj [6]float64
		if cc.bj >= 0 {
			vj = *(*[6]float64)(v[6*cc.bj : 6*cc.bj+6])
		}
		d0, d1, d2 := vi[0]-vj[0], vi[1]-vj[1], vi[2]-vj[2]
		un := (cc.n[0]*d0 + cc.n[1]*d1) + (cc.n[2]*d2 + cc.nrel)
		ut := cc.t.prod(d0, d1, d2, vi, &vj)
		uo := cc.o.prod(d0, d1, d2, vi, &vj)
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
			if cc.t.inv > 0 {
				bt = clampBox(bt0-ut*cc.t.inv, bnd)
			}
			if cc.o.inv > 0 {
				bo = clampBox(bo0-uo*cc.o.inv, bnd)
			}
		}
		dbt, dbo := bt-bt0, bo-bo0
		cc.bt, cc.bo = bt, bo
		cb = max(cb, math.Float64bits(math.Abs(dl)), math.Float64bits(math.Abs(dbt)), math.Float64bits(math.Abs(dbo)))
		sb = max(sb, math.Float64bits(math.Abs(bt)), math.Float64bits(math.Abs(bo)))
		if dl == 0 && dbt == 0 && dbo == 0 {
			continue
		}
		// v += M⁻¹(g dλ + dₜ dβₜ + dₒ dβₒ)
		var px, pa, pb [3]float64
		for r := 0; r < 3; r++ {
			px[r] = cc.n[r]*dl + cc.t.x[r]*dbt + cc.o.x[r]*dbo
			pa[r] = cc.t.ai[r]*dbt + cc.o.ai[r]*dbo
			pb[r] = cc.t.aj[r]*dbt + cc.o.aj[r]*dbo
		}
		mi := cc.mi
		vi[0] += mi * px[0]
		vi[1] += mi * px[1]
		vi[2] += mi * px[2]
		vi[3] += mi * pa[0]
		vi[4] += mi * pa[1]
		vi[5] += mi * pa[2]
		if cc.bj >= 0 {
			mj := cc.mj
			wj := (*[6]float64)(v[6*cc.bj : 6*cc.bj+6])
			wj[0] -= mj * px[0]
			wj[1] -= mj * px[1]
			wj[2] -= mj * px[2]
			wj[3] += mj * pb[0]
			wj[4] += mj * pb[1]
			wj[5] += mj * pb[2]
		}
	}
	change, scale = math.Float64frombits(cb), max(s, math.Float64frombits(sb))
	return change, scale
}

// prod returns cᵀv + rel for the column with d = vᵢ − vⱼ (translational)
// and the bodies' velocities vi, vj (vj zero for static geometry).
func (c *compactCol) prod(d0, d1, d2 float64, vi, vj *[6]float64) float64 {
	s0 := c.x[0]*d0 + c.ai[0]*vi[3] + c.aj[0]*vj[3]
	s1 := c.x[1]*d1 + c.ai[1]*vi[4] + c.aj[1]*vj[4]
	s2 := c.x[2]*d2 + c.ai[2]*vi[5] + c.aj[2]*vj[5]
	return (s0 + s1) + (s2 + c.rel)
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

package impact

import (
	"container/heap"
	"fmt"
	"math"

	"impactsim/mech"
)

// QCE is the Quadratic Contact Energy operator (Alg. 1 of Zhang et al.,
// "Quadratic Contact Energy Model for Multi-impact Simulation"). It is
// purely elastic: the restitution coefficients of the problem are ignored
// (use "qce_lcp" for c < 1).
//
// # One sweep (eqs. 9–18)
//
// Let v be the current velocity, u⁰ = Gᵀv the normal velocities and
// A = GᵀM⁻¹G the Delassus matrix. The contacts that approach,
// 𝔸 = {i : u⁰ᵢ < −v_tol}, get the ratio vector Fᵢ = −u⁰ᵢ (zero for every
// other contact), and all impulses grow along the common "time-like"
// parameter s ≥ 0 (eq. 18): Pᵢ(s) = Fᵢ s while contact i is still in
// contact, frozen at Pᵢ = Fᵢ sᵢ once its energy has returned to zero at
// its termination parameter sᵢ. The normal velocity is uᵢ(s) = u⁰ᵢ +
// Σⱼ Aᵢⱼ Pⱼ(s) (eq. 4) and the contact energy of eq. (2) is
//
//	Eᵢ(s) = −∫ uᵢ dPᵢ = Fᵢ eᵢ(s),   deᵢ/ds = −uᵢ(s),   eᵢ(0) = 0.
//
// We work with eᵢ = Eᵢ/Fᵢ, the energy per unit ratio (eq. 13 multiplies by
// Fᵢ for the same reason); eᵢ has units of velocity × s and never divides
// by Fᵢ, so resting contacts (Fᵢ = 0) need no special case. Between two
// terminations every Pⱼ is affine in s, so uᵢ is affine and eᵢ is quadratic.
// We store it about the parameter s⁰ᵢ of its last update,
//
//	eᵢ(s) = e⁰ᵢ + dᵢ (s − s⁰ᵢ) + αᵢ (s − s⁰ᵢ)²,
//
// which is better conditioned than the paper's monomial form A sᵢ² + B sᵢ + C
// (eq. 14). Initially s⁰ᵢ = 0, e⁰ᵢ = 0, dᵢ = −u⁰ᵢ = Fᵢ and
// αᵢ = −½ (A F)ᵢ (eq. 15 divided by Fᵢ²).
//
// # Neighbour update (our derivation replacing lines 20–24 of Alg. 1)
//
// When contact k terminates at s_k, Pₖ stops growing: for s > s_k the
// term Aᵢₖ Fₖ s of uᵢ becomes Aᵢₖ Fₖ s_k, so uᵢ changes by
// Δuᵢ(s) = −Aᵢₖ Fₖ (s − s_k) and
//
//	Δeᵢ(s) = −∫_{s_k}^{s} Δuᵢ = ½ Aᵢₖ Fₖ (s − s_k)².
//
// Re-centring at s_k (continuity of eᵢ and of its slope −uᵢ, since Δeᵢ
// and its derivative vanish at s_k):
//
//	e⁰ᵢ ← eᵢ(s_k),  dᵢ ← dᵢ + 2αᵢ (s_k − s⁰ᵢ),  αᵢ ← αᵢ + ½ Aᵢₖ Fₖ,  s⁰ᵢ ← s_k.
//
// In the paper's monomial form this is A ← A + ½ Aᵢₖ Fₖ Fᵢ,
// B ← B − Aᵢₖ Pₖ Fᵢ, C ← C + ½ Aᵢₖ Pₖ s_k Fᵢ (multiplying eᵢ by Fᵢ); the
// printed lines 22–23 add Aᵢₖ Jₖ, a row of the Jacobian, to a scalar.
// Only contacts with Aᵢₖ ≠ 0 (sharing a body with k) change, so an update
// costs O(neighbours) plus an O(log m) heap fix.
//
// # Termination parameter
//
// Contact i terminates at the first s ≥ s⁰ᵢ where eᵢ returns to zero
// from above: with t = s − s⁰ᵢ, the root of e⁰ᵢ + dᵢ t + αᵢ t² = 0 that
// is crossed downwards. For αᵢ < 0 (the usual case) this is the larger
// root, as the paper says; for αᵢ > 0 it is the smaller one if dᵢ < 0 and
// the discriminant is non-negative, and +∞ (no termination while the
// neighbours keep pushing) otherwise; for αᵢ = 0 it is e⁰ᵢ/(−dᵢ) if dᵢ < 0.
// The roots are computed with the cancellation-free form
// q = −½(d + sign(d)√(d²−4αe⁰)), t ∈ {q/α, e⁰/q}. A min-heap keyed by
// (sᵢ, i) selects the next termination; ties are broken by index, which is
// harmless because a termination changes its neighbours' energies only at
// second order in (s − s_k).
//
// # Outer iterations (§3.2)
//
// A sweep ends when every active contact has terminated; its impulses
// λ^s = P are added to λ (eq. 11) and v ← v + M⁻¹Gλ^s. Contacts that were
// not active in the sweep (resting or separating at its start, or with
// |uᵢ| ≤ v_tol) may have been pushed into approach: they are handled by
// the next sweep, with a fresh F. The operator stops when no contact
// approaches faster than v_tol; at the iteration cap it returns
// *NotConvergedError.
//
// # Properties
//
// Every active contact's energy returns to zero, and the kinetic energy
// changes by Σᵢ ∫ uᵢ dPᵢ = −Σᵢ Fᵢ eᵢ(end) = 0, so each sweep conserves
// kinetic energy exactly up to round-off (KIN). Impulses are internal
// (MOM) and Pᵢ = Fᵢ sᵢ ≥ 0 (ONE). F is defined by the normal velocities
// alone, so QCE does not depend on contact order or basis (SYM). If the
// active contacts cannot exchange energy (Fᵀ A F = 0 over the remaining
// ones) no termination exists and Resolve returns an error.
type QCE struct {
	firstPush
	cfg Config

	del  mech.Delassus // A on the approaching contacts of the sweep
	sub  mech.Cols     // their columns of G
	idx  []int         // their indices
	uSub []float64
	v    []float64 // current velocity
	u    []float64 // Gᵀv
	f    []float64 // ratio vector F of the current sweep
	af   []float64 // A F
	p    []float64 // impulses P of the current sweep
	scr  []float64
	eq   []qceEq
	heap qceHeap
}

// qceEq is one contact's energy equation eᵢ(s) = e0 + d t + α t²,
// t = s − s0.
type qceEq struct {
	s0, e0, d, alpha float64
	active           bool
	term             float64 // termination parameter sᵢ (+Inf: none yet)
	pos              int     // position in the heap, −1 when not in it
}

type qceHeap struct {
	idx []int
	eq  []qceEq
}

func (h *qceHeap) Len() int { return len(h.idx) }
func (h *qceHeap) Less(a, b int) bool {
	i, j := h.idx[a], h.idx[b]
	si, sj := h.eq[i].term, h.eq[j].term
	if si != sj {
		return si < sj
	}
	return i < j
}
func (h *qceHeap) Swap(a, b int) {
	h.idx[a], h.idx[b] = h.idx[b], h.idx[a]
	h.eq[h.idx[a]].pos = a
	h.eq[h.idx[b]].pos = b
}
func (h *qceHeap) Push(x any) {
	i := x.(int)
	h.eq[i].pos = len(h.idx)
	h.idx = append(h.idx, i)
}

// Pop removes the last element. It returns nil rather than the index,
// which no caller reads: boxing an int above 255 in an interface
// allocates, and QCE pops once per contact and sweep.
func (h *qceHeap) Pop() any {
	n := len(h.idx) - 1
	i := h.idx[n]
	h.idx = h.idx[:n]
	h.eq[i].pos = -1
	return nil
}

func newQCE(c Config) *QCE { return &QCE{cfg: c} }

// NewQCE returns the QCE operator with the given violator tolerance (0 =
// default) and iteration cap (0 = default).
func NewQCE(vtol float64, maxIter int) *QCE {
	return newQCE(Config{Name: "qce", VTol: vtol, MaxIter: maxIter})
}

// Name returns "qce".
func (o *QCE) Name() string { return "qce" }

// Resolve runs Alg. 1 on p and writes the accumulated impulses λ_c (eq. 11).
func (o *QCE) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	if err := p.NeedStoredG("impact: qce"); err != nil {
		return mech.Stats{}, err
	}
	if err := p.NeedStoredRel("impact: qce"); err != nil {
		return mech.Stats{}, err
	}
	m, n := p.NContacts(), p.NDof()
	var st mech.Stats
	for i := range lambda[:m] {
		lambda[i] = 0
	}
	o.resetPush(m)
	if m == 0 {
		return st, nil
	}
	if err := checkFinite(p); err != nil {
		return st, fmt.Errorf("impact: qce: %w", err)
	}
	vtol := o.cfg.vtol()
	maxIter := o.cfg.maxIter()
	o.v = grow(o.v, n)
	o.u = grow(o.u, m)
	o.scr = grow(o.scr, n)
	copy(o.v, p.V)
	for iter := 0; ; iter++ {
		p.RelNormalVelocities(o.u, o.v)
		w, k := worst(o.u)
		if w >= -vtol {
			return st, nil
		}
		if iter >= maxIter {
			return st, &NotConvergedError{Operator: "qce", Iterations: iter, WorstViolation: w, Contact: k}
		}
		// The sweep involves only the approaching contacts (F > 0): every
		// other contact has Pᵢ = 0, so A is assembled on 𝔸 alone, at a
		// cost proportional to the approaching set, not to m.
		o.idx = o.idx[:0]
		for i, x := range o.u {
			if x < -vtol {
				o.idx = append(o.idx, i)
			}
		}
		o.push(o.idx, iter+1)
		p.G.SubCols(&o.sub, o.idx)
		o.del.Assemble(&o.sub, &p.MInv)
		o.uSub = grow(o.uSub, len(o.idx))
		for a, i := range o.idx {
			o.uSub[a] = o.u[i]
		}
		if err := o.solveSweep(o.uSub, vtol); err != nil {
			return st, fmt.Errorf("impact: qce sweep %d: %w", iter+1, err)
		}
		st.Iterations++
		for a, i := range o.idx {
			lambda[i] += o.p[a]
		}
		p.ApplyImpulses(o.v, p.V, lambda[:m], nil, o.scr)
	}
}

// solveSweep runs one sweep (lines 4–29 of Alg. 1) from normal velocities
// u on the assembled o.A and leaves the sweep's impulses in o.p.
func (o *QCE) solveSweep(u []float64, vtol float64) error {
	m := len(u)
	o.f = grow(o.f, m)
	o.af = grow(o.af, m)
	o.p = grow(o.p, m)
	if cap(o.eq) < m {
		o.eq = make([]qceEq, m)
	}
	o.eq = o.eq[:m]
	for i, x := range u {
		o.f[i] = 0
		if x < -vtol {
			o.f[i] = -x
		}
		o.p[i] = 0
	}
	o.del.MulVec(o.af, o.f)
	o.heap.eq = o.eq
	o.heap.idx = o.heap.idx[:0]
	for i := range o.eq {
		e := &o.eq[i]
		*e = qceEq{pos: -1, term: math.Inf(1)}
		if o.f[i] == 0 {
			continue
		}
		e.active = true
		e.d = o.f[i]
		e.alpha = -0.5 * o.af[i]
		e.term = e.s0 + qceRoot(e.e0, e.d, e.alpha)
		e.pos = len(o.heap.idx)
		o.heap.idx = append(o.heap.idx, i)
	}
	heap.Init(&o.heap)
	for o.heap.Len() > 0 {
		k := o.heap.idx[0]
		sk := o.eq[k].term
		if math.IsInf(sk, 1) {
			return fmt.Errorf("%d approaching contacts (first %d) cannot exchange energy: no contact energy returns to zero", o.heap.Len(), k)
		}
		heap.Pop(&o.heap)
		o.eq[k].active = false
		fk := o.f[k]
		o.p[k] = fk * sk
		for a := o.del.Ptr[k]; a < o.del.Ptr[k+1]; a++ {
			i := o.del.Col[a]
			aik := o.del.Val[a]
			e := &o.eq[i]
			if i == k || !e.active || aik == 0 {
				continue
			}
			t := sk - e.s0
			if t < 0 { // round-off: terminations are popped in order
				t = 0
			}
			e.e0 += t * (e.d + e.alpha*t)
			e.d += 2 * e.alpha * t
			e.alpha += 0.5 * aik * fk
			e.s0 += t
			e.term = e.s0 + qceRoot(e.e0, e.d, e.alpha)
			heap.Fix(&o.heap, e.pos)
		}
	}
	return nil
}

// qceRoot returns the smallest t ≥ 0 at which e0 + d t + α t² crosses zero
// downwards (+Inf if it does not), for e0 ≥ 0 up to round-off.
func qceRoot(e0, d, alpha float64) float64 {
	if e0 < 0 {
		e0 = 0
	}
	if alpha == 0 {
		if d < 0 {
			return e0 / -d
		}
		if d == 0 && e0 == 0 {
			return 0
		}
		return math.Inf(1)
	}
	disc := d*d - 4*alpha*e0
	if disc < 0 {
		// Only possible for α > 0: the energy has a positive minimum.
		return math.Inf(1)
	}
	sq := math.Sqrt(disc)
	q := -0.5 * (d + math.Copysign(sq, d))
	var r1, r2 float64 // the two roots, r1 ≤ r2
	if q == 0 {
		// d = 0 and e0 = 0: double root at 0.
		r1, r2 = 0, 0
	} else {
		r1, r2 = q/alpha, e0/q
		if r1 > r2 {
			r1, r2 = r2, r1
		}
	}
	if alpha < 0 {
		// Concave: e ≥ 0 on [r1, r2] ∋ 0, crossed downwards at r2.
		return math.Max(r2, 0)
	}
	// Convex: crossed downwards at r1, if r1 lies ahead.
	if d < 0 && r1 >= 0 {
		return r1
	}
	if e0 == 0 && d < 0 {
		return 0
	}
	return math.Inf(1)
}

// checkFinite reports non-finite entries of the velocity, the constraint
// gradients or the inverse mass.
func checkFinite(p *mech.Problem) error {
	for i, x := range p.V {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("velocity component %d is %v", i, x)
		}
	}
	for k, x := range p.G.Val {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("constraint gradient entry %d is %v", k, x)
		}
	}
	for k, x := range p.MInv.Data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("inverse mass entry %d is %v", k, x)
		}
	}
	for i, x := range p.NRel {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("known relative velocity of contact %d is %v", i, x)
		}
	}
	return nil
}

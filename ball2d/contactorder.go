package ball2d

import (
	"cmp"
	"math"
	"slices"

	"impactsim/mech"
)

// The position corrections' mirror-invariant order of the contacts
// (sim.ContactKeyer for the projection, and the order inside a layer of
// the nonlinear Gauss–Seidel sweep). Floating-point sums depend on the
// order of their terms, and the contacts' list order (the detection's, by
// ball index) is not invariant under a mirror image of the state: a
// contact and its mirror image hold different places among their
// neighbours. Ordered instead by a key that a mirror image leaves
// unchanged, the contacts of a mirror pair of islands (or of balls) come
// in corresponding orders, so an exactly mirror-symmetric state gives
// the same bits on both sides.

// orderFrame is the frame of the key: up = −g/|g| (y without gravity) and
// the horizontal coordinate s = up × x of the mirror axis, the middle of
// the balls' extent along s (0 exactly for a state mirror-symmetric about
// the vertical through the origin).
type orderFrame struct{ ux, uy, axis float64 }

// orderFrame returns the frame at q, its axis from every ball (the
// corrections' ContactKeys).
func (s *System) orderFrame(q []float64) orderFrame {
	f, _, _ := s.scanFrame(q, false)
	return f
}

// scanFrame returns orderFrame(q) and, with layers, the lowest ball's
// height along −g (0 without gravity) and the smallest radius, from one
// pass over the balls (the sweep's layers, orderSweep).
func (s *System) scanFrame(q []float64, layers bool) (f orderFrame, hmin, rmin float64) {
	f, gravity := s.orderUp()
	var ux, uy float64
	if gravity {
		ux, uy = f.ux, f.uy
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	hmin, rmin = math.Inf(1), math.Inf(1)
	for i := range s.M {
		h := f.horizontal(q, i)
		lo, hi = min(lo, h), max(hi, h)
		if layers {
			hmin = min(hmin, ux*q[2*i]+uy*q[2*i+1])
			rmin = min(rmin, s.R[i])
		}
	}
	f.axis = extent{lo, hi}.middle()
	return f, hmin, rmin
}

// contactFrame returns the frame at q with its axis from the balls of
// the contacts cs (the step's mirror order): the balls in contact of a
// mirror-symmetric state are themselves mirror-symmetric, so the axis is
// as invariant as orderFrame's, at the cost of the contacts instead of
// every ball (the 10K gas has a few dozen contacts a step).
func (s *System) contactFrame(q []float64, cs []Contact) orderFrame {
	f, _ := s.orderUp()
	e := newExtent()
	for k := range cs {
		e.add(f.horizontal(q, int(cs[k].I)))
		if j := cs[k].J; j >= 0 {
			e.add(f.horizontal(q, int(j)))
		}
	}
	f.axis = e.middle()
	return f
}

// orderUp returns the frame's direction, without the axis, and whether
// the system has gravity (up is y without).
func (s *System) orderUp() (f orderFrame, gravity bool) {
	f = orderFrame{uy: 1}
	if gn := math.Hypot(s.Gravity[0], s.Gravity[1]); gn > 0 && !math.IsInf(gn, 0) {
		f.ux, f.uy = -s.Gravity[0]/gn, -s.Gravity[1]/gn
		gravity = true
	}
	return f, gravity
}

// extent is the range [lo, hi] of horizontal coordinates, for the axis.
type extent struct{ lo, hi float64 }

func newExtent() extent { return extent{math.Inf(1), math.Inf(-1)} }

// add widens e to h, by comparisons rather than math.Min and Max, which
// cost several times more for their NaN and signed-zero rules: the ends
// can then differ only in the sign of a zero, which the keys (a
// difference taken in absolute value) do not see.
func (e *extent) add(h float64) {
	if h < e.lo {
		e.lo = h
	}
	if h > e.hi {
		e.hi = h
	}
}

// middle returns the axis: the middle of e, 0 when e is empty or not
// finite.
func (e extent) middle() float64 {
	if e.lo <= e.hi && !math.IsInf(e.hi-e.lo, 0) {
		return 0.5*e.lo + 0.5*e.hi
	}
	return 0
}

// height returns ball i's height up·x.
func (f orderFrame) height(q []float64, i int) float64 {
	return f.ux*q[2*i] + f.uy*q[2*i+1]
}

// horizontal returns ball i's coordinate across up, up × x.
func (f orderFrame) horizontal(q []float64, i int) float64 {
	return f.uy*q[2*i] - f.ux*q[2*i+1]
}

// key returns contact c's mirror-invariant key at q: the sum of its
// balls' heights (twice the ball's for a wall contact) and the distance
// of the sum of their horizontal offsets from the axis (likewise). Each
// sum has two terms, so it is the same bit for bit when the balls swap
// places, as they do in a contact's mirror image.
func (f orderFrame) key(q []float64, c *Contact) (h, d float64) {
	i := int(c.I)
	hi, si := f.height(q, i), f.horizontal(q, i)-f.axis
	if c.J < 0 {
		return 2 * hi, math.Abs(2 * si)
	}
	j := int(c.J)
	return hi + f.height(q, j), math.Abs(si + (f.horizontal(q, j) - f.axis))
}

// orderKey is a contact's place in the mirror-invariant order: its key
// (orderFrame.key), then its index.
type orderKey struct {
	h, d float64
	k    int32
}

// sortOrderKeys sorts keys, given in the order of their index k, by
// orderCmp, with tmp (grown and returned) as scratch. It does what
// slices.SortFunc(keys, orderCmp) does, at a fraction of its cost: a
// stable least-significant-digit radix sort by h's bits (one histogram
// pass for the 8 bytes, then one scatter pass per byte whose digit is not
// the same for every key), which keeps the index order among equal h,
// followed by a sort by (d, k) of each run of equal h (mirror pairs, and
// contacts of one row at one height). The keys are unique (k), so the
// result is the same whatever the algorithm. It does not allocate once
// tmp has grown.
func sortOrderKeys(keys, tmp []orderKey) []orderKey {
	n := len(keys)
	if n < 64 {
		slices.SortFunc(keys, orderCmp)
		return tmp
	}
	var count [8][256]int32
	for i := range keys {
		if keys[i].h == 0 {
			keys[i].h = 0 // −0 as +0: orderCmp has them equal
		}
		u := sortableBits(keys[i].h)
		for b := range 8 {
			count[b][byte(u>>(8*b))]++
		}
	}
	if cap(tmp) < n {
		tmp = make([]orderKey, n, n+n/4)
	}
	tmp = tmp[:n]
	src, dst := keys, tmp
	for b := range 8 {
		c := &count[b]
		if c[byte(sortableBits(src[0].h)>>(8*b))] == int32(n) {
			continue // every key has this digit
		}
		var sum int32
		for v := range c {
			c[v], sum = sum, sum+c[v]
		}
		for _, o := range src {
			v := byte(sortableBits(o.h) >> (8 * b))
			dst[c[v]] = o
			c[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	for a := 0; a < n; {
		e := a + 1
		for e < n && keys[e].h == keys[a].h {
			e++
		}
		if e-a > 1 {
			run := keys[a:e]
			if len(run) <= 12 {
				for i := 1; i < len(run); i++ {
					for j := i; j > 0 && orderCmp(run[j], run[j-1]) < 0; j-- {
						run[j], run[j-1] = run[j-1], run[j]
					}
				}
			} else {
				slices.SortFunc(run, orderCmp)
			}
		}
		a = e
	}
	return tmp
}

// sortableBits maps x to an unsigned integer of the same order (for
// finite x and ±Inf; −0 below +0).
func sortableBits(x float64) uint64 {
	u := math.Float64bits(x)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

func orderCmp(a, b orderKey) int {
	if c := cmp.Compare(a.h, b.h); c != 0 {
		return c
	}
	if c := cmp.Compare(a.d, b.d); c != 0 {
		return c
	}
	return cmp.Compare(a.k, b.k)
}

// ContactKeys implements sim.ContactKeyer: it returns keys (reused)
// holding, for each current contact (the last BuildProblem's, then those
// FindMissed appended), its key at q: the sum of its balls' heights along
// −g (twice the ball's for a wall contact), then the distance from the
// mirror axis of the sum of their horizontal offsets (likewise). The key
// is invariant under the mirror image of the state about the vertical
// through the middle of the balls' extent, so a contact and its mirror
// image have equal keys, and ordered by key a mirror pair of islands or
// balls meets its contacts in the same order. It does not allocate once
// keys has grown.
func (s *System) ContactKeys(q []float64, keys [][2]float64) [][2]float64 {
	f := s.orderFrame(q)
	keys = keys[:0]
	for k := range s.det.contacts {
		h, d := f.key(q, &s.det.contacts[k])
		keys = append(keys, [2]float64{h, d})
	}
	return keys
}

// mirrorOrder puts the detected contacts, contacts[:ndetect] in the
// detection's order, in the mirror order at q (System.MirrorOrder): by
// key, then by their place in the detection's order, so the sort is
// stable and its result does not depend on the sort's algorithm (a radix
// sort, sortOrderKeys: on the 10K drop the comparison sort it replaces
// cost 6 % of the run's CPU). byCmp keeps the detection's order. It does
// not allocate once its workspaces have grown.
func (d *detector) mirrorOrder(s *System, q []float64) {
	n := d.ndetect
	f := s.contactFrame(q, d.contacts[:n])
	d.okeys = d.okeys[:0]
	for k := range d.contacts[:n] {
		h, dd := f.key(q, &d.contacts[k])
		d.okeys = append(d.okeys, orderKey{h, dd, int32(k)})
	}
	d.otmp = sortOrderKeys(d.okeys, d.otmp)
	// The detection's list becomes byCmp, and the list is gathered into
	// byCmp's former storage: one pass over the contacts instead of a
	// copy and a gather. The two arrays trade places every step, and
	// each grows to what it holds.
	d.byCmp, d.contacts = d.contacts[:n], slices.Grow(d.byCmp[:0], n)[:n]
	for k, o := range d.okeys {
		d.contacts[k] = d.byCmp[o.k]
	}
	d.ordered = true
}

// keysTo sets p.Keys to the contacts' keys in the mirror order, when the
// list is in it (nothing otherwise: FillProblem's Reset left Keys empty),
// so that the impact operator can give a mirror pair of contacts inside
// one island the same bits (mech.Problem.Keys).
func (d *detector) keysTo(p *mech.Problem) {
	if !d.ordered {
		return
	}
	for _, o := range d.okeys {
		p.Keys = append(p.Keys, [2]float64{o.h, o.d})
	}
}

// cmpOrdered returns the last detection's contacts in the detection's
// (contactCmp) order.
func (d *detector) cmpOrdered() []Contact {
	if d.ordered {
		return d.byCmp
	}
	return d.contacts[:d.ndetect]
}

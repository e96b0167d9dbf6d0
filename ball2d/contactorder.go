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

func (s *System) orderFrame(q []float64) orderFrame {
	f, _, _ := s.scanFrame(q, false)
	return f
}

// scanFrame returns orderFrame(q) and, with layers, the lowest ball's
// height along −g (0 without gravity) and the smallest radius, from one
// pass over the balls (the sweep's layers, orderSweep).
func (s *System) scanFrame(q []float64, layers bool) (f orderFrame, hmin, rmin float64) {
	f = orderFrame{uy: 1}
	var ux, uy float64
	if gn := math.Hypot(s.Gravity[0], s.Gravity[1]); gn > 0 && !math.IsInf(gn, 0) {
		f.ux, f.uy = -s.Gravity[0]/gn, -s.Gravity[1]/gn
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
	if lo <= hi && !math.IsInf(hi-lo, 0) {
		f.axis = 0.5*lo + 0.5*hi
	}
	return f, hmin, rmin
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
// stable and its result does not depend on the sort's algorithm. byCmp
// keeps the detection's order. It does not allocate once its workspaces
// have grown.
func (d *detector) mirrorOrder(s *System, q []float64) {
	cs := d.contacts[:d.ndetect]
	d.byCmp = append(d.byCmp[:0], cs...)
	f := s.orderFrame(q)
	d.okeys = d.okeys[:0]
	for k := range cs {
		h, dd := f.key(q, &cs[k])
		d.okeys = append(d.okeys, orderKey{h, dd, int32(k)})
	}
	slices.SortFunc(d.okeys, orderCmp)
	for k, o := range d.okeys {
		cs[k] = d.byCmp[o.k]
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

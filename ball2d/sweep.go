package ball2d

import (
	"cmp"
	"math"
	"slices"
)

// The nonlinear Gauss–Seidel position projection of the position
// correction (sim.Correction, Method "ngs"; sim.ContactSweeper): contact
// by contact, in a fixed order, a contact whose gap at the current
// positions is below the target is pushed back to it along its normal at
// the current positions, the push shared in proportion to the balls'
// inverse masses (Box2D v2's position solver without its Baumgarte factor,
// slop and step limit). See package sim's documentation, "Position
// correction".

// sweeper holds SweepContacts' workspaces.
type sweeper struct {
	// order is the current contacts in sweep order; n is how many of them
	// it holds (−1: none, a new step)
	order []sweepKey
	n     int
	add   []sweepKey // the contacts to merge in
	cnt   []int32    // the counting sort's bins
	// clock counts the contacts visited; moved[i] is its value when ball
	// i was last pushed, seen[k] when contact k was last visited and left
	// as it was (0: never): a contact whose balls have not moved since is
	// skipped, as visiting it again would leave it again.
	clock uint64
	moved []uint64
	seen  []uint64
}

// sweepKey is a contact's place in the sweep: its layer when it was
// ordered (the lower ball's height along −g in units of the smallest
// radius), then its mirror-invariant key at the same positions
// (orderFrame.key) and its index in the contact list.
type sweepKey struct {
	layer int32
	o     orderKey
}

func sweepCmp(a, b sweepKey) int {
	if c := cmp.Compare(a.layer, b.layer); c != 0 {
		return c
	}
	return orderCmp(a.o, b.o)
}

// orderSweep brings s.sweep.order up to the current contacts (the last
// BuildProblem's, then those FindMissed appended): the contacts not yet in
// it are keyed by the layer at q of their lower ball along −g (its height
// over the lowest ball's, in units of the smallest radius; 0 without
// gravity) and, inside a layer, by their mirror-invariant order
// (ContactKeys' key at q, then index), sorted (a counting sort over the
// layers, then each layer by its key, for a new step) and merged in. With
// gravity a sweep then visits the supports of a pile before what they
// carry; and a contact and its mirror image come at the same place of
// their layers' order, so an exactly mirror-symmetric state is pushed to
// an exactly mirror-symmetric one.
func (s *System) orderSweep(q []float64) {
	sw := &s.sweep
	cs := s.det.contacts
	if sw.n < 0 || sw.n > len(cs) || len(sw.order) != sw.n {
		sw.order, sw.n = sw.order[:0], 0
	}
	if sw.n == len(cs) {
		return
	}
	sw.seen = sw.seen[:sw.n]
	for range len(cs) - sw.n {
		sw.seen = append(sw.seen, 0)
	}
	sw.moved = grow(sw.moved, s.N())
	var ux, uy float64
	if gn := math.Hypot(s.Gravity[0], s.Gravity[1]); gn > 0 && !math.IsInf(gn, 0) {
		ux, uy = -s.Gravity[0]/gn, -s.Gravity[1]/gn
	}
	// heights over the lowest ball, in layers of the smallest radius
	hmin, rmin := math.Inf(1), math.Inf(1)
	for i := range s.M {
		hmin = math.Min(hmin, ux*q[2*i]+uy*q[2*i+1])
		rmin = math.Min(rmin, s.R[i])
	}
	f := s.orderFrame(q)
	sw.add = sw.add[:0]
	maxLayer := int32(0)
	for k := sw.n; k < len(cs); k++ {
		c := &cs[k]
		i := int(c.I)
		h := ux*q[2*i] + uy*q[2*i+1]
		if c.J >= 0 {
			j := int(c.J)
			h = math.Min(h, ux*q[2*j]+uy*q[2*j+1])
		}
		// a layer per contact at most; a height that is not a number last
		l := (h - hmin) / rmin
		layer := int32(len(cs))
		if l >= 0 && l < float64(len(cs)) {
			layer = int32(l)
		}
		maxLayer = max(maxLayer, layer)
		kh, kd := f.key(q, c)
		sw.add = append(sw.add, sweepKey{layer, orderKey{kh, kd, int32(k)}})
	}
	if sw.n == 0 {
		// a new step: counting sort by layer, then each layer sorted
		sw.cnt = grow(sw.cnt, int(maxLayer)+2)
		clear(sw.cnt)
		for _, a := range sw.add {
			sw.cnt[a.layer+1]++
		}
		for l := 1; l < len(sw.cnt); l++ {
			sw.cnt[l] += sw.cnt[l-1]
		}
		sw.order = grow(sw.order, len(sw.add))
		for _, a := range sw.add {
			sw.order[sw.cnt[a.layer]] = a
			sw.cnt[a.layer]++
		}
		// cnt[l] is now where layer l ends
		lo := 0
		for _, e := range sw.cnt[:maxLayer+1] {
			hi := int(e)
			if hi-lo > 1 {
				slices.SortFunc(sw.order[lo:hi], sweepCmp)
			}
			lo = hi
		}
	} else {
		slices.SortFunc(sw.add, sweepCmp)
		sw.order = mergeSorted(sw.order, sw.add, sweepCmp)
	}
	sw.n = len(cs)
}

// SweepContacts implements sim.ContactSweeper: up to maxSweeps sweeps over
// the current contacts, lowest first (orderSweep), each pushing every
// contact whose gap g at the current q is below target back to target:
// λ = (target − g)/(wᵢ + wⱼ) with the inverse masses w (0 for fixed balls
// and walls), xᵢ += wᵢλn and xⱼ −= wⱼλn along the unit normal n at the
// current positions (Relinearize's). It stops after the first sweep in
// which no contact overlapped (−g) by more than tol when it came up, and
// returns the sweeps made and the largest overlap seen in the last. It is
// serial, so the result does not depend on the workers, and it does not
// allocate once its workspace has grown.
func (s *System) SweepContacts(q []float64, target, tol float64, maxSweeps int) (int, float64) {
	s.orderSweep(q)
	sw := &s.sweep
	cs := s.det.contacts
	worst := 0.0
	n := 0
	for n < maxSweeps {
		n++
		worst = 0
		for _, o := range sw.order {
			c := &cs[o.o.k]
			seen := sw.seen[o.o.k]
			if seen != 0 && sw.moved[c.I] < seen && (c.J < 0 || sw.moved[c.J] < seen) {
				continue
			}
			sw.clock++
			w, pushed := s.pushContact(q, c, target)
			worst = math.Max(worst, w)
			if pushed {
				sw.moved[c.I] = sw.clock
				if c.J >= 0 {
					sw.moved[c.J] = sw.clock
				}
				sw.seen[o.o.k] = 0
			} else if w == w && !math.IsInf(w, 1) {
				sw.seen[o.o.k] = sw.clock
			}
		}
		if !(worst > tol) {
			break
		}
	}
	return n, worst
}

// pushContact pushes contact c back to gap target if its gap at q is
// below it, and returns its overlap −g before the push (+Inf for a gap
// that is not a number) and whether it moved a ball.
func (s *System) pushContact(q []float64, c *Contact, target float64) (float64, bool) {
	i := int(c.I)
	var g, e float64
	var n [2]float64
	switch c.Kind {
	case BallBall, TeleportedBallBall:
		j := int(c.J)
		dx, dy := q[2*i]-q[2*j], q[2*i+1]-q[2*j+1]
		if c.Kind == TeleportedBallBall {
			xi := s.imageAt(q, i, int(c.PortalI), c.PlaneI)
			xj := s.imageAt(q, j, int(c.PortalJ), c.PlaneJ)
			dx, dy = xi[0]-xj[0], xi[1]-xj[1]
		}
		d := math.Sqrt(dx*dx + dy*dy)
		g = d - s.R[i] - s.R[j]
		if !(g < target) {
			break
		}
		var wi, wj float64
		if !s.Fixed[i] {
			wi = 1 / s.M[i]
		}
		if !s.Fixed[j] {
			wj = 1 / s.M[j]
		}
		if !(wi+wj > 0) {
			break
		}
		if d > 0 && !math.IsInf(d, 0) {
			n = [2]float64{dx / d, dy / d}
		} else {
			n = pairNormal([2]float64{dx, dy}, [2]float64{}, [2]float64{dx, dy}, [2]float64{})
		}
		l := (target - g) / (wi + wj)
		q[2*i] += wi * l * n[0]
		q[2*i+1] += wi * l * n[1]
		q[2*j] -= wj * l * n[0]
		q[2*j+1] -= wj * l * n[1]
		return -g, true
	case BallDrum:
		dr := &s.Drums[c.Obj]
		x := pos(q, i)
		g = (dr.R - s.R[i]) - math.Hypot(x[0]-dr.C[0], x[1]-dr.C[1])
		// towards the centre: ∇g = (c − x)/|c − x|
		n, e = pairNormal(dr.C, x, dr.C, x), target-g
	case BallPlane:
		pl := &s.Planes[c.Obj]
		g = pl.N[0]*(q[2*i]-pl.P[0]) + pl.N[1]*(q[2*i+1]-pl.P[1]) - s.R[i]
		n, e = pl.N, target-g
	}
	if g != g {
		return math.Inf(1), false
	}
	if e > 0 && !s.Fixed[i] {
		q[2*i] += e * n[0]
		q[2*i+1] += e * n[1]
		return -g, true
	}
	return -g, false
}

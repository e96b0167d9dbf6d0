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
	// clock counts the contacts visited. A contact is skipped when
	// visiting it again would leave it as it is:
	//   - its balls have not moved since it was last visited and left as
	//     it was (ball.moved, the clock when the ball was last pushed, is
	//     below its seen, the clock then; 0: never left);
	//   - its gap g when it was left was above the threshold by slack, and
	//     its balls have since been pushed through less than slack in all
	//     (ball.dist, the length a ball was pushed through in the step,
	//     summed over its balls, has grown by less than slack from base):
	//     a gap moves by at most the distance its balls move.
	clock uint64
	ball  []sweepBall  // per ball, and one for the walls (never pushed)
	run   []sweepState // per contact, in sweep order (SweepContacts)
	state []sweepState // per contact, by index, between calls
}

// sweepBall is a ball's record in the sweeps: the clock when it was last
// pushed, the length it was pushed through since the step began, and its
// inverse mass (0 for a fixed ball) and radius, so that a ball pair's
// push reads one record per ball.
type sweepBall struct {
	moved   uint64
	dist, w float64
	r       float64
}

// sweepState is a contact's record in the sweeps: its balls (the walls'
// record for J < 0), its index, the clock when it was last visited and
// left as it was (0: to be visited), the summed dist of its balls then,
// and its gap's slack over the threshold then (< 0: none).
type sweepState struct {
	i, j, k     int32
	seen        uint64
	base, slack float64
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
	nb := s.N()
	sw.state = sw.state[:sw.n]
	for k := sw.n; k < len(cs); k++ {
		j := cs[k].J
		if j < 0 {
			j = int32(nb)
		}
		sw.state = append(sw.state, sweepState{i: cs[k].I, j: j, k: int32(k), slack: -1})
	}
	if sw.n == 0 {
		// a new step: no ball pushed yet (moved clocks below every seen
		// to come)
		sw.ball = grow(sw.ball, nb+1)
		for i := range nb {
			var w float64
			if !s.Fixed[i] {
				w = 1 / s.M[i]
			}
			sw.ball[i] = sweepBall{w: w, r: s.R[i]}
		}
		sw.ball[nb] = sweepBall{}
	}
	// heights over the lowest ball (0 without gravity), in layers of the
	// smallest radius
	f, hmin, rmin := s.scanFrame(q, true)
	var ux, uy float64
	if gn := math.Hypot(s.Gravity[0], s.Gravity[1]); gn > 0 && !math.IsInf(gn, 0) {
		ux, uy = f.ux, f.uy
	}
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
// returns the sweeps made and the largest overlap seen in the last (of the
// contacts visited: one whose gap is certainly above max(target, −tol) is
// not). A sweep skips a contact whose balls were not pushed since it was
// last left as it was, and one whose gap then was above that threshold by
// more than its balls have since been pushed through (a gap moves by at
// most the distance its balls move); the positions are bit for bit those
// of visiting every contact in every sweep. It reads the contacts' records
// in sweep order from one array (run) and the balls' from another. It is
// serial, so the result does not depend on the workers, and it does not
// allocate once its workspace has grown.
func (s *System) SweepContacts(q []float64, target, tol float64, maxSweeps int) (int, float64) {
	s.orderSweep(q)
	sw := &s.sweep
	cs := s.det.contacts
	sw.run = grow(sw.run, len(sw.order))
	for p, o := range sw.order {
		sw.run[p] = sw.state[o.o.k]
	}
	balls := sw.ball
	worst := 0.0
	n := 0
	// a contact whose gap is above thr is neither pushed nor counted in
	// worst > tol
	thr := max(target, -tol)
	for n < maxSweeps {
		n++
		worst = 0
		for p := range sw.run {
			r := &sw.run[p]
			bi, bj := &balls[r.i], &balls[r.j]
			if r.seen != 0 && bi.moved < r.seen && bj.moved < r.seen {
				continue
			}
			moved := bi.dist + bj.dist
			if moved-r.base < r.slack {
				continue
			}
			sw.clock++
			c := &cs[r.k]
			var v float64
			var pushed bool
			if c.Kind == BallBall {
				v, pushed = pushPair(q, int(r.i), int(r.j), bi, bj, target)
			} else {
				v, pushed = s.pushContact(q, c, target)
			}
			worst = math.Max(worst, v)
			if pushed {
				bi.moved = sw.clock
				if c.J >= 0 {
					bj.moved = sw.clock
				}
				r.seen, r.slack = 0, -1
			} else if v == v && !math.IsInf(v, 1) {
				r.seen = sw.clock
				if c.Kind == BallBall || c.Kind == BallDrum {
					r.base = moved
					r.slack = -v - thr - s.gapMargin(q, c)
				}
			}
		}
		if !(worst > tol) {
			break
		}
	}
	for _, r := range sw.run {
		sw.state[r.k] = r
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
		li, lj := pushApart(q, i, j, dx, dy, d, wi, wj, target-g)
		s.sweep.pushed(i, li)
		s.sweep.pushed(j, lj)
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
		s.sweep.pushed(i, e)
		return -g, true
	}
	return -g, false
}

// pushPair is pushContact for a BallBall contact of balls i and j with
// records bi and bj: the same arithmetic on the same numbers.
func pushPair(q []float64, i, j int, bi, bj *sweepBall, target float64) (float64, bool) {
	dx, dy := q[2*i]-q[2*j], q[2*i+1]-q[2*j+1]
	d := math.Sqrt(dx*dx + dy*dy)
	g := d - bi.r - bj.r
	if g != g {
		return math.Inf(1), false
	}
	wi, wj := bi.w, bj.w
	if !(g < target) || !(wi+wj > 0) {
		return -g, false
	}
	li, lj := pushApart(q, i, j, dx, dy, d, wi, wj, target-g)
	bi.dist += li
	bj.dist += lj
	return -g, true
}

// pushApart moves balls i and j, d = |(dx, dy)| apart (their centres'
// difference), by e along their unit normal, shared by their inverse
// masses wi and wj: xᵢ += wᵢλn, xⱼ −= wⱼλn with λ = e/(wᵢ + wⱼ); it
// returns the lengths wᵢλ and wⱼλ.
func pushApart(q []float64, i, j int, dx, dy, d, wi, wj, e float64) (float64, float64) {
	var n [2]float64
	if d > 0 && !math.IsInf(d, 0) {
		n = [2]float64{dx / d, dy / d}
	} else {
		n = pairNormal([2]float64{dx, dy}, [2]float64{}, [2]float64{dx, dy}, [2]float64{})
	}
	l := e / (wi + wj)
	li, lj := wi*l, wj*l
	q[2*i] += li * n[0]
	q[2*i+1] += li * n[1]
	q[2*j] -= lj * n[0]
	q[2*j+1] -= lj * n[1]
	return li, lj
}

// pushed adds d, the length of a push of ball i (its unit normal times
// d), to its dist (when SweepContacts keeps it).
func (sw *sweeper) pushed(i int, d float64) {
	if i < len(sw.ball) {
		sw.ball[i].dist += d
	}
}

// gapMargin bounds, with room to spare, the rounding of contact c's gap at
// q and of the distances its balls moved: a contact is skipped only while
// its gap is certainly above the threshold by more than it.
func (s *System) gapMargin(q []float64, c *Contact) float64 {
	i := int(c.I)
	if c.Kind == BallDrum {
		dr := &s.Drums[c.Obj]
		return 1e-9 * (dr.R + math.Abs(dr.C[0]) + math.Abs(dr.C[1]) + math.Abs(q[2*i]) + math.Abs(q[2*i+1]))
	}
	j := int(c.J)
	return 1e-9 * (s.R[i] + s.R[j] + math.Abs(q[2*i]) + math.Abs(q[2*i+1]) + math.Abs(q[2*j]) + math.Abs(q[2*j+1]))
}

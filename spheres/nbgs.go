package spheres

import (
	"math"

	"impactsim/friction"
	"impactsim/mech"
	"impactsim/singlecontact"
)

// The non-linear block Gauss–Seidel sweeps of friction.NBGS specialized to
// spheres: a contact's block is diag(A_nn, A_tt, A_tt) with A_nn = 1/m_i +
// 1/m_j and A_tt = A_nn + r_i²/I_i + r_j²/I_j, its relative velocity
//
//	δv = v_i − v_j − (r_i ω_i + r_j ω_j) × n,   u = (n·δv, t·δv, o·δv) + rel,
//
// and an impulse change Δ = (Δ_n, Δ_t, Δ_o), P = Δ_n n + Δ_t t + Δ_o o,
// changes the velocities by v_i += P/m_i, v_j −= P/m_j and ω_{i,j} −=
// (r/I)_{i,j} n × P with n × P = Δ_t o − Δ_o t. Everything else — the
// residual, the cap, the domains, the relaxed increments of contacts
// across domains and the exchange — is friction.NBGS's.
type nbgsWork struct {
	vel, vel0 []float64 // (v, ω) of the spheres, then the shadow slots
	domStart  []int32   // contacts of domain d: conIdx[domStart[d]:domStart[d+1]]
	conIdx    []int32
	domRes    []float64
	// shadows: slot k copies sphere shadowSrc[k] for its domain; the
	// spheres with shadows and their slots, grouped by sphere
	shadowSrc  []int32
	shadowDom  []int32
	stamp      []int32 // per sphere: 1 + the last domain that made a slot
	slotOf     []int32
	redBody    []int32
	redPtr     []int32
	redSlot    []int32
	cnt        []int32
	rec        []nbgsRec // per contact of the step (w.con)
	gen        uint64    // rec is current when gen = the workspace's conGen
	nd         int
	relax, tol float64
	block      friction.BlockLaw
	mu         float64
	fCopy      func(w, lo, hi int)
	fSweep     func(w, lo, hi int)
	fReduce    func(w, lo, hi int)
	fOnce      func() float64
	ns         int
	coul       [][8]singlecontact.Solution // per domain scratch
}

// solve runs the sweeps on the step's contacts and leaves the new
// velocities in VW.
func (s *System) solve(law *friction.NBGS) mech.Stats {
	var st mech.Stats
	w := &s.work
	nb := &w.nb
	m := len(w.con)
	if m == 0 {
		return st
	}
	tol, maxIter, domains, relax := law.Params()
	n := s.N()
	nd := max(1, min(domains, n))
	nb.nd, nb.relax, nb.tol, nb.block, nb.mu = nd, relax, tol, law.Block, s.Mu
	domOf := func(b int32) int32 { return int32(int(b) * nd / n) }
	// contacts by domain of their first sphere, in contact order
	nb.domStart = growI32(nb.domStart, nd+1)
	clear(nb.domStart)
	for k := range w.con {
		nb.domStart[domOf(w.con[k].i)+1]++
	}
	for d := 0; d < nd; d++ {
		nb.domStart[d+1] += nb.domStart[d]
	}
	nb.cnt = growI32(nb.cnt, nd)
	copy(nb.cnt, nb.domStart[:nd])
	nb.conIdx = growI32(nb.conIdx, m)
	for k := range w.con {
		d := domOf(w.con[k].i)
		nb.conIdx[nb.cnt[d]] = int32(k)
		nb.cnt[d]++
	}
	// velocity slots: spheres, then one shadow per (domain, foreign sphere)
	s.nbgsRecords()
	nb.stamp = growI32(nb.stamp, n)
	clear(nb.stamp)
	nb.slotOf = growI32(nb.slotOf, n)
	nb.shadowSrc, nb.shadowDom = nb.shadowSrc[:0], nb.shadowDom[:0]
	for d := 0; d < nd; d++ {
		for _, k := range nb.conIdx[nb.domStart[d]:nb.domStart[d+1]] {
			c, e := &w.con[k], &nb.rec[k]
			e.vi = 6 * c.i
			if c.j < 0 {
				continue
			}
			if domOf(c.j) == int32(d) {
				e.vj = 6 * c.j
				continue
			}
			if nb.stamp[c.j] != int32(d+1) {
				nb.stamp[c.j] = int32(d + 1)
				nb.slotOf[c.j] = int32(n + len(nb.shadowSrc))
				nb.shadowSrc = append(nb.shadowSrc, c.j)
				nb.shadowDom = append(nb.shadowDom, int32(d))
			}
			e.vj = 6 * nb.slotOf[c.j]
		}
	}
	ns := len(nb.shadowSrc)
	nb.vel = growF(nb.vel, 6*(n+ns))
	nb.vel0 = growF(nb.vel0, 6*ns)
	copy(nb.vel, s.VW)
	// group the slots by sphere (counting sort, slots stay in domain
	// order) for the exchange
	if ns > 0 {
		nb.cnt = growI32(nb.cnt, n+1)
		clear(nb.cnt)
		for _, b := range nb.shadowSrc {
			nb.cnt[b+1]++
		}
		nb.redBody, nb.redPtr = nb.redBody[:0], nb.redPtr[:0]
		for b := 0; b < n; b++ {
			if nb.cnt[b+1] > 0 {
				nb.redBody = append(nb.redBody, int32(b))
			}
			nb.cnt[b+1] += nb.cnt[b]
		}
		for _, b := range nb.redBody {
			nb.redPtr = append(nb.redPtr, nb.cnt[b])
		}
		nb.redPtr = append(nb.redPtr, int32(ns))
		nb.redSlot = growI32(nb.redSlot, ns)
		for k, b := range nb.shadowSrc {
			nb.redSlot[nb.cnt[b]] = int32(n + k)
			nb.cnt[b]++
		}
	}
	nb.domRes = growF(nb.domRes, nd)
	if len(nb.coul) < nd {
		nb.coul = make([][8]singlecontact.Solution, nd)
	}
	if nb.fSweep == nil {
		nb.fCopy, nb.fSweep, nb.fReduce = s.copyShadows, s.sweepDomains, s.reduceShadows
	}
	if nb.fOnce == nil {
		nb.fOnce = s.sweepOnce
	}
	nb.ns = ns
	st = friction.RunSweeps("nbgs-spheres", m, tol, maxIter, nb.fOnce)
	copy(s.VW, nb.vel[:6*n])
	return st
}

// sweepOnce runs one sweep over all domains and returns its residual.
func (s *System) sweepOnce() float64 {
	nb := &s.work.nb
	if nb.ns > 0 {
		s.pool.For(nb.ns, 4096, nb.fCopy)
	}
	s.pool.For(nb.nd, 1, nb.fSweep)
	if nb.ns > 0 {
		s.pool.For(len(nb.redBody), 4096, nb.fReduce)
	}
	res := 0.0
	for _, r := range nb.domRes {
		if r > res {
			res = r
		}
	}
	return res
}

// copyShadows snapshots the shadow slots [lo, hi) at the start of a sweep.
func (s *System) copyShadows(_, lo, hi int) {
	nb := &s.work.nb
	n := s.N()
	for k := lo; k < hi; k++ {
		src := 6 * nb.shadowSrc[k]
		dst := 6 * (n + k)
		copy(nb.vel[dst:dst+6], nb.vel[src:src+6])
		copy(nb.vel0[6*k:6*k+6], nb.vel[src:src+6])
	}
}

// reduceShadows adds the shadows' changes to the spheres [lo, hi) of the
// list of spheres with shadows, in domain order.
func (s *System) reduceShadows(_, lo, hi int) {
	nb := &s.work.nb
	n := s.N()
	for r := lo; r < hi; r++ {
		b := 6 * int(nb.redBody[r])
		for _, slot := range nb.redSlot[nb.redPtr[r]:nb.redPtr[r+1]] {
			o := 6 * int(slot)
			o0 := 6 * (int(slot) - n)
			for k := 0; k < 6; k++ {
				nb.vel[b+k] += nb.vel[o+k] - nb.vel0[o0+k]
			}
		}
	}
}

func (s *System) sweepDomains(_, lo, hi int) {
	for d := lo; d < hi; d++ {
		s.sweepDomain(d)
	}
}

// sweepDomain runs Gauss–Seidel over domain d's contacts.
func (s *System) sweepDomain(d int) {
	w := &s.work
	nb := &w.nb
	vel := nb.vel
	mu := nb.mu
	res := 0.0
	for _, k := range nb.conIdx[nb.domStart[d]:nb.domStart[d+1]] {
		c, e := &w.con[k], &nb.rec[k]
		vi := vel[e.vi : e.vi+6 : e.vi+6]
		// δv = v_i − v_j − (r_i ω_i + r_j ω_j) × n
		var dv, rw [3]float64
		dv[0], dv[1], dv[2] = vi[0], vi[1], vi[2]
		ri, rj := s.radii(c)
		rw[0], rw[1], rw[2] = ri*vi[3], ri*vi[4], ri*vi[5]
		var vj []float64
		if c.j >= 0 {
			vj = vel[e.vj : e.vj+6 : e.vj+6]
			dv[0] -= vj[0]
			dv[1] -= vj[1]
			dv[2] -= vj[2]
			rw[0] += rj * vj[3]
			rw[1] += rj * vj[4]
			rw[2] += rj * vj[5]
		}
		n, t := &c.n, &c.t
		o := cross(*n, *t) // as tangents(n) made it
		dv[0] -= rw[1]*n[2] - rw[2]*n[1]
		dv[1] -= rw[2]*n[0] - rw[0]*n[2]
		dv[2] -= rw[0]*n[1] - rw[1]*n[0]
		x := e.x
		b := [3]float64{
			-(n[0]*dv[0] + n[1]*dv[1] + n[2]*dv[2] + c.rel) + e.ann*x[0],
			-(t[0]*dv[0] + t[1]*dv[1] + t[2]*dv[2] + e.rt) + e.att*x[1],
			-(o[0]*dv[0] + o[1]*dv[1] + o[2]*dv[2] + e.ro) + e.att*x[2],
		}
		var nx [3]float64
		if nb.block == friction.CoulombBlock {
			pr := singlecontact.Problem{A: [3][3]float64{{e.ann, 0, 0}, {0, e.att, 0}, {0, 0, e.att}}, B: b, Mu: mu}
			nx = singlecontact.CoulombNearest(&pr, x, nb.coul[d][:0])
		} else {
			nx, _ = singlecontact.IsotropicInv(e.ian, e.iat, b, mu)
		}
		dn, dt, do := nx[0]-x[0], nx[1]-x[1], nx[2]-x[2]
		if dn == 0 && dt == 0 && do == 0 {
			continue
		}
		if c.j >= 0 && int(e.vj) >= 6*len(s.R) {
			// a contact across domains (j is a shadow): the relaxed
			// increment, the same for the impulse and both spheres
			dn, dt, do = nb.relax*dn, nb.relax*dt, nb.relax*do
			nx = [3]float64{x[0] + dn, x[1] + dt, x[2] + do}
		}
		e.x = nx
		if r := e.ann * math.Abs(dn); r > res {
			res = r
		}
		if r := e.att * math.Abs(dt); r > res {
			res = r
		}
		if r := e.att * math.Abs(do); r > res {
			res = r
		}
		// P = Δ_n n + Δ_t t + Δ_o o; n × P = Δ_t o − Δ_o t
		p := [3]float64{dn*n[0] + dt*t[0] + do*o[0], dn*n[1] + dt*t[1] + do*o[1], dn*n[2] + dt*t[2] + do*o[2]}
		q := [3]float64{dt*o[0] - do*t[0], dt*o[1] - do*t[1], dt*o[2] - do*t[2]}
		i := c.i
		mi, ki := s.InvM[i], s.R[i]*s.InvI[i]
		vi[0] += mi * p[0]
		vi[1] += mi * p[1]
		vi[2] += mi * p[2]
		vi[3] -= ki * q[0]
		vi[4] -= ki * q[1]
		vi[5] -= ki * q[2]
		if vj != nil {
			j := c.j
			mj, kj := s.InvM[j], s.R[j]*s.InvI[j]
			vj[0] -= mj * p[0]
			vj[1] -= mj * p[1]
			vj[2] -= mj * p[2]
			vj[3] -= kj * q[0]
			vj[4] -= kj * q[1]
			vj[5] -= kj * q[2]
		}
	}
	nb.domRes[d] = res
}

// nbgsRec is what the sweeps keep per contact besides its record: the
// offsets of the bodies' (v, ω) in the sweep's velocity array, the
// isotropic block (A_nn, A_tt) and its inverses, the known tangential
// relative velocities and the impulse x = (x_n, x_t, x_o). Only the sweeps
// allocate it (80 bytes per contact), so the contact records of the other
// laws are 64 bytes (contact).
type nbgsRec struct {
	vi, vj   int32
	ann, att float64
	ian, iat float64 // 1/A_nn, 1/A_tt
	rt, ro   float64 // the known tangential relative velocities (relTangent)
	x        [3]float64
}

// nbgsRecords makes the sweeps' records current for the step's contacts:
// when the contacts changed since they were made (conGen), the blocks
// from the spheres (A_nn = 1/m_i + 1/m_j, A_tt = A_nn + r_i²/I_i + r_j²/I_j;
// a wall has no j terms), the known tangential relative velocities
// (relTangent) and zero impulses; otherwise they are kept, with
// the impulses of the sweeps so far (Sweep's calls within a step).
func (s *System) nbgsRecords() {
	w := &s.work
	nb := &w.nb
	if nb.gen == w.conGen && len(nb.rec) == len(w.con) {
		return
	}
	nb.rec = grow(nb.rec, len(w.con))
	for k := range w.con {
		c, e := &w.con[k], &nb.rec[k]
		i := c.i
		var ann, att float64
		if j := c.j; j >= 0 {
			ann = s.InvM[i] + s.InvM[j]
			att = ann + s.R[i]*s.R[i]*s.InvI[i] + s.R[j]*s.R[j]*s.InvI[j]
		} else {
			ann = s.InvM[i]
			att = ann + s.R[i]*s.R[i]*s.InvI[i]
		}
		*e = nbgsRec{ann: ann, att: att, ian: 1 / ann, iat: 1 / att}
		e.rt, e.ro = s.relTangent(c)
	}
	nb.gen = w.conGen
}

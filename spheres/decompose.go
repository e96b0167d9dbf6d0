package spheres

import (
	"impactsim/friction"
	"impactsim/singlecontact"
)

// The stages of StepImpact and Step one at a time, for a caller that
// spreads a system over processes (package domain): each process holds a
// System of its spheres and the copies of its neighbours' within reach,
// detects their contacts in the canonical order (canonical.go), keeps the
// ones it answers for, solves or sweeps them, and exchanges the rest. The
// arithmetic is the steps' own, so a decomposed run reproduces a run in
// one process bit for bit where the order of operations is the same.

// ContactData is one contact of a detection as it travels between
// processes: the spheres I and J (J < 0: wall −1−J; planes, then boxes,
// then cylinders), the unit normal N from J to I, and the known relative
// velocity Rel in the contact frame (n, t, n × t): the gap term and the
// wall's velocity. Tangents and blocks follow from N and the spheres.
type ContactData struct {
	I, J int32
	N    [3]float64
	Rel  [3]float64
}

// Contact returns contact k of the last detection (or SetContacts).
func (s *System) Contact(k int) ContactData {
	c := &s.work.con[k]
	rt, ro := s.relTangent(c)
	return ContactData{I: c.i, J: c.j, N: c.n, Rel: [3]float64{c.rel, rt, ro}}
}

// SetContacts replaces the step's contacts by cs (sphere pairs first, then
// wall contacts), with tangents computed as the broad phase
// computes them, and zero impulses.
func (s *System) SetContacts(cs []ContactData) {
	w := &s.work
	w.con = w.con[:0]
	w.conGen++
	w.npair = 0
	for _, d := range cs {
		// Rel[1:] follow from the same walls (relTangent)
		c := contact{i: d.I, j: d.J, n: d.N, rel: d.Rel[0]}
		c.t, _ = tangents(c.n) // as the broad phase makes it
		if d.J >= 0 {
			w.npair++
		}
		w.con = append(w.con, c)
	}
}

// KeepContacts drops the contacts k with keep[k] false and keeps the
// others in their order.
func (s *System) KeepContacts(keep []bool) {
	w := &s.work
	nb := &w.nb
	side := nb.gen == w.conGen && len(nb.rec) == len(w.con) // NBGS's records are current: keep them along
	con, rec := w.con[:0], nb.rec[:0]
	np := 0
	for k := range w.con {
		if keep[k] {
			if k < w.npair {
				np++
			}
			con = append(con, w.con[k])
			if side {
				rec = append(rec, nb.rec[k])
			}
		}
	}
	w.con, w.npair = con, np
	w.conGen++
	if side {
		nb.rec, nb.gen = rec, w.conGen
	}
}

// Margin returns the distance two spheres (or a sphere and a wall) can
// close within a step h, from the velocities VW: h(2 max|v| + max|V_wall|),
// plus ½h²|g| for StepImpact (impact true), whose velocities have not had
// gravity's kick.
func (s *System) Margin(h float64, impact bool) float64 {
	w := &s.work
	a := w.alg4
	w.alg4 = impact
	m := s.margin(h)
	w.alg4 = a
	return m
}

// Penetrations returns the largest overlap of two spheres and of a
// sphere and a wall among the last detection's contacts (0 if none).
func (s *System) Penetrations() (pair, wall float64) { return s.work.maxPen, s.work.maxWallPen }

// SetMargin makes the following detections use margin m > 0 instead of
// their own (0: their own): spheres of one process must find the contacts
// the whole system's margin finds.
func (s *System) SetMargin(m float64) { s.work.marginSet = m }

// DetectImpact is the first stage of StepImpact: the free-flight
// prediction and the active set at it, normals at the current positions,
// in the canonical order.
func (s *System) DetectImpact(h float64) (ImpactStats, error) {
	var st ImpactStats
	if err := checkStep(h, 0); err != nil {
		return st, err
	}
	w := &s.work
	w.alg4 = true
	s.detect(h, 0)
	w.alg4 = false
	if w.gridErr != nil {
		return st, w.gridErr
	}
	s.canonicalize()
	st.Contacts, st.PairContacts = len(w.con), w.npair
	st.MaxPenetration, st.MaxWallPenetration = w.maxPen, w.maxWallPen
	return st, nil
}

// SolveImpact is the second stage of StepImpact: the law l on every island
// of the step's contacts, v⁺ left in VW. It adds the islands' statistics
// to st.
func (s *System) SolveImpact(l *Law, st *ImpactStats) error {
	if err := s.prepareLaws(l); err != nil {
		return err
	}
	s.splitIslands()
	st.Islands += s.work.isl.n
	return s.solveIslands(l, st)
}

// FreeFlight is the last stage of StepImpact: free flight over h from the
// current positions with the velocities VW, and the walls' motion.
func (s *System) FreeFlight(h float64) {
	s.pool.For(s.N(), 4096, s.freeFlightChunk(h))
	s.advanceWalls(h)
}

// Kick is the first stage of Step: v += h g.
func (s *System) Kick(h float64) { s.pool.For(s.N(), 4096, s.kickChunk(h)) }

// DetectNBGS is the second stage of Step: the contacts at the current
// positions whose gap the step can close, with the gap term of error
// reduction eps, in the canonical order.
func (s *System) DetectNBGS(h, eps float64) error {
	if err := checkStep(h, 0); err != nil {
		return err
	}
	s.detect(h, eps)
	if s.work.gridErr != nil {
		return s.work.gridErr
	}
	s.canonicalize()
	return nil
}

// Drift is the last stage of Step: x′ = x + h v, the orientations, and the
// walls' motion.
func (s *System) Drift(h float64) {
	s.pool.For(s.N(), 4096, s.driftChunk(h))
	s.advanceWalls(h)
}

// Sweep runs one Gauss–Seidel pass of Step's kernel with law's block law
// over the contacts idx of the step (in that order) on the velocities VW,
// keeping the contacts' impulses between calls, and returns its residual
// (friction.NBGS's measure). A contact whose sphere J is marked in relaxed
// takes the relaxed increment of friction.NBGS's contacts across domains
// (law's Relax), applied to its impulse and both spheres; J's velocity in
// VW is then the shadow's, whose change the caller hands to J's owner.
func (s *System) Sweep(idx []int32, law *friction.NBGS, relaxed []bool) float64 {
	w := &s.work
	nb := &w.nb
	sw := &w.sweep
	n := s.N()
	_, _, _, relax := law.Params()
	nb.relax, nb.block, nb.mu = relax, law.Block, s.Mu
	sw.shadows = sw.shadows[:0]
	sw.stamp = growI32(sw.stamp, n)
	sw.tag++
	s.nbgsRecords()
	for _, k := range idx {
		c, e := &w.con[k], &nb.rec[k]
		e.vi = 6 * c.i
		if c.j < 0 {
			continue
		}
		e.vj = 6 * c.j
		if relaxed != nil && relaxed[c.j] {
			if sw.stamp[c.j] != sw.tag {
				sw.stamp[c.j] = sw.tag
				sw.shadows = append(sw.shadows, c.j)
			}
		}
	}
	if sw.tag == 1<<30 { // keep the stamps distinct from stale ones
		clear(sw.stamp)
		sw.tag = 0
	}
	ns := len(sw.shadows)
	vel, ds, ci, dr := nb.vel, nb.domStart, nb.conIdx, nb.domRes
	defer func() { nb.vel, nb.domStart, nb.conIdx, nb.domRes = vel, ds, ci, dr }()
	// the kernel works on VW in place, followed by the shadows' slots
	// when there are any
	sw.vel = s.VW[: 6*n : 6*n]
	if ns > 0 {
		sw.buf = growF(sw.buf, 6*(n+ns))
		copy(sw.buf, s.VW)
		sw.vel = sw.buf
		sw.slot = growI32(sw.slot, n)
		for k, j := range sw.shadows {
			sw.slot[j] = int32(n + k)
			copy(sw.vel[6*(n+k):6*(n+k)+6], s.VW[6*j:6*j+6])
		}
		for _, k := range idx {
			if c := &w.con[k]; c.j >= 0 && relaxed[c.j] {
				nb.rec[k].vj = 6 * sw.slot[c.j]
			}
		}
	}
	sw.start = [2]int32{0, int32(len(idx))}
	nb.vel, nb.domStart, nb.conIdx, nb.domRes = sw.vel, sw.start[:], idx, sw.res[:]
	if len(nb.coul) < 1 {
		nb.coul = make([][8]singlecontact.Solution, 1)
	}
	s.sweepDomain(0)
	if ns > 0 {
		copy(s.VW, sw.vel[:6*n])
		for k, j := range sw.shadows {
			copy(s.VW[6*j:6*j+6], sw.vel[6*(n+k):6*(n+k)+6])
		}
	}
	return sw.res[0]
}

// sweepWork is Sweep's workspace.
type sweepWork struct {
	shadows []int32
	stamp   []int32
	slot    []int32
	tag     int32
	vel     []float64 // VW, or buf: VW and the shadows' slots
	buf     []float64
	start   [2]int32
	res     [1]float64
}

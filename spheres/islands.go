package spheres

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"impactsim/mech"
	"impactsim/sim"
)

// Islands of the contact graph and their concurrent solves (StepImpact).
//
// The spheres are the nodes and the sphere pairs the edges (walls have
// infinite mass and join nothing), so the impact problem (and Alg. 3's
// and the boxed LCP's friction problems) separate into one problem per
// connected component. Components are numbered by their first contact and
// keep their contacts in contact order, so the split is deterministic.
// Every island gets its own mech.Problem over its own spheres and is
// solved by one worker's copy of the law. A sphere's block is the compact
// 6×6 block m·I₆ (mech.BlockDiag.ShapeUniform: 8 bytes instead of 16 +
// 8·36) because its angular velocity enters in scaled form, ω̂ = s ω with
// s = √(I/m) (= r√(2/5)): the kinetic energy ½m|v|² + ½I|ω|² is ½m(|v|² +
// |ω̂|²), and a column's moment a (a·ω) becomes a/s (a·ω = (a/s)·ω̂). Every
// law's answer is invariant under this change of coordinates (impulses,
// relative velocities and energies are the same; only rounding differs).
// The columns are the normal (n on sphere i, −n on j: a sphere's lever arm
// −r n has no moment about n) and two tanBasis t and o = n × t with moments
// (t, −r_i o | −t, −r_j o) and (o, r_i t | −o, r_j t); the wall's known
// velocity goes to NRel, DRel. Islands with at least bigIsland contacts are
// solved first, one at a time, by a law that spreads its own work over the
// pool (GR's and the LCP's inner islands); the others go to the workers
// largest first. Each island's answer depends on its problem only, so the
// state after a step is bitwise the same for any number of workers.
type islandSet struct {
	parent []int32 // union–find over spheres (workspace.scr)
	id     []int32 // per root sphere: its island (−1: none yet; scr)
	conIsl []int32 // per contact: its island (scr)
	start  []int32 // island c holds order[start[c]:start[c+1]]
	order  []int32 // contacts grouped by island
	sched  []int32 // islands, largest first
	n      int
	stamp  []int32 // per sphere: 1 + the island that last numbered it (scr: islandMarks)
	loc    []int32 // per sphere: its index in that island's problem (scr)
	big    int     // sched[:big] are solved one at a time on the pool
}

// bigIsland is the number of contacts from which an island is solved by a
// pooled law rather than by one worker.
const bigIsland = 4096

// find returns the root of sphere b's tree. Once every union is done it is
// the smallest sphere of b's component, whatever order the unions took:
// a union links the larger of two roots under the smaller. Finds and
// unions may run concurrently (on the pool): the links are read and
// written atomically, and path halving only redirects a sphere to an
// ancestor of it.
func (u *islandSet) find(b int32) int32 {
	for {
		p := atomic.LoadInt32(&u.parent[b])
		if p == b {
			return b
		}
		g := atomic.LoadInt32(&u.parent[p])
		if g != p {
			atomic.CompareAndSwapInt32(&u.parent[b], p, g)
		}
		b = g
	}
}

// union joins the components of spheres a and b.
func (u *islandSet) union(a, b int32) {
	for {
		a, b = u.find(a), u.find(b)
		if a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		if atomic.CompareAndSwapInt32(&u.parent[b], b, a) {
			return
		}
		// b stopped being a root meanwhile: again from the new roots
	}
}

// splitIslands groups the step's contacts into islands. The unions of the
// sphere pairs and each contact's root are done by ranges on the pool; the
// roots are the components' smallest spheres on any number of workers, so
// the islands (numbered by their first contact) are too.
func (s *System) splitIslands() {
	w := &s.work
	u := &w.isl
	n, m := s.N(), len(w.con)
	// a phase of scr: the broad phase's arrays are dead
	w.scr.Reset()
	u.parent = w.scr.Int32s(n)
	u.id = w.scr.Int32s(n)
	for i := range u.parent {
		u.parent[i] = int32(i)
		u.id[i] = -1
	}
	u.conIsl = w.scr.Int32s(m)
	if w.fUnion == nil {
		// the contacts by pointer: ranging by value copied each 64-byte
		// record to the stack for its two indices
		w.fUnion = func(_, lo, hi int) {
			con := s.work.con[lo:hi]
			for k := range con {
				c := &con[k]
				u.union(c.i, c.j)
			}
		}
		w.fRoots = func(_, lo, hi int) {
			con, isl := s.work.con[lo:hi], u.conIsl[lo:hi]
			for k := range con {
				isl[k] = u.find(con[k].i)
			}
		}
	}
	s.pool.For(w.npair, 4096, w.fUnion)
	s.pool.For(m, 4096, w.fRoots) // the roots, in conIsl for now
	u.start = u.start[:0]
	u.start = append(u.start, 0)
	for k := range w.con {
		r := u.conIsl[k]
		if u.id[r] < 0 {
			u.id[r] = int32(len(u.start) - 1)
			u.start = append(u.start, 0)
		}
		c := u.id[r]
		u.conIsl[k] = c
		u.start[c+1]++
	}
	u.n = len(u.start) - 1
	for c := 0; c < u.n; c++ {
		u.start[c+1] += u.start[c]
	}
	// cursors in sched's storage, then the islands by size
	u.sched = growI32(u.sched, u.n)
	copy(u.sched, u.start[:u.n])
	u.order = growI32(u.order, m)
	for k := range w.con {
		c := u.conIsl[k]
		u.order[u.sched[c]] = int32(k)
		u.sched[c]++
	}
	for c := range u.sched {
		u.sched[c] = int32(c)
	}
	slices.SortFunc(u.sched, func(a, b int32) int {
		if d := u.size(b) - u.size(a); d != 0 {
			return d
		}
		return int(a - b)
	})
	big := bigIsland
	if w.bigAt > 0 {
		big = w.bigAt
	}
	u.big = 0
	for u.big < u.n && u.size(u.sched[u.big]) >= big {
		u.big++
	}
	u.parent, u.id, u.conIsl = nil, nil, nil // dead: scr's
}

// islandMarks begins a phase of scr for the island builds that follow:
// per sphere the island that last numbered it (stamp, cleared) and its
// index there (loc). Alg. 3 on a big island takes scr once the island is
// built (lawInstance.arena), so each big island's build, and the small
// islands' builds after them, begin one.
func (s *System) islandMarks() {
	w := &s.work
	u := &w.isl
	w.scr.Reset()
	u.stamp, u.loc = w.scr.Int32s(s.N()), w.scr.Int32s(s.N())
	clear(u.stamp)
}

func (u *islandSet) size(c int32) int { return int(u.start[c+1] - u.start[c]) }

// islandWork is one worker's workspace for island solves.
type islandWork struct {
	law              *lawInstance
	p                mech.Problem
	lambda, beta     []float64
	vp               []float64
	ks               []float64 // per island sphere: its moment scale r/√(I/m) (angularScale: √(I/m) is computed where read)
	bodies           []int32
	cols             []int32  // the contacts of the island being built
	tan              tanBasis // the friction basis, matrix-free (all laws but blcp)
	known            knownRel // the known relative velocities, matrix-free (w.freeRel)
	fBodies, fCount  func(_, lo, hi int)
	fFill            func(_, lo, hi int)
	fVPlus           func(_, lo, hi int) // vPlusSpheres on this workspace
	allCols          [1][2]int           // the run of every column (matrix-free G's AddMulVecRows)
	st               mech.Stats
	maxIter          int
	maxSweeps        int
	impact, friction time.Duration
	err              error
	errAt            int
}

// prepareLaws makes one law instance per worker (and one that uses the
// pool for big islands) when the law or μ changed.
func (s *System) prepareLaws(l *Law) error {
	w := &s.work
	nw := s.pool.Workers()
	if w.lawSet && w.law == *l && w.lawMu == s.Mu && len(w.iw) == nw+1 && w.lawPool == s.pool && w.lawColourAt == w.colourAt {
		return nil
	}
	if err := l.Check(); err != nil {
		return err
	}
	w.iw = make([]islandWork, nw+1)
	for k := range w.iw {
		li, err := l.instance(s.Mu)
		if err != nil {
			return err
		}
		li.keepV = w.keepV
		w.iw[k].law = li
	}
	if pu, ok := w.iw[nw].law.inner.(sim.PoolUser); ok {
		pu.SetPool(s.pool)
	}
	if pu, ok := w.iw[nw].law.fr.(sim.PoolUser); ok {
		pu.SetPool(s.pool)
	}
	w.iw[nw].law.vr.SetPool(s.pool)
	// the big islands are solved one at a time, after the broad phase and
	// the split: their Alg. 3 may use the step's arena
	w.iw[nw].law.arena = &w.scr
	for k := range w.iw {
		if b := w.iw[k].law.blcp; b != nil {
			// every copy colours from the same size, so an island's
			// answer does not depend on which copy solves it
			b.ColourFrom = w.colourAt
			if k == nw {
				b.SetPool(s.pool)
			}
		}
	}
	w.law, w.lawMu, w.lawSet, w.lawPool, w.lawColourAt = *l, s.Mu, true, s.pool, w.colourAt
	w.freeG = w.iw[0].law.readsNormals()
	w.freeRel = w.iw[0].law.readsKnownRel()
	return nil
}

// solveIslands solves every island and leaves v⁺ in VW.
func (s *System) solveIslands(l *Law, st *ImpactStats) error {
	w := &s.work
	u := &w.isl
	nw := s.pool.Workers()
	for k := range w.iw {
		iw := &w.iw[k]
		iw.st, iw.maxIter, iw.maxSweeps, iw.impact, iw.friction, iw.err, iw.errAt = mech.Stats{}, 0, 0, 0, 0, nil, -1
	}
	w.moving = false
	for _, p := range s.Planes {
		if p.V != ([3]float64{}) {
			w.moving = true
		}
	}
	w.v0 = l.V0
	for a := 0; a < u.big; a++ {
		s.islandMarks()
		s.solveIsland(nw, a)
	}
	s.islandMarks()
	if w.fIsland == nil {
		w.fIsland = func(wk, a int) { s.solveIsland(wk, u.big+a) }
	}
	s.pool.Each(u.n-u.big, w.fIsland)
	var err error
	errAt := -1
	for k := range w.iw {
		iw := &w.iw[k]
		st.Law.Add(iw.st)
		st.MaxIslandIterations = max(st.MaxIslandIterations, iw.maxIter)
		st.MaxIslandSweeps = max(st.MaxIslandSweeps, iw.maxSweeps)
		st.Impact += iw.impact
		st.Friction += iw.friction
		if iw.err != nil && (errAt < 0 || iw.errAt < errAt) {
			errAt, err = iw.errAt, iw.err
		}
	}
	if u.n > 0 {
		st.LargestIsland = u.size(u.sched[0])
	}
	return err
}

// solveIsland builds and solves island sched[a] on worker wk's workspace
// (wk = Workers(): the pooled law, whose island is also built on the
// pool) and writes its spheres' v⁺.
func (s *System) solveIsland(wk, a int) {
	w := &s.work
	u := &w.isl
	iw := &w.iw[wk]
	if iw.err != nil {
		return
	}
	c := u.sched[a]
	cols := u.order[u.start[c]:u.start[c+1]]
	s.buildIsland(iw, c+1, cols, wk == s.pool.Workers() && s.pool.Workers() > 1)
	if wk == s.pool.Workers() {
		// the pooled law's solve takes scr (lawInstance.arena): the marks
		// are dead, and must not keep a buffer scr outgrows alive
		u.stamp, u.loc = nil, nil
	}
	p := &iw.p
	m, nd, nb := len(cols), p.NTangents(), len(iw.bodies)
	iw.lambda = growF(iw.lambda, m)
	iw.beta = growF(iw.beta, nd)
	st, ti, tf, err := iw.law.solve(p, iw.lambda, iw.beta, w.v0)
	iw.st.Add(st)
	iw.maxIter = max(iw.maxIter, st.Iterations-st.Sweeps)
	iw.maxSweeps = max(iw.maxSweeps, st.Sweeps)
	iw.impact += ti
	iw.friction += tf
	if err != nil {
		iw.err, iw.errAt = fmt.Errorf("spheres: island of %d contacts and %d spheres (law %s): %w", m, nb, w.law.Name(), err), a
		return
	}
	from, grain := pooledVPlus, pooledVPlus/2
	if w.bigAt > 0 {
		from, grain = w.bigAt, min(grain, w.bigAt) // tests: small islands too
	}
	if wk == s.pool.Workers() && s.pool.Workers() > 1 && nb >= from {
		// the big island's v⁺ by sphere ranges on the pool
		if iw.fVPlus == nil {
			iw.fVPlus = func(_, lo, hi int) { s.vPlusSpheres(iw, lo, hi) }
		}
		s.pool.For(nb, grain, iw.fVPlus) // into VW: no vector of 6·nb
		return
	}
	iw.vp = growF(iw.vp, 6*nb)
	p.ApplyImpulses(iw.vp, p.V, iw.lambda, iw.beta, nil) // 6×6 blocks: in place
	s.writeVelocities(iw, 0, nb)
}

// pooledVPlus is the number of island spheres from which the pooled
// island's v⁺ is computed by sphere ranges on the pool (vPlusSpheres;
// ≈ 2 ms a step serially at 60,000 spheres).
const pooledVPlus = 4096

// writeVelocities copies v⁺ of the island spheres [lo, hi) into s.VW,
// undoing the angular scaling.
func (s *System) writeVelocities(iw *islandWork, lo, hi int) {
	for lb := lo; lb < hi; lb++ {
		b := iw.bodies[lb]
		v, vw := iw.vp[6*lb:6*lb+6], s.VW[6*b:6*b+6]
		sc := s.angularScale(int(b))
		vw[0], vw[1], vw[2] = v[0], v[1], v[2]
		vw[3], vw[4], vw[5] = v[3]/sc, v[4]/sc, v[5]/sc
	}
}

// vPlusSpheres sets v⁺ = v + M⁻¹ (G λ + D β) for the island spheres
// [lo, hi) and writes it, the angular part unscaled, into their rows of
// VW, which hold the sums meanwhile (the pooled island needs no vector of
// its own). It is Problem.ApplyImpulses's arithmetic restricted to those
// rows: each row starts at zero and receives the terms of the normal
// columns in contact order, then those of the tangent columns in column
// order (zero impulses skipped), then its block of M⁻¹ and v
// (mech.BlockDiag.MulVecAddBlock), then writeVelocities's unscaling; a
// contact's columns only have rows of its two spheres (p.Bodies), so the
// others are passed over. Disjoint sphere ranges on several goroutines
// therefore give ApplyImpulses's v⁺ bit for bit.
func (s *System) vPlusSpheres(iw *islandWork, lo, hi int) {
	p := &iw.p
	vw, bodies := s.VW, iw.bodies
	for _, b := range bodies[lo:hi] {
		clear(vw[6*b : 6*b+6])
	}
	l, h := int32(6*lo), int32(6*hi)
	// at is the VW index of island row r
	at := func(r int32) int32 { return 6*bodies[r/6] + r%6 }
	in := func(k int) bool {
		bi, bj := p.Bodies[2*k], p.Bodies[2*k+1]
		return (bi >= lo && bi < hi) || (bj >= lo && bj < hi)
	}
	add := func(rs []int32, vs []float64, y float64) {
		for e, r := range rs {
			if r >= l && r < h {
				vw[at(r)] += vs[e] * y
			}
		}
	}
	g, stored := p.Normals().(*mech.Cols)
	var rows [12]int32
	var vals [12]float64
	for k, y := range iw.lambda {
		if y == 0 || !in(k) {
			continue
		}
		if stored {
			add(g.Row[g.Ptr[k]:g.Ptr[k+1]], g.Val[g.Ptr[k]:g.Ptr[k+1]], y)
			continue
		}
		n := (*normals)(&iw.tan).put(k, rows[:], vals[:])
		add(rows[:n], vals[:n], y)
	}
	if p.DBasis != nil {
		// both columns of a contact from one putPair, added in column order
		var trows [24]int32
		var tvals [24]float64
		beta := iw.beta[:p.NTangents()]
		for k := range len(beta) / 2 {
			y0, y1 := beta[2*k], beta[2*k+1]
			if y0 == 0 && y1 == 0 || !in(k) {
				continue
			}
			e0, e1 := iw.tan.putPair(k, trows[:], tvals[:])
			if y0 != 0 {
				add(trows[:e0], tvals[:e0], y0)
			}
			if y1 != 0 {
				add(trows[e0:e1], tvals[e0:e1], y1)
			}
		}
	} else {
		for c, y := range iw.beta[:p.NTangents()] {
			if y == 0 || !in(p.TangentContact(c)) {
				continue
			}
			add(p.D.Row[p.D.Ptr[c]:p.D.Ptr[c+1]], p.D.Val[p.D.Ptr[c]:p.D.Ptr[c+1]], y)
		}
	}
	for lb := lo; lb < hi; lb++ {
		b := bodies[lb]
		v := vw[6*b : 6*b+6 : 6*b+6]
		p.MInv.MulVecAddBlock(lb, v, v, p.V[6*lb:6*lb+6])
		sc := s.angularScale(int(b))
		v[3], v[4], v[5] = v[3]/sc, v[4]/sc, v[5]/sc
	}
}

// buildIsland fills iw.p with the island of the given contacts (tag: 1 +
// its number): its spheres in order of first appearance, their compact
// blocks and scaled velocities, and per contact the normal column and the
// two tangent columns (islandSet's documentation). The columns are counted
// first, then written in place, so that a large island (pooled) is built
// by row ranges on the pool; the problem is the same bit for bit either
// way, and its storage is sized once, without append's spare growth.
//
// The tangent columns are stored (p.D) only for the boxed LCP, which reads
// D's storage; for the other laws (Alg. 3, no friction) they are given
// matrix-free (p.DBasis = iw.tan, mech.Basis and friction.SphereBasis):
// from the contact records, the island's Bodies and one moment scale per
// sphere (iw.ks) instead of 24 entries and their pointers (≈ 320 bytes a
// contact), the same columns bit for bit. The normal columns are stored
// (p.G) only when some operator of the law reads G's storage; for the
// others (w.freeG: GR, LCP, Alg. 3) they are given matrix-free (p.GNormals
// = iw.tan as normals, mech.Normals), from the same records.
func (s *System) buildIsland(iw *islandWork, tag int32, cols []int32, pooled bool) {
	w := &s.work
	u := &w.isl
	free := w.law.friction() != "blcp" && !w.storedD
	freeG := w.freeG && !w.storedG
	freeRel := w.moving && w.freeRel && !w.storedRel
	iw.bodies = iw.bodies[:0]
	for _, k := range cols {
		ct := &w.con[k]
		for _, b := range [2]int32{ct.i, ct.j} {
			if b >= 0 && u.stamp[b] != tag {
				u.stamp[b] = tag
				u.loc[b] = int32(len(iw.bodies))
				iw.bodies = append(iw.bodies, b)
			}
		}
	}
	nb, m := len(iw.bodies), len(cols)
	p := &iw.p
	p.Reset(3, 6*nb)
	p.M.ShapeUniform(nb, 6)
	p.MInv.ShapeUniform(nb, 6)
	iw.ks = growF(iw.ks, nb)
	iw.tan.ks = iw.ks
	if freeG {
		p.G.Ptr = p.G.Ptr[:0] // a direct read of a column panics (mech.Normals)
		p.GNormals = (*normals)(&iw.tan)
		iw.allCols[0] = [2]int{0, m}
	} else {
		p.G.Ptr = grow(p.G.Ptr, m+1)
	}
	if free || freeG || freeRel {
		iw.tan.con, iw.tan.cols = w.con, cols
	}
	if free {
		p.DBasis = &iw.tan
	} else {
		p.D.Ptr = grow(p.D.Ptr, 2*m+1)
		p.DContact = grow(p.DContact, 2*m)
	}
	p.CoR, p.Mu = grow(p.CoR, m), grow(p.Mu, m)
	p.Bodies = grow(p.Bodies, 2*m)
	iw.tan.bodies = p.Bodies
	if freeRel {
		iw.known = knownRel{b: &iw.tan, s: s}
		p.Known = &iw.known
	} else if w.moving {
		p.NRel, p.DRel = grow(p.NRel, m), grow(p.DRel, 2*m)
	}
	iw.cols = cols
	if iw.fBodies == nil {
		iw.fBodies = func(_, lo, hi int) { s.islandBodies(iw, lo, hi) }
		iw.fCount = func(_, lo, hi int) { s.islandColumns(iw, lo, hi, false) }
		iw.fFill = func(_, lo, hi int) { s.islandColumns(iw, lo, hi, true) }
	}
	run := func(n, grain int, f func(_, lo, hi int)) {
		if w.bigAt > 0 {
			grain = min(grain, w.bigAt) // tests: small islands split too
		}
		if pooled {
			s.pool.For(n, grain, f)
		} else if n > 0 {
			f(0, 0, n)
		}
	}
	run(nb, 2048, iw.fBodies)
	if !freeG || !free {
		run(m, 1024, iw.fCount) // entries per column, at Ptr[column + 1]
	}
	if !freeG {
		p.G.Ptr[0] = 0
		for k := 1; k <= m; k++ {
			p.G.Ptr[k] += p.G.Ptr[k-1]
		}
		p.G.Row, p.G.Val = grow(p.G.Row, p.G.Ptr[m]), grow(p.G.Val, p.G.Ptr[m])
	}
	if !free {
		p.D.Ptr[0] = 0
		for k := 1; k <= 2*m; k++ {
			p.D.Ptr[k] += p.D.Ptr[k-1]
		}
		p.D.Row, p.D.Val = grow(p.D.Row, p.D.Ptr[2*m]), grow(p.D.Val, p.D.Ptr[2*m])
	}
	run(m, 1024, iw.fFill)
	iw.cols = nil
}

// angularScale returns sphere b's √(I/m), the factor of its scaled angular
// velocity ω̂ = √(I/m) ω (islandSet's documentation): computed where read,
// the same bits each time, rather than stored per island sphere.
func (s *System) angularScale(b int) float64 { return math.Sqrt(s.InvM[b] / s.InvI[b]) }

// islandBodies sets the blocks, scale factors √(I/m) and scaled
// velocities (v, ω̂) of the island's spheres [lo, hi).
func (s *System) islandBodies(iw *islandWork, lo, hi int) {
	p := &iw.p
	for lb := lo; lb < hi; lb++ {
		b := iw.bodies[lb]
		p.M.Data[lb], p.MInv.Data[lb] = 1/s.InvM[b], s.InvM[b]
		sc := s.angularScale(int(b))
		iw.ks[lb] = s.R[b] / sc
		v, vw := p.V[6*lb:6*lb+6], s.VW[6*b:6*b+6]
		v[0], v[1], v[2] = vw[0], vw[1], vw[2]
		v[3], v[4], v[5] = sc*vw[3], sc*vw[4], sc*vw[5]
	}
}

// islandColumns counts (fill false: the entries of each column, stored at
// Ptr[column + 1]) or writes (fill true, at the prefix-summed Ptr) the
// columns of the island's contacts [lo, hi), and their per-contact data.
func (s *System) islandColumns(iw *islandWork, lo, hi int, fill bool) {
	w := &s.work
	u := &w.isl
	p := &iw.p
	free, freeG := p.DBasis != nil, p.GNormals != nil
	for lk := lo; lk < hi; lk++ {
		ct := &w.con[iw.cols[lk]]
		li, lj := int(u.loc[ct.i]), -1
		if ct.j >= 0 {
			lj = int(u.loc[ct.j])
		}
		ki, kj := iw.ks[li], 0.0
		if lj >= 0 {
			kj = iw.ks[lj]
		}
		if !fill {
			if !freeG {
				p.G.Ptr[lk+1] = columnLen(lj, [3]float64{}, [3]float64{})
			}
			for c := 0; c < 2 && !free; c++ {
				_, ai, aj := tangentColumn(ct, c, ki, kj)
				p.D.Ptr[2*lk+1+c] = columnLen(lj, ai, aj)
			}
			continue
		}
		if !freeG {
			writeColumn(&p.G, p.G.Ptr[lk], li, lj, ct.n, [3]float64{}, [3]float64{})
		}
		if !free {
			for c := 0; c < 2; c++ {
				d, ai, aj := tangentColumn(ct, c, ki, kj)
				writeColumn(&p.D, p.D.Ptr[2*lk+c], li, lj, d, ai, aj)
				p.DContact[2*lk+c] = lk
			}
		}
		if w.moving && p.Known == nil {
			p.NRel[lk] = ct.rel
			p.DRel[2*lk], p.DRel[2*lk+1] = s.relTangent(ct)
		}
		p.CoR[lk], p.Mu[lk] = w.law.CoR, s.Mu
		p.Bodies[2*lk], p.Bodies[2*lk+1] = li, lj
	}
}

// columnLen is the number of entries writeColumn writes.
func columnLen(lj int, ai, aj [3]float64) int {
	l := 3
	if ai != ([3]float64{}) {
		l += 3
	}
	if lj >= 0 {
		l += 3
		if aj != ([3]float64{}) {
			l += 3
		}
	}
	return l
}

// writeColumn writes, from entry at on, a column with direction d and
// moments ai on island sphere li and −d, aj on lj (lj < 0: a wall); a zero
// moment is not stored.
func writeColumn(c *mech.Cols, at, li, lj int, d, ai, aj [3]float64) {
	putColumn(c.Row[at:], c.Val[at:], li, lj, d, ai, aj)
}

// putColumn writes writeColumn's entries into rows and vals (room for 12)
// and returns their number.
func putColumn(rows []int32, vals []float64, li, lj int, d, ai, aj [3]float64) int {
	at := 0
	put := func(row int, v float64) {
		rows[at], vals[at] = int32(row), v
		at++
	}
	o := 6 * li
	put(o, d[0])
	put(o+1, d[1])
	put(o+2, d[2])
	if ai != ([3]float64{}) {
		put(o+3, ai[0])
		put(o+4, ai[1])
		put(o+5, ai[2])
	}
	if lj >= 0 {
		o := 6 * lj
		put(o, -d[0])
		put(o+1, -d[1])
		put(o+2, -d[2])
		if aj != ([3]float64{}) {
			put(o+3, aj[0])
			put(o+4, aj[1])
			put(o+5, aj[2])
		}
	}
	return at
}

// tangentColumn returns the direction and the moments (on sphere i, on
// sphere j) of contact ct's tangent column c (0: t, 1: o = n × t), with
// the moment scales ki = r_i/s_i and kj = r_j/s_j (islandSet's
// documentation).
func tangentColumn(ct *contact, c int, ki, kj float64) (d, ai, aj [3]float64) {
	t := ct.t
	o := cross(ct.n, t)
	if c == 0 {
		return t, scale3(-ki, o), scale3(-kj, o)
	}
	return o, scale3(ki, t), scale3(kj, t)
}

// putTangents writes contact ct's two tangent columns, t then o (the
// entries tangentColumn and putColumn give each, o computed once), on
// island spheres li and lj into rows and vals (room for 24) and returns
// the end of the first and of the second.
func putTangents(rows []int32, vals []float64, ct *contact, li, lj int, ki, kj float64) (e0, e1 int) {
	t := ct.t
	o := cross(ct.n, t)
	e0 = putColumn(rows, vals, li, lj, t, scale3(-ki, o), scale3(-kj, o))
	e1 = e0 + putColumn(rows[e0:], vals[e0:], li, lj, o, scale3(ki, t), scale3(kj, t))
	return e0, e1
}

// tanBasis is an island's friction basis given matrix-free (mech.Basis):
// column 2k is contact k's tangent t, 2k+1 its o = n × t, computed on
// demand from the step's contact record, the island problem's Bodies and
// the moment scales of its spheres, exactly as the stored columns are
// (tangentColumn, putColumn).
type tanBasis struct {
	con    []contact // the step's contacts
	cols   []int32   // the island's contacts (indices into con)
	bodies []int     // the island problem's Bodies: contact k's spheres at 2k, 2k+1 (−1: a wall)
	ks     []float64 // per island sphere: its moment scale r/√(I/m) (islandWork.ks)
}

// scales returns the moment scales of contact k's spheres (0 for a wall).
func (b *tanBasis) scales(k int) (ki, kj float64) {
	if lj := b.bodies[2*k+1]; lj >= 0 {
		kj = b.ks[lj]
	}
	return b.ks[b.bodies[2*k]], kj
}

// put writes column k's entries into rows, vals (room for 12) and returns
// their number.
func (b *tanBasis) put(k int, rows []int32, vals []float64) int {
	ki, kj := b.scales(k >> 1)
	d, ai, aj := tangentColumn(&b.con[b.cols[k>>1]], k&1, ki, kj)
	return putColumn(rows, vals, b.bodies[k&^1], b.bodies[k|1], d, ai, aj)
}

// putPair writes contact k's two columns (2k, 2k+1) into rows, vals (room
// for 24), each as put writes it, and returns the end of each.
func (b *tanBasis) putPair(k int, rows []int32, vals []float64) (e0, e1 int) {
	ki, kj := b.scales(k)
	return putTangents(rows, vals, &b.con[b.cols[k]], b.bodies[2*k], b.bodies[2*k+1], ki, kj)
}

// AppendContactCols implements mech.ContactBasis: both columns of a
// contact from one putPair.
func (b *tanBasis) AppendContactCols(k0, k1 int, rows []int32, vals []float64, ends []int) ([]int32, []float64, []int) {
	if k0&1 != 0 || k1 != k0+2 {
		panic(fmt.Sprintf("spheres: columns [%d, %d) are not one contact's", k0, k1))
	}
	l := len(rows)
	rows, vals = slices.Grow(rows, 24)[:l+24], slices.Grow(vals, 24)[:l+24]
	e0, e1 := b.putPair(k0>>1, rows[l:], vals[l:])
	return rows[:l+e1], vals[:l+e1], append(ends, l+e0, l+e1)
}

// SphereContact implements friction.SphereBasis: contact k's island
// spheres and its t and o = n × t, as tangentColumn computes them.
func (b *tanBasis) SphereContact(k int) (i, j int32, t, o [3]float64) {
	ct := &b.con[b.cols[k]]
	return int32(b.bodies[2*k]), int32(b.bodies[2*k+1]), ct.t, cross(ct.n, ct.t)
}

// MomentScales implements friction.SphereBasis: κ of the island's spheres.
func (b *tanBasis) MomentScales() []float64 { return b.ks }

// NCols implements mech.Basis.
func (b *tanBasis) NCols() int { return 2 * len(b.cols) }

// Contact implements mech.Basis.
func (b *tanBasis) Contact(k int) int { return k >> 1 }

// AppendCol implements mech.Basis.
func (b *tanBasis) AppendCol(k int, rows []int32, vals []float64) ([]int32, []float64) {
	l := len(rows)
	rows, vals = slices.Grow(rows, 12)[:l+12], slices.Grow(vals, 12)[:l+12]
	n := b.put(k, rows[l:], vals[l:])
	return rows[:l+n], vals[:l+n]
}

// AddMulVec implements mech.Basis (Cols.AddMulVec's arithmetic).
// Both columns of a contact come from one putPair; the terms are added
// column by column in order, as before.
func (b *tanBasis) AddMulVec(dst, y []float64) {
	var rows [24]int32
	var vals [24]float64
	for k := range len(y) / 2 {
		y0, y1 := y[2*k], y[2*k+1]
		if y0 == 0 && y1 == 0 {
			continue
		}
		e0, e1 := b.putPair(k, rows[:], vals[:])
		if y0 != 0 {
			for e, r := range rows[:e0] {
				dst[r] += vals[e] * y0
			}
		}
		if y1 != 0 {
			for e, r := range rows[e0:e1] {
				dst[r] += vals[e0+e] * y1
			}
		}
	}
}

func scale3(a float64, v [3]float64) [3]float64 { return [3]float64{a * v[0], a * v[1], a * v[2]} }

// knownRel is an island's known relative velocities given matrix-free
// (mech.KnownRel): contact k's NRel is its record's rel, and its columns'
// DRel are System.relTangent of its record (the wall's velocity along −t
// and −o), exactly the values the stored NRel, DRel hold. It reads the
// contacts through tanBasis's con and cols: no bytes of its own.
type knownRel struct {
	b *tanBasis
	s *System
}

// NRel implements mech.KnownRel.
func (k *knownRel) NRel(i int) float64 { return k.b.con[k.b.cols[i]].rel }

// AddNRel implements mech.KnownRel.
func (k *knownRel) AddNRel(dst []float64, lo, hi int) {
	con := k.b.con
	for i, c := range k.b.cols[lo:hi] {
		dst[i] += con[c].rel
	}
}

// DRel implements mech.KnownRel.
func (k *knownRel) DRel(c int) float64 {
	t, o := k.s.relTangent(&k.b.con[k.b.cols[c>>1]])
	if c&1 == 0 {
		return t
	}
	return o
}

// normals is an island's G given matrix-free (mech.Normals): column k is
// contact k's normal, n on island sphere li and −n on lj (none for a
// wall), computed on demand from the step's contact record and the
// tanBasis record (its li, lj), exactly as the stored column is
// (writeColumn with zero moments: a sphere's lever arm has no moment about
// n). It shares tanBasis's storage: G costs no bytes of its own.
type normals tanBasis

// NCols implements mech.Normals.
func (g *normals) NCols() int { return len(g.cols) }

// put writes column k's entries into rows, vals (room for 6) and returns
// their number.
func (g *normals) put(k int, rows []int32, vals []float64) int {
	return putColumn(rows, vals, g.bodies[2*k], g.bodies[2*k+1], g.con[g.cols[k]].n, [3]float64{}, [3]float64{})
}

// AppendCol implements mech.Normals.
func (g *normals) AppendCol(k int, rows []int32, vals []float64) ([]int32, []float64) {
	l := len(rows)
	rows, vals = slices.Grow(rows, 6)[:l+6], slices.Grow(vals, 6)[:l+6]
	n := g.put(k, rows[l:], vals[l:])
	return rows[:l+n], vals[:l+n]
}

// ColDots implements mech.Normals with Cols.ColDot's summation of the
// stored column's 3 or 6 entries (in order, from zero).
func (g *normals) ColDots(dst, x []float64, lo, hi int) { g.colDots(dst, x, lo, hi, false) }

// RelColDots implements mech.RelColDotter for the island's own knownRel
// (the same records): ColDots with the record's rel added last, one pass.
func (g *normals) RelColDots(dst, x []float64, k mech.KnownRel, lo, hi int) bool {
	kr, ok := k.(*knownRel)
	if !ok || kr.b != (*tanBasis)(g) {
		return false
	}
	g.colDots(dst, x, lo, hi, true)
	return true
}

// colDots is ColDots, adding each record's rel after the column's sum
// when rel is set.
func (g *normals) colDots(dst, x []float64, lo, hi int, rel bool) {
	bodies, cols, dst := g.bodies[2*lo:2*hi], g.cols[lo:hi], dst[:hi-lo]
	for k := range cols {
		li, lj := bodies[2*k], bodies[2*k+1]
		n := &g.con[cols[k]].n
		o := 6 * li
		xi := x[o : o+3 : o+3]
		var s float64
		s += n[0] * xi[0]
		s += n[1] * xi[1]
		s += n[2] * xi[2]
		if lj >= 0 {
			o := 6 * lj
			xj := x[o : o+3 : o+3]
			s += -n[0] * xj[0]
			s += -n[1] * xj[1]
			s += -n[2] * xj[2]
		}
		if rel {
			s += g.con[cols[k]].rel
		}
		dst[k] = s
	}
}

// AddMulVec implements mech.Normals (Cols.AddMulVec's arithmetic).
func (g *normals) AddMulVec(dst, y []float64) {
	for k, yk := range y {
		if yk == 0 {
			continue
		}
		li, lj := g.bodies[2*k], g.bodies[2*k+1]
		n := &g.con[g.cols[k]].n
		o := 6 * li
		dst[o] += n[0] * yk
		dst[o+1] += n[1] * yk
		dst[o+2] += n[2] * yk
		if lj >= 0 {
			o := 6 * lj
			dst[o] += -n[0] * yk
			dst[o+1] += -n[1] * yk
			dst[o+2] += -n[2] * yk
		}
	}
}

// touches reports whether column k has an entry in the rows [lo, hi):
// rows 6li … 6li+2 and, for a pair, 6lj … 6lj+2.
func (g *normals) touches(k int, lo, hi int) bool {
	li, lj := g.bodies[2*k], g.bodies[2*k+1]
	if o := 6 * li; o+2 >= lo && o < hi {
		return true
	}
	o := 6 * lj
	return lj >= 0 && o+2 >= lo && o < hi
}

// ColRuns implements mech.Normals (Cols.ColRuns).
func (g *normals) ColRuns(dst [][2]int, lo, hi, gap int) [][2]int {
	for j := range g.cols {
		if g.touches(j, lo, hi) {
			dst = mech.AppendRun(dst, j, gap)
		}
	}
	return dst
}

// AddMulVecRows implements mech.Normals (Cols.AddMulVecRows: the terms of
// each row in AddMulVec's order; a column adds one term to each of its
// rows).
func (g *normals) AddMulVecRows(dst, y []float64, lo, hi int, runs [][2]int) {
	for _, run := range runs {
		for k := run[0]; k < run[1]; k++ {
			yk := y[k]
			if yk == 0 || !g.touches(k, lo, hi) {
				continue
			}
			n := &g.con[g.cols[k]].n
			for s, b := range g.bodies[2*k : 2*k+2] {
				if b < 0 {
					break
				}
				d := [3]float64{n[0], n[1], n[2]}
				if s == 1 {
					d = [3]float64{-n[0], -n[1], -n[2]}
				}
				if o := 6 * b; o >= lo && o+3 <= hi {
					r := dst[o : o+3 : o+3]
					r[0] += d[0] * yk
					r[1] += d[1] * yk
					r[2] += d[2] * yk
				} else {
					for a := 0; a < 3; a++ {
						if o+a >= lo && o+a < hi {
							dst[o+a] += d[a] * yk
						}
					}
				}
			}
		}
	}
}

// readsKnownRel reports whether every operator of the law reads the
// known relative velocities through mech.Problem's accessors
// (mech.MatrixFreeRel; e(v) reads them through RelNormalVelocitiesRange),
// so that the islands may give them matrix-free (knownRel).
func (li *lawInstance) readsKnownRel() bool {
	return li.everyOperator(func(op any) bool { r, ok := op.(mech.MatrixFreeRel); return ok && r.ReadsKnownRel() })
}

// readsNormals reports whether every operator of the law reads G through
// mech.Problem.Normals (mech.MatrixFreeG), so that the islands may give
// it matrix-free. The boxed LCP reads G's storage.
func (li *lawInstance) readsNormals() bool {
	return li.everyOperator(func(op any) bool { r, ok := op.(mech.MatrixFreeG); return ok && r.ReadsNormals() })
}

// everyOperator reports whether reads holds for the law's impact operator
// and its friction operator (if any); never with the boxed LCP.
func (li *lawInstance) everyOperator(reads func(op any) bool) bool {
	if li.blcp != nil {
		return false
	}
	return reads(li.inner) && (li.fr == nil || reads(li.fr))
}

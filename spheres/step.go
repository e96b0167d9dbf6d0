package spheres

import (
	"fmt"
	"math"
	"time"

	"impactsim/friction"
	"impactsim/mech"
	"impactsim/par"
	"impactsim/scratch"
	"impactsim/sim"
)

// Config says how Step advances the system.
type Config struct {
	// H is the time step (> 0).
	H float64
	// Epsilon is the error reduction ε ∈ [0, 1) of the gap term
	// (sim.GapVelocity).
	Epsilon float64
	// Law configures the sweeps: block law, tolerance, cap, domains and
	// relaxation, with friction.NBGS's meaning and defaults.
	Law friction.NBGS
	// SortEvery reorders the spheres by grid cell every this many steps
	// (0: DefaultSortEvery); between reorders the broad phase sorts
	// indices only.
	SortEvery int
	// Correction, when set, projects the centres out of penetration after
	// every step (sim.Correction, on the step's contacts; velocities and
	// orientations untouched). Its Search is not used: the step's
	// speculative contacts stand in for it.
	Correction *sim.Correction
}

// DefaultSortEvery is the default of Config.SortEvery.
const DefaultSortEvery = 20

// Check validates the configuration.
func (c *Config) Check() error {
	if err := checkStep(c.H, c.SortEvery); err != nil {
		return err
	}
	if !(c.Epsilon >= 0 && c.Epsilon < 1) {
		return fmt.Errorf("spheres: error reduction ε = %v, want 0 ≤ ε < 1", c.Epsilon)
	}
	return c.Law.Check()
}

// checkStep validates a time step and a sort interval.
func checkStep(h float64, sortEvery int) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("spheres: time step %v, want h > 0", h)
	}
	if sortEvery < 0 {
		return fmt.Errorf("spheres: sort interval %d, want ≥ 0", sortEvery)
	}
	return nil
}

// StepStats describes one step.
type StepStats struct {
	Contacts     int // all contacts of the step
	PairContacts int // sphere–sphere contacts among them
	// MaxPenetration is the largest overlap −ξ of two spheres (0 if none)
	// at the start of the step, and MaxWallPenetration that of a sphere
	// and a wall.
	MaxPenetration, MaxWallPenetration float64
	Law                                mech.Stats
	Integrate, Detect, Solve           time.Duration
	// Correction records the position correction (Config.Correction);
	// Err is its error (the QP solver failed: the centres are partly
	// corrected), nil otherwise.
	Correction sim.CorrectionStats
	Err        error
}

// Step advances the system by one step of Preclik et al.'s impulse-
// velocity time stepping (package documentation): kick, contacts at the
// current positions (active when the gap can close within the step), NBGS
// sweeps, drift, and the planes' motion. It does not allocate once its
// workspaces have grown to the problem's size.
func (s *System) Step(c *Config) StepStats {
	w := &s.work
	var st StepStats
	h := c.H
	t0 := time.Now()
	if st.Err = s.checkPeriodic(); st.Err != nil {
		return st
	}
	s.wrapPeriodic()
	// 1. kick: external impulses (gravity); a sphere's gyroscopic term
	// ω × Iω vanishes
	s.pool.For(s.N(), 4096, s.kickChunk(h))
	if c.SortEvery >= 0 {
		s.sortEvery(c.SortEvery, h)
	}
	t1 := time.Now()
	// 2. contacts at the current positions
	s.detect(h, c.Epsilon)
	st.Contacts = len(w.con)
	st.PairContacts = w.npair
	st.MaxPenetration, st.MaxWallPenetration = w.maxPen, w.maxWallPen
	if w.gridErr != nil {
		st.Err = w.gridErr
		return st
	}
	t2 := time.Now()
	// 3. sweeps
	st.Law = s.solve(&c.Law)
	t3 := time.Now()
	// 4. drift and the walls' motion
	s.pool.For(s.N(), 4096, s.driftChunk(h))
	s.advanceWalls(h)
	t4 := time.Now()
	st.Integrate = t1.Sub(t0) + t4.Sub(t3)
	st.Detect = t2.Sub(t1)
	st.Solve = t3.Sub(t2)
	// the speculative contacts stand in for the missed-contact search
	var cfg *sim.Correction
	if c.Correction != nil {
		w.nbCorr = *c.Correction
		w.nbCorr.Search = 0
		cfg = &w.nbCorr
	}
	if st.Err = s.setCorrection(cfg); st.Err == nil && s.corr != nil {
		st.Correction, st.Err = s.correct()
		s.wrapPeriodic()
	}
	return st
}

// advanceWalls moves the planes by h V and wraps the centres into the
// periodic cell: the end of both steps.
func (s *System) advanceWalls(h float64) {
	for k := range s.Planes {
		p := &s.Planes[k]
		for d := 0; d < 3; d++ {
			p.P[d] += h * p.V[d]
		}
	}
	s.wrapPeriodic()
}

// sortEvery reorders the spheres by cell when every (0: DefaultSortEvery)
// steps have passed since the last reorder.
func (s *System) sortEvery(every int, h float64) {
	if every == 0 {
		every = DefaultSortEvery
	}
	if s.stepsSinceOrder%every == 0 {
		s.sortByCell(h)
	}
	s.stepsSinceOrder++
}

func (s *System) kickChunk(h float64) func(_, lo, hi int) {
	w := &s.work
	w.h = h
	if w.fKick == nil {
		w.fKick = func(_, lo, hi int) {
			g := s.Gravity
			hh := s.work.h
			for i := lo; i < hi; i++ {
				v := s.VW[6*i : 6*i+3]
				v[0] += hh * g[0]
				v[1] += hh * g[1]
				v[2] += hh * g[2]
			}
		}
	}
	return w.fKick
}

// driftChunk: x′ = x + h v, ϕ′ = (ϕ + h Q(ϕ)ω)/‖·‖, Q(ϕ)ω = ½(0, ω) ⊗ ϕ.
func (s *System) driftChunk(h float64) func(_, lo, hi int) {
	w := &s.work
	w.h = h
	if w.fDrift == nil {
		w.fDrift = func(_, lo, hi int) {
			hh := s.work.h
			for i := lo; i < hi; i++ {
				x, q, vw := s.X[3*i:3*i+3], s.Q[4*i:4*i+4], s.VW[6*i:6*i+6]
				x[0] += hh * vw[0]
				x[1] += hh * vw[1]
				x[2] += hh * vw[2]
				a, b, c := 0.5*hh*vw[3], 0.5*hh*vw[4], 0.5*hh*vw[5]
				qw, qx, qy, qz := q[0], q[1], q[2], q[3]
				nw := qw - a*qx - b*qy - c*qz
				nx := qx + a*qw + b*qz - c*qy
				ny := qy - a*qz + b*qw + c*qx
				nz := qz + a*qy - b*qx + c*qw
				l := 1 / math.Sqrt(nw*nw+nx*nx+ny*ny+nz*nz)
				q[0], q[1], q[2], q[3] = nw*l, nx*l, ny*l, nz*l
			}
		}
	}
	return w.fDrift
}

// contact is one contact of a step: sphere i and sphere j, or wall −1−j
// (planes, then boxes, then cylinders), with the unit normal n from j to i,
// tangent t (o = n × t completes the right-handed frame) and the known
// normal relative velocity rel (the gap term and the wall's velocity
// along n): 64 bytes. The lever arms are −r_i n on i and r_j n on j
// (System.radii); the known tangential relative velocities follow from
// the wall's velocity (System.relTangent). What only the NBGS sweeps use
// (the block, the impulse) is in their own side array (nbgsRec), which no
// other law allocates.
type contact struct {
	i, j int32
	n, t [3]float64 // o = n × t is recomputed where needed
	rel  float64
}

// relTangent returns contact c's known tangential relative velocities
// along t and o = n × t: −t·w and −o·w for a wall of velocity w (a
// plane's V, zero for boxes and cylinders), 0 for a sphere pair — as the
// broad phase computed them (wall), from the velocity the walls keep
// through the step (they change it only between steps).
func (s *System) relTangent(c *contact) (float64, float64) {
	if c.j >= 0 {
		return 0, 0
	}
	var vw [3]float64
	if k := int(-1 - c.j); k < len(s.Planes) {
		vw = s.Planes[k].V
	}
	return -dot(c.t, vw), -dot(cross(c.n, c.t), vw)
}

// radii returns the radii of contact c's spheres, r_j = 0 for a wall.
func (s *System) radii(c *contact) (ri, rj float64) {
	if c.j >= 0 {
		rj = s.R[c.j]
	}
	return s.R[c.i], rj
}

// workspace holds everything a step reuses.
type workspace struct {
	h                  float64
	fKick, fDrift      func(_, lo, hi int)
	fPairs, fWalls     func(w, lo, hi int)
	con                []contact
	conGen             uint64     // changes whenever con is replaced or reordered (nbgsRec)
	cbuf               []contact  // canonicalize's copy of con
	ckeys              []canonKey // canonicalize's sort keys
	npair              int
	maxPen, maxWallPen float64
	margin, eps        float64
	marginSet          float64 // SetMargin: the broad-phase margin of the next detections (0: own)

	// scr is the storage of the step's phases that are never live
	// together (scratch.Arena): the broad phase's grid (key, cellStart,
	// order, perm) with sortByCell's permutation buffers or detect's xp
	// (when xpScratch), then splitIslands' union–find (islandSet's
	// parent, id, conIsl); each of those phases begins with scr.Reset and
	// drops its slices at its end (dropGrid), so that none keeps an
	// outgrown buffer alive.
	scr scratch.Arena

	// broad phase (key, cellStart, order, perm: in scr)
	lo         [3]float64
	cs         float64
	dims       [3]int
	key        []int32
	cellStart  []int32
	order      []int32
	chunkCon   [][]contact // per range: its contacts (regions of con, see conRegions)
	chunkMax   [2][]int    // per phase (pairs, walls) and range: the most contacts it found
	chunkAt    []int       // per range: where its region of con starts
	chunkPen   []float64
	perm       []int32
	periodic   [2]bool
	stencilOff [13][3]int

	nb     nbgsWork
	sweep  sweepWork      // Sweep (decompose.go)
	nbCorr sim.Correction // Config.Correction without its search

	// collision integrator (StepImpact)
	alg4        bool // detect at the free-flight prediction (Alg. 4)
	fFlight     func(_, lo, hi int)
	xp          []float64           // the free-flight prediction of the centres (in scr when xpScratch, else xpOwn)
	xpOwn       []float64           // xp's own storage, for a step whose position correction reads it
	xpScratch   bool                // this detection's xp is not read after it (StepImpact without correction): in scr
	fPredict    func(k, lo, hi int) // the prediction and the bounds (detect)
	bounds      []sphereBounds      // per range of fPredict
	fKeys       func(_, lo, hi int) // the spheres' cells (gridIn)
	isl         islandSet
	iw          []islandWork // per worker, then the pooled law
	law         Law
	lawMu       float64
	lawSet      bool
	lawPool     *par.Pool
	lawColourAt int
	moving      bool
	v0          float64
	fIsland     func(w, i int)
	fUnion      func(_, lo, hi int) // splitIslands' unions of the sphere pairs
	fRoots      func(_, lo, hi int) // splitIslands' roots of the contacts
	bigAt       int                 // overrides bigIsland (tests; 0: the constant)
	storedD     bool                // tests: store the tangent columns (p.D) for every law
	keepV       bool                // tests: GR's ṽ is not lent to Alg. 3's QP solve (lawInstance.keepV)
	storedG     bool                // tests: store the normal columns (p.G) for every law
	freeG       bool                // the law reads G matrix-free (mech.MatrixFreeG); set by prepareLaws
	storedRel   bool                // tests: store the known relative velocities (p.NRel, p.DRel) for every law
	freeRel     bool                // the law reads NRel, DRel matrix-free (mech.MatrixFreeRel); set by prepareLaws
	colourAt    int                 // the boxed LCP's ColourFrom (tests; 0: its default)

	// periodic sides: per-direction cell sizes of the broad phase, and
	// whether a periodic side is shorter than three cells
	csd     [3]float64
	gridErr error

	// the closed active set (ImpactConfig.ActiveRounds); last, so that the
	// fields every step reads keep their places
	xpRounds    []float64 // storage of the rounds' prediction
	xpRound     bool      // xp is StepImpact's (xpRounds), not detect's own
	later       bool      // a later round: the previous round's set stays (roundSet)
	roundStart  []int32   // the previous round's contacts by sphere (roundSet)
	roundAdj    []int32
	roundMargin float64   // the largest broad-phase margin of the step's earlier rounds
	vStart      []float64 // the step's v, from which every round's solve starts
}

// grid sets up the broad-phase grid for cell size cs over the spheres'
// bounding box, or over the period of a periodic direction (its length
// divided into whole cells no smaller than cs); the number of cells is kept
// below 4N + 64 by enlarging cs.
//
// It begins a phase of the workspace's arena (scr): the grid's arrays are
// the first taken.
func (s *System) grid(cs float64) {
	s.work.scr.Reset()
	var b sphereBounds
	b.reset()
	b.add(s, 0, s.N())
	s.gridIn(cs, b.lo, b.hi, false)
}

// sphereBounds is what detect needs of all the spheres before its grid:
// the bounding box of the centres, the largest |v|² and the largest
// radius (maxima and minima, which do not depend on the order they are
// taken in).
type sphereBounds struct {
	lo, hi [3]float64
	v2, r  float64
}

func (b *sphereBounds) reset() {
	*b = sphereBounds{lo: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, hi: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
}

// add takes the spheres [lo, hi) into b.
func (b *sphereBounds) add(s *System, lo, hi int) {
	for i := lo; i < hi; i++ {
		for d := 0; d < 3; d++ {
			b.lo[d] = math.Min(b.lo[d], s.X[3*i+d])
			b.hi[d] = math.Max(b.hi[d], s.X[3*i+d])
		}
		v := s.VW[6*i : 6*i+3]
		b.v2 = math.Max(b.v2, v[0]*v[0]+v[1]*v[1]+v[2]*v[2])
		b.r = math.Max(b.r, s.R[i])
	}
}

// merge takes c into b.
func (b *sphereBounds) merge(c *sphereBounds) {
	for d := 0; d < 3; d++ {
		b.lo[d] = math.Min(b.lo[d], c.lo[d])
		b.hi[d] = math.Max(b.hi[d], c.hi[d])
	}
	b.v2 = math.Max(b.v2, c.v2)
	b.r = math.Max(b.r, c.r)
}

// gridIn is grid over the bounding box [lo, hi] of the centres, with the
// spheres' cells computed on the pool when pooled.
func (s *System) gridIn(cs float64, lo, hi [3]float64, pooled bool) {
	w := &s.work
	n := s.N()
	if n == 0 {
		lo, hi = [3]float64{}, [3]float64{}
	}
	w.gridErr = nil
	for {
		cells := 1
		for d := 0; d < 3; d++ {
			if l := s.period(d); l > 0 {
				lo[d] = s.Periodic.Lo[d]
				w.dims[d] = max(1, int(l/cs))
				w.csd[d] = l / float64(w.dims[d])
			} else {
				w.dims[d] = int((hi[d]-lo[d])/cs) + 1
				w.csd[d] = cs
			}
			cells *= w.dims[d]
		}
		if cells <= 4*n+64 {
			break
		}
		cs *= math.Cbrt(float64(cells) / float64(4*n+64))
	}
	for d := 0; d < 2; d++ {
		if s.period(d) > 0 && w.dims[d] < 3 {
			w.gridErr = fmt.Errorf("spheres: periodic length %g along %c holds %d broad-phase cells of %g (2 r_max + the step's reach); want at least 3 (a longer period or a smaller step)",
				s.period(d), 'x'+d, w.dims[d], cs)
		}
	}
	w.lo, w.cs = lo, cs
	w.periodic = [2]bool{s.period(0) > 0, s.period(1) > 0}
	ny, nz := w.dims[1], w.dims[2]
	k := 0
	for dx := 0; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				if dx == 0 && (dy < 0 || dy == 0 && dz <= 0) {
					continue
				}
				w.stencilOff[k] = [3]int{dx, dy, dz}
				k++
			}
		}
	}
	// counting sort of the spheres by cell, stable in index order
	cells := w.dims[0] * ny * nz
	w.key = w.scr.Int32s(n)
	w.cellStart = w.scr.Int32s(cells + 1)
	clear(w.cellStart)
	if w.fKeys == nil {
		w.fKeys = func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				s.work.key[i] = int32(s.cellOf(i))
			}
		}
	}
	if pooled {
		s.pool.For(n, 4096, w.fKeys)
	} else {
		w.fKeys(0, 0, n)
	}
	for _, c := range w.key[:n] {
		w.cellStart[c+1]++
	}
	for c := 0; c < cells; c++ {
		w.cellStart[c+1] += w.cellStart[c]
	}
	w.order = w.scr.Int32s(n)
	// fill with a running cursor per cell (reuse perm as cursors)
	w.perm = w.scr.Int32s(cells)
	copy(w.perm, w.cellStart[:cells])
	for i := 0; i < n; i++ {
		c := w.key[i]
		w.order[w.perm[c]] = int32(i)
		w.perm[c]++
	}
}

// dropGrid forgets the grid's arrays (in scr) at the end of the phase that
// built them.
func (w *workspace) dropGrid() { w.key, w.cellStart, w.order, w.perm = nil, nil, nil, nil }

func (s *System) cellOf(i int) int {
	w := &s.work
	var c [3]int
	for d := 0; d < 3; d++ {
		c[d] = min(w.dims[d]-1, max(0, int((s.X[3*i+d]-w.lo[d])/w.csd[d])))
	}
	return (c[0]*w.dims[1]+c[1])*w.dims[2] + c[2]
}

func growI32(s []int32, n int) []int32 { return grow(s, n) }

// grow returns s with length n, reallocated (with a quarter to spare) only
// when its capacity is short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// maxRadius returns the largest radius.
func (s *System) maxRadius() float64 {
	r := 0.0
	for _, x := range s.R {
		r = math.Max(r, x)
	}
	return r
}

// sortByCell reorders the spheres by grid cell (stable), so that spheres
// near in space are near in memory and in index (the domains of the
// sweeps are index ranges).
func (s *System) sortByCell(h float64) {
	n := s.N()
	if n == 0 {
		return
	}
	w := &s.work
	s.grid(2*s.maxRadius() + s.margin(h))
	// permutation: new slot k holds old sphere order[k]; one component
	// at a time, so the buffer holds n numbers, not 6n
	permF := w.scr.Floats(n) // after the grid's arrays (scr)
	reorder := func(a []float64, k int) {
		for c := 0; c < k; c++ {
			for m := 0; m < n; m++ {
				permF[m] = a[k*int(w.order[m])+c]
			}
			for m := 0; m < n; m++ {
				a[k*m+c] = permF[m]
			}
		}
	}
	reorder(s.X, 3)
	reorder(s.Q, 4)
	reorder(s.VW, 6)
	reorder(s.R, 1)
	reorder(s.InvM, 1)
	reorder(s.InvI, 1)
	permI := w.scr.Int64s(n)
	for m := 0; m < n; m++ {
		permI[m] = s.ID[w.order[m]]
	}
	copy(s.ID, permI)
	w.dropGrid()
}

func growF(s []float64, n int) []float64 { return grow(s, n) }

// margin returns the distance two spheres (or a sphere and a wall) can
// close within a step h: h·(2 max|v| + max|V_wall|), and for StepImpact,
// whose velocities have not had gravity's kick, ½h²|g| more (with a
// relative 10⁻⁹ to spare, so that no contact at the prediction falls
// outside the broad phase by rounding).
func (s *System) margin(h float64) float64 {
	vmax := 0.0
	for i := range s.R {
		v := s.VW[6*i : 6*i+3]
		vmax = math.Max(vmax, v[0]*v[0]+v[1]*v[1]+v[2]*v[2])
	}
	return s.marginFor(h, vmax)
}

// marginFor is margin with the largest |v|² of the spheres given.
func (s *System) marginFor(h, vmax float64) float64 {
	wmax := 0.0
	for _, p := range s.Planes {
		wmax = math.Max(wmax, p.V[0]*p.V[0]+p.V[1]*p.V[1]+p.V[2]*p.V[2])
	}
	m := h * (2*math.Sqrt(vmax) + math.Sqrt(wmax))
	if s.work.alg4 {
		g := s.Gravity
		m = (m + 0.5*h*h*math.Sqrt(g[0]*g[0]+g[1]*g[1]+g[2]*g[2])) * (1 + 1e-9)
	}
	return m
}

// detect finds the contacts of the step at the current positions: sphere
// pairs and sphere–wall pairs whose gap ξ is below the distance the step
// can close (a penetrating pair always counts), in a deterministic order —
// pairs by the grid cell of their first sphere, then walls by sphere index.
func (s *System) detect(h, eps float64) {
	w := &s.work
	n := s.N()
	w.eps, w.h = eps, h
	// a phase of scr: xp (when nothing reads it after the step's
	// detection), then the grid's arrays
	w.scr.Reset()
	// one pass of the pool over the spheres: the prediction (StepImpact)
	// and the bounds of the margin and the grid, by ranges
	if w.alg4 && w.xpScratch {
		w.xp = w.scr.Floats(3 * n)
	} else if w.alg4 && w.xpRound {
		// a round of the closed active set: xp is its own (xpRounds)
	} else if w.alg4 {
		w.xpOwn = growF(w.xpOwn, 3*n)
		w.xp = w.xpOwn
	}
	if w.fPredict == nil {
		w.fPredict = func(k, lo, hi int) {
			if s.work.alg4 {
				for i := lo; i < hi; i++ {
					p := s.predicted(i)
					copy(s.work.xp[3*i:3*i+3], p[:])
				}
			}
			b := &s.work.bounds[k]
			b.reset()
			b.add(s, lo, hi)
		}
	}
	nb := s.pool.Chunks(n, 4096)
	w.bounds = grow(w.bounds, nb)
	s.pool.For(n, 4096, w.fPredict)
	var b sphereBounds
	b.reset()
	for k := range w.bounds[:nb] {
		b.merge(&w.bounds[k])
	}
	w.margin = s.marginFor(h, b.v2)
	if w.marginSet > 0 {
		w.margin = w.marginSet
	}
	if w.alg4 && w.later {
		// a later round of the closed active set: the previous round's
		// pairs must stay candidates
		w.margin = max(w.margin, w.roundMargin)
	}
	s.gridIn(2*b.r+w.margin, b.lo, b.hi, true)
	cells := w.dims[0] * w.dims[1] * w.dims[2]
	nch := s.pool.Chunks(cells, 256)
	if len(w.chunkCon) < nch {
		w.chunkCon = append(w.chunkCon, make([][]contact, nch-len(w.chunkCon))...)
	}
	w.chunkPen = growF(w.chunkPen, 2*max(nch, s.pool.Chunks(n, 1024)))
	clear(w.chunkPen)
	if w.fPairs == nil {
		w.fPairs, w.fWalls = s.pairChunk, s.wallChunk
	}
	// every range writes into its own region of con; the regions are
	// then closed up in range order (conRegions, closeRegions)
	w.con = w.con[:0]
	w.conGen++
	s.conRegions(0, nch)
	s.pool.For(cells, 256, w.fPairs)
	w.maxPen = 0
	for k := 0; k < nch; k++ {
		w.maxPen = math.Max(w.maxPen, w.chunkPen[2*k])
	}
	s.closeRegions(0, nch)
	w.npair = len(w.con)
	nw := s.pool.Chunks(n, 1024)
	if len(w.chunkCon) < nw {
		w.chunkCon = append(w.chunkCon, make([][]contact, nw-len(w.chunkCon))...)
	}
	clear(w.chunkPen)
	s.conRegions(1, nw)
	s.pool.For(n, 1024, w.fWalls)
	w.maxWallPen = 0
	for k := 0; k < nw; k++ {
		w.maxWallPen = math.Max(w.maxWallPen, w.chunkPen[2*k+1])
	}
	s.closeRegions(1, nw)
	w.dropGrid()
	if w.xpScratch {
		w.xp = nil
	}
}

// conRegions gives each of the nr ranges of a detection phase (0: pairs,
// 1: walls) a region of con's storage after its len(con) contacts to
// append its contacts to (chunkCon[k], capacity-limited): the most
// contacts the range has found, an eighth and 64 more. The ranges write
// in place, so the step holds its contacts once, not once more in
// per-range buffers (the 60k layer: 10 MB less). A range that outgrows
// its region continues in storage of its own (append), and closeRegions
// copies it.
func (s *System) conRegions(phase, nr int) {
	w := &s.work
	mx := w.chunkMax[phase]
	if len(mx) < nr {
		mx = append(mx, make([]int, nr-len(mx))...)
		w.chunkMax[phase] = mx
	}
	at := len(w.con)
	need := at
	for k := 0; k < nr; k++ {
		need += regionSize(mx[k])
	}
	if phase == 0 {
		need = w.regionsNeed() // room for the walls too
	}
	if cap(w.con) < need {
		w.con = append(make([]contact, 0, max(need, w.regionsNeed())+need/8), w.con...)
	}
	w.chunkAt = grow(w.chunkAt, nr)
	for k := 0; k < nr; k++ {
		end := at + regionSize(mx[k])
		w.chunkCon[k], w.chunkAt[k] = w.con[at:at:end], at
		at = end
	}
}

// roomFor returns out with room for a sphere's contacts (growRoom) after
// done of a range's all spheres: unchanged while it has that room, which
// it always has when its region was sized from the range's history
// (conRegions); otherwise (the first detection, with no history, or a
// range that outgrew it) moved to storage of its own sized for the whole
// range at the rate so far, an eighth and growRoom more, so that the
// range's contacts are copied about once, not once per doubling of
// append (the first step after --resume at the 60k landing: ≈ 38 MB of
// such garbage in ≈ 121,000 contacts).
func roomFor(out []contact, done, all int) []contact {
	if cap(out)-len(out) >= growRoom {
		return out
	}
	n := len(out)
	if done > 0 {
		n = int(float64(len(out)) * float64(all) / float64(done))
	}
	c := make([]contact, len(out), max(n+n/8, len(out))+growRoom)
	copy(c, out)
	return c
}

// growRoom is the room roomFor keeps for one sphere's contacts: a sphere
// has at most 12 touching neighbours of its size (more pairs within the
// margin are rare; append still grows the storage if they come).
const growRoom = 32

// regionSize is the size of a region for a range that found at most n
// contacts.
func regionSize(n int) int { return n + n/8 + 64 }

// regionsNeed returns the storage the regions of both detection phases
// take.
func (w *workspace) regionsNeed() int {
	need := 0
	for _, mx := range w.chunkMax {
		for _, n := range mx {
			need += regionSize(n)
		}
	}
	return need
}

// closeRegions appends the nr ranges' contacts (chunkCon, see conRegions)
// to con in range order, each moved down in place when it stayed in its
// region, and records the ranges' counts.
func (s *System) closeRegions(phase, nr int) {
	w := &s.work
	mx := w.chunkMax[phase]
	base := w.con[:cap(w.con)]
	inPlace, total := true, len(w.con)
	for k := 0; k < nr; k++ {
		r := w.chunkCon[k]
		mx[k] = max(mx[k], len(r))
		total += len(r)
		if &r[:1][0] != &base[w.chunkAt[k]] {
			inPlace = false // it outgrew its region
		}
	}
	if !inPlace {
		// sized for the next step's regions (each already an eighth and
		// 64 above its range's most), so that it does not grow again: no
		// eighth more on top (1.2 MB of the 60k landing's peak), a range
		// that outgrows its region still gets it (conRegions)
		need := max(total, w.regionsNeed())
		con := make([]contact, len(w.con), need)
		copy(con, w.con)
		for k := 0; k < nr; k++ {
			con = append(con, w.chunkCon[k]...)
		}
		w.con = con
	} else {
		for k := 0; k < nr; k++ {
			// down within con's storage (copy moves overlapping data)
			n0, r := len(w.con), w.chunkCon[k]
			w.con = w.con[:n0+len(r)]
			copy(w.con[n0:], r)
		}
	}
	for k := 0; k < nr; k++ {
		w.chunkCon[k] = nil
	}
}

// pairChunk finds the sphere pairs of cells [lo, hi).
func (s *System) pairChunk(ch, lo, hi int) {
	w := &s.work
	out := w.chunkCon[ch]
	pen := 0.0
	ny, nz := w.dims[1], w.dims[2]
	for c := lo; c < hi; c++ {
		a0, a1 := w.cellStart[c], w.cellStart[c+1]
		if a0 == a1 {
			continue
		}
		cx, cy, cz := c/(ny*nz), (c/nz)%ny, c%nz
		for ai := a0; ai < a1; ai++ {
			out = roomFor(out, int(ai-w.cellStart[lo]), int(w.cellStart[hi]-w.cellStart[lo]))
			i := int(w.order[ai])
			// same cell: later spheres only
			out, pen = s.pairs(out, pen, i, w.order[ai+1:a1])
			for _, off := range w.stencilOff {
				x, y, z := cx+off[0], cy+off[1], cz+off[2]
				if x >= w.dims[0] && w.periodic[0] {
					x -= w.dims[0]
				}
				if y < 0 && w.periodic[1] {
					y += ny
				} else if y >= ny && w.periodic[1] {
					y -= ny
				}
				if x >= w.dims[0] || y < 0 || y >= ny || z < 0 || z >= nz {
					continue
				}
				c2 := (x*ny+y)*nz + z
				out, pen = s.pairs(out, pen, i, w.order[w.cellStart[c2]:w.cellStart[c2+1]])
			}
		}
	}
	w.chunkCon[ch] = out
	w.chunkPen[2*ch] = pen
}

// pairs appends the contacts of sphere i with the spheres js (pair). For
// StepImpact it first rejects, in one tight loop, the candidates that do
// not overlap at the free-flight prediction, reading only their predicted
// centres: the image across a periodic side is taken from the predicted
// separation e instead of the current one d. The two choose the same image
// for every pair that can touch, so the same pairs are kept: |e − d| is
// at most the step's reach m, and a period holds at least three cells of
// 2 r_max + m (grid), so |e_a| ≤ r_i + r_j and |d_a| ≤ r_i + r_j + m stay
// below half a period, while a pair whose two separations straddle half
// a period is at least half a period − m > r_i + r_j apart at the
// prediction under either image. The kept pairs then go through pair,
// which computes their contact from the current centres as before.
func (s *System) pairs(out []contact, pen float64, i int, js []int32) ([]contact, float64) {
	w := &s.work
	if !w.alg4 || w.later {
		// Step, or a later round of the closed active set: pair tests every
		// candidate (and keeps the previous round's set). The later rounds
		// stay out of the loop below: a membership test in it, even never
		// taken, made the compiler reload the loop's registers from the
		// stack on every rejected candidate (+5 ms of detection a step on
		// the 60k landing, 1 worker)
		for _, j := range js {
			out, pen = s.pair(out, pen, i, int(j))
		}
		return out, pen
	}
	lx, ly := s.period(0), s.period(1)
	xp, r := w.xp, s.R
	pi := xp[3*i : 3*i+3 : 3*i+3]
	pi0, pi1, pi2, ri := pi[0], pi[1], pi[2], r[i]
	for _, j := range js {
		pj := xp[3*j : 3*j+3 : 3*j+3]
		e0, e1, e2 := pi0-pj[0], pi1-pj[1], pi2-pj[2]
		if lx > 0 {
			if e0 > 0.5*lx {
				e0 += -lx
			} else if e0 < -0.5*lx {
				e0 += lx
			}
		}
		if ly > 0 {
			if e1 > 0.5*ly {
				e1 += -ly
			} else if e1 < -0.5*ly {
				e1 += ly
			}
		}
		rr := ri + r[j]
		if e0*e0+e1*e1+e2*e2 > rr*rr {
			continue
		}
		out, pen = s.pair(out, pen, i, int(j))
	}
	return out, pen
}

// pair appends the contact of spheres i and j if their gap is below the
// step's margin (Step), or if they overlap at the free-flight prediction
// (StepImpact); across a periodic side the nearest image of j counts.
func (s *System) pair(out []contact, pen float64, i, j int) ([]contact, float64) {
	w := &s.work
	xi, xj := s.X[3*i:3*i+3], s.X[3*j:3*j+3]
	d := [3]float64{xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]}
	var shift [2]float64
	for a := 0; a < 2; a++ {
		if l := s.period(a); l > 0 {
			if d[a] > 0.5*l {
				shift[a] = -l
			} else if d[a] < -0.5*l {
				shift[a] = l
			}
			d[a] += shift[a]
		}
	}
	rr := s.R[i] + s.R[j]
	d2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
	if w.alg4 {
		// the prediction decides (the same image: a contact's reach is
		// far below half a period)
		pi, pj := w.xp[3*i:3*i+3], w.xp[3*j:3*j+3]
		e0, e1, e2 := pi[0]-pj[0]+shift[0], pi[1]-pj[1]+shift[1], pi[2]-pj[2]
		if e0*e0+e1*e1+e2*e2 > rr*rr && !(w.later && w.inRoundSet(int32(i), int32(j))) {
			return out, pen
		}
	} else if lim := rr + w.margin; d2 >= lim*lim {
		return out, pen
	}
	l := math.Sqrt(d2)
	if l == 0 {
		return out, pen // coincident centres: no normal
	}
	xi0 := l - rr
	if -xi0 > pen {
		pen = -xi0
	}
	n := [3]float64{d[0] / l, d[1] / l, d[2] / l}
	t, _ := tangents(n)
	c := contact{i: int32(i), j: int32(j), n: n, t: t}
	if !w.alg4 {
		c.rel = sim.GapVelocity(xi0, w.h, w.eps)
	}
	return append(out, c), pen
}

// wallChunk finds the wall contacts of spheres [lo, hi): those whose gap
// is below the step's margin (Step) or which touch the wall at the
// free-flight prediction, the wall advanced by the step (StepImpact).
func (s *System) wallChunk(ch, lo, hi int) {
	w := &s.work
	out := w.chunkCon[ch]
	pen := 0.0
	np, nb := len(s.Planes), len(s.Boxes)
	m := w.margin
	earlier := w.later // a later round of the closed active set
	for i := lo; i < hi; i++ {
		out = roomFor(out, i-lo, hi-lo)
		x := s.X[3*i : 3*i+3]
		r := s.R[i]
		var xp []float64
		if w.alg4 {
			xp = w.xp[3*i : 3*i+3]
		}
		for k := range s.Planes {
			pl := &s.Planes[k]
			// cheap test first: the signed distance along the normal
			d := pl.N[0]*(x[0]-pl.P[0]) + pl.N[1]*(x[1]-pl.P[1]) + pl.N[2]*(x[2]-pl.P[2])
			if d-r >= m {
				continue
			}
			if w.alg4 {
				h := w.h
				p1 := [3]float64{pl.P[0] + h*pl.V[0], pl.P[1] + h*pl.V[1], pl.P[2] + h*pl.V[2]}
				if pl.N[0]*(xp[0]-p1[0])+pl.N[1]*(xp[1]-p1[1])+pl.N[2]*(xp[2]-p1[2]) > r && !(earlier && w.inRoundSet(int32(i), int32(-1-k))) {
					continue
				}
			}
			out, pen = s.wall(out, pen, i, -1-k, d-r, pl.N, pl.V)
		}
		for k := range s.Boxes {
			bx := &s.Boxes[k]
			// outside the box grown by r + margin along some axis: no contact
			e := r + m
			if math.Abs(x[0]-bx.C[0]) >= bx.Half[0]+e || math.Abs(x[1]-bx.C[1]) >= bx.Half[1]+e || math.Abs(x[2]-bx.C[2]) >= bx.Half[2]+e {
				continue
			}
			d, n := bx.distance(x)
			if w.alg4 {
				if dp, _ := bx.distance(xp); dp > r && !(earlier && w.inRoundSet(int32(i), int32(-1-np-k))) {
					continue
				}
			} else if d-r >= m {
				continue
			}
			out, pen = s.wall(out, pen, i, -1-np-k, d-r, n, [3]float64{})
		}
		for k := range s.Cylinders {
			cy := &s.Cylinders[k]
			d, n := cy.distance(x)
			if w.alg4 {
				if dp, _ := cy.distance(xp); dp > r && !(earlier && w.inRoundSet(int32(i), int32(-1-np-nb-k))) {
					continue
				}
			} else if d-r >= m {
				continue
			}
			out, pen = s.wall(out, pen, i, -1-np-nb-k, d-r, n, [3]float64{})
		}
	}
	w.chunkCon[ch] = out
	w.chunkPen[2*ch+1] = pen
}

// wall appends the contact of sphere i with wall j (< 0) at gap xi, normal
// n (from the wall to the sphere) and wall velocity vw.
func (s *System) wall(out []contact, pen float64, i, j int, xi float64, n, vw [3]float64) ([]contact, float64) {
	w := &s.work
	if -xi > pen {
		pen = -xi
	}
	t, _ := tangents(n)
	c := contact{i: int32(i), j: int32(j), n: n, t: t}
	// relative velocity = sphere's − wall's: the wall's part is known
	gap := 0.0
	if !w.alg4 {
		gap = sim.GapVelocity(xi, w.h, w.eps)
	}
	c.rel = gap - dot(n, vw) // the tangential parts: relTangent
	return append(out, c), pen
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Contacts returns the number of contacts of the last step.
func (s *System) Contacts() int { return len(s.work.con) }

package spheres

import (
	"fmt"
	"math"
	"time"

	"impactsim/mech"
	"impactsim/sim"
)

// ImpactConfig says how StepImpact advances the system.
type ImpactConfig struct {
	// H is the time step (> 0).
	H float64
	// Law is the contact law solved on every island.
	Law Law
	// SortEvery reorders the spheres by grid cell every this many steps
	// (0: DefaultSortEvery), as Config.SortEvery.
	SortEvery int
	// Correction, when set, projects the centres out of penetration as
	// the last stage of every step (sim.Correction on the step's active
	// set, plus the contacts the step missed when Search > 0; velocities
	// and orientations untouched, bit for bit). Nil: Alg. 4 as published,
	// whose resting contacts sink by ½h²|g| per step.
	Correction *sim.Correction
	// Canonical puts the step's contacts in the order of the spheres' IDs
	// (canonical.go), so that the step does not depend on the arrays'
	// order or the broad-phase grid: a run decomposed over processes
	// (package domain) reproduces it bit for bit.
	Canonical bool
	// ActiveRounds, when above 1, closes the active set (package
	// documentation, "The closed active set"): after the law's solve the
	// step predicts the end-of-step centres with v⁺, and while a contact
	// outside the set touches there (or at an earlier round's prediction)
	// it solves the enlarged set again from the step's v, up to
	// ActiveRounds solves. At the cap the step goes on with the last
	// solve and ImpactStats.Open records it. 0 or 1: Alg. 4 as published,
	// one detection at the free-flight prediction.
	ActiveRounds int
	// RoundsContinue makes each of the closed set's later rounds start
	// from the last round's v⁺ instead of the step's v (package
	// documentation, "The closed active set"): the impulses already
	// applied stay and the contacts they drove together collide after
	// them, in the same step. Ignored unless ActiveRounds > 1.
	RoundsContinue bool
}

// Check validates the configuration.
func (c *ImpactConfig) Check() error {
	if err := checkStep(c.H, c.SortEvery); err != nil {
		return err
	}
	if err := c.checkRounds(); err != nil {
		return err
	}
	return c.Law.Check()
}

// checkRounds validates ActiveRounds and the options it excludes.
func (c *ImpactConfig) checkRounds() error {
	switch {
	case c.ActiveRounds < 0:
		return fmt.Errorf("spheres: ActiveRounds = %d, want ≥ 0", c.ActiveRounds)
	case c.ActiveRounds > 1 && c.Canonical:
		return fmt.Errorf("spheres: ActiveRounds = %d with Canonical: the closed active set is not supported in decomposed runs", c.ActiveRounds)
	case c.ActiveRounds > 1 && c.Correction != nil:
		return fmt.Errorf("spheres: ActiveRounds = %d with a position correction: choose one (the closed set leaves no missed sphere contacts for the correction's search)", c.ActiveRounds)
	}
	return nil
}

// ImpactStats describes one StepImpact.
type ImpactStats struct {
	Contacts     int // all contacts of the step
	PairContacts int // sphere–sphere contacts among them
	// Islands is the number of connected components of the contact graph
	// (spheres are nodes, sphere pairs edges; walls join nothing) and
	// LargestIsland the most contacts one of them has.
	Islands, LargestIsland int
	// MaxIslandIterations is the most outer iterations one island's
	// impact operator took (GR's reflections, QCE's sweeps).
	MaxIslandIterations int
	// MaxIslandSweeps is the most Gauss–Seidel sweeps one island's
	// coupled friction law took (friction.BoxedLCP; mech.Stats.Sweeps).
	MaxIslandSweeps int
	// Rounds is the number of solves of the law (1 unless
	// ImpactConfig.ActiveRounds closes the active set), and Open reports
	// a step whose set was still growing at the cap (contacts outside it
	// touch at the end of the step).
	Rounds int
	Open   bool
	// MaxPenetration is the largest overlap of two spheres (0 if none)
	// at the start of the step, MaxWallPenetration that of a sphere and a
	// wall.
	MaxPenetration, MaxWallPenetration float64
	// Law sums the islands' solver statistics (mech.Stats.Add).
	Law mech.Stats
	// Integrate (both free flights), Detect (broad and narrow phase,
	// islands) and Solve (the islands' solves and the velocity update) are
	// wall times; Impact and Friction are the time spent in the impact
	// operator and in the friction law, summed over the islands (CPU time
	// of the solves: with W workers up to W times Solve).
	Integrate, Detect, Solve time.Duration
	Impact, Friction         time.Duration
	// Correction records the position correction (ImpactConfig.Correction;
	// zero without it). Its Time is not part of Integrate, Detect or Solve.
	Correction sim.CorrectionStats
}

// StepImpact advances the system by one step of the collision integrator
// of Smith et al. (Alg. 4; package documentation): free-flight prediction,
// the active set at the prediction with normals at the current positions,
// the contact law on every island of the contact graph, and the free flight
// from the current positions with the new velocities. It does not allocate
// once its workspaces have grown to the problem's size. On error (a solver
// failed on an island) the positions are not advanced and the velocities
// of the islands solved before it are already updated.
func (s *System) StepImpact(c *ImpactConfig) (ImpactStats, error) {
	var st ImpactStats
	if err := checkStep(c.H, c.SortEvery); err != nil { // the law: prepareLaws
		return st, err
	}
	if err := c.checkRounds(); err != nil {
		return st, err
	}
	if err := s.checkPeriodic(); err != nil {
		return st, err
	}
	if err := s.prepareLaws(&c.Law); err != nil {
		return st, err
	}
	w := &s.work
	h := c.H
	t0 := time.Now()
	s.wrapPeriodic()
	s.sortEvery(c.SortEvery, h)
	t1 := time.Now()
	// Alg. 4 line 2: contacts active at the free-flight prediction,
	// evaluated at the current positions
	rounds := max(c.ActiveRounds, 1)
	w.alg4 = true
	w.xpScratch = c.Correction == nil && rounds == 1 // else the correction or a later round reads xp
	w.later, w.roundMargin = false, 0
	if rounds > 1 {
		if !c.RoundsContinue {
			w.vStart = growF(w.vStart, len(s.VW))
			copy(w.vStart, s.VW)
		}
		w.xpRounds = growF(w.xpRounds, 3*s.N())
		w.xp, w.xpRound = w.xpRounds, true
	}
	s.detect(h, 0)
	w.alg4, w.xpScratch = false, false
	if w.gridErr != nil {
		w.endRounds()
		return st, w.gridErr
	}
	if c.Canonical {
		s.canonicalize()
	}
	var detect, solve time.Duration
	t2 := time.Now()
	detect = t2.Sub(t1)
	var err error
	for {
		st.Contacts, st.PairContacts = len(w.con), w.npair
		st.MaxPenetration, st.MaxWallPenetration = w.maxPen, w.maxWallPen
		ts := time.Now()
		s.splitIslands()
		st.Islands = w.isl.n
		t := time.Now()
		detect += t.Sub(ts)
		err = s.solveIslands(&c.Law, &st)
		st.Rounds++
		solve += time.Since(t)
		if err != nil || rounds == 1 {
			break
		}
		// the closed active set: the contacts touching at the end of the
		// step (the prediction with v⁺) or at an earlier round's
		// prediction; a set that did not grow is closed
		ts = time.Now()
		done := len(w.con)
		s.roundSet()
		w.later = true
		w.roundMargin = max(w.roundMargin, w.margin)
		w.alg4 = true
		s.detect(h, 0)
		w.alg4 = false
		detect += time.Since(ts)
		if w.gridErr != nil {
			w.endRounds()
			return st, w.gridErr
		}
		if len(w.con) == done { // the sets only grow: the same set
			break
		}
		if st.Rounds == rounds {
			st.Open = true // the step goes on with the last solve
			break
		}
		if !c.RoundsContinue {
			copy(s.VW, w.vStart) // the law starts from the step's v again
		}
	}
	w.endRounds()
	t3 := time.Now()
	if err != nil {
		st.Integrate, st.Detect, st.Solve = t1.Sub(t0), detect, solve
		return st, err
	}
	// line 8: free flight from the current positions with v⁺
	s.pool.For(s.N(), 4096, s.freeFlightChunk(h))
	s.advanceWalls(h)
	t4 := time.Now()
	st.Integrate = t1.Sub(t0) + t4.Sub(t3)
	st.Detect = detect
	st.Solve = solve
	// last stage: the position correction on the active set (normals at
	// the step's start, as the law used), gaps at the new centres, and
	// the contacts the prediction missed (the search starts from the
	// prediction x̃, where the active set was found)
	if err := s.setCorrection(c.Correction); err != nil {
		return st, err
	}
	if s.corr != nil {
		s.corr.k.Prepare(w.xp)
		st.Correction, err = s.correct()
		s.wrapPeriodic()
	}
	return st, err
}

// predicted returns the free-flight prediction x̃ = x + (h v + ½h² g) of
// sphere i's centre (translation under uniform gravity is exact; the
// arithmetic is rigid3d's, so both paths find the same active sets).
func (s *System) predicted(i int) [3]float64 {
	h := s.work.h
	hh := 0.5 * h * h
	x, v, g := s.X[3*i:3*i+3], s.VW[6*i:6*i+3], s.Gravity
	return [3]float64{x[0] + (h*v[0] + hh*g[0]), x[1] + (h*v[1] + hh*g[1]), x[2] + (h*v[2] + hh*g[2])}
}

// endRounds ends a step's rounds: no other detection (Step, the
// decomposed stages) may see its predictions.
func (w *workspace) endRounds() {
	w.xpRound, w.later, w.roundMargin = false, false, 0
}

// roundSet lists the active set's contacts by sphere (roundStart,
// roundAdj: a sphere pair under both spheres, a wall, j < 0, under its
// sphere) for the next round's detection, which keeps them: the sets only
// grow, and a contact of this set is one that touches at this round's
// prediction or an earlier one, so the earlier predictions need not be
// tested again.
func (s *System) roundSet() {
	w := &s.work
	n := s.N()
	w.roundStart = growI32(w.roundStart, n+1)
	start := w.roundStart
	clear(start)
	for k := range w.con {
		c := &w.con[k]
		start[c.i+1]++
		if c.j >= 0 {
			start[c.j+1]++
		}
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	w.roundAdj = growI32(w.roundAdj, int(start[n]))
	adj := w.roundAdj
	for k := range w.con { // start[i] as sphere i's cursor
		c := &w.con[k]
		adj[start[c.i]] = c.j
		start[c.i]++
		if c.j >= 0 {
			adj[start[c.j]] = c.i
			start[c.j]++
		}
	}
	copy(start[1:], start[:n]) // each cursor ended at the next sphere's start
	start[0] = 0
}

// inRoundSet reports whether the previous round's set (roundSet) has a
// contact of sphere i with j (a sphere, or a wall if j < 0). Not inlined:
// its callers (pair, wallChunk) take it only in a later round, and
// inlined it grew their code on every step's path (pair by 21
// instructions).
//
//go:noinline
func (w *workspace) inRoundSet(i, j int32) bool {
	for _, k := range w.roundAdj[w.roundStart[i]:w.roundStart[i+1]] {
		if k == j {
			return true
		}
	}
	return false
}

// freeFlightChunk advances spheres [lo, hi) freely over h: x′ = x + (h v +
// ½h² g), v′ = v + h g, and the orientation by the discrete Moser–Veselov
// step (rigid3d's DMV integrator), which for a sphere (isotropic inertia)
// has the closed form below: ω is constant, and the orientation turns about
// ω by the Cayley vector c = a ω/|ω| with a = b(1 + a²), b = h|ω|/2, i.e.
// a = 2b/(1 + √(1 − 4b²)); ϕ′ = (1, c) ⊗ ϕ/√(1 + a²). For h|ω| > 1, where
// the Cayley equation has no real root, the sphere turns by the exact
// angle h|ω|.
func (s *System) freeFlightChunk(h float64) func(_, lo, hi int) {
	w := &s.work
	w.h = h
	if w.fFlight == nil {
		w.fFlight = func(_, lo, hi int) {
			hh := s.work.h
			h2 := 0.5 * hh * hh
			g := s.Gravity
			for i := lo; i < hi; i++ {
				x, q, vw := s.X[3*i:3*i+3], s.Q[4*i:4*i+4], s.VW[6*i:6*i+6]
				for d := 0; d < 3; d++ {
					x[d] += hh*vw[d] + h2*g[d]
					vw[d] += hh * g[d]
				}
				om := math.Sqrt(vw[3]*vw[3] + vw[4]*vw[4] + vw[5]*vw[5])
				if om == 0 {
					continue
				}
				b := 0.5 * hh * om
				var cw, k float64
				if 4*b*b <= 1 {
					a := 2 * b / (1 + math.Sqrt(1-4*b*b))
					cw, k = 1, a/om
				} else {
					cw, k = math.Cos(b), math.Sin(b)/om
				}
				cx, cy, cz := k*vw[3], k*vw[4], k*vw[5]
				qw, qx, qy, qz := q[0], q[1], q[2], q[3]
				nw := cw*qw - cx*qx - cy*qy - cz*qz
				nx := cw*qx + cx*qw + cy*qz - cz*qy
				ny := cw*qy - cx*qz + cy*qw + cz*qx
				nz := cw*qz + cx*qy - cy*qx + cz*qw
				l := 1 / math.Sqrt(nw*nw+nx*nx+ny*ny+nz*nz)
				q[0], q[1], q[2], q[3] = nw*l, nx*l, ny*l, nz*l
			}
		}
	}
	return w.fFlight
}

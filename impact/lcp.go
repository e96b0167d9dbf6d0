package impact

import (
	"fmt"
	"io"
	"slices"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/qp"
	"impactsim/scratch"
)

// lcpSolve is the shared kernel of LCP and GR: for the columns G of a
// problem, velocity v and restitution factors eps (εᵢ = 1 + cᵢ), it solves
//
//	min ½ ‖G y + ε∘p‖²_{M⁻¹}, y ≥ 0   ⇔   0 ≤ y ⊥ A y + ε∘(Gᵀv) ≥ 0
//
// (Alg. 1 line 2 and Alg. 2 line 13 of Smith et al. 2012) with A = GᵀM⁻¹G.
// The product form ε∘(Gᵀv) applies a per-contact restitution: the KKT
// conditions say ∇gᵢᵀv⁺ ≥ −cᵢ ∇gᵢᵀv, the Signorini–Fischera condition (3).
type lcpSolve struct {
	solver qp.Solver                 // worker 0's solver
	mk     func() (qp.Solver, error) // solvers for the other workers (nil: solver only)
	pool   *par.Pool
	isl    islands
	ws     []lcpWork // per worker
	big    []int     // islands of two or more contacts, largest first

	// arguments of the current call, for the island tasks
	g      mech.Normals
	minv   *mech.BlockDiag
	u, eps []float64
	// cor and cOver give εⱼ = 1 + cⱼ (cOver ≥ 0 overriding every cⱼ)
	// when eps is nil: GR and LCP keep no vector of factors.
	cor     []float64
	cOver   float64
	yOut    []float64
	fIsland func(w, i int)
	fSingle func(w, lo, hi int)
	single  []int // the columns that are islands of their own
	// colMap, when set, says that column j of the problem is column
	// colMap[j] of g, and bodies, u, eps and y are then indexed by g's
	// columns, with y accumulated (y[colMap[j]] += yⱼ): GR passes all
	// contacts, its violator indices and its running λ instead of copying
	// the violators' columns, bodies, velocities and factors.
	colMap []int
	// guess, when set (indexed by g's columns), is the islands' initial
	// guess (the position projection's previous working set).
	guess []float64
	// loose, when set (indexed by g's columns), records for each island
	// solved whether its solver stopped at a loose tolerance
	// (warmFirst.lastLoose).
	loose []bool
	// warm, when set, supplies the islands' initial guesses and records
	// this call's impulses for the next (Config.WarmStart).
	warm *warmStart
	// arena, when set, holds the island split's per-column arrays for
	// the call (GR.LendArena)
	arena  *scratch.Arena
	bodies []int
	self   *lcpSolve
	// per worker: a column of a matrix-free g (singles)
	colRows [][]int32
	colVals [][]float64
	// skipFeasible makes an island whose every bⱼ = εⱼuⱼ is ≥ 0 get
	// y = 0 (its exact solution) without assembling or solving it; the
	// position projection sets it (most islands of a pile have no
	// penetrating contact). With colMap nothing is added to y for it.
	skipFeasible bool
	// poolFrom, when positive, makes the islands of at least poolFrom
	// contacts be solved one at a time on the calling goroutine, with
	// their products A x by row ranges on the pool and the solver's
	// vector loops by blocks (qp.Sparse.SetPool), before the other islands
	// are spread over the pool (GR and LCP with Config.InteriorMax: the
	// islands that go to MPRGP first). The same bits for any pool.
	poolFrom  int
	bigSolver qp.Solver           // the solver of those islands (nil until needed)
	pa        mech.PooledDelassus // their matrix (ranges of 2048 rows)
	// keys, when set (indexed by g's columns; the position projection's
	// Projection.Keys, or the problem's mech.Problem.Keys for GR and LCP,
	// whose order the islands' columns follow), makes
	// an island whose problem is bitwise invariant under swapping its
	// contacts of equal keys in pairs (a mirror pair inside one island)
	// get the average of its solution and the swapped one (mirrorPairs).
	keys [][2]float64
}

// lcpWork is one worker's workspace for island solves.
type lcpWork struct {
	solver qp.Solver
	A      mech.Delassus
	sub    mech.Cols
	b      []float64
	y      []float64
	prob   qp.Problem
	res    qp.Result
	gidx   []int // island columns as columns of g (with colMap)
	perm   []int // mirrorPairs' swap
	maxK   int   // size of the largest island solved (for res.Method)
	pooled bool  // the island runs on the caller with the pool (poolFrom)
	errAt  int   // smallest island (position in big) that failed, −1 if none
	err    error // its error
}

// SetPool makes the kernel solve independent islands concurrently on the
// workers of pool (nil: one by one). Each island is solved by the same
// arithmetic whichever worker runs it, so the result is bitwise independent
// of the number of workers.
func (s *lcpSolve) setPool(pool *par.Pool) { s.pool = pool }

func (s *lcpSolve) workers() error {
	if s.self != s {
		s.self, s.fIsland, s.fSingle = s, s.island, s.singles
	}
	nw := s.pool.Workers()
	for len(s.colRows) < nw {
		s.colRows, s.colVals = append(s.colRows, nil), append(s.colVals, nil)
	}
	if s.mk == nil {
		nw = 1
	}
	for len(s.ws) < nw {
		w := lcpWork{solver: s.solver}
		if len(s.ws) > 0 {
			sv, err := s.mk()
			if err != nil {
				return err
			}
			w.solver = sv
		}
		s.ws = append(s.ws, w)
	}
	return nil
}

// solve writes y for columns g (bodies[2j], bodies[2j+1] touched by column
// j, nb bodies) island by island (with colMap: see there). It returns the summed iterations and the
// largest residual of the island solves as one solve of the operator, with
// the size and solver of the largest island.
func (s *lcpSolve) solve(g mech.Normals, minv *mech.BlockDiag, bodies []int, u, eps, y []float64) (mech.Stats, error) {
	m := g.NCols()
	if s.colMap != nil {
		m = len(s.colMap)
	}
	st := mech.Stats{Solves: 1, Largest: min(m, 1), Method: "scalar"}
	if err := s.workers(); err != nil {
		return st, err
	}
	s.isl.splitIn(m, minv.NumBlocks(), bodies, s.colMap, s.arena)
	s.g, s.minv, s.u, s.eps, s.yOut, s.bodies = g, minv, u, eps, y, bodies
	defer s.clearArgs()
	s.big = s.big[:0]
	s.single = s.single[:0]
	for c := 0; c < s.isl.n(); c++ {
		cols := s.isl.cols(c)
		if s.skipFeasible && s.feasible(cols) {
			if s.colMap == nil {
				for _, j := range cols {
					y[j] = 0
				}
			}
			continue
		}
		if len(cols) == 1 {
			s.single = append(s.single, cols[0])
			continue
		}
		s.big = append(s.big, c)
	}
	if s.warm != nil {
		s.warm.prepare(minv.NumBlocks())
	}
	s.pool.For(len(s.single), 2048, s.fSingle)
	if len(s.big) == 0 {
		if s.warm != nil {
			s.warm.record(&s.isl, s.colMap, bodies, minv.NumBlocks(), y)
		}
		return st, nil
	}
	// Largest islands first, so the workers finish together.
	slices.SortFunc(s.big, func(a, b int) int {
		if d := len(s.isl.cols(b)) - len(s.isl.cols(a)); d != 0 {
			return d
		}
		return a - b
	})
	nw := len(s.ws)
	if s.pool == nil || s.mk == nil {
		nw = 1
	} else {
		nw = min(nw, s.pool.Workers())
	}
	for w := range s.ws[:nw] {
		s.ws[w].res, s.ws[w].maxK, s.ws[w].errAt, s.ws[w].err = qp.Result{}, 0, -1, nil
	}
	all := s.big
	if s.poolFrom > 0 {
		// the largest islands, on the caller with the pool (s.big is
		// sorted largest first); a failure there is the first in order
		first := 0
		for first < len(all) && len(s.isl.cols(all[first])) >= s.poolFrom {
			first++
		}
		if first > 0 {
			if err := s.pooledSolver(); err != nil {
				return st, err
			}
			ws := &s.ws[0]
			own := ws.solver
			ws.solver, ws.pooled = s.bigSolver, true
			for i := 0; i < first && ws.errAt < 0; i++ {
				s.island(0, i)
			}
			ws.solver, ws.pooled = own, false
			if ws.errAt >= 0 {
				first = len(all)
			}
			s.big = all[first:]
		}
	}
	if nw == 1 {
		for i := range s.big {
			s.island(0, i)
		}
	} else {
		s.pool.Each(len(s.big), s.fIsland)
	}
	s.big = all
	var err error
	errAt := -1
	for w := range s.ws[:nw] {
		ws := &s.ws[w]
		st.SolverIterations += ws.res.Iterations
		st.Residual = max(st.Residual, ws.res.Residual)
		if ws.maxK > st.Largest {
			st.Largest, st.Method = ws.maxK, ws.res.Method
		}
		if ws.err != nil && (errAt < 0 || ws.errAt < errAt) {
			errAt, err = ws.errAt, ws.err
		}
	}
	if s.warm != nil && err == nil {
		s.warm.record(&s.isl, s.colMap, bodies, minv.NumBlocks(), y)
	}
	return st, err
}

// pooledSolver makes s.bigSolver, the solver of the islands of at least
// poolFrom contacts, and gives it and their matrix the pool.
func (s *lcpSolve) pooledSolver() error {
	if s.bigSolver == nil {
		sv := s.solver
		if s.mk != nil {
			var err error
			if sv, err = s.mk(); err != nil {
				return err
			}
		}
		s.bigSolver = sv
	}
	if ps, ok := s.bigSolver.(interface{ SetPool(*par.Pool) }); ok {
		ps.SetPool(s.pool)
	}
	s.pa.Pool = s.pool
	return nil
}

// epsAt returns the factor εⱼ = 1 + cⱼ of column j of g: eps[j], or from
// cor and cOver when eps is nil (the same sum).
func (s *lcpSolve) epsAt(j int) float64 {
	if s.eps != nil {
		return s.eps[j]
	}
	c := s.cor[j]
	if s.cOver >= 0 {
		c = s.cOver
	}
	return 1 + c
}

// feasible reports whether y = 0 solves the LCP of columns cols
// (every εⱼuⱼ ≥ 0).
func (s *lcpSolve) feasible(cols []int) bool {
	for _, j := range cols {
		if s.colMap != nil {
			j = s.colMap[j]
		}
		if s.epsAt(j)*s.u[j] < 0 {
			return false
		}
	}
	return true
}

func (s *lcpSolve) clearArgs() {
	s.g, s.minv, s.u, s.eps, s.yOut, s.bodies, s.cor = nil, nil, nil, nil, nil, nil, nil
}

// singles solves the one-contact islands s.single[lo:hi]: the LCP is
// scalar, y = max(0, −εu/A).
func (s *lcpSolve) singles(w, lo, hi int) {
	for _, j := range s.single[lo:hi] {
		gj := j
		if s.colMap != nil {
			gj = s.colMap[j]
		}
		var a float64
		if c, ok := s.g.(*mech.Cols); ok {
			a = mech.ColMInvNorm(c, gj, s.minv)
		} else {
			s.colRows[w], s.colVals[w] = s.g.AppendCol(gj, s.colRows[w][:0], s.colVals[w][:0])
			a = mech.EntriesMInvNorm(s.colRows[w], s.colVals[w], s.minv)
		}
		var y float64
		if bj := s.epsAt(gj) * s.u[gj]; bj < 0 && a > 0 {
			y = -bj / a
		}
		if s.colMap != nil {
			s.yOut[gj] += y
		} else {
			s.yOut[j] = y
		}
	}
}

// island solves island s.big[i] on worker w.
func (s *lcpSolve) island(w, i int) {
	ws := &s.ws[w]
	if ws.errAt >= 0 && ws.errAt < i {
		return
	}
	cols := s.isl.cols(s.big[i])
	k := len(cols)
	gcols := cols
	if s.colMap != nil {
		ws.gidx = growInt(ws.gidx, k)
		for a, j := range cols {
			ws.gidx[a] = s.colMap[j]
		}
		gcols = ws.gidx
	}
	mech.SubNormals(&ws.sub, s.g, s.minv.N(), gcols)
	ws.A.Assemble(&ws.sub, s.minv)
	ws.b = grow(ws.b, k)
	ws.y = grow(ws.y, k)
	for a, j := range gcols {
		ws.b[a] = s.epsAt(j) * s.u[j]
		ws.y[a] = 0
	}
	if s.warm != nil {
		s.warm.guess(s.bodies, s.minv.NumBlocks(), gcols, ws.y)
	} else if s.guess != nil {
		for a, j := range gcols {
			ws.y[a] = s.guess[j]
		}
	}
	ws.prob = qp.Problem{A: &ws.A, B: ws.b}
	if ws.pooled {
		s.pa.Delassus = &ws.A
		ws.prob.A = &s.pa
	}
	r, err := ws.solver.Solve(&ws.prob, ws.y)
	ws.res.Iterations += r.Iterations
	if k > ws.maxK {
		ws.maxK, ws.res.Method = k, r.Method
	}
	loose := false
	if s.loose != nil {
		if wf, ok := ws.solver.(*warmFirst); ok {
			loose = wf.lastLoose
		}
		for _, j := range gcols {
			s.loose[j] = loose
		}
	}
	if !loose {
		ws.res.Residual = max(ws.res.Residual, r.Residual)
	}
	if err != nil {
		if ws.errAt < 0 || i < ws.errAt {
			ws.errAt, ws.err = i, fmt.Errorf("island of %d contacts: %w", k, err)
		}
		return
	}
	if s.keys != nil {
		s.mirrorPairs(ws, gcols)
	}
	if s.colMap != nil {
		for a, j := range gcols {
			s.yOut[j] += ws.y[a]
		}
		return
	}
	for a, j := range cols {
		s.yOut[j] = ws.y[a]
	}
}

// mirrorPairs makes the solution ws.y of the island of columns gcols (in
// the order of s.keys) symmetric under the swap P of its columns of equal
// keys, when there are such pairs (runs of two; a longer run leaves it as
// it is) and the island's problem is bitwise invariant under P (b and
// every entry of A): both y and Py then solve the same QP to the solver's
// tolerance, and so does their average, which gives the two contacts of a
// pair the same bits. In a mirror-symmetric state a contact and its
// mirror image have equal keys; inside one island (one that spans the
// mirror axis) the QP solver treats them in different places of one
// sequence of operations, so their multipliers differ by rounding, which
// no order of the columns avoids.
func (s *lcpSolve) mirrorPairs(ws *lcpWork, gcols []int) {
	k := len(gcols)
	ws.perm = growInt(ws.perm, k)
	pairs := false
	for a := 0; a < k; {
		b := a + 1
		for b < k && s.keys[gcols[b]] == s.keys[gcols[a]] {
			b++
		}
		switch b - a {
		case 1:
			ws.perm[a] = a
		case 2:
			ws.perm[a], ws.perm[a+1] = a+1, a
			pairs = true
		default:
			return
		}
		a = b
	}
	if !pairs {
		return
	}
	for a := range k {
		if ws.b[ws.perm[a]] != ws.b[a] {
			return
		}
	}
	ptr, col, val := ws.A.Rows()
	for a := range k {
		for e := ptr[a]; e < ptr[a+1]; e++ {
			if ws.A.At(ws.perm[a], ws.perm[col[e]]) != val[e] {
				return
			}
		}
	}
	for a, p := range ws.perm[:k] {
		if p > a {
			m := 0.5*ws.y[a] + 0.5*ws.y[p]
			ws.y[a], ws.y[p] = m, m
		}
	}
}

// LCP is the Signorini–Fischera impact model (eq. 3) with Newton
// restitution cᵢ per contact, solved exactly as the equivalent convex QP. At
// c = 0 it is the maximally dissipative inelastic impact of Alg. 1.
type LCP struct {
	cfg Config
	// restitution overrides every cᵢ when ≥ 0 (GRR's inelastic part uses 0).
	restitution float64
	ker         lcpSolve
	warm        warmStart
	u           []float64
}

func newLCP(c Config) (*LCP, error) {
	s, err := c.solver()
	if err != nil {
		return nil, err
	}
	return &LCP{cfg: c, restitution: -1, ker: lcpSolve{solver: s, mk: c.solver, poolFrom: c.InteriorMax}}, nil
}

// NewLCP returns the LCP operator with the given QP solver name ("" = auto).
func NewLCP(solver string) (*LCP, error) { return newLCP(Config{Name: "lcp", Solver: solver}) }

// Name returns "lcp".
func (o *LCP) Name() string { return "lcp" }

// ReadsNormals implements mech.MatrixFreeG: LCP reads G only through
// Problem.Normals.
func (o *LCP) ReadsNormals() bool { return true }

// ReadsKnownRel implements mech.MatrixFreeRel: LCP reads NRel only
// through Problem.RelNormalVelocities.
func (o *LCP) ReadsKnownRel() bool { return true }

// Resolve solves (3) on all contacts of p.
func (o *LCP) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	m := p.NContacts()
	var st mech.Stats
	if m == 0 {
		if o.cfg.WarmStart {
			o.warm.skip()
		}
		return st, nil
	}
	o.u = grow(o.u, m)
	p.RelNormalVelocities(o.u, p.V)
	if o.cfg.WarmStart {
		o.ker.warm = &o.warm
	}
	o.ker.cor, o.ker.cOver = p.CoR, o.restitution // εᵢ = 1 + cᵢ, no vector of m
	// mirror pairs inside an island (mech.Problem.Keys)
	o.ker.keys = p.ContactKeys()
	st, err := o.ker.solve(p.Normals(), &p.MInv, p.Bodies, o.u, nil, lambda)
	o.ker.warm, o.ker.keys = nil, nil
	st.Iterations = 1
	if err != nil {
		return st, fmt.Errorf("impact: lcp on %d contacts: %w", m, err)
	}
	return st, nil
}

// SetPool makes LCP solve independent islands concurrently (see lcpSolve).
func (o *LCP) SetPool(pool *par.Pool) { o.ker.setPool(pool) }

// WriteWarmStart implements WarmStarter.
func (o *LCP) WriteWarmStart(w io.Writer) error { return o.warm.writeTo(w) }

// ReadWarmStart implements WarmStarter.
func (o *LCP) ReadWarmStart(data []byte) error { return o.warm.readFrom(data) }

// ResetWarmStart implements WarmStarter.
func (o *LCP) ResetWarmStart() { o.warm.reset() }

package impact

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/qp"
)

// Projection is the position projection (post-stabilization) of a
// problem's contacts: given their gaps g at positions q (negative:
// penetration) and the gradients G = [∇g₁ … ∇gₘ] and M⁻¹ of the problem,
// the smallest mass-weighted displacement that makes every linearized gap
// non-negative,
//
//	min ½ ΔqᵀMΔq   s.t.   gᵢ + ∇gᵢᵀΔq ≥ 0   (i = 1…m),             (P1)
//
// is Δq = M⁻¹Gμ with μ the solution of the dual
//
//	min ½ μᵀAμ + μᵀg, μ ≥ 0   ⇔   0 ≤ μ ⊥ Aμ + g ≥ 0,   A = GᵀM⁻¹G,  (P2)
//
// the LCP of Alg. 1 (inelastic impact) with the gaps in the place of the
// normal velocities Gᵀv: the same island splitter, Delassus assembly and
// exact QP solvers (qp.Auto by default), bitwise independent of the number
// of workers. Δq is unique (M is positive definite on the moving bodies)
// even where μ is not. The position correction of package sim
// (sim.Correction) iterates it with gaps re-evaluated after each
// displacement.
//
// Working set. In a pile every contact of the step is in one island of
// thousands, although few of them penetrate. Solve therefore starts from
// the contacts with gᵢ < Margin (the working set W) and solves (P2)
// restricted to W, island by island (islands of W whose gaps are all
// ≥ 0 get μ = 0 without a solve). A contact j outside W has μⱼ = 0, and
// the restricted solution solves (P2) exactly when every such j has
// wⱼ = gⱼ + ∇gⱼᵀΔq ≥ 0; the contacts that violate it join W and the
// islands of W that they join are solved again (from the multipliers
// found so far), until none does. Under the automatic solver choice an
// island of more than qp.DefaultDenseMax contacts solved again goes to
// MPRGP, which starts from those multipliers, instead of the
// interior-point method, which cannot (warmFirst; on a forming 100K pile
// islands of 10⁴–3·10⁴ contacts are solved again in each of 40–110 rounds
// a step). While W still grows, those re-solves stop at the KKT residual
// RoundTol (10⁻⁴) instead of MPRGP's full 10⁻¹⁰: a round's multipliers
// only decide which contacts join next. When no contact violates them,
// the islands last solved loosely are solved again to full tolerance from
// them, and any contact that violates that result joins as before; so
// Solve returns only when (P2) holds to the solvers' full tolerance, as
// without RoundTol. (On the 100K drop's step 551 this halves the
// correction's CPU time: 80 → 87 rounds, 58,360 → 46,865 MPRGP steps,
// 8.5–8.8 → 4.4–4.6 s.) The answer is
// (P2)'s, found on islands of the penetrating contacts and their near
// neighbours instead of the whole pile; W depends only on the values of g
// and Δq, so the result is still independent of the worker count (and of
// the contacts' order up to rounding).
type Projection struct {
	// Margin (a length ≥ 0) is the gap below which a contact starts in the
	// working set; 0: only the penetrating ones.
	Margin float64
	// RoundTol (≥ 0) is the KKT residual (qp.KKTResidual) to which an
	// island of more than qp.DefaultDenseMax contacts that is solved again
	// from the multipliers of an earlier round is solved while the working
	// set still grows (MPRGP under the automatic solver choice); 0: to the
	// solver's full tolerance in every round. NewProjection sets
	// DefaultRoundTol. Solve ends only after every island so solved has
	// been solved again to full tolerance and no contact outside the
	// working set violates the result, so the answer does not depend on
	// it (up to the full tolerance); only the work does.
	RoundTol float64
	// Keys, when set (one per contact of the problem), orders the working
	// set: it lists its contacts — hence every island its columns, as
	// islands keep their columns' relative order — by key (the first
	// value, then the second, then the index), and Gμ sums its terms in
	// that order; nil is the index order. Only the rounding depends on it:
	// keys that a mirror image of the state leaves unchanged
	// (sim.ContactKeyer; ball2d: height, then distance from the mirror
	// axis) make a mirror pair of islands the same QP, bit for bit; and
	// an island whose problem is bitwise invariant under swapping its
	// contacts of equal keys in pairs (one that spans the mirror axis)
	// gets the average of its solution and the swapped one, so the pairs
	// get the same bits (the solvers' tolerance holds for both).
	Keys [][2]float64

	ker  lcpSolve
	ones []float64
	// mode is shared with the island solvers (warmFirst): the residual of
	// the current round's loose solves (0: full tolerance); loose[j]
	// records whether the last solve of contact j's island was loose
	mode  *looseMode
	loose []bool
	// the working set: its columns, in order, and membership per column
	// (1: joined in the last round); r and dq hold Gμ and Δq = M⁻¹Gμ; isl
	// splits the working set, sub lists the columns of the islands to
	// solve again, guess their multipliers so far
	idx   []int
	in    []int8
	r, dq []float64
	isl   islands
	sub   []int
	guess []float64
	byKey []keyed // sortByKey's workspace
	tmp   []int   // rejoin's merge
}

// keyed is a contact with its Projection.Keys entry.
type keyed struct {
	k [2]float64
	j int
}

func keyedCmp(a, b keyed) int {
	if c := cmp.Compare(a.k[0], b.k[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(a.k[1], b.k[1]); c != 0 {
		return c
	}
	return cmp.Compare(a.j, b.j)
}

// sortByKey sorts the contacts list by Keys (nothing without them).
func (pr *Projection) sortByKey(list []int) {
	if pr.Keys == nil || len(list) < 2 {
		return
	}
	pr.byKey = pr.byKey[:0]
	for _, j := range list {
		pr.byKey = append(pr.byKey, keyed{pr.Keys[j], j})
	}
	slices.SortFunc(pr.byKey, keyedCmp)
	for a, e := range pr.byKey {
		list[a] = e.j
	}
}

// WorkingSet returns the contacts of the last Solve's working set, in its
// order (by Keys when set); μ is 0 outside it.
func (pr *Projection) WorkingSet() []int { return pr.idx }

// DefaultRoundTol is the default of Projection.RoundTol.
const DefaultRoundTol = 1e-4

// NewProjection returns the projection with the named QP solver
// (qp.New: auto, dense, sparse, interior; "" is auto).
func NewProjection(solver string) (*Projection, error) {
	c := Config{Name: "projection", Solver: solver}
	mk := c.solver
	mode := new(looseMode)
	if n := strings.ToLower(strings.TrimSpace(solver)); n == "" || n == qp.MethodAuto {
		mk = func() (qp.Solver, error) { return &warmFirst{warm: qp.Auto{InteriorMin: -1}, mode: mode}, nil }
	}
	s, err := mk()
	if err != nil {
		return nil, err
	}
	return &Projection{RoundTol: DefaultRoundTol, ker: lcpSolve{solver: s, mk: mk, skipFeasible: true}, mode: mode}, nil
}

// warmFirst is the projection's island solver under the automatic choice.
// An island of more than qp.DefaultDenseMax contacts that comes with a
// warm start — the multipliers of the working set's previous round, when
// contacts joined it (lcpSolve.guess) — goes to MPRGP (qp.Auto without
// its interior-point method), which starts from them; every other island,
// and one whose warm solve fails, goes to qp.Auto (the interior-point
// method for large islands, which cannot use a start). Both solve to
// their full tolerance: only the work differs (a forming 100K pile
// re-solves islands of 10⁴ contacts in each of 40–110 rounds a step) —
// except while mode.tol > 0 (Projection.RoundTol, in the working set's
// intermediate rounds), when the warm island goes to MPRGP with that
// tolerance first and lastLoose records it; Solve then solves it again
// to full tolerance before it returns.
type warmFirst struct {
	cold, warm qp.Auto
	loose      qp.Sparse
	y0         []float64
	mode       *looseMode
	lastLoose  bool
}

// looseMode is shared by a projection's island solvers: tol > 0 makes
// warm solves of large islands stop at that KKT residual (the working
// set's intermediate rounds).
type looseMode struct{ tol float64 }

// Solve implements qp.Solver.
func (s *warmFirst) Solve(p *qp.Problem, y []float64) (qp.Result, error) {
	s.lastLoose = false
	if len(y) <= qp.DefaultDenseMax || !slices.ContainsFunc(y, func(v float64) bool { return v != 0 }) {
		return s.cold.Solve(p, y)
	}
	s.y0 = append(s.y0[:0], y...)
	if s.mode != nil && s.mode.tol > 0 {
		s.loose.Tol = s.mode.tol
		r, err := s.loose.Solve(p, y)
		if err == nil {
			s.lastLoose = true
			return r, nil
		}
		copy(y, s.y0)
	}
	r, err := s.warm.Solve(p, y)
	if err == nil {
		return r, nil
	}
	copy(y, s.y0)
	rc, err := s.cold.Solve(p, y)
	rc.Iterations += r.Iterations
	return rc, err
}

// SetPool makes the projection solve independent islands concurrently on
// the workers of pool (nil: one by one); the result does not depend on it.
func (pr *Projection) SetPool(pool *par.Pool) { pr.ker.setPool(pool) }

// Solve writes the multipliers μ ≥ 0 of (P2) for the contacts of p (its
// G, MInv and Bodies; V, CoR, Mu, D and the known relative velocities are
// not read) and gaps gap (len m) into mu (len m). Stats.Solves is 1,
// Iterations the rounds of the working set (restricted solves);
// SolverIterations and Residual are those of the island solves. It does
// not allocate once its workspaces have grown.
func (pr *Projection) Solve(p *mech.Problem, gap, mu []float64) (mech.Stats, error) {
	if err := p.NeedStoredG("impact: projection"); err != nil {
		return mech.Stats{}, err
	}
	m := p.NContacts()
	if len(gap) != m || len(mu) != m {
		return mech.Stats{}, fmt.Errorf("impact: projection: %d gaps and %d multipliers for %d contacts", len(gap), len(mu), m)
	}
	if m == 0 {
		return mech.Stats{}, nil
	}
	if len(pr.ones) < m {
		pr.ones = grow(pr.ones, m)
		for i := range pr.ones {
			pr.ones[i] = 1
		}
	}
	if len(pr.in) < m {
		pr.in = make([]int8, m+m/4)
	}
	if pr.Keys != nil && len(pr.Keys) != m {
		return mech.Stats{}, fmt.Errorf("impact: projection: %d keys for %d contacts", len(pr.Keys), m)
	}
	in := pr.in[:m]
	pr.idx = pr.idx[:0]
	for j, g := range gap {
		in[j] = 0
		if g < pr.Margin {
			in[j] = 1
			pr.idx = append(pr.idx, j)
		}
	}
	pr.sortByKey(pr.idx)
	clear(mu)
	st := mech.Stats{Solves: 1}
	if pr.RoundTol < 0 || math.IsNaN(pr.RoundTol) {
		return st, fmt.Errorf("impact: projection: round tolerance %v, want ≥ 0", pr.RoundTol)
	}
	pr.ker.keys = pr.Keys
	defer func() { pr.ker.colMap, pr.ker.guess, pr.ker.loose, pr.ker.keys, pr.mode.tol = nil, nil, nil, nil, 0 }()
	if pr.RoundTol > 0 {
		if cap(pr.loose) < m {
			pr.loose = make([]bool, m, m+m/4)
		}
		pr.loose = pr.loose[:m]
		clear(pr.loose)
		pr.ker.loose = pr.loose
	}
	solve := pr.idx
	for round := 1; len(solve) > 0; round++ {
		pr.ker.colMap = solve
		st.Iterations = round
		rs, err := pr.ker.solve(&p.G, &p.MInv, p.Bodies, gap, pr.ones[:m], mu)
		st.SolverIterations += rs.SolverIterations
		st.Residual = max(st.Residual, rs.Residual)
		if rs.Largest > st.Largest {
			st.Largest, st.Method = rs.Largest, rs.Method
		}
		if err != nil {
			return st, fmt.Errorf("impact: position projection on %d contacts (%d in its working set, round %d): %w", m, len(pr.idx), round, err)
		}
		if len(pr.idx) < m && pr.expand(p, gap, mu, in) {
			pr.mode.tol = pr.RoundTol
			solve = pr.rejoin(p, mu, in)
			pr.ker.guess = pr.guess
			continue
		}
		if pr.RoundTol == 0 || !slices.Contains(pr.loose, true) {
			return st, nil
		}
		// No contact violates the multipliers found, but some islands were
		// solved to RoundTol only: they are solved again to full
		// tolerance from those multipliers, and contacts that violate the
		// result join as before.
		pr.mode.tol = 0
		pr.guess = grow(pr.guess, len(mu))
		pr.sub = pr.sub[:0]
		// (only the working set's islands are solved, loosely or not)
		for _, j := range pr.idx {
			if pr.loose[j] {
				pr.sub = append(pr.sub, j)
				pr.guess[j], mu[j] = mu[j], 0
			}
		}
		solve = pr.sub
		pr.ker.guess = pr.guess
	}
	return st, nil
}

// rejoin puts the contacts that joined the working set (in[j] = 2) into it
// (pr.idx, in[j] = 1, merged in the working set's order) and returns the
// columns of the working set's islands that hold one of them, in that
// order, with their multipliers moved from mu to pr.guess (mu is 0
// there). The other islands are those of the last round, solved.
func (pr *Projection) rejoin(p *mech.Problem, mu []float64, in []int8) []int {
	pr.sub = pr.sub[:0]
	for j, v := range in {
		if v == 2 {
			pr.sub = append(pr.sub, j)
		}
	}
	pr.sortByKey(pr.sub)
	pr.tmp = pr.tmp[:0]
	a, b := pr.idx, pr.sub
	for len(a) > 0 && len(b) > 0 {
		if pr.before(b[0], a[0]) {
			pr.tmp, b = append(pr.tmp, b[0]), b[1:]
		} else {
			pr.tmp, a = append(pr.tmp, a[0]), a[1:]
		}
	}
	pr.tmp = append(append(pr.tmp, a...), b...)
	pr.idx, pr.tmp = pr.tmp, pr.idx
	pr.isl.split(len(pr.idx), p.MInv.NumBlocks(), p.Bodies, pr.idx)
	pr.guess = grow(pr.guess, len(mu))
	for c := 0; c < pr.isl.n(); c++ {
		cols := pr.isl.cols(c)
		joined := false
		for _, k := range cols {
			if in[pr.idx[k]] == 2 {
				joined = true
				break
			}
		}
		if !joined {
			continue
		}
		for _, k := range cols {
			j := pr.idx[k]
			pr.guess[j], mu[j] = mu[j], 0
			in[j] = 3
		}
	}
	pr.sub = pr.sub[:0]
	for _, j := range pr.idx {
		if in[j] == 3 {
			pr.sub = append(pr.sub, j)
		}
		in[j] = 1
	}
	return pr.sub
}

// before reports whether contact i comes before contact j in the working
// set's order: by Keys when set, then by index.
func (pr *Projection) before(i, j int) bool {
	if pr.Keys != nil {
		return keyedCmp(keyed{pr.Keys[i], i}, keyed{pr.Keys[j], j}) < 0
	}
	return i < j
}

// expand marks (in[j] = 2) every contact outside the working set whose
// linearized gap gⱼ + ∇gⱼᵀΔq, Δq = M⁻¹Gμ, is negative, and reports
// whether there is one.
func (pr *Projection) expand(p *mech.Problem, gap, mu []float64, in []int8) bool {
	n := p.MInv.N()
	pr.r = grow(pr.r, n)
	pr.dq = grow(pr.dq, n)
	clear(pr.r)
	if pr.Keys != nil {
		// μ is 0 outside the working set
		p.G.AddMulVecIn(pr.r, mu, pr.idx)
	} else {
		p.G.AddMulVec(pr.r, mu)
	}
	p.MInv.MulVec(pr.dq, pr.r)
	added := false
	for j, g := range gap {
		if in[j] == 0 && g+p.G.ColDot(j, pr.dq) < 0 {
			in[j], added = 2, true
		}
	}
	return added
}

package friction

import (
	"fmt"
	"math"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
)

// BoxedLCP couples any normal impact operator with friction in a friction
// pyramid, the boxed-LCP scheme of eqs. (20)–(21) of Zhang et al. It is a
// contact law, not a friction.Operator: it changes the normal impulses too,
// so it implements sim.ContactLaw (Name and Solve) and is used in place of
// sim.Staggered.
//
// # Problem
//
// With u⁻ = Gᵀv⁻ + NRel (relative velocities: read Gᵀv as Gᵀv + NRel and
// dⱼᵀv as dⱼᵀv + DRelⱼ throughout), normal impulses λ (one per contact) and friction
// impulses β (one per column of D; every column j of contact k is an edge
// direction of the pyramid |βⱼ| ≤ μₖλₖ — in 2D the single tangent, in 3D
// the columns the system provides), and v = v⁻ + M⁻¹(Gλ + Dβ):
//
//	0 ≤ λ ⊥ Gᵀv − t ≥ 0                           (normal, eq. 19/21)
//	βⱼ = BLCP: −μₖλₖ ≤ βⱼ ≤ μₖλₖ with dⱼᵀv ≥ 0 at the
//	lower bound, ≤ 0 at the upper, = 0 strictly inside   (friction, eqs. 20–21)
//
// The normal target t carries the normal operator's restitution law: the
// operator is first run without friction, giving λ⁰ and v⁰ = v⁻ + M⁻¹Gλ⁰,
// and tᵢ = (Gᵀv⁰)ᵢ where λ⁰ᵢ > 0, tᵢ = 0 elsewhere. Then λ⁰ (β = 0)
// solves the normal problem, so at μ = 0 the law returns the operator's
// answer exactly; for the inelastic LCP, t = 0 and this is the classical
// LCP with a friction box; for QCE-LCP the targets of pushing contacts are
// eq. (19)'s restitution of QCE's velocity. (Eq. 21 with QCE-LCP gives
// every contact the target c·(Gᵀv_c⁺)ᵢ; we keep targets only where the
// frictionless answer pushes, so that a contact that separates freely is
// not pushed apart to keep a separation speed.)
//
// # Solver
//
// Starting from λ = λ⁰, β = 0, it sweeps the contacts in order; at each
// contact i it runs one projected Gauss–Seidel update of the normal
// impulse,
//
//	λᵢ ← max(0, λᵢ − (gᵢᵀv − tᵢ)/Aᵢᵢ),
//
// then one of each of its friction columns against the updated λᵢ,
//
//	βⱼ ← clamp(βⱼ − dⱼᵀv/(dⱼᵀM⁻¹dⱼ), −μᵢλᵢ, μᵢλᵢ),
//
// updating v incrementally after every coordinate, until a sweep
// changes no impulse by more than Tol·max(max|λ|, max|β|, s₀) (a relative
// tolerance, so the impulse units do not matter; s₀ = maxᵢ |uᵢ⁻|/Aᵢᵢ, the
// largest impulse that would stop one contact's approach alone, keeps it
// meaningful when the answer's impulses nearly vanish, as when a pile
// leaves a decelerating floor). At MaxIter sweeps it returns the
// last sweep's impulses and reports the capped solve in its Stats (Capped,
// CappedResidual = the relative change, CappedTol), as the Coulomb law
// does: the step goes on unless the stepper is strict. Each coordinate update is exact for its own scalar
// problem, so the fixed point satisfies both complementarity problems;
// momentum is conserved (every column is an equal-and-opposite pair), the
// impulses obey the pyramid, and friction does no positive work (βⱼ dⱼᵀv ≤ 0).
//
// Order of the updates. Zhang et al. alternate whole sweeps ("one PGS
// iteration on the first equation, followed by another PGS iteration on
// the second"), and so did this law until the blcp2 session. Both orders
// are Gauss–Seidel on the same coupled problem (21) and have the same
// fixed points; contact by contact, the sweep reads each contact's rows of
// v once (blcpPack: the columns packed contact by contact, the velocities
// of a contact's bodies gathered, updated and scattered back) and it
// needs fewer sweeps: on a 75-sphere pile (TestBoxedLCPPile) 530 against
// 650 (lcp) and 782 against 953 (qce), the two answers' velocities equal
// to 2·10⁻¹⁰ of the largest. Trajectories differ from the earlier order's
// within the tolerance. Stats.Sweeps counts the sweeps (also counted in
// Iterations, after the normal operator's own), Stats.Residual records the
// last sweep's relative change.
//
// Coloured sweep (problems of at least ColourFrom contacts, default
// 4096: package spheres' landing islands of 10⁴–10⁵ contacts). The sweep
// visits groups of contacts whose updates are independent
// (boxedlcp_colour.go): first the interiors of blocks of 8192 consecutive
// contacts (contacts all of whose bodies' rows are touched by that block
// only), each block in contact order, the blocks side by side; then the
// contacts on the blocks' borders, coloured greedily so that no two of one
// colour share a row of v (a sphere packing's borders need about 15
// colours), colour after colour. A pool (SetPool) runs the blocks on its
// workers and splits each colour over them; since no two contacts of a
// group touch the same rows, the impulses are bitwise the same for any
// number of workers. The groups are visited in a fixed order, so this is
// still Gauss–Seidel: another order than contact by contact (the blocks'
// interiors keep it), the same fixed points, the same stopping test,
// tolerance and cap. Because package spheres numbers contacts by place
// (cell-sorted detection), a block is a region of the layer and most of
// its contacts are interior, swept with the cache reuse of contact order
// (consecutive contacts share spheres); a colour's contacts never share
// one. The coloured sweep also sums each column's product in four partial
// sums and multiplies by the reciprocal of the diagonal (13 % less CPU
// per solve on a 3,237-contact pile); its answers differ from the
// contact-by-contact sweep's within the tolerance (TestBoxedLCPColoured:
// 1,320 against 1,309 sweeps on a 215-contact pile cut into blocks of 16,
// velocities equal to 1.2·10⁻⁸ of |v⁻| ≤ 173, both at tolerance 10⁻¹²).
//
// Compact form (boxedlcp_compact.go). When every contact has the shape
// of package spheres' islands — 6-DoF bodies with scalar M⁻¹ blocks, a
// normal (n, 0 | −n, 0) and two friction columns (t, −kᵢo | −t, −kⱼo),
// (o, kᵢt | −o, kⱼt) with o = n × t, the three M⁻¹-orthogonal — the sweep
// keeps per contact only the two bodies, their M⁻¹ scalars, n, t, kᵢ,
// kⱼ, the reciprocal diagonals, the known velocities, its impulses and μ
// (168 bytes, not the packed form's ≈ 650: no M⁻¹ images, no row lists;
// o and the moments are formed in the update), and, because the
// columns are M⁻¹-orthogonal (an update of one leaves the others'
// products unchanged), it forms the three products from the same
// velocities before the three updates and writes v once per contact.
// The same Gauss–Seidel steps, in the same order, with the same
// stopping test, tolerance and cap; the iterates differ from the packed
// form's by rounding only (TestBoxedLCPCompact: velocities equal to
// 3.5·10⁻¹⁴ of |v⁻| on a 215-contact pile, the same sweep counts). On a
// 3,237-contact sphere pile a solve costs 2.8 times less CPU
// (BenchmarkBoxedLCPPile -scaled against -scaled-packed); on the 60k
// layer's landing the process's CPU halves (BENCHMARKS.md, qcesweep), and
// the 168-byte record (qcespeed; 288 bytes before, the three columns
// stored whole) takes 3–4 % more off it.
// Other problems are packed as before.
//
// Local sweeps (LocalSweeps, on compact problems swept by colours). Late
// in a solve on a landing island few contacts still change: on the 60k
// layer's landing, after 200–300 sweeps, tens to hundreds of 45,887
// contacts change by more than the stopping test's bound per sweep, and
// the solves that reach the cap do so on about 20 of them. So after a
// full sweep that does not end the solve, if at most an eighth of the
// contacts changed by more than the bound, up to LocalSweeps (default
// 20) sweeps run over those contacts and the contacts that share a
// body with them, in sweep order on the calling goroutine, until one of
// them changes nothing by more than the bound. These are Gauss–Seidel
// steps too (more of them on some contacts): the same fixed points; the
// stopping test is still the full sweep's, at the same tolerance, and
// the cap counts full sweeps. The answer does not depend on the pool
// (the list depends on the full sweep's changes only). On the 60k
// layer's landing window the full sweeps of the 18 big solves fell from
// 9,979 to 2,400 (plus 10.6·10⁶ local contact updates, ≈ 300 sweeps'
// worth) and the capped solve converged (BENCHMARKS.md, qcespeed); on
// the 6×6×4 pile at tolerance 10⁻¹², 1,171 sweeps against 1,420
// (TestBoxedLCPLocal). LocalSweeps −1 keeps the plain compact sweep.
//
// # Energy
//
// K(v) − K(v⁻) = −½‖v − v⁻‖²_M + λᵀGᵀv + βᵀDᵀv = −½‖v − v⁻‖²_M + λᵀt + βᵀDᵀv.
// With zero targets (the inelastic LCP) the law is dissipative. With
// positive targets (elastic operators) λᵀt > 0 and, when friction couples
// contacts through shared bodies, the normal impulses that restore the
// targets can add energy: on random 3×3 patches with qce at c = 1 we
// measure gains of up to 16% (TestBoxedLCPConditions logs them). Zhang et
// al.'s remark that the LCP and BLCP parts keep the energy bounded does not
// hold for elastic targets.
type BoxedLCP struct {
	Normal impact.Operator
	// Tol is the convergence tolerance (0 = DefaultBoxedTol).
	Tol float64
	// MaxIter caps the sweeps (0 = DefaultBoxedMaxIter).
	MaxIter int
	// LocalSweeps is the most local sweeps after each full sweep of a
	// compact problem swept by colours (see Local sweeps above; 0:
	// DefaultLocalSweeps; < 0: none, the plain compact sweep).
	LocalSweeps  int
	localUpdates int // the local sweeps' contact updates in the last solve

	mg, md   mech.Cols // M⁻¹G and M⁻¹D
	t, v, sc []float64
	dg, dd   []float64 // diagonals gᵢᵀM⁻¹gᵢ and dⱼᵀM⁻¹dⱼ
	pack     blcpPack
	compact  blcpCompact
	// useCompact: the solve being run sweeps compact (blcpCompact);
	// noCompact (tests, benchmarks) keeps every problem packed.
	useCompact, noCompact bool

	// ColourFrom is the number of contacts from which a problem is swept
	// colour by colour (boxedlcp_colour.go; 0: DefaultColourFrom; < 0:
	// never); with a pool (SetPool) each colour's contacts are split over
	// its workers. The answer depends on the problem and ColourFrom only,
	// not on the pool.
	ColourFrom int
	pool       *par.Pool
	colours    blcpColours
	lam, bet   []float64 // the solve's λ and β, for the workers
	mu         []float64
	workers    []blcpWorker
	group      int // the colour being swept
	grain      int // fewest contacts per worker (tests; 0: colouredGrain)
	fGroup     func(w, lo, hi int)
	fBlock     func(w, b int)
}

// Defaults for BoxedLCP.
const (
	DefaultBoxedTol     = 1e-12
	DefaultBoxedMaxIter = 100000
	// DefaultColourFrom is BoxedLCP.ColourFrom's default: the size from
	// which package spheres solves an island on the whole pool.
	DefaultColourFrom = 4096
	// DefaultLocalSweeps is BoxedLCP.LocalSweeps's default.
	DefaultLocalSweeps = 20
	// localShare: local sweeps run when at most a localShare-th of the
	// contacts changed by more than the stopping test's bound.
	localShare = 8
)

// NewBoxedLCP returns the boxed-LCP law around the normal operator with
// default tolerance and cap.
func NewBoxedLCP(normal impact.Operator) *BoxedLCP { return &BoxedLCP{Normal: normal} }

// Name returns the normal operator's name with "+blcp".
func (o *BoxedLCP) Name() string { return o.Normal.Name() + "+blcp" }

// Solve writes λ (len m) and β (len D.NCols()) for p.
func (o *BoxedLCP) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	if err := p.NeedStoredD("friction: boxed LCP"); err != nil {
		return mech.Stats{}, err
	}
	if err := p.NeedStoredG("friction: boxed LCP"); err != nil {
		return mech.Stats{}, err
	}
	m, n, nd := p.NContacts(), p.NDof(), p.D.NCols()
	st, err := o.Normal.Resolve(p, lambda)
	if err != nil {
		return st, err
	}
	clear(beta[:nd])
	if m == 0 {
		return st, nil
	}
	frictional := false
	for j := 0; j < nd; j++ {
		if p.Mu[p.DContact[j]] > 0 {
			frictional = true
			break
		}
	}
	if !frictional {
		return st, nil
	}
	tol := o.Tol
	if tol == 0 {
		tol = DefaultBoxedTol
	}
	maxIter := o.MaxIter
	if maxIter == 0 {
		maxIter = DefaultBoxedMaxIter
	}
	if !(tol > 0) || maxIter < 0 {
		return st, fmt.Errorf("friction: blcp: invalid tolerance %v or cap %d", tol, maxIter)
	}
	lambda = lambda[:m]
	beta = beta[:nd]
	o.v = grow(o.v, n)
	o.sc = grow(o.sc, n)
	o.t = grow(o.t, m)
	p.ApplyImpulses(o.v, p.V, lambda, nil, o.sc)
	p.RelNormalVelocities(o.t, o.v)
	for i := range o.t {
		if lambda[i] <= 0 {
			o.t[i] = 0
		}
	}
	o.dg = grow(o.dg, m)
	o.dd = grow(o.dd, nd)
	k := &o.pack
	k.frictionColumns(p)
	coloured := m >= o.colourFrom()
	// A problem of the compact shape needs no M⁻¹ images (its colours
	// come from its bodies); if its columns turn out not to have the
	// compact form, it is coloured again from the images and packed.
	shape := !o.noCompact && compactShape(p)
	var order []int32
	if coloured && shape {
		o.colours.colour(p, nil, nil, k.fPtr, k.fCol)
		order = o.colours.order
	}
	o.useCompact = shape && o.compact.compactFrom(p, o.dg, o.dd, o.t, lambda, k.fPtr, k.fCol, order)
	if !o.useCompact {
		for i := range o.dg {
			o.dg[i] = mech.ColMInvNorm(&p.G, i, &p.MInv)
		}
		for j := range o.dd {
			o.dd[j] = mech.ColMInvNorm(&p.D, j, &p.MInv)
		}
		mech.MulMInvCols(&o.mg, &p.G, &p.MInv)
		mech.MulMInvCols(&o.md, &p.D, &p.MInv)
		if coloured {
			o.colours.colour(p, &o.mg, &o.md, k.fPtr, k.fCol)
			order = o.colours.order
		}
		k.build(p, &o.mg, &o.md, o.dg, o.dd, o.t, order)
	}
	// s₀: the impulse scale of the problem itself.
	var s0 float64
	for i := 0; i < m; i++ {
		if o.dg[i] > 0 {
			s0 = math.Max(s0, math.Abs(p.G.ColDot(i, p.V)+p.NRelAt(i))/o.dg[i])
		}
	}
	if coloured {
		o.prepareWorkers()
	}
	o.lam, o.bet, o.mu = lambda, beta, p.Mu
	o.localUpdates = 0
	local := o.useCompact && coloured && o.localSweeps() > 0
	o.compact.track = local
	if local {
		o.compact.prepareLocal(p.MInv.NumBlocks())
	}
	for iter := 1; ; iter++ {
		var change, scale float64
		if coloured {
			change, scale = o.colouredSweep(s0)
		} else {
			change, scale = o.relax(0, m, k.loc, s0, false)
		}
		st.Iterations++
		st.Sweeps++
		if o.useCompact && (math.IsNaN(change) || change <= tol*scale || iter >= maxIter) {
			o.compact.scatter(lambda, beta) // the impulses the sweeps kept in sweep order
		}
		if math.IsNaN(change) {
			return st, fmt.Errorf("friction: blcp: non-finite impulse at sweep %d", iter)
		}
		if change <= tol*scale {
			if scale > 0 {
				st.Residual = max(st.Residual, change/scale)
			}
			return st, nil
		}
		if iter >= maxIter {
			// A user-set cap, as the Coulomb law's: the step goes on with
			// the last sweep, and the Stats say so (sim.Stepper.Strict
			// makes it an error).
			st.Capped, st.CappedResidual, st.CappedTol, st.CappedIterations = 1, change/scale, tol, iter
			st.Residual = change / scale
			return st, nil
		}
		if local {
			o.localSweep(tol*scale, int32(iter))
			st.LocalUpdates = o.localUpdates
		}
	}
}

// localSweep runs, after a full sweep that did not end the solve, up to
// LocalSweeps sweeps over the contacts whose impulses that sweep changed
// by more than thr (the stopping test's bound) and the contacts that
// share a body with them, in sweep order, on the calling goroutine,
// until one of them changes no impulse by more than thr; nothing when
// more than a localShare-th of the contacts changed by more.
func (o *BoxedLCP) localSweep(thr float64, stamp int32) {
	k := &o.compact
	list := k.localList(thr, len(k.c)/localShare, stamp)
	if list == nil {
		return
	}
	for l := o.localSweeps(); l > 0; l-- {
		o.localUpdates += len(list)
		if c, _ := o.relaxCompact(0, len(list), list, 0); c <= thr {
			return
		}
	}
}

func (o *BoxedLCP) localSweeps() int {
	if o.LocalSweeps == 0 {
		return DefaultLocalSweeps
	}
	return max(o.LocalSweeps, 0)
}

// relax runs one sweep's coordinate updates of the contacts at positions
// [lo, hi) of the pack on v, with loc as the gathered velocities, and
// returns the largest impulse change and max(s, the largest impulse). The
// contacts' rows must not be touched by anyone else meanwhile. With split
// (the coloured sweep) the columns' products are summed in four
// interleaved partial sums (dotSplit) and the steps multiply by the
// reciprocal of the diagonal (packCol.step); else the products are summed
// in order (dot) and the steps divide, as before the coloured sweep.
func (o *BoxedLCP) relax(lo, hi int, loc []float64, s float64, split bool) (change, scale float64) {
	if o.useCompact {
		return o.relaxCompact(lo, hi, nil, s)
	}
	// The sweeps use the built-in max and min: math.Max and math.Min are
	// calls that were 21 % of the time on a 6,000-sphere landing, and the
	// built-ins give the same values (NaN and ±0 included).
	k := &o.pack
	lambda, beta, mu := o.lam, o.bet, o.mu
	scale = s
	for q := lo; q < hi; q++ {
		i := k.con[q]
		rows := k.rows[k.rowPtr[q]:k.rowPtr[q+1]]
		loc := loc[:len(rows)]
		for a, r := range rows {
			loc[a] = o.v[r]
		}
		cs := k.cols[k.colPtr[q]:k.colPtr[q+1]]
		// the normal column: λᵢ ← max(0, λᵢ − (gᵢᵀv + NRelᵢ − tᵢ)/Aᵢᵢ)
		c := &cs[0]
		g := k.val[c.off : c.off+c.ng]
		mc := k.val[c.off+c.ng : c.off+c.ng+c.nm]
		if c.diag > 0 {
			l := max(0, lambda[i]-c.step(dotBy(g, loc, split), split))
			if dl := l - lambda[i]; dl != 0 {
				axpy(loc, mc, dl)
				change = max(change, math.Abs(dl))
				lambda[i] = l
			}
			scale = max(scale, l)
		}
		// its friction columns against the new λᵢ:
		// βⱼ ← clamp(βⱼ − (dⱼᵀv + DRelⱼ)/(dⱼᵀM⁻¹dⱼ), ±μᵢλᵢ)
		hi := mu[i] * lambda[i]
		for f := 1; f < len(cs); f++ {
			c := &cs[f]
			j := c.j
			b := 0.0
			if c.diag > 0 && hi > 0 {
				d := k.val[c.off : c.off+c.ng]
				b = beta[j] - c.step(dotBy(d, loc, split), split)
				b = max(-hi, min(hi, b))
			}
			if db := b - beta[j]; db != 0 {
				axpy(loc, k.val[c.off+c.ng:c.off+c.ng+c.nm], db)
				change = max(change, math.Abs(db))
				beta[j] = b
			}
			scale = max(scale, math.Abs(b))
		}
		for a, r := range rows {
			o.v[r] = loc[a]
		}
	}
	return change, scale
}

// blcpWorker is one worker's part of a coloured sweep (padded so that
// workers do not share a cache line).
type blcpWorker struct {
	loc           []float64
	change, scale float64
	_             [64]byte
}

// SetPool makes the coloured sweeps (ColourFrom) split each colour over
// the workers of pool; the answer is the same for any pool.
func (o *BoxedLCP) SetPool(pool *par.Pool) { o.pool = pool }

func (o *BoxedLCP) colourFrom() int {
	switch {
	case o.ColourFrom == 0:
		return DefaultColourFrom
	case o.ColourFrom < 0:
		return math.MaxInt
	}
	return o.ColourFrom
}

// prepareWorkers sizes the workers' local buffers for the pack.
func (o *BoxedLCP) prepareWorkers() {
	nw := o.pool.Workers()
	if len(o.workers) < nw {
		o.workers = make([]blcpWorker, nw)
	}
	for w := range o.workers {
		o.workers[w].loc = grow(o.workers[w].loc, o.pack.maxRows)
	}
	if o.fGroup == nil {
		o.fGroup = func(w, lo, hi int) {
			at := int(o.colours.start[o.group])
			ws := &o.workers[w]
			c, s := o.relax(at+lo, at+hi, ws.loc, 0, true)
			ws.change, ws.scale = max(ws.change, c), max(ws.scale, s)
		}
		o.fBlock = func(w, b int) {
			ws := &o.workers[w]
			c, s := o.relax(int(o.colours.start[b]), int(o.colours.start[b+1]), ws.loc, 0, true)
			ws.change, ws.scale = max(ws.change, c), max(ws.scale, s)
		}
	}
}

// colouredGrain is the fewest contacts of a colour one worker takes.
const colouredGrain = 512

// colouredSweep runs one sweep group by group (blcpColours): the blocks'
// interiors side by side, one block per worker at a time, then the border
// colours, each split over the pool; within a group the contacts share no
// row of v, so the pool's split does not change a bit; the last group,
// when some contacts found no colour, runs on one worker in contact
// order. It returns the sweep's largest change and max(s₀, the largest
// impulse) — maxima, the same in any order.
func (o *BoxedLCP) colouredSweep(s0 float64) (change, scale float64) {
	for w := range o.workers {
		o.workers[w].change, o.workers[w].scale = 0, 0
	}
	c := &o.colours
	o.pool.Each(c.blocks, o.fBlock)
	for g := c.blocks; g < c.groups(); g++ {
		n := int(c.start[g+1] - c.start[g])
		o.group = g
		if c.tail && g == c.groups()-1 {
			o.fGroup(0, 0, n)
			continue
		}
		grain := colouredGrain
		if o.grain > 0 {
			grain = o.grain
		}
		o.pool.For(n, grain, o.fGroup)
	}
	scale = s0
	for w := range o.workers {
		change, scale = max(change, o.workers[w].change), max(scale, o.workers[w].scale)
	}
	return change, scale
}

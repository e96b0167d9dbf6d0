package impact

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/scratch"
)

// GR is the Generalized Reflections operator (Alg. 2 of Smith et al. 2012).
//
// Starting from ṽ = v⁻ it repeatedly gathers the violator subset
// 𝕍 = {k : ∇g_kᵀ ṽ < −v_tol}, solves the LCP (3) restricted to 𝕍 exactly
// (a generalized reflection: the component of ṽ in the span of the pushing
// normals is negated and scaled by c), and adds the impulses, until no contact
// approaches. Because each reflection is an exact LCP solve it is basis
// independent (SYM), conserves energy at c = 1 (KIN) and momentum (MOM),
// pushes only (ONE), and contacts not in the current violator set are free
// to separate (BRK).
type GR struct {
	firstPush
	cfg         Config
	restitution float64 // ≥ 0 overrides every cᵢ (GRR's elastic part uses 1)
	ker         lcpSolve
	warm        warmStart

	vt    []float64 // ṽ
	vtSet bool      // ṽ is the last Resolve's v⁻ + M⁻¹Gλ (see Velocity)
	u     []float64 // Gᵀṽ
	idx   []int     // violator indices (in arena while a lent one is used)
	vio   [][]int   // per range of normalChunk: its violators (then idx)
	// vr is the range lists in use: vio, or vioLent, in a lent arena
	// (each range's list as long as the range)
	vr, vioLent [][]int
	// arena: LendArena's, for the next Resolve's per-iteration arrays
	arena  *scratch.Arena
	vtol   float64   // the violator tolerance while Resolve runs
	scr    []float64 // Gλ (length n): o.vt itself, or scrOwn
	scrOwn []float64

	// parallel products (see SetPool)
	p         *mech.Problem
	g         mech.Normals // p.Normals() while Resolve runs
	fNormal   func(w, lo, hi int)
	fVelocity func(w, lo, hi int)
	fScatter  func(w, lo, hi int) // scatterVelocityChunk
	lam       []float64           // λ while fScatter runs
	runs      [][][2]int          // per worker: the column runs of its rows (mech.Cols.ColRuns)
	runsSet   []bool              // runs[w] is set in this Resolve
	scatterAt int                 // tests: pool Gλ from this many contacts (0 = grPoolScatter)
	self      *GR
}

// normalChunk sets the relative normal velocities u_j = ∇g_jᵀ ṽ + NRel_j
// for the contacts [lo, hi) and lists the violators among them (u_j <
// −v_tol) in o.vio[w], in increasing order.
func (o *GR) normalChunk(w, lo, hi int) {
	u := o.u[lo:hi]
	o.p.RelNormalVelocitiesRange(u, o.vt, lo, hi)
	vio, vtol := o.vr[w][:0], o.vtol
	for k, x := range u {
		if x < -vtol {
			vio = append(vio, lo+k)
		}
	}
	o.vr[w] = vio
}

// violators sets o.idx to the violators the nr ranges of normalChunk
// listed, in increasing order (the ranges are consecutive): in ar's
// phase when ar is not nil.
func (o *GR) violators(nr int, ar *scratch.Arena) {
	if ar != nil {
		if nr == 1 {
			o.idx = o.vr[0] // the range's list, in the arena
			return
		}
		total := 0
		for _, v := range o.vr[:nr] {
			total += len(v)
		}
		o.idx = scratch.Take[int](ar, total)[:0]
		for _, v := range o.vr[:nr] {
			o.idx = append(o.idx, v...)
		}
		return
	}
	if nr == 1 {
		o.idx, o.vio[0] = o.vio[0], o.idx // no copy: swap the storage
		return
	}
	o.idx = o.idx[:0]
	for _, v := range o.vio[:nr] {
		o.idx = append(o.idx, v...)
	}
}

// velocityChunk sets ṽ = v⁻ + M⁻¹(Gλ) on the bodies [lo, hi), with Gλ in
// o.scr.
func (o *GR) velocityChunk(w, lo, hi int) {
	o.p.MInv.MulVecAddBlocks(o.vt, o.scr, o.p.V, lo, hi)
}

// scatterChunk sets o.scr = Gλ on the degrees of freedom [lo, hi), with
// the same bits as clear + AddMulVec (see mech.Cols.AddMulVecRows). G is
// fixed during Resolve, so the columns that reach [lo, hi) are found once.
func (o *GR) scatterChunk(w, lo, hi int) {
	if !o.runsSet[w] {
		o.runs[w] = o.g.ColRuns(o.runs[w][:0], lo, hi, 64)
		o.runsSet[w] = true
	}
	clear(o.scr[lo:hi])
	o.g.AddMulVecRows(o.scr, o.lam, lo, hi, o.runs[w])
}

// scatterVelocityChunk sets o.scr = Gλ on the rows of the bodies [lo, hi)
// (scatterChunk) and then ṽ on those bodies (velocityChunk): a body's ṽ
// needs only its own rows of Gλ, so one pass of the pool does both, each
// row and block with the bits of the two passes.
func (o *GR) scatterVelocityChunk(w, lo, hi int) {
	rlo, _ := o.p.MInv.Bounds(lo)
	_, rhi := o.p.MInv.Bounds(hi - 1)
	o.scatterChunk(w, rlo, rhi)
	o.velocityChunk(w, lo, hi)
}

// grPoolScatter is the number of contacts from which GR splits Gλ by
// degree-of-freedom ranges over the pool (the 4096 of the other pooled
// loops). Tests lower it per operator with GR.scatterAt.
const grPoolScatter = 4096

func newGR(c Config) (*GR, error) {
	s, err := c.solver()
	if err != nil {
		return nil, err
	}
	return &GR{cfg: c, restitution: -1, ker: lcpSolve{solver: s, mk: c.solver, poolFrom: c.InteriorMax}}, nil
}

// NewGR returns the GR operator with the given violator tolerance (0 =
// default) and QP solver name ("" = auto).
func NewGR(vtol float64, solver string) (*GR, error) {
	return newGR(Config{Name: "gr", VTol: vtol, Solver: solver})
}

// Name returns "gr".
func (o *GR) Name() string { return "gr" }

// LendArena gives the next Resolve the storage of a (from its current
// phase on; scratch.Arena.Take, which grows a when it is short) for its
// first-push record (FirstPush, then valid as long as that phase) and
// for each reflection's violator list and its kernel's island split (the
// violators' components and their columns grouped), instead of GR's own:
// the caller's arena, whose other contents are dead meanwhile (the fast
// sphere path's big islands: the step's arena, spheres' workspace.scr,
// which Alg. 3 takes next; at the 60k layer's landing ≈ 1.4 MB of GR's
// own). The same bits.
func (o *GR) LendArena(a *scratch.Arena) { o.arena = a }

// Resolve runs Alg. 2 on p.
func (o *GR) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	m, n := p.NContacts(), p.NDof()
	var st mech.Stats
	ar := o.arena
	o.arena = nil
	if ar != nil {
		o.ker.arena = ar
		o.ker.isl.lend(ar, p.MInv.NumBlocks())
		words := ar.Words()
		defer func() {
			// the arena's slices are the lender's again (FirstPush's
			// record stays readable as long as its phase)
			o.idx, o.ker.arena, o.vr = nil, nil, nil
			clear(o.vioLent)
			o.ker.isl.unlend()
			if ar.Words() != words {
				// the arena grew: the record moves to GR's own storage,
				// so that it does not keep the outgrown buffer alive
				o.keepPush()
			}
		}()
	}
	for i := range lambda[:m] {
		lambda[i] = 0
	}
	o.resetPushIn(m, ar)
	o.vtSet = false
	if m == 0 {
		if o.cfg.WarmStart {
			o.warm.skip()
		}
		return st, nil
	}
	vtol := o.cfg.vtol()
	o.vt = grow(o.vt, n)
	o.u = grow(o.u, m)
	copy(o.vt, p.V)
	maxIter := o.cfg.maxIter()
	pool := o.ker.pool
	if o.self != o {
		o.self, o.fNormal, o.fVelocity, o.fScatter = o, o.normalChunk, o.velocityChunk, o.scatterVelocityChunk
	}
	if nw := pool.Workers(); len(o.runs) < nw {
		o.runs, o.runsSet = make([][][2]int, nw), make([]bool, nw)
	}
	if nw := pool.Workers(); len(o.vio) < nw {
		o.vio = append(o.vio, make([][]int, nw-len(o.vio))...)
	}
	o.vtol = vtol
	clear(o.runsSet)
	o.p, o.g = p, p.Normals()
	defer func() { o.p, o.g = nil, nil }()
	mark := 0 // each reflection's part of ar's phase
	o.vr = o.vio
	if ar != nil {
		mark = ar.Mark()
		if nw := pool.Workers(); len(o.vioLent) < nw {
			o.vioLent = make([][]int, nw)
		}
		o.vr = o.vioLent
	}
	for iter := 0; ; iter++ {
		if ar != nil {
			// the reflection's range lists, each as long as its range of
			// pool.For (normalChunk never outgrows it)
			ar.Release(mark)
			nr := pool.Chunks(m, 4096)
			for w := range nr {
				o.vioLent[w] = scratch.Take[int](ar, (w+1)*m/nr-w*m/nr)
			}
		}
		pool.For(m, 4096, o.fNormal) // u = Gᵀṽ + NRel, and the violators
		o.violators(pool.Chunks(m, 4096), ar)
		if len(o.idx) == 0 {
			if iter == 0 && o.cfg.WarmStart {
				o.warm.skip()
			}
			// After a reflection ṽ was last set from the final λ by
			// ApplyImpulses' arithmetic; before any, it is a copy of v⁻,
			// whose −0 entries v⁻ + M⁻¹G·0 would turn into +0.
			o.vtSet = iter > 0
			return st, nil
		}
		if iter >= maxIter {
			w, k := worst(o.u)
			return st, &NotConvergedError{Operator: "gr", Iterations: iter, WorstViolation: w, Contact: k}
		}
		nv := len(o.idx)
		o.push(o.idx, iter+1)
		// The kernel reads the violators' columns, bodies, velocities and
		// factors in place and adds their impulses to λ (colMap = idx).
		o.ker.colMap = o.idx
		if iter == 0 && o.cfg.WarmStart {
			// Only the first iteration has a history to start from (see
			// warmStart); λ is zero before it, so it records increments.
			o.ker.warm = &o.warm
		}
		o.ker.cor, o.ker.cOver = p.CoR, o.restitution // εᵢ = 1 + cᵢ, no vector of m
		// mirror pairs inside an island (mech.Problem.Keys)
		o.ker.keys = p.ContactKeys()
		r, err := o.ker.solve(o.g, &p.MInv, p.Bodies, o.u, nil, lambda)
		o.ker.colMap, o.ker.warm, o.ker.keys = nil, nil, nil
		st.Iterations++
		st.Add(r)
		if err != nil {
			return st, fmt.Errorf("impact: gr iteration %d on %d violators: %w", iter+1, nv, err)
		}
		// ṽ = v⁻ + M⁻¹ G λ, recomputed from the accumulated impulse rather
		// than updated incrementally so round-off does not accumulate.
		// Gλ is summed in ṽ's own storage when M⁻¹ can be applied in
		// place (one state vector less; the arithmetic is the same).
		if p.MInv.MaxBlock() <= mech.MaxInPlaceBlock {
			o.scr = o.vt
		} else {
			if len(o.scrOwn) < n {
				o.scrOwn = make([]float64, n, n+n/4+8)
			}
			o.scr = o.scrOwn[:n]
		}
		if at := cmp.Or(o.scatterAt, grPoolScatter); m >= at && pool.Workers() > 1 {
			// Gλ and ṽ by ranges of bodies, in one pass
			o.lam = lambda[:m]
			pool.For(p.MInv.NumBlocks(), max(1, min(at, 4096)/max(1, p.MInv.MaxBlock())), o.fScatter)
			o.lam = nil
		} else {
			clear(o.scr)
			o.g.AddMulVec(o.scr, lambda[:m])
			pool.For(p.MInv.NumBlocks(), 2048, o.fVelocity)
		}
	}
}

// Velocity returns ṽ = v⁻ + M⁻¹Gλ for the problem and the impulses λ of
// the last Resolve, bit for bit what mech.Problem.ApplyImpulses(dst, p.V,
// λ, nil, …) computes (the same scatter and block arithmetic, serial or
// pooled), so that a friction operator staggered after GR
// (friction.MaxDissipation.ResolveAfter) need not compute it again. It is
// nil when that Resolve failed or applied no reflection (λ = 0). The slice
// is GR's workspace: it is valid until the next Resolve, as long as p.V
// and λ are unchanged, and must not be written.
func (o *GR) Velocity() []float64 {
	if !o.vtSet {
		return nil
	}
	return o.vt
}

// TakeVelocity returns Velocity() and hands its storage to the caller
// until the next Resolve: Velocity returns nil meanwhile, and the caller
// may write the slice once it has read ṽ (the fast sphere path lends it to
// Alg. 3's QP solve as scratch: friction.MaxDissipation.Lend). Resolve
// sets ṽ anew from v⁻ before reading it.
func (o *GR) TakeVelocity() []float64 {
	v := o.Velocity()
	o.vtSet = false
	return v
}

// Scratch returns the storage of GR's relative normal velocities u (one
// per contact of the last Resolve), which only Resolve reads: the caller
// may write it until the next Resolve (the fast sphere path lends it to
// Alg. 3's QP solve with ṽ: friction.MaxDissipation.Lend).
func (o *GR) Scratch() []float64 { return o.u }

// ReadsNormals implements mech.MatrixFreeG: GR reads G only through
// Problem.Normals.
func (o *GR) ReadsNormals() bool { return true }

// ReadsKnownRel implements mech.MatrixFreeRel: GR reads NRel only through
// Problem.AddNRel.
func (o *GR) ReadsKnownRel() bool { return true }

// SetPool makes GR solve independent islands concurrently (see lcpSolve).
func (o *GR) SetPool(pool *par.Pool) { o.ker.setPool(pool) }

// WriteWarmStart implements WarmStarter.
func (o *GR) WriteWarmStart(w io.Writer) error { return o.warm.writeTo(w) }

// ReadWarmStart implements WarmStarter.
func (o *GR) ReadWarmStart(data []byte) error { return o.warm.readFrom(data) }

// ResetWarmStart implements WarmStarter.
func (o *GR) ResetWarmStart() { o.warm.reset() }

// SlowGRIterations is the reflection count of one step from which
// SlowGRHint speaks: GR takes a handful of reflections per step at c = 1
// (at most 6 in the drum gases of BENCHMARKS.md), but below c = 1 each
// reflection removes only a fraction of the approach, and the count grows
// without bound as c shrinks (BENCHMARKS.md, "GR below c = 1").
const SlowGRIterations = 1000

// SlowGRHint returns a one-line hint when the contact law law (a
// sim.ContactLaw's Name: "gr", "gr+maxdiss", …) needed iterations ≥
// SlowGRIterations reflections on a problem p with restitution below 1,
// and "" otherwise: grr is the operator for c < 1 (a 400-ball drop at
// c = 0.5: GR up to 1,796 reflections and 0.07 s of impact per step, grr
// 1.4 ms; BENCHMARKS.md).
func SlowGRHint(law string, iterations int, p *mech.Problem) string {
	if iterations < SlowGRIterations || law != "gr" && !strings.HasPrefix(law, "gr+") {
		return ""
	}
	c := 1.0
	for _, x := range p.CoR {
		c = math.Min(c, x)
	}
	if c >= 1 {
		return ""
	}
	return fmt.Sprintf("hint: gr needed %d reflections in one step with restitution c = %g < 1; below c = 1 GR's reflections multiply as c shrinks — --operator grr (generalized restitution, made for c < 1) takes a few QP solves per island instead", iterations, c)
}

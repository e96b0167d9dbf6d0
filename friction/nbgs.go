package friction

import (
	"fmt"
	"math"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/singlecontact"
)

// BlockLaw names the single-contact law NBGS solves each contact's block
// with.
type BlockLaw uint8

const (
	// MaxDissipationBlock is Preclik et al.'s maximum-dissipation impact
	// (singlecontact.MaxDissipation).
	MaxDissipationBlock BlockLaw = iota
	// CoulombBlock is the Coulomb-like impulsive model
	// (singlecontact.Coulomb): the sticking solution when there is one,
	// otherwise the sliding solution nearest the contact's previous
	// iterate.
	CoulombBlock
)

func (b BlockLaw) String() string {
	if b == CoulombBlock {
		return "coulomb"
	}
	return "maxdiss"
}

// ParseBlockLaw maps "maxdiss" and "coulomb" onto BlockLaw.
func ParseBlockLaw(s string) (BlockLaw, error) {
	switch s {
	case "maxdiss", "":
		return MaxDissipationBlock, nil
	case "coulomb":
		return CoulombBlock, nil
	}
	return 0, fmt.Errorf("unknown block law %q (want maxdiss or coulomb)", s)
}

// NBGS defaults.
const (
	DefaultNBGSTol     = 1e-9
	DefaultNBGSMaxIter = 1000
	DefaultNBGSRelax   = 0.75
)

// NBGS is the non-linear block Gauss–Seidel contact law of Preclik et al.
// (sec. 3.1, eq. 5), and with Domains > 1 its blend with weighted block
// Jacobi. It is a sim.ContactLaw: it computes the normal impulses λ and the
// friction impulses β of a three-dimensional problem together. Each
// contact j has one normal column g_j of G and two orthonormal tangent
// columns d_j1, d_j2 of D (DContact), so W_j = [g_j d_j1 d_j2], its
// Delassus block A_jj = W_jᵀM⁻¹W_j, and eq. (5) asks for
//
//	λ̃_j = argmin ½λᵀA_jjλ − λᵀb_j  s.t. the cone, Signorini, (A_jjλ)_n ≥ 0,
//	b_j = −(W_jᵀ v + r_j) + A_jj λ̃_j,   v = v⁻ + M⁻¹ Σ_k W_k λ̃_k,
//
// i.e. the single-contact problem given the impulses of all other contacts;
// r_j = (NRel[j], DRel[d_j1], DRel[d_j2]) are the problem's known relative
// velocities (the error-reduced gap term ξ̂_j/δt of the time stepping, a
// moving wall's velocity; zero when absent). A sweep visits the contacts in order,
// solves each block analytically (Block: singlecontact.MaxDissipation, or
// the Coulomb-like model for comparison) and updates v incrementally.
//
// Convergence: a sweep's residual is the largest change of a contact's
// relative velocity, ‖A_jj Δλ_j‖∞, when the sweep visits it — each block's
// eq. (5) residual at that moment. The sweeps stop when it is at most Tol
// (velocity units) or after MaxIter sweeps; reaching the cap is not an
// error (as in waLBerla, whose runs use a fixed number of sweeps): the
// last sweep's impulses are returned and the Stats record the capped solve
// (Capped, CappedResidual, CappedTol, CappedIterations).
//
// Gauss–Seidel need not converge on frictional multi-contact problems (the
// paper states no rate; the solution need not be unique). Measured on a
// pyramid of 30 spheres on a floor (μ = 0.5, δt = 2·10⁻³, Tol 10⁻⁹, 300
// steps): with ε = 0 every step converged, in at most 5749 sweeps; with
// error reduction ε = 0.2 and 0.7, 3 and 10 steps stalled at a cap of
// 2·10⁴ sweeps — a sphere wedged between two sticking contacts is asked to
// move out of one in a direction the other's friction forbids, and the
// sweeps trade the same impulse back and forth.
//
// Parallel sweeps (Domains > 1): the bodies are split into Domains
// contiguous ranges of their block index (systems number bodies in space,
// so these are spatial subdomains, as the paper's processes are); each
// contact belongs to the domain of its first body. Within a sweep each
// domain runs Gauss–Seidel over its contacts, updating the bodies it owns
// in place and private copies (shadows) of the other bodies its contacts
// touch; after the sweep each body receives the sum of its shadows'
// changes, in domain order (the exchange of waLBerla's HCSITS, checklist
// §4). A contact across domains sees the other domains' bodies as they
// were at the sweep's start — the Jacobi part of the paper's blend — and
// takes the relaxed increment Relax·Δλ_j, applied alike to its impulse and
// to both bodies (weighted Jacobi), so that velocities stay equal to
// v⁻ + M⁻¹Σ W_kλ_k and momentum is conserved; a contact within a domain
// takes the full Gauss–Seidel increment. (Relaxing only the shadows'
// velocity changes, not the impulses, breaks both: measured in the channel
// flow, spheres reached 8–13 m/s in a 1 m/s flow.) Domains run
// concurrently on the pool's workers; the result depends on Domains but not
// on the number of workers, bit for bit. Domains = 1 is plain Gauss–Seidel.
//
// The law is purely inelastic: a contact with restitution ≠ 0 is an error.
// Solve allocates only when the problem grows.
type NBGS struct {
	Block   BlockLaw
	Tol     float64 // > 0; 0 means DefaultNBGSTol
	MaxIter int     // sweeps; 0 means DefaultNBGSMaxIter
	Domains int     // ≥ 1; 0 means 1
	Relax   float64 // in (0, 1]; 0 means DefaultNBGSRelax

	pool *par.Pool

	// per contact
	nb    []int8       // bodies touched (1 or 2)
	off   [][2]int     // offset of W (then K) of each body in wk
	voff  [][2]int     // offset of each body's velocity in vel
	blen  [][2]int     // block size of each body
	a     [][9]float64 // A_jj row-major
	x     [][3]float64 // (λ, β₁, β₂)
	tcols [][2]int     // the contact's tangent columns
	wk    []float64    // W (k×3) then K = M⁻¹W (k×3) per (contact, body)

	// velocities: v (n) then the domains' shadow slots
	vel, vel0 []float64
	// domains
	dom      []nbgsDomain
	shadowOf [][]int // per body with shadows: their slots, in domain order
	shadowB  []int   // the bodies with shadows
	shadowS  []int   // their global offsets
	shadowK  []int   // their block sizes

	cur                    nbgsSweep
	fCopy, fSweep, fReduce func(w, lo, hi int)
	fOnce                  func() float64
}

type nbgsDomain struct {
	contacts []int
	slots    []int // shadow slots (offsets into vel) with the global offset they copy
	src      []int
	size     []int
	res      float64
}

// Name returns "nbgs" with the block law, e.g. "nbgs-maxdiss".
func (o *NBGS) Name() string { return "nbgs-" + o.Block.String() }

// SetPool makes the domains run on the workers of pool.
func (o *NBGS) SetPool(pool *par.Pool) { o.pool = pool }

// Check validates the configuration (a tolerance ≤ 0, a negative cap, a
// relaxation outside (0, 1] are errors).
func (o *NBGS) Check() error {
	switch {
	case o.Tol < 0 || math.IsNaN(o.Tol):
		return fmt.Errorf("nbgs: tolerance %v, want > 0", o.Tol)
	case o.MaxIter < 0:
		return fmt.Errorf("nbgs: iteration cap %d, want > 0", o.MaxIter)
	case o.Domains < 0:
		return fmt.Errorf("nbgs: %d domains, want ≥ 1", o.Domains)
	case o.Relax < 0 || o.Relax > 1 || math.IsNaN(o.Relax):
		return fmt.Errorf("nbgs: relaxation %v, want 0 < ω ≤ 1", o.Relax)
	}
	return nil
}

// Params returns the tolerance, sweep cap, number of domains and
// relaxation in effect (defaults for zero fields).
func (o *NBGS) Params() (tol float64, maxIter, domains int, relax float64) {
	tol, maxIter, domains, relax = o.Tol, o.MaxIter, o.Domains, o.Relax
	if tol == 0 {
		tol = DefaultNBGSTol
	}
	if maxIter == 0 {
		maxIter = DefaultNBGSMaxIter
	}
	if domains == 0 {
		domains = 1
	}
	if relax == 0 {
		relax = DefaultNBGSRelax
	}
	return
}

// Solve computes λ (len m) and β (len D.NCols()) of p.
func (o *NBGS) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	var st mech.Stats
	if err := p.NeedStoredD("friction: NBGS"); err != nil {
		return st, err
	}
	if err := p.NeedStoredG("friction: NBGS"); err != nil {
		return st, err
	}
	if err := p.NeedStoredRel("friction: NBGS"); err != nil {
		return st, err
	}
	if err := o.Check(); err != nil {
		return st, err
	}
	tol, maxIter, domains, relax := o.Params()
	m := p.NContacts()
	if err := o.setup(p, domains); err != nil {
		return st, err
	}
	if m == 0 {
		return st, nil
	}
	o.cur = nbgsSweep{p, relax}
	if o.fOnce == nil {
		o.fOnce = o.sweepOnce
	}
	st = RunSweeps("nbgs", m, tol, maxIter, o.fOnce)
	for j := 0; j < m; j++ {
		lambda[j] = o.x[j][0]
		beta[o.tcols[j][0]] = o.x[j][1]
		beta[o.tcols[j][1]] = o.x[j][2]
	}
	return st, nil
}

// setup builds the blocks W_j, K_j = M⁻¹W_j, A_jj and the domains.
func (o *NBGS) setup(p *mech.Problem, domains int) error {
	m, n := p.NContacts(), p.NDof()
	nd := p.D.NCols()
	o.tcols = resize(o.tcols, m)
	for j := range o.tcols {
		o.tcols[j] = [2]int{-1, -1}
	}
	for k := 0; k < nd; k++ {
		j := p.DContact[k]
		switch {
		case o.tcols[j][0] < 0:
			o.tcols[j][0] = k
		case o.tcols[j][1] < 0:
			o.tcols[j][1] = k
		default:
			return fmt.Errorf("nbgs: contact %d has more than two tangent columns", j)
		}
	}
	for j := 0; j < m; j++ {
		if o.tcols[j][1] < 0 {
			return fmt.Errorf("nbgs: contact %d has %d tangent columns, want two (a three-dimensional contact)", j, btoi(o.tcols[j][0] >= 0))
		}
		if p.CoR[j] != 0 {
			return fmt.Errorf("nbgs: contact %d has restitution %g; the law is purely inelastic (restitution 0)", j, p.CoR[j])
		}
	}
	o.nb = resize(o.nb, m)
	o.off = resize(o.off, m)
	o.voff = resize(o.voff, m)
	o.blen = resize(o.blen, m)
	o.a = resize(o.a, m)
	o.x = resize(o.x, m)
	clear(o.x)
	nblk := p.MInv.NumBlocks()
	size := 0
	for j := 0; j < m; j++ {
		o.nb[j] = 0
		for s := 0; s < 2; s++ {
			b := p.Bodies[2*j+s]
			if b < 0 {
				continue
			}
			lo, hi := p.MInv.Bounds(b)
			k := int(o.nb[j])
			o.off[j][k] = size
			o.blen[j][k] = hi - lo
			o.voff[j][k] = lo
			size += 6 * (hi - lo)
			o.nb[j]++
		}
		if o.nb[j] == 0 {
			return fmt.Errorf("nbgs: contact %d touches no movable body", j)
		}
	}
	o.wk = resize(o.wk, size)
	clear(o.wk)
	var col [16]float64
	for j := 0; j < m; j++ {
		cols := [3]int{j, o.tcols[j][0], o.tcols[j][1]}
		for c, cj := range cols {
			mat := &p.G
			if c > 0 {
				mat = &p.D
			}
			for e := mat.Ptr[cj]; e < mat.Ptr[cj+1]; e++ {
				r := int(mat.Row[e])
				found := false
				for s := 0; s < int(o.nb[j]); s++ {
					lo := o.voff[j][s]
					if r >= lo && r < lo+o.blen[j][s] {
						o.wk[o.off[j][s]+3*(r-lo)+c] += mat.Val[e]
						found = true
						break
					}
				}
				if !found {
					return fmt.Errorf("nbgs: column %d of contact %d has an entry in row %d outside the bodies %d, %d it names", c, j, r, p.Bodies[2*j], p.Bodies[2*j+1])
				}
			}
		}
		var a [9]float64
		for s := 0; s < int(o.nb[j]); s++ {
			k := o.blen[j][s]
			if k > len(col) {
				return fmt.Errorf("nbgs: body block of %d degrees of freedom (at most %d)", k, len(col))
			}
			w := o.wk[o.off[j][s] : o.off[j][s]+3*k]
			kk := o.wk[o.off[j][s]+3*k : o.off[j][s]+6*k]
			b := p.Bodies[2*j+btoi(s == 1 || p.Bodies[2*j] < 0)]
			var y [16]float64
			for c := 0; c < 3; c++ {
				for r := 0; r < k; r++ {
					col[r] = w[3*r+c]
				}
				p.MInv.MulVecBlock(b, y[:k], col[:k])
				for r := 0; r < k; r++ {
					kk[3*r+c] = y[r]
				}
			}
			for c := 0; c < 3; c++ {
				for d := 0; d < 3; d++ {
					var sum float64
					for r := 0; r < k; r++ {
						sum += w[3*r+c] * kk[3*r+d]
					}
					a[3*c+d] += sum
				}
			}
		}
		o.a[j] = a
	}
	// domains: body b belongs to ⌊b·D/nblk⌋; contact j to its first body's
	o.vel = resize(o.vel, n)
	copy(o.vel, p.V)
	if domains > nblk {
		domains = max(1, nblk)
	}
	o.dom = resize(o.dom, domains)
	for d := range o.dom {
		o.dom[d].contacts = o.dom[d].contacts[:0]
		o.dom[d].slots = o.dom[d].slots[:0]
		o.dom[d].src = o.dom[d].src[:0]
		o.dom[d].size = o.dom[d].size[:0]
	}
	domOf := func(b int) int { return b * domains / nblk }
	o.shadowOf = resize(o.shadowOf, nblk)
	for b := range o.shadowOf {
		o.shadowOf[b] = o.shadowOf[b][:0]
	}
	for j := 0; j < m; j++ {
		first := p.Bodies[2*j]
		if first < 0 {
			first = p.Bodies[2*j+1]
		}
		d := domOf(first)
		o.dom[d].contacts = append(o.dom[d].contacts, j)
	}
	// shadow slots, per domain in contact order, one per (domain, body)
	for d := range o.dom {
		dm := &o.dom[d]
		for _, j := range dm.contacts {
			for s := 0; s < int(o.nb[j]); s++ {
				b := p.Bodies[2*j+btoi(s == 1 || p.Bodies[2*j] < 0)]
				if domOf(b) == d {
					continue
				}
				lo := o.voff[j][s]
				slot := -1
				for i, src := range dm.src {
					if src == lo {
						slot = dm.slots[i]
					}
				}
				if slot < 0 {
					slot = len(o.vel)
					o.vel = append(o.vel, o.vel[lo:lo+o.blen[j][s]]...)
					dm.slots = append(dm.slots, slot)
					dm.src = append(dm.src, lo)
					dm.size = append(dm.size, o.blen[j][s])
					o.shadowOf[b] = append(o.shadowOf[b], slot)
				}
				o.voff[j][s] = slot
			}
		}
	}
	o.shadowB, o.shadowS, o.shadowK = o.shadowB[:0], o.shadowS[:0], o.shadowK[:0]
	for b := range o.shadowOf {
		if len(o.shadowOf[b]) > 0 {
			lo, hi := p.MInv.Bounds(b)
			o.shadowB = append(o.shadowB, b)
			o.shadowS = append(o.shadowS, lo)
			o.shadowK = append(o.shadowK, hi-lo)
		}
	}
	o.vel0 = resize(o.vel0, len(o.vel))
	if o.fSweep == nil {
		o.fCopy, o.fSweep, o.fReduce = o.copyChunk, o.sweepChunk, o.reduceChunk
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// current problem and relaxation of the sweep in progress (read by the
// chunk functions)
type nbgsSweep struct {
	p     *mech.Problem
	relax float64
}

// RunSweeps runs sweep until the residual it returns is at most tol or
// maxIter sweeps have run, and returns the Stats of an NBGS solve of m
// contacts: iterations, residual, and the capped solve when the tolerance
// was not reached (a user-set cap: not an error). Pass a stored method
// value: a fresh closure allocates.
func RunSweeps(method string, m int, tol float64, maxIter int, sweep func() float64) mech.Stats {
	st := mech.Stats{Method: method, Largest: m}
	res := math.Inf(1)
	it := 0
	for it < maxIter {
		it++
		if res = sweep(); res <= tol {
			break
		}
	}
	st.Iterations, st.Residual = it, res
	if res > tol {
		st.Capped = 1
		st.CappedResidual, st.CappedTol, st.CappedIterations = res, tol, maxIter
	}
	return st
}

// sweepOnce runs one sweep over all domains of the problem in o.cur and
// returns its residual.
func (o *NBGS) sweepOnce() float64 {
	if len(o.dom) == 1 {
		o.sweepDomain(0)
		return o.dom[0].res
	}
	o.pool.For(len(o.dom), 1, o.fCopy)
	o.pool.For(len(o.dom), 1, o.fSweep)
	o.pool.For(len(o.shadowB), 256, o.fReduce)
	res := 0.0
	for d := range o.dom {
		res = math.Max(res, o.dom[d].res)
	}
	return res
}

// copyChunk snapshots the shadows of domains [lo, hi) at the sweep's start.
func (o *NBGS) copyChunk(_, lo, hi int) {
	for d := lo; d < hi; d++ {
		dm := &o.dom[d]
		for i, slot := range dm.slots {
			k := dm.size[i]
			copy(o.vel[slot:slot+k], o.vel[dm.src[i]:dm.src[i]+k])
			copy(o.vel0[slot:slot+k], o.vel[slot:slot+k])
		}
	}
}

func (o *NBGS) sweepChunk(_, lo, hi int) {
	for d := lo; d < hi; d++ {
		o.sweepDomain(d)
	}
}

// reduceChunk adds the shadows' changes to the bodies [lo, hi) of the
// list of bodies with shadows, in domain order.
func (o *NBGS) reduceChunk(_, lo, hi int) {
	for i := lo; i < hi; i++ {
		b, s, k := o.shadowB[i], o.shadowS[i], o.shadowK[i]
		for _, slot := range o.shadowOf[b] {
			for r := 0; r < k; r++ {
				o.vel[s+r] += o.vel[slot+r] - o.vel0[slot+r]
			}
		}
	}
}

// sweepDomain runs Gauss–Seidel over domain d's contacts and records the
// largest ‖A_jj Δλ_j‖∞.
func (o *NBGS) sweepDomain(d int) {
	p := o.cur.p
	res := 0.0
	var coul [8]singlecontact.Solution
	for _, j := range o.dom[d].contacts {
		a := &o.a[j]
		x := o.x[j]
		// u = W_jᵀ v
		var u [3]float64
		for s := 0; s < int(o.nb[j]); s++ {
			k := o.blen[j][s]
			w := o.wk[o.off[j][s] : o.off[j][s]+3*k]
			v := o.vel[o.voff[j][s] : o.voff[j][s]+k]
			for r, vr := range v {
				u[0] += w[3*r] * vr
				u[1] += w[3*r+1] * vr
				u[2] += w[3*r+2] * vr
			}
		}
		// known relative velocities (gap term, moving geometry)
		if len(p.NRel) != 0 {
			u[0] += p.NRel[j]
		}
		if len(p.DRel) != 0 {
			u[1] += p.DRel[o.tcols[j][0]]
			u[2] += p.DRel[o.tcols[j][1]]
		}
		pr := singlecontact.Problem{Mu: p.Mu[j]}
		for r := 0; r < 3; r++ {
			pr.A[r] = [3]float64{a[3*r], a[3*r+1], a[3*r+2]}
			pr.B[r] = -u[r] + a[3*r]*x[0] + a[3*r+1]*x[1] + a[3*r+2]*x[2]
		}
		var nx [3]float64
		if o.Block == CoulombBlock {
			nx = singlecontact.CoulombNearest(&pr, x, coul[:0])
		} else {
			nx, _ = singlecontact.MaxDissipation(&pr)
		}
		dx := [3]float64{nx[0] - x[0], nx[1] - x[1], nx[2] - x[2]}
		if dx == ([3]float64{}) {
			continue
		}
		if o.nb[j] == 2 && (o.voff[j][0] >= p.NDof() || o.voff[j][1] >= p.NDof()) {
			// a contact across domains: the relaxed increment, the same
			// for the impulse and both bodies
			w := o.cur.relax
			dx = [3]float64{w * dx[0], w * dx[1], w * dx[2]}
			nx = [3]float64{x[0] + dx[0], x[1] + dx[1], x[2] + dx[2]}
		}
		o.x[j] = nx
		for r := 0; r < 3; r++ {
			res = math.Max(res, math.Abs(a[3*r]*dx[0]+a[3*r+1]*dx[1]+a[3*r+2]*dx[2]))
		}
		// v += K_j Δx
		for s := 0; s < int(o.nb[j]); s++ {
			k := o.blen[j][s]
			kk := o.wk[o.off[j][s]+3*k : o.off[j][s]+6*k]
			v := o.vel[o.voff[j][s] : o.voff[j][s]+k]
			for r := range v {
				v[r] += kk[3*r]*dx[0] + kk[3*r+1]*dx[1] + kk[3*r+2]*dx[2]
			}
		}
	}
	o.dom[d].res = res
}

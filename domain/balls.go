package domain

import (
	"fmt"
	"math"

	"impactsim/ball2d"
	"impactsim/mech"
	"impactsim/mpi"
	"impactsim/par"
	"impactsim/sim"
)

// Config says how a ball system is split over the ranks.
type Config struct {
	// Lo and Hi bound the decomposed region; it is cut into Dims[0] ×
	// Dims[1] equal subdomains, one per rank (Dims zero: mpi.DimsCreate).
	// A ball belongs to the subdomain holding its centre; centres outside
	// a non-periodic region belong to the nearest edge subdomain.
	Lo, Hi [2]float64
	Dims   [2]int
	// Periodic makes a dimension wrap around: a centre leaving through Hi
	// re-enters at Lo (and back), and balls near one side meet the images
	// of those near the other.
	Periodic [2]bool
	// NewLaw returns the contact law; every rank makes its own. Laws
	// separable over islands (every impact operator of package impact)
	// give the same result for any number of ranks.
	NewLaw func() (sim.ContactLaw, error)
	// Root is the rank that solves the islands crossing subdomains.
	Root int
	// Pool, if set, runs the rank's detection, free flight and island
	// solves on its workers (results are bitwise those of a serial rank):
	// MPI across nodes, goroutines within one.
	Pool *par.Pool
}

// Balls is one rank's part of a distributed ball2d system: the balls
// whose centres lie in its subdomain. Step advances the whole system by
// one step of Alg. 4 across all ranks (collective).
type Balls struct {
	*grid
	m        *ballModel
	contacts int // of the whole system in the last step (followStep)

	// Observed is, on Root, the energies and momentum after the last
	// step of a driven run (Attach).
	Observed Observed
	// OnFrame, if set, writes this rank's part of output frame k (Frame;
	// a driven run's VTK pieces).
	OnFrame func(k int) error

	prev []body // the owned balls before the step (followStep)
}

// New splits the system sys, which every rank holds whole (read from the
// same scene), over the ranks of c: each rank keeps the balls of its
// subdomain (global ids are the indices in sys). sys must have no
// portals (periodicity comes from Config.Periodic) and no moving
// geometry. NewPart builds the same split without every rank holding sys.
func New(c mpi.Comm, sys *ball2d.System, cfg Config) (*Balls, error) {
	return NewPart(c, len(sys.M), cfg, func(func(x [2]float64) bool) (*ball2d.System, []int64, error) { return sys, nil, nil })
}

// NewPart splits a system of n balls (global ids 0 … n−1) that not every
// rank holds whole (collective): every rank calls build once with the
// predicate of its subdomain (the owner of a centre), and build returns
// a system holding at least the balls whose centres it accepts, with
// ids[i] the global id of its ball i (nil: i itself, a whole system); the
// rank keeps those and drops the rest. The geometry and parameters come
// from the returned system. The result is New's split of the whole
// system, bit for bit. The ranks' kept balls must number n together with
// ids 0 … n−1 (checked collectively, as NewSpheresPart); an error on any
// rank fails every rank (ErrOtherRank on those whose own part was fine).
func NewPart(c mpi.Comm, n int, cfg Config, build func(owns func(x [2]float64) bool) (*ball2d.System, []int64, error)) (*Balls, error) {
	if cfg.NewLaw == nil {
		return nil, fmt.Errorf("domain: Config.NewLaw is nil")
	}
	m := &ballModel{}
	g, err := newGrid(c, m, 2, [3]float64{cfg.Lo[0], cfg.Lo[1]}, [3]float64{cfg.Hi[0], cfg.Hi[1]},
		[3]int{cfg.Dims[0], cfg.Dims[1]}, [3]bool{cfg.Periodic[0], cfg.Periodic[1]}, cfg.Root)
	if err != nil {
		return nil, err
	}
	// From here every rank reaches the collective check.
	berr := g.buildBalls(m, n, cfg, build)
	if err := g.checkParts(n, true, berr); err != nil {
		return nil, err
	}
	// A subdomain narrower than the interaction halo is refused before the
	// first step (later steps check again: speeds change).
	if _, err := g.halo(); err != nil {
		return nil, err
	}
	return &Balls{grid: g, m: m}, nil
}

// buildBalls is a rank's part of NewPart: its balls from build, checked,
// adopted (those it owns) in id order, the law and the local systems.
func (g *grid) buildBalls(m *ballModel, n int, cfg Config, build func(owns func(x [2]float64) bool) (*ball2d.System, []int64, error)) error {
	sys, ids, err := build(func(x [2]float64) bool { return g.owns([3]float64{x[0], x[1]}) })
	if err != nil {
		return err
	}
	if ids != nil && len(ids) != len(sys.M) {
		return fmt.Errorf("domain: %d ids for %d balls", len(ids), len(sys.M))
	}
	if len(sys.Portals) > 0 {
		return fmt.Errorf("domain: portals are not decomposed; use Config.Periodic")
	}
	for i := range sys.Planes {
		if sys.Planes[i].Moving() {
			return fmt.Errorf("domain: plane %d moves; moving geometry is not decomposed", i)
		}
	}
	for i := range sys.Drums {
		if sys.Drums[i].Moving() {
			return fmt.Errorf("domain: drum %d moves; moving geometry is not decomposed", i)
		}
	}
	law, err := cfg.NewLaw()
	if err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	// The geometry and parameters of sys, with fresh workspaces (a copy of
	// sys would share its detector's).
	t := ball2d.System{Planes: sys.Planes, Drums: sys.Drums, Gravity: sys.Gravity, Integrator: sys.Integrator,
		Dt: sys.Dt, CoR: sys.CoR, Mu: sys.Mu, NoFrictionBasis: sys.NoFrictionBasis}
	*m = ballModel{tmpl: t, loc: t, bsys: t, law: law, h: sys.Dt}
	m.loc.SetPool(cfg.Pool)
	m.bsys.SetPool(cfg.Pool)
	if pu, ok := law.(interface{ SetPool(*par.Pool) }); ok {
		pu.SetPool(cfg.Pool)
	}
	for i := range sys.M {
		id := int64(i)
		if ids != nil {
			id = ids[i]
		}
		if id < 0 || id >= int64(n) {
			return fmt.Errorf("domain: ball %d has id %d; the ids must be 0 … %d", i, id, n-1)
		}
		b := body{gid: id, x: [3]float64{sys.Q[2*i], sys.Q[2*i+1]}, fixed: sys.Fixed[i]}
		b.p[0], b.p[1], b.p[2], b.p[3] = sys.V[2*i], sys.V[2*i+1], sys.M[i], sys.R[i]
		g.adopt(b)
	}
	return g.sortOwn()
}

// SetPool makes the rank's detection, free flight and island solves run
// on pool's workers (nil: serially; results are bitwise the same).
func (b *Balls) SetPool(pool *par.Pool) {
	m := b.m
	m.loc.SetPool(pool)
	m.bsys.SetPool(pool)
	if pu, ok := m.law.(interface{ SetPool(*par.Pool) }); ok {
		pu.SetPool(pool)
	}
}

// Step advances the distributed system by one step of Alg. 4
// (collective): ghosts within the interaction halo are exchanged with the
// neighbours, every rank predicts and detects the contacts of its balls,
// solves the islands that lie wholly in it, sends the contacts of islands
// that cross subdomains to Root, which solves them and returns their
// velocities, and balls whose centres left the subdomain migrate to their
// new owners.
func (b *Balls) Step() error { return b.step() }

// Momentum returns the total linear momentum Σ mᵢ vᵢ of the free balls
// (collective; every rank gets it).
func (b *Balls) Momentum() ([2]float64, error) {
	p, err := b.momentum()
	return [2]float64{p[0], p[1]}, err
}

// Gather returns on root the state of all n balls (q, v indexed by global
// id, as ball2d.System's Q and V); other ranks get nil (collective). The
// slices are reused by the next call.
func (b *Balls) Gather(root, n int) (q, v []float64, err error) {
	all, err := b.gather(root)
	if err != nil || b.cart.Rank() != root {
		return nil, nil, err
	}
	m := b.m
	m.gq, m.gv = grow(m.gq, 2*n), grow(m.gv, 2*n)
	q, v = m.gq, m.gv
	for i := range all {
		bl := &all[i]
		if bl.gid < 0 || bl.gid >= int64(n) {
			return nil, nil, fmt.Errorf("domain: gathered ball %d, ids are in [0, %d)", bl.gid, n)
		}
		g := 2 * bl.gid
		q[g], q[g+1], v[g], v[g+1] = bl.x[0], bl.x[1], bl.p[0], bl.p[1]
	}
	return q, v, nil
}

// ballModel is the 2D balls' model: a ball's payload is (vx, vy, m, r), a
// contact's data its normal; the local system and Root's are
// ball2d.Systems stepped with the stepper's arithmetic, so islands come
// out bitwise as in one process.
type ballModel struct {
	tmpl, loc, bsys ball2d.System
	law             sim.ContactLaw
	h               float64
	all             []body
	qt, vt, vplus   []float64
	scr             []float64
	lambda, beta    []float64
	prob, bprob     mech.Problem
	dets, sub, ccs  []ball2d.Contact
	cs              []contact
	cvplus          []float64
	gq, gv          []float64
	oid, or         []float64 // Owned
	opos, ovel      [][3]float64
}

func (m *ballModel) nv() int    { return 2 }
func (m *ballModel) np() int    { return 4 }
func (m *ballModel) ndata() int { return 2 }

// extent: d_max = max h|vᵢ| + h²|g| over the free balls.
func (m *ballModel) extent(own []body) (r, d float64) {
	h := m.h
	g := math.Hypot(m.tmpl.Gravity[0], m.tmpl.Gravity[1])
	v2 := 0.0
	for i := range own {
		o := &own[i]
		r = max(r, o.p[3])
		if !o.fixed {
			v2 = max(v2, o.p[0]*o.p[0]+o.p[1]*o.p[1])
		}
	}
	if v2 > 0 || g > 0 {
		d = h*math.Sqrt(v2) + h*h*g
	}
	return r, d
}

func loadBalls(s *ball2d.System, all []body) {
	n := len(all)
	s.Q, s.V = grow(s.Q, 2*n), grow(s.V, 2*n)
	s.M, s.R = grow(s.M, n), grow(s.R, n)
	if cap(s.Fixed) < n {
		s.Fixed = make([]bool, n, n+n/4+16)
	}
	s.Fixed = s.Fixed[:n]
	for i := range all {
		a := &all[i]
		s.Q[2*i], s.Q[2*i+1], s.V[2*i], s.V[2*i+1] = a.x[0], a.x[1], a.p[0], a.p[1]
		s.M[i], s.R[i], s.Fixed[i] = a.p[2], a.p[3], a.fixed
	}
}

func (m *ballModel) load(all []body, state bool) {
	m.all = all
	if state {
		loadBalls(&m.loc, all)
	}
}

// detect: the prediction and the contacts of the local system, in (gid,
// shift) order of its balls, i.e. in the whole system's relative order
// (pairs by (I, J), drums and planes by (object, ball)).
func (m *ballModel) detect() ([]contact, error) {
	loc := &m.loc
	n := len(m.all)
	m.qt, m.vt, m.vplus = grow(m.qt, 2*n), grow(m.vt, 2*n), grow(m.vplus, 2*n)
	loc.FreeFlight(loc.Q, loc.V, m.h, m.qt, m.vt)
	m.dets = loc.Detect(loc.Q, m.qt)
	cs := m.cs[:0]
	for k, c := range m.dets {
		cs = append(cs, contact{i: c.I, j: c.J, kind: int32(c.Kind), obj: c.Obj, k: int32(k), d: [6]float64{c.N[0], c.N[1]}})
	}
	m.cs = cs
	copy(m.vplus, loc.V)
	return cs, nil
}

// solveBalls fills p with the contacts cs of s, runs the law and writes v⁺
// = v + M⁻¹(Gλ + Dβ) into vplus (the stepper's arithmetic).
func (m *ballModel) solveBalls(s *ball2d.System, cs []ball2d.Contact, vplus []float64, p *mech.Problem) (mech.Stats, error) {
	s.FillProblem(cs, s.Q, s.V, p)
	m.lambda = grow(m.lambda, p.NContacts())
	m.beta = grow(m.beta, p.D.NCols())
	st, err := m.law.Solve(p, m.lambda, m.beta)
	if err != nil {
		return st, err
	}
	m.scr = grow(m.scr, len(s.V))
	p.ApplyImpulses(vplus, s.V, m.lambda, m.beta, m.scr)
	return st, nil
}

func (m *ballModel) solve(idx []int32) (mech.Stats, error) {
	if len(idx) == 0 {
		return mech.Stats{}, nil
	}
	if len(idx) == len(m.dets) {
		// idx is increasing: every contact, in detection order (a rank
		// without free ghosts).
		return m.solveBalls(&m.loc, m.dets, m.vplus, &m.prob)
	}
	m.sub = m.sub[:0]
	for _, k := range idx {
		m.sub = append(m.sub, m.dets[k])
	}
	return m.solveBalls(&m.loc, m.sub, m.vplus, &m.prob)
}

func (m *ballModel) setVel(i int, v []float64) { m.vplus[2*i], m.vplus[2*i+1] = v[0], v[1] }

func (m *ballModel) solveRoot(bodies []body, cs []contact) (mech.Stats, error) {
	s := &m.bsys
	loadBalls(s, bodies)
	m.ccs = m.ccs[:0]
	for _, c := range cs {
		m.ccs = append(m.ccs, ball2d.Contact{Kind: ball2d.ContactKind(c.kind), I: c.i, J: c.j, Obj: c.obj,
			N: [2]float64{c.d[0], c.d[1]}, PortalI: -1, PortalJ: -1})
	}
	m.cvplus = grow(m.cvplus, 2*len(bodies))
	st, err := m.solveBalls(s, m.ccs, m.cvplus, &m.bprob)
	if err != nil {
		return st, err
	}
	for i := range bodies {
		bodies[i].p[0], bodies[i].p[1] = m.cvplus[2*i], m.cvplus[2*i+1]
	}
	return st, nil
}

// advance: free flight from qᵗ with v⁺.
func (m *ballModel) advance() {
	loc := &m.loc
	loc.FreeFlight(loc.Q, m.vplus, m.h, m.qt, m.vt)
	// The local system takes the new state (the core reuses it when the
	// next step has the same bodies).
	loc.Q, m.qt = m.qt, loc.Q
	loc.V, m.vt = m.vt, loc.V
}

// store copies the owned balls' state from the local system into own.
func (m *ballModel) store(own []body) {
	loc := &m.loc
	k := 0
	for i := range m.all {
		if m.all[i].ghost {
			continue
		}
		o := &own[k]
		o.x[0], o.x[1], o.p[0], o.p[1] = loc.Q[2*i], loc.Q[2*i+1], loc.V[2*i], loc.V[2*i+1]
		k++
	}
}

func (m *ballModel) momentum(b *body, p *[3]float64) {
	p[0] += b.p[2] * b.p[0]
	p[1] += b.p[2] * b.p[1]
}

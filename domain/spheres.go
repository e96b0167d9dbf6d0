package domain

import (
	"fmt"
	"math"
	"slices"
	"time"

	"impactsim/mech"
	"impactsim/mpi"
	"impactsim/par"
	"impactsim/spheres"
)

// SpheresConfig says how a sphere system (package spheres) is split over
// the ranks.
type SpheresConfig struct {
	// Lo and Hi bound the decomposed region, cut into Dims[0] × Dims[1] ×
	// Dims[2] equal subdomains, one per rank (Dims zero: mpi.DimsCreate).
	// A sphere belongs to the subdomain holding its centre; centres
	// outside a non-periodic region belong to the nearest edge subdomain.
	Lo, Hi [3]float64
	Dims   [3]int
	// Periodic makes x (0) and y (1) wrap around [Lo, Hi): the
	// decomposition's periodic images replace spheres.Periodic.
	Periodic [2]bool
	// H is the time step.
	H float64
	// Law is the collision integrator's contact law (StepImpact: an
	// impact operator and friction, solved island by island); islands
	// crossing subdomains are solved on Root. Every operator of package
	// impact gives the single-process StepImpact's result with
	// ImpactConfig.Canonical, bit for bit, on any number of ranks.
	Law spheres.Law
	// NBGS, when set, makes Step a step of Preclik et al.'s time stepping
	// (spheres.Step) whose sweeps run across the ranks in the way Sweeps
	// says (nbgs.go) instead of Alg. 4 with Law. Epsilon is the error
	// reduction of its gap term.
	NBGS    *NBGSConfig
	Epsilon float64
	// Root is the rank that solves the islands crossing subdomains.
	Root int
	// Pool, if set, runs the rank's detection, free flight and island
	// solves on its workers (bitwise as a serial rank).
	Pool *par.Pool
}

// Spheres is one rank's part of a distributed sphere system: the spheres
// whose centres lie in its subdomain. Step advances the whole system by
// one step across all ranks (collective).
type Spheres struct {
	*grid
	m *sphereModel
}

// NewSpheres splits the system sys, which every rank holds whole, over the
// ranks of c: each rank keeps the spheres of its subdomain. Global ids are
// the spheres' IDs, which must be distinct and ≥ 0 (a system built with
// Add has 0 … N−1; one whose spheres were added and removed, any set).
// sys must not be periodic itself (use SpheresConfig.Periodic).
// NewSpheresPart builds the same split without any rank holding sys.
func NewSpheres(c mpi.Comm, sys *spheres.System, cfg SpheresConfig) (*Spheres, error) {
	ids := slices.Clone(sys.ID)
	slices.Sort(ids)
	for k, id := range ids {
		if id < 0 || (k > 0 && id == ids[k-1]) {
			return nil, fmt.Errorf("domain: sphere ID %d is negative or held by two spheres; the IDs must be distinct and ≥ 0", id)
		}
	}
	return newSpheres(c, sys.N(), false, cfg, func(func(x [3]float64) bool) (*spheres.System, error) { return sys, nil })
}

// NewSpheresPart splits a system of n spheres (IDs 0 … n−1) that no rank
// holds whole (collective): every rank calls build once with the
// predicate of its subdomain (the owner of a centre, after the periodic
// wrap), and build returns a system holding at least the spheres whose
// centres it accepts, with their global IDs (spheres.System.AddID; a
// generator or reader that skips the others: patterns.NewPart,
// spheres.System.ReadStatePart); the rank keeps those and drops the rest.
// Walls, gravity and μ are taken from the system build returns, which
// must not be periodic itself. The result is NewSpheres' for the whole
// system, bit for bit. The ranks' kept spheres must number n together
// with IDs 0 … n−1, each once (checked: the count and the IDs' sum
// collectively, duplicates on one rank); an error of build or of these
// checks on any rank fails every rank (ErrOtherRank on the ranks whose
// own part was fine).
func NewSpheresPart(c mpi.Comm, n int, cfg SpheresConfig, build func(owns func(x [3]float64) bool) (*spheres.System, error)) (*Spheres, error) {
	return newSpheres(c, n, true, cfg, build)
}

// newSpheres is NewSpheres and NewSpheresPart: the grid, the rank's
// spheres (build), a collective check of their count (and, dense, of
// their IDs 0 … n−1), the halo.
func newSpheres(c mpi.Comm, n int, dense bool, cfg SpheresConfig, build func(owns func(x [3]float64) bool) (*spheres.System, error)) (*Spheres, error) {
	if !(cfg.H > 0) || math.IsInf(cfg.H, 0) {
		return nil, fmt.Errorf("domain: time step %v, want h > 0", cfg.H)
	}
	if cfg.NBGS != nil {
		if err := cfg.NBGS.check(cfg.Periodic); err != nil {
			return nil, err
		}
	} else if err := cfg.Law.Check(); err != nil {
		return nil, fmt.Errorf("domain: %w", err)
	}
	m := &sphereModel{cfg: cfg}
	g, err := newGrid(c, m, 3, cfg.Lo, cfg.Hi, cfg.Dims, [3]bool{cfg.Periodic[0], cfg.Periodic[1]}, cfg.Root)
	if err != nil {
		return nil, err
	}
	// From here every rank reaches the collective check, whatever fails
	// on it.
	berr := g.buildSpheres(m, n, dense, build)
	if err := g.checkParts(n, dense, berr); err != nil {
		return nil, err
	}
	d := &Spheres{grid: g, m: m}
	m.d = d
	if _, err := g.halo(); err != nil {
		return nil, err
	}
	return d, nil
}

// buildSpheres is a rank's part of newSpheres: its spheres from build,
// checked, adopted (those it owns) in ID order, and the local systems'
// walls and parameters from them.
func (g *grid) buildSpheres(m *sphereModel, n int, dense bool, build func(owns func(x [3]float64) bool) (*spheres.System, error)) error {
	sys, err := build(g.owns)
	if err != nil {
		return err
	}
	if sys.Periodic.L != [2]float64{} {
		return fmt.Errorf("domain: the sphere system is periodic itself; use SpheresConfig.Periodic")
	}
	if err := sys.Validate(); err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	for _, s := range []*spheres.System{&m.loc, &m.rsys} {
		s.Gravity, s.Mu = sys.Gravity, sys.Mu
		s.Planes = slices.Clone(sys.Planes)
		s.Boxes, s.Cylinders = sys.Boxes, sys.Cylinders
		s.SetPool(m.cfg.Pool)
	}
	if dense {
		// A part holds about its owned spheres: size own once (no growth
		// slack at the set-up's peak).
		k := 0
		for i := 0; i < sys.N(); i++ {
			if g.owns([3]float64(sys.X[3*i : 3*i+3])) {
				k++
			}
		}
		g.own = slices.Grow(g.own[:0], k)
	}
	for i := 0; i < sys.N(); i++ {
		if id := sys.ID[i]; dense && (id < 0 || id >= int64(n)) {
			return fmt.Errorf("domain: sphere %d has ID %d; the IDs must be 0 … %d", i, id, n-1)
		}
		b := body{gid: sys.ID[i]}
		copy(b.x[:], sys.X[3*i:3*i+3])
		putSphere(&b, sys, i)
		g.adopt(b)
	}
	return g.sortOwn()
}

// putSphere copies sphere i's payload into b: VW, Q, R, InvM, InvI.
func putSphere(b *body, s *spheres.System, i int) {
	copy(b.p[0:6], s.VW[6*i:6*i+6])
	copy(b.p[6:10], s.Q[4*i:4*i+4])
	b.p[10], b.p[11], b.p[12] = s.R[i], s.InvM[i], s.InvI[i]
}

// Step advances the distributed system by one step (collective): with
// SpheresConfig.NBGS a step of Preclik et al.'s time stepping with the
// sweeps across ranks (nbgs.go), otherwise one of Alg. 4 with the law on
// every island, the islands across subdomains solved on Root.
func (d *Spheres) Step() error {
	if d.m.cfg.NBGS != nil {
		return d.stepNBGS()
	}
	return d.step()
}

// SetPlane sets plane k of every rank's local system (and Root's) to p
// before a step: a wall moved by a prescribed motion (spheres.Plane.Follow,
// a vibrated floor) reaches the whole distributed system. Every rank must
// set the same plane (not collective: no message is sent).
func (d *Spheres) SetPlane(k int, p spheres.Plane) error {
	if k < 0 || k >= len(d.m.loc.Planes) {
		return fmt.Errorf("domain: plane %d, the system has %d", k, len(d.m.loc.Planes))
	}
	d.m.loc.Planes[k] = p
	d.m.rsys.Planes[k] = p
	return nil
}

// Plane returns plane k of the rank's local system (every rank holds the
// same planes).
func (d *Spheres) Plane(k int) spheres.Plane { return d.m.loc.Planes[k] }

// AddSphere offers a new sphere to this rank (not collective: every rank
// offers the same spheres, each keeps those whose centre lies in its
// subdomain): ID id, centre x, velocity v, angular velocity w, identity
// orientation, radius r and density rho, with the mass and inertia of
// spheres.System.Add. It reports whether this rank kept it. The new
// sphere takes part from the next step on.
func (d *Spheres) AddSphere(id int64, x, v, w [3]float64, r, rho float64) (bool, error) {
	if id < 0 {
		return false, fmt.Errorf("domain: sphere ID %d, want ≥ 0", id)
	}
	b := body{gid: id, x: x}
	b.p = [maxPay]float64{v[0], v[1], v[2], w[0], w[1], w[2], 1, 0, 0, 0, r}
	b.p[11], b.p[12] = spheres.Inverses(r, rho)
	return d.insert(b)
}

// RemoveSpheres deletes this rank's spheres whose centre x and ID make
// drop true and returns how many (not collective: each sphere is deleted
// by its owner; its copies on the neighbours vanish with the next step's
// ghost exchange). It does not allocate.
func (d *Spheres) RemoveSpheres(drop func(x *[3]float64, id int64) bool) int { return d.remove(drop) }

// Census returns the whole system's sphere count, the last step's
// contacts (pairs among them) and its largest penetrations (collective;
// every rank gets them).
func (d *Spheres) Census() (Census, error) { return d.census() }

// KineticEnergy returns Σ ½m|v|² + ½I|ω|² of the whole system on every
// rank (collective): each rank sums its spheres in ID order, Root adds
// the ranks' sums in rank order.
func (d *Spheres) KineticEnergy() (float64, error) {
	d.syncOwn()
	e := 0.0
	for i := range d.own {
		p := &d.own[i].p
		e += 0.5 * ((p[0]*p[0]+p[1]*p[1]+p[2]*p[2])/p[11] + (p[3]*p[3]+p[4]*p[4]+p[5]*p[5])/p[12])
	}
	if d.m.ke == nil {
		d.m.ke = make([]float64, 1) // MPI buffers hold no Go pointers
	}
	d.m.ke[0] = e
	s, err := d.sumOrdered(d.m.ke)
	if err != nil {
		return 0, err
	}
	return s[0], nil
}

// CheckIDs checks that every sphere is held by exactly one rank and
// returns their number (collective; it gathers every ID on Root).
func (d *Spheres) CheckIDs() (int, error) { return d.grid.CheckIDs() }

// Owned returns this rank's spheres in ID order: IDs (as float64, exact
// below 2⁵³), centres, velocities, angular velocities and radii, in
// slices reused by the next call (a rank's piece of an output frame).
func (d *Spheres) Owned() (ids []float64, pos, vel, omega [][3]float64, r []float64) {
	d.syncOwn()
	m := d.m
	k := len(d.own)
	m.oid, m.or = grow(m.oid, k), grow(m.or, k)
	if cap(m.opos) < k {
		m.opos, m.ovel, m.oom = make([][3]float64, k), make([][3]float64, k), make([][3]float64, k)
	}
	m.opos, m.ovel, m.oom = m.opos[:k], m.ovel[:k], m.oom[:k]
	for i := range d.own {
		o := &d.own[i]
		m.oid[i], m.or[i] = float64(o.gid), o.p[10]
		m.opos[i] = o.x
		m.ovel[i] = [3]float64{o.p[0], o.p[1], o.p[2]}
		m.oom[i] = [3]float64{o.p[3], o.p[4], o.p[5]}
	}
	return m.oid, m.opos, m.ovel, m.oom, m.or
}

// GatherSystem replaces, on root, the spheres of sys by the whole
// distributed system's, in ID order, and its planes' positions by the
// distributed ones (collective; other ranks leave sys alone). Unlike
// GatherState it takes any set of IDs (spheres inserted and deleted);
// sys's next ID is left to the caller (spheres.System.SetNextID).
func (d *Spheres) GatherSystem(root int, sys *spheres.System) error {
	all, err := d.gather(root)
	if err != nil || d.cart.Rank() != root {
		return err
	}
	if len(sys.Planes) != len(d.m.loc.Planes) {
		return fmt.Errorf("domain: the target system has %d planes, the distributed one %d", len(sys.Planes), len(d.m.loc.Planes))
	}
	d.fill(sys, all)
	return nil
}

// fill makes sys hold the gathered spheres all, in their order, and the
// distributed planes' positions.
func (d *Spheres) fill(sys *spheres.System, all []body) {
	sys.Remove(func(int) bool { return true })
	for i := range all {
		b := &all[i]
		sys.X = append(sys.X, b.x[:]...)
		sys.VW = append(sys.VW, b.p[0:6]...)
		sys.Q = append(sys.Q, b.p[6:10]...)
		sys.R = append(sys.R, b.p[10])
		sys.InvM = append(sys.InvM, b.p[11])
		sys.InvI = append(sys.InvI, b.p[12])
		sys.ID = append(sys.ID, b.gid)
	}
	for k := range sys.Planes {
		sys.Planes[k].P = d.m.loc.Planes[k].P
	}
}

// Momentum returns the total linear momentum Σ mᵢ vᵢ (collective; every
// rank gets it).
func (d *Spheres) Momentum() ([3]float64, error) { return d.momentum() }

// Gather returns on root the state of all n spheres indexed by global id
// (centres 3n, orientations 4n, velocities 6n, as spheres.System's X, Q,
// VW); other ranks get nil (collective). The slices are reused.
func (d *Spheres) Gather(root, n int) (x, q, vw []float64, err error) {
	all, err := d.gather(root)
	if err != nil || d.cart.Rank() != root {
		return nil, nil, nil, err
	}
	m := d.m
	m.gx, m.gq, m.gvw = grow(m.gx, 3*n), grow(m.gq, 4*n), grow(m.gvw, 6*n)
	for i := range all {
		b := &all[i]
		if b.gid < 0 || b.gid >= int64(n) {
			return nil, nil, nil, fmt.Errorf("domain: gathered sphere %d, ids are in [0, %d)", b.gid, n)
		}
		g := int(b.gid)
		copy(m.gx[3*g:3*g+3], b.x[:])
		copy(m.gq[4*g:4*g+4], b.p[6:10])
		copy(m.gvw[6*g:6*g+6], b.p[0:6])
	}
	return m.gx, m.gq, m.gvw, nil
}

// sphereModel is the spheres' model: a sphere's payload is (VW, Q, R,
// InvM, InvI), a contact's data its normal and known relative velocity
// (spheres.ContactData); the local system and Root's are spheres.Systems
// run stage by stage (spheres/decompose.go) in the canonical contact
// order.
type sphereModel struct {
	cfg         SpheresConfig
	d           *Spheres
	loc, rsys   spheres.System
	all         []body
	cs          []contact
	keep        []bool
	cds         []spheres.ContactData
	gx, gq, gvw []float64
	nb          nbgsWork
	marg        [2]float64 // NBGS: this rank's detection margin, all ranks'
	ke          []float64
	// Owned's slices
	oid, or         []float64
	opos, ovel, oom [][3]float64
}

func (m *sphereModel) nv() int    { return 6 }
func (m *sphereModel) np() int    { return maxPay }
func (m *sphereModel) ndata() int { return 6 }

// extent: d_max = h max|v| + ½h²|g| (Alg. 4's prediction), or with NBGS
// half the detection's margin h(2 max|v̂| + max|V_wall|) after the kick.
func (m *sphereModel) extent(own []body) (r, d float64) {
	h := m.cfg.H
	gv := m.loc.Gravity
	g := math.Sqrt(gv[0]*gv[0] + gv[1]*gv[1] + gv[2]*gv[2])
	v2 := 0.0
	for i := range own {
		o := &own[i]
		r = max(r, o.p[10])
		v := o.p[0:3]
		if m.cfg.NBGS != nil {
			v = []float64{v[0] + h*gv[0], v[1] + h*gv[1], v[2] + h*gv[2]}
		}
		v2 = max(v2, v[0]*v[0]+v[1]*v[1]+v[2]*v[2])
	}
	if m.cfg.NBGS != nil {
		w2 := 0.0
		for _, p := range m.loc.Planes {
			w2 = max(w2, p.V[0]*p.V[0]+p.V[1]*p.V[1]+p.V[2]*p.V[2])
		}
		return r, 0.5 * h * (2*math.Sqrt(v2) + math.Sqrt(w2))
	}
	return r, h*math.Sqrt(v2) + 0.5*h*h*g
}

func loadSpheres(s *spheres.System, all []body) {
	n := len(all)
	s.X, s.Q, s.VW = grow(s.X, 3*n), grow(s.Q, 4*n), grow(s.VW, 6*n)
	s.R, s.InvM, s.InvI = grow(s.R, n), grow(s.InvM, n), grow(s.InvI, n)
	if cap(s.ID) < n {
		s.ID = make([]int64, n, n+n/4+16)
	}
	s.ID = s.ID[:n]
	for i := range all {
		a := &all[i]
		copy(s.X[3*i:3*i+3], a.x[:])
		copy(s.VW[6*i:6*i+6], a.p[0:6])
		copy(s.Q[4*i:4*i+4], a.p[6:10])
		s.R[i], s.InvM[i], s.InvI[i], s.ID[i] = a.p[10], a.p[11], a.p[12], a.gid
	}
}

func (m *sphereModel) load(all []body, state bool) {
	m.all = all
	if state {
		loadSpheres(&m.loc, all)
	}
}

// detect: Alg. 4's active set of the local system in the canonical order
// (pairs by (ID_i, ID_j), then walls by (wall, ID)).
//
// With NBGS: the kick, then the contacts at the current positions whose
// gap closes within the whole system's margin (the largest of the ranks'),
// in the canonical order.
func (m *sphereModel) detect() ([]contact, error) {
	if m.cfg.NBGS == nil {
		if _, err := m.loc.DetectImpact(m.cfg.H); err != nil {
			return nil, err
		}
		return m.contacts(), nil
	}
	h := m.cfg.H
	m.loc.Kick(h)
	g := m.d.grid
	m.marg[0] = m.loc.Margin(h, false)
	t := time.Now()
	err := g.cart.Allreduce(m.marg[0:1], m.marg[1:2], mpi.Max)
	g.Last.Comm += time.Since(t)
	if err != nil {
		return nil, err
	}
	m.loc.SetMargin(m.marg[1])
	if err := m.loc.DetectNBGS(h, m.cfg.Epsilon); err != nil {
		return nil, err
	}
	return m.contacts(), nil
}

// contacts converts the local system's contacts for the core.
func (m *sphereModel) contacts() []contact {
	cs := m.cs[:0]
	for k := range m.loc.Contacts() {
		c := m.loc.Contact(k)
		kind, obj := int32(0), int32(-1)
		if c.J < 0 {
			kind, obj = 1, -1-c.J
		}
		cs = append(cs, contact{i: c.I, j: c.J, kind: kind, obj: obj, k: int32(k),
			d: [6]float64{c.N[0], c.N[1], c.N[2], c.Rel[0], c.Rel[1], c.Rel[2]}})
	}
	m.cs = cs
	return cs
}

func lawStats(st *spheres.ImpactStats) mech.Stats {
	l := st.Law
	l.Iterations = max(l.Iterations, st.MaxIslandIterations)
	return l
}

func (m *sphereModel) solve(idx []int32) (mech.Stats, error) {
	n := m.loc.Contacts()
	if len(idx) == n {
		// idx is increasing: every contact is kept (a rank without free
		// ghosts), the list stays as detected.
		var st spheres.ImpactStats
		err := m.loc.SolveImpact(&m.cfg.Law, &st)
		return lawStats(&st), err
	}
	if cap(m.keep) < n {
		m.keep = make([]bool, n, n+n/4+16)
	}
	keep := m.keep[:n]
	clear(keep)
	for _, k := range idx {
		keep[k] = true
	}
	m.loc.KeepContacts(keep)
	var st spheres.ImpactStats
	err := m.loc.SolveImpact(&m.cfg.Law, &st)
	return lawStats(&st), err
}

func (m *sphereModel) setVel(i int, v []float64) { copy(m.loc.VW[6*i:6*i+6], v) }

func (m *sphereModel) solveRoot(bodies []body, cs []contact) (mech.Stats, error) {
	s := &m.rsys
	loadSpheres(s, bodies)
	m.cds = m.cds[:0]
	for _, c := range cs {
		j := c.j
		if c.kind != 0 {
			j = -1 - c.obj
		}
		m.cds = append(m.cds, spheres.ContactData{I: c.i, J: j, N: [3]float64{c.d[0], c.d[1], c.d[2]}, Rel: [3]float64{c.d[3], c.d[4], c.d[5]}})
	}
	s.SetContacts(m.cds)
	var st spheres.ImpactStats
	if err := s.SolveImpact(&m.cfg.Law, &st); err != nil {
		return lawStats(&st), err
	}
	for i := range bodies {
		copy(bodies[i].p[0:6], s.VW[6*i:6*i+6])
	}
	return lawStats(&st), nil
}

// advance: free flight from xᵗ with v⁺ (or, with NBGS, the drift), and
// the walls' motion.
func (m *sphereModel) advance() {
	if m.cfg.NBGS != nil {
		m.loc.Drift(m.cfg.H)
	} else {
		m.loc.FreeFlight(m.cfg.H)
	}
}

// store copies the owned spheres' state from the local system into own.
func (m *sphereModel) store(own []body) {
	s := &m.loc
	k := 0
	for i := range m.all {
		if m.all[i].ghost {
			continue
		}
		o := &own[k]
		copy(o.x[:], s.X[3*i:3*i+3])
		copy(o.p[0:6], s.VW[6*i:6*i+6])
		copy(o.p[6:10], s.Q[4*i:4*i+4])
		k++
	}
}

func (m *sphereModel) momentum(b *body, p *[3]float64) {
	for d := 0; d < 3; d++ {
		p[d] += b.p[d] / b.p[11]
	}
}

// GatherState writes the whole distributed state into sys on root: the
// centres, orientations and velocities of its spheres and the planes'
// positions (collective; other ranks leave sys alone). A sys that holds
// the system's spheres with sphere i of ID i (as NewSpheres was given
// them) is written in place; any other sys (a rank's part from
// NewSpheresPart, or one with the walls and no spheres) is made to hold
// the whole system in ID order, radii and masses included, as
// GatherSystem does, with its next ID at least past the largest.
// sys.WriteState then makes a checkpoint that NewSpheres or
// NewSpheresPart restarts on any number of ranks.
func (d *Spheres) GatherState(root int, sys *spheres.System) error {
	all, err := d.gather(root)
	if err != nil || d.cart.Rank() != root {
		return err
	}
	if len(sys.Planes) != len(d.m.loc.Planes) {
		return fmt.Errorf("domain: the target system has %d planes, the distributed one %d", len(sys.Planes), len(d.m.loc.Planes))
	}
	inPlace := sys.N() == len(all)
	for i := 0; inPlace && i < len(all); i++ {
		inPlace = sys.ID[i] == int64(i) && all[i].gid == int64(i)
	}
	if !inPlace {
		d.fill(sys, all)
		if k := len(all); k > 0 {
			sys.SetNextID(max(sys.NextID(), all[k-1].gid+1))
		}
		return nil
	}
	for i := range all {
		b := &all[i]
		copy(sys.X[3*i:3*i+3], b.x[:])
		copy(sys.Q[4*i:4*i+4], b.p[6:10])
		copy(sys.VW[6*i:6*i+6], b.p[0:6])
	}
	for k := range sys.Planes {
		sys.Planes[k].P = d.m.loc.Planes[k].P
	}
	return nil
}

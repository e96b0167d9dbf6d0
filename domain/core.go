package domain

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"impactsim/mech"
	"impactsim/mpi"
)

// The decomposition's core, shared by every system it splits (2D balls,
// balls.go; 3D spheres, spheres.go): a Cartesian grid of subdomains,
// bodies owned by the subdomain of their centre, ghosts within the
// interaction halo, migration, periodic images, the islands that cross
// subdomains gathered to Root. A system enters through its model.

// maxPay is the longest payload a body carries (a sphere's: VW, Q, R,
// InvM, InvI).
const maxPay = 13

// body is one body as the decomposition moves it: global id, centre (of
// the image, for a ghost), the model's payload — its velocity first (nv
// values), then what else the model needs — the image's periodic shift
// in periods per dimension, and two flags.
type body struct {
	gid   int64
	x     [3]float64
	p     [maxPay]float64
	s     [3]int8
	fixed bool
	ghost bool
	ord   int32 // a ghost's arrival number in the step's ghost exchange
}

// key orders bodies by global id, then image shift: the order of a rank's
// local system.
func key(a, b body) int {
	return cmp.Or(cmp.Compare(a.gid, b.gid), cmp.Compare(a.s[0], b.s[0]), cmp.Compare(a.s[1], b.s[1]), cmp.Compare(a.s[2], b.s[2]))
}

// contact is a contact of a rank's local system as the core sees it: the
// local bodies i and j (j < 0: geometry), the kind and object (−1 for
// body pairs) by which the whole system's detection orders contacts
// (kind, object, gid_i, gid_j), the index k in the model's detection,
// and the model's data (normal and known velocities).
type contact struct {
	i, j      int32
	kind, obj int32
	k         int32
	d         [6]float64
}

// model is what the core needs of a system.
type model interface {
	// velocity and payload lengths (velocity first in the payload)
	nv() int
	np() int
	// ndata is the number of contact data values the model uses.
	ndata() int
	// extent returns the largest radius of the bodies and the largest
	// distance a centre can move in the step (the halo is 2r + 2d).
	extent(own []body) (r, d float64)
	// load makes the local system of the bodies all (owned and ghosts in
	// key order); with state false the local system already holds them,
	// as the last advance left them, and only all is taken.
	load(all []body, state bool)
	// detect returns the local system's contacts in the order the whole
	// system's detection would give them.
	detect() ([]contact, error)
	// solve solves the islands of the contacts idx (indices into detect's
	// list) and keeps v⁺ (the other bodies keep v).
	solve(idx []int32) (mech.Stats, error)
	// setVel sets v⁺ of local body i.
	setVel(i int, v []float64)
	// solveRoot solves the crossing islands: bodies (sorted by gid,
	// positions of no use) and contacts with i, j indices into bodies;
	// v⁺ goes into the bodies' payloads.
	solveRoot(bodies []body, cs []contact) (mech.Stats, error)
	// advance ends the step in the local system.
	advance()
	// store writes the local system's state of every owned body to own
	// (in order).
	store(own []body)
	// momentum adds the body's linear momentum to p.
	momentum(b *body, p *[3]float64)
}

// Message tags of a step (user tags of the Cartesian communicator).
const (
	tagGhost   = 10 // + 2·dim + (0 up, 1 down)
	tagMigrate = 20 // + 2·dim + (0 up, 1 down)
	tagGather  = 30
	tagResult  = 31
	tagState   = 32
	tagReport  = 33
	tagSync    = 50 // + 2·dim + (0 up, 1 down): NBGS velocity syncs
	tagBack    = 60 // + 2·dim + (0 up, 1 down): NBGS ghost → owner
	tagSum     = 70 // sumOrdered (+1: the broadcast)
	tagIDs     = 72 // CheckIDs (+1: the verdict)
	tagRows    = 74 // GatherRows
)

// Stats describes the last step on this rank.
type Stats struct {
	Owned, Ghosts int
	// Contacts is the number of contacts this rank kept; Local those of
	// islands it solved alone, Boundary those it sent to Root.
	Contacts, Local, Boundary int
	// Solved is the number of contacts Root solved for the crossing
	// islands (0 on other ranks).
	Solved int
	// Halo is the interaction halo of the step (0 on a rank with no
	// neighbour, which exchanges nothing).
	Halo float64
	// BytesSent counts the payload bytes this rank sent; Comm is the
	// time spent in exchanges and collectives, Total the step's.
	BytesSent   int
	Comm, Total time.Duration
	// Detect is the time of the prediction and contact detection.
	Detect time.Duration
	Law    mech.Stats
	// Pairs is the number of body–body contacts among Contacts;
	// MaxPenetration and MaxWallPenetration the largest overlaps of two
	// bodies and of a body and a wall this rank detected (NBGS steps).
	Pairs                              int
	MaxPenetration, MaxWallPenetration float64
}

// Totals sums a rank's Stats over the steps taken (since New).
type Totals struct {
	Steps               int
	Owned, Ghosts       int // summed over the steps
	Boundary, Solved    int
	BytesSent           int
	Comm, Total, Gather time.Duration // Gather: the state gathered to Root for output (Attach)
}

// grid is the decomposition of one rank: its subdomain, its bodies and the
// step's workspaces.
type grid struct {
	cart                  *mpi.Cart
	m                     model
	nd                    int // decomposed dimensions (2 or 3)
	glo, ghi              [3]float64
	dims                  [3]int
	periodic              [3]bool
	root                  int
	coord                 [3]int
	lo, hi, width, period [3]float64

	// N is the number of steps taken.
	N int

	own []body // sorted by key

	// isolated: no neighbour along any dimension (one rank, not
	// periodic): nothing is exchanged, no body migrates.
	isolated bool
	// reuse: the model's local system holds own, in order, as the last
	// step left it (no ghosts, nothing wrapped or migrated): the next
	// step need not load it again.
	reuse    bool
	migrated bool // the last migration moved a body
	// stale: own's positions and velocities lag the local system, which
	// holds the state (an isolated rank between steps; syncOwn).
	stale  bool
	ext    [4]float64
	identN int // ownAll is the identity of this length (no ghosts)

	all             []body // owned and ghosts, in key order (own itself when there are no ghosts)
	allBuf          []body // all's storage when there are ghosts
	ghosts, got     []body
	out, in         [][]float64
	parent          []int32
	cross           []bool
	cs              []contact
	kept            []contact
	local, boundary []contact
	idx             []int32
	// Root's crossing-island workspaces
	cballs []body
	ccons  []crossContact
	ccs    []contact
	cres   []float64
	rbuf   []float64 // the crossing islands' v⁺ received from Root
	gath   [][]float64
	gmsg   []float64
	gin    [][]float64
	gbod   []body
	vbuf   [6]float64

	// The routes of the step's ghosts (the NBGS syncs, nbgs.go): per
	// dimension and direction the bodies sent (ref: own index, or the
	// number of own bodies + a ghost's arrival number) and the arrival
	// numbers received; where own bodies and ghosts sit in all.
	sref     [3][2][]int32
	arr      [3][2][2]int32
	legs     [3][]mpi.Leg
	ownAll   []int32
	ghostAll []int32
	sent     [3][2][]int32 // routes (nbgs.go): local indices in message order
	came     [3][2][]int32
	mark     []int32 // per local body: the epoch that last marked it (nbgs.go)
	epoch    int32
	marked   []int32 // the bodies marked in the current epoch
	back     []int32
	// blocks, when set, makes ownership follow a grid of blocks[d] cells
	// per dimension (each subdomain a whole number of them): the colours
	// of the reproducible NBGS sweeps.
	blocks [3]int

	cen     []float64 // census's reduction buffers
	removed int       // bodies deleted since the last census

	Last  Stats
	Total Totals
}

// newGrid sets up the rank's subdomain of the region [lo, hi] cut into
// dims subdomains (nd dimensions).
func newGrid(c mpi.Comm, m model, nd int, lo, hi [3]float64, dims [3]int, periodic [3]bool, root int) (*grid, error) {
	if dims == [3]int{} {
		d := mpi.DimsCreate(c.Size(), nd)
		copy(dims[:], d)
	}
	for d := nd; d < 3; d++ {
		dims[d] = 1
	}
	for d := 0; d < nd; d++ {
		if !(hi[d] > lo[d]) {
			return nil, fmt.Errorf("domain: region [%v, %v] along dimension %d is empty", lo[d], hi[d], d)
		}
	}
	if root < 0 || root >= c.Size() {
		return nil, fmt.Errorf("domain: root rank %d, the job has %d", root, c.Size())
	}
	cart, err := mpi.NewCart(c, dims[:nd], periodic[:nd])
	if err != nil {
		return nil, fmt.Errorf("domain: %w", err)
	}
	g := &grid{cart: cart, m: m, nd: nd, glo: lo, ghi: hi, dims: dims, periodic: periodic, root: root}
	x := cart.Coords(cart.Rank())
	for d := 0; d < nd; d++ {
		g.coord[d] = x[d]
		g.period[d] = hi[d] - lo[d]
		g.width[d] = g.period[d] / float64(dims[d])
		g.lo[d] = lo[d] + float64(x[d])*g.width[d]
		g.hi[d] = lo[d] + float64(x[d]+1)*g.width[d]
	}
	g.isolated = true
	for d := 0; d < nd; d++ {
		if src, dst := cart.Shift(d, 1); src != mpi.ProcNull || dst != mpi.ProcNull {
			g.isolated = false
		}
	}
	return g, nil
}

// adopt keeps the body if its centre lies in this rank's subdomain
// (centres outside a periodic region wrapped first).
func (g *grid) adopt(b body) {
	if !g.owns(b.x) {
		return
	}
	g.wrap(&b)
	g.own = append(g.own, b)
}

// owns reports whether a body centred at x belongs to this rank's
// subdomain (after the periodic wrap): adopt's test.
func (g *grid) owns(x [3]float64) bool {
	b := body{x: x}
	g.wrap(&b)
	for d := 0; d < g.nd; d++ {
		if g.cell(b.x[d], d) != g.coord[d] {
			return false
		}
	}
	return true
}

// ErrOtherRank is the error of NewPart and NewSpheresPart on a rank whose
// own part was fine when another rank's failed (that rank returns the
// cause).
var ErrOtherRank = errors.New("domain: the set-up failed on other ranks")

// checkParts is the collective end of building the ranks' parts: one
// Allreduce of (bodies kept, Σ id, failures). It returns berr on the
// rank whose build failed and ErrOtherRank on the others; then checks
// that the ranks keep n bodies together and, dense, that the ids' sum is
// n(n−1)/2 (ids 0 … n−1, each once; compared while exact, n < 2²⁶): a
// body missing or kept by two ranks fails on every rank.
func (g *grid) checkParts(n int, dense bool, berr error) error {
	failed := 0.0
	if berr != nil {
		failed = 1
	}
	sum := 0.0
	for i := range g.own {
		sum += float64(g.own[i].gid)
	}
	in, out := []float64{float64(len(g.own)), sum, failed}, make([]float64, 3)
	if err := g.cart.Allreduce(in, out, mpi.Sum); err != nil {
		return err
	}
	switch {
	case berr != nil:
		return berr
	case out[2] > 0:
		return fmt.Errorf("%w (%.0f)", ErrOtherRank, out[2])
	case out[0] != float64(n):
		return fmt.Errorf("domain: the ranks keep %.0f bodies together, the system has %d", out[0], n)
	case dense && float64(n) < 1<<26 && out[1] != float64(n)*float64(n-1)/2:
		return fmt.Errorf("domain: the ranks' body ids are not 0 … %d, each once", n-1)
	}
	return nil
}

// sortOwn puts the adopted bodies in key order (a part may come in any
// order) and refuses an id held twice.
func (g *grid) sortOwn() error {
	if !slices.IsSortedFunc(g.own, key) {
		slices.SortFunc(g.own, key)
	}
	for i := 1; i < len(g.own); i++ {
		if g.own[i].gid == g.own[i-1].gid {
			return fmt.Errorf("domain: two bodies of id %d", g.own[i].gid)
		}
	}
	return nil
}

// Cart returns the rank's Cartesian communicator.
func (g *grid) Cart() *mpi.Cart { return g.cart }

// cell returns the subdomain coordinate of position x along dimension d
// (clamped to the grid).
func (g *grid) cell(x float64, d int) int {
	if nb := g.blocks[d]; nb > 0 {
		return g.block(x, d) / (nb / g.dims[d])
	}
	c := int(math.Floor((x - g.glo[d]) / g.width[d]))
	return max(0, min(g.dims[d]-1, c))
}

// block returns the block coordinate of position x along dimension d
// (clamped to the blocks).
func (g *grid) block(x float64, d int) int {
	nb := g.blocks[d]
	c := int(math.Floor((x - g.glo[d]) / (g.period[d] / float64(nb))))
	return max(0, min(nb-1, c))
}

// wrap moves a centre outside a periodic dimension back into the region
// and reports whether it moved it.
func (g *grid) wrap(b *body) bool {
	moved := false
	for d := 0; d < g.nd; d++ {
		if !g.periodic[d] {
			continue
		}
		if b.x[d] >= g.ghi[d] {
			b.x[d] -= g.period[d]
			moved = true
		} else if b.x[d] < g.glo[d] {
			b.x[d] += g.period[d]
			moved = true
		}
	}
	return moved
}

// recLen is the length of a body's record on the wire: gid, centre,
// payload, fixed flag, shifts.
func (g *grid) recLen() int { return 2 + 2*g.nd + g.m.np() }

func (g *grid) put(dst []float64, b *body) []float64 {
	f := 0.0
	if b.fixed {
		f = 1
	}
	dst = append(dst, float64(b.gid))
	dst = append(dst, b.x[:g.nd]...)
	dst = append(dst, b.p[:g.m.np()]...)
	dst = append(dst, f)
	for d := 0; d < g.nd; d++ {
		dst = append(dst, float64(b.s[d]))
	}
	return dst
}

func (g *grid) get(src []float64) body {
	var b body
	b.gid = int64(src[0])
	k := 1
	k += copy(b.x[:g.nd], src[k:k+g.nd])
	np := g.m.np()
	k += copy(b.p[:np], src[k:k+np])
	b.fixed = src[k] != 0
	k++
	for d := 0; d < g.nd; d++ {
		b.s[d] = int8(src[k+d])
	}
	return b
}

// step is one step of the distributed system (collective): ghosts within
// the halo, local detection, the islands of this rank alone solved here,
// those across subdomains gathered to Root and solved there, the model's
// end of step, and migration.
func (g *grid) step() error {
	t0 := time.Now()
	g.Last = Stats{}
	if err := g.prepare(); err != nil {
		return err
	}
	local, boundary := g.classify(g.cs)
	g.Last.Local, g.Last.Boundary = len(local), len(boundary)
	g.Last.Contacts = len(local) + len(boundary)
	// Islands of this rank alone.
	g.idx = g.idx[:0]
	for _, c := range local {
		g.idx = append(g.idx, c.k)
	}
	st, err := g.m.solve(g.idx)
	g.addLaw(st)
	if err != nil {
		return fmt.Errorf("domain: step %d, rank %d, %d contacts of its own islands: %w", g.N+1, g.cart.Rank(), len(local), err)
	}
	// Islands across subdomains, solved on Root.
	if err := g.crossing(boundary); err != nil {
		return fmt.Errorf("domain: step %d: islands across subdomains: %w", g.N+1, err)
	}
	return g.finish(t0)
}

// prepare is the start of a step: the halo, the ghosts, the local system
// and its contacts (g.cs).
func (g *grid) prepare() error {
	if !(g.reuse && g.isolated && g.blocks == [3]int{}) {
		g.syncOwn()
	}
	halo, err := g.halo()
	if err != nil {
		return err
	}
	ghosts, err := g.exchange(g.own, halo, tagGhost, true)
	if err != nil {
		return fmt.Errorf("domain: step %d: ghost exchange: %w", g.N+1, err)
	}
	g.Last.Halo, g.Last.Owned, g.Last.Ghosts = halo, len(g.own), len(ghosts)
	g.assemble(ghosts)
	g.m.load(g.all, !(g.reuse && len(ghosts) == 0))
	g.reuse = false
	td := time.Now()
	g.cs, err = g.m.detect()
	g.Last.Detect = time.Since(td)
	if err != nil {
		return fmt.Errorf("domain: step %d, rank %d: %w", g.N+1, g.cart.Rank(), err)
	}
	return nil
}

// finish is the end of a step: the model's end, wrap, migration, totals.
func (g *grid) finish(t0 time.Time) error {
	g.m.advance()
	if g.isolated && g.blocks == [3]int{} {
		// Nothing reads own's state before the next step's detection,
		// which runs on the local system: own is written when read
		// (syncOwn).
		g.stale = true
	} else {
		g.m.store(g.own)
	}
	wrapped := false
	if g.periodic != [3]bool{} {
		for i := range g.own {
			if g.wrap(&g.own[i]) {
				wrapped = true
			}
		}
	}
	if err := g.migrate(); err != nil {
		return fmt.Errorf("domain: step %d: migration: %w", g.N+1, err)
	}
	// The local system holds own as it is now when the step had no
	// ghosts and no centre was wrapped or handed over.
	g.reuse = g.Last.Ghosts == 0 && !wrapped && !g.migrated
	g.N++
	g.Last.Total = time.Since(t0)
	l, t := &g.Last, &g.Total
	t.Steps++
	t.Owned += l.Owned
	t.Ghosts += l.Ghosts
	t.Boundary += l.Boundary
	t.Solved += l.Solved
	t.BytesSent += l.BytesSent
	t.Comm += l.Comm
	t.Total += l.Total
	return nil
}

// syncOwn writes the local system's state into own when own lags it.
func (g *grid) syncOwn() {
	if g.stale {
		g.m.store(g.own)
		g.stale = false
	}
}

// addLaw adds a solve's statistics to the step's: the problems of one step
// are parts of the whole system's, whose iteration count is the largest of
// theirs, not their sum.
func (g *grid) addLaw(st mech.Stats) {
	it := max(g.Last.Law.Iterations, st.Iterations)
	g.Last.Law.Add(st)
	g.Last.Law.Iterations = it
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4+16)
	}
	return s[:n]
}

// halo returns the interaction halo 2 r_max + 2 d_max over all ranks (the
// model's extent) and checks that it fits in a subdomain.
func (g *grid) halo() (float64, error) {
	if g.isolated && g.blocks == [3]int{} {
		// Nothing is exchanged and no width is checked: no halo needed
		// (the colour sweeps check their blocks against it).
		return 0, nil
	}
	loc, all := g.ext[0:2], g.ext[2:4]
	loc[0], loc[1] = g.m.extent(g.own)
	t := time.Now()
	err := g.cart.Allreduce(loc, all, mpi.Max)
	g.Last.Comm += time.Since(t)
	if err != nil {
		return 0, err
	}
	halo := (2*all[0] + 2*all[1]) * (1 + 1e-9)
	for d := 0; d < g.nd; d++ {
		if (g.dims[d] > 1 || g.periodic[d]) && halo > g.width[d] {
			return 0, fmt.Errorf("domain: step %d: interaction halo %.6g (2 r_max + 2 h v_max) exceeds the subdomain width %.6g along dimension %d: use fewer ranks along it", g.N+1, halo, g.width[d], d)
		}
	}
	return halo, nil
}

// exchange sends, one dimension after the other, the bodies of set that
// lie within reach of a neighbour's subdomain to it (ghosts: within halo
// of the shared face, images shifted across periodic faces, those
// received along earlier dimensions forwarded), or those whose centre lies
// in another subdomain (migration, ghosts false: they leave this rank). It
// returns the bodies received.
func (g *grid) exchange(set []body, halo float64, tag int, ghosts bool) ([]body, error) {
	got := g.got[:0]
	arrived := false
	if !ghosts {
		g.migrated = false
	}
	if ghosts {
		got = g.ghosts[:0]
	}
	if len(g.out) < 2 {
		g.out, g.in = make([][]float64, 2), make([][]float64, 2)
	}
	rl := g.recLen()
	nown := int32(len(set))
	for d := 0; d < g.nd; d++ {
		if ghosts {
			g.sref[d][0], g.sref[d][1] = g.sref[d][0][:0], g.sref[d][1][:0]
			g.arr[d] = [2][2]int32{}
			g.legs[d] = nil
		}
		src, dst := g.cart.Shift(d, 1)
		if src == mpi.ProcNull && dst == mpi.ProcNull {
			// No neighbour along d (one rank, not periodic): nothing
			// leaves, no ghost comes.
			continue
		}
		legs := []mpi.Leg{{Src: src, Dest: dst, Tag: tag + 2*d}, {Src: dst, Dest: src, Tag: tag + 2*d + 1}}
		if ghosts {
			g.legs[d] = legs
		}
		g.out[0], g.out[1] = g.out[0][:0], g.out[1][:0]
		var ref int32 // the body scan looks at
		last := g.coord[d] == g.dims[d]-1
		first := g.coord[d] == 0
		send := func(b body, up bool) {
			k := 1
			if up {
				k = 0
			}
			if ghosts && g.periodic[d] {
				if up && last {
					b.x[d] -= g.period[d]
					b.s[d]--
				} else if !up && first {
					b.x[d] += g.period[d]
					b.s[d]++
				}
			}
			g.out[k] = g.put(g.out[k], &b)
			if ghosts {
				g.sref[d][k] = append(g.sref[d][k], ref)
			}
		}
		// Migration filters set in place (kept bodies are written at or
		// before where they were read).
		keep := set[:0]
		scan := func(b *body) error {
			x := b.x[d]
			if ghosts {
				if dst != mpi.ProcNull && x > g.hi[d]-halo {
					send(*b, true)
				}
				if src != mpi.ProcNull && x < g.lo[d]+halo {
					send(*b, false)
				}
				return nil
			}
			delta := g.cell(x, d) - g.coord[d]
			if g.periodic[d] {
				n := g.dims[d]
				delta = ((delta % n) + n) % n
				if delta > n/2 {
					delta -= n
				}
			}
			switch {
			case delta == 0:
				if n := len(keep); n < cap(keep) && &keep[:n+1][n] == b {
					keep = keep[:n+1] // in place: no copy
				} else {
					keep = append(keep, *b)
				}
			case delta == 1 || delta == -1:
				g.migrated = true
				send(*b, delta == 1)
			default:
				return fmt.Errorf("body %d moved %d subdomains along dimension %d in one step", b.gid, delta, d)
			}
			return nil
		}
		for i := range set {
			ref = int32(i)
			if err := scan(&set[i]); err != nil {
				return nil, err
			}
		}
		for i := range got {
			ref = nown + int32(i)
			if err := scan(&got[i]); err != nil {
				return nil, err
			}
		}
		if !ghosts {
			// The bodies that stay: the unmoved ones, then those received
			// along the earlier dimensions that stay too.
			set, got = keep, got[:0]
		}
		t := time.Now()
		n, err := mpi.Exchange(g.cart, legs, g.out, g.in)
		g.Last.Comm += time.Since(t)
		g.Last.BytesSent += n
		if err != nil {
			return nil, err
		}
		for k := range g.in {
			g.arr[d][k][0] = int32(len(got))
			for j := 0; j+rl <= len(g.in[k]); j += rl {
				b := g.get(g.in[k][j : j+rl])
				b.ghost = ghosts
				b.ord = int32(len(got))
				got = append(got, b)
				arrived = true
			}
			g.arr[d][k][1] = int32(len(got))
		}
	}
	if ghosts {
		g.ghosts = got
		return got, nil
	}
	// The bodies that stayed are still in key order; arrivals need a sort.
	g.own = append(set, got...)
	g.migrated = g.migrated || arrived
	if arrived {
		slices.SortFunc(g.own, key)
	}
	g.got = got
	return nil, nil
}

// migrate hands every body whose centre left the subdomain to its new
// owner (through the faces, one dimension after the other, so a diagonal
// move takes several hops).
func (g *grid) migrate() error {
	_, err := g.exchange(g.own, 0, tagMigrate, false)
	return err
}

// assemble puts the owned bodies and the ghosts in key order into g.all.
func (g *grid) assemble(ghosts []body) {
	if len(ghosts) == 0 {
		// own alone, in its order: no copy.
		g.all = g.own
		g.ghostAll = g.ghostAll[:0]
		if n := len(g.own); g.identN != n {
			g.ownAll = g.ownAll[:0]
			for i := 0; i < n; i++ {
				g.ownAll = append(g.ownAll, int32(i))
			}
			g.identN = n
		}
		return
	}
	g.identN = -1
	// own is sorted and the ghosts are few: sort them and merge.
	slices.SortFunc(ghosts, key)
	g.all = g.allBuf[:0]
	g.ownAll, g.ghostAll = g.ownAll[:0], g.ghostAll[:0]
	for range ghosts {
		g.ghostAll = append(g.ghostAll, 0)
	}
	i, j := 0, 0
	for i < len(g.own) || j < len(ghosts) {
		if j == len(ghosts) || (i < len(g.own) && key(g.own[i], ghosts[j]) < 0) {
			g.ownAll = append(g.ownAll, int32(len(g.all)))
			g.all = append(g.all, g.own[i])
			i++
		} else {
			g.ghostAll[ghosts[j].ord] = int32(len(g.all))
			g.all = append(g.all, ghosts[j])
			j++
		}
	}
	g.allBuf = g.all
}

func (g *grid) find(i int32) int32 {
	p := g.parent
	for p[i] != i {
		p[i] = p[p[i]]
		i = p[i]
	}
	return i
}

// classify keeps the contacts this rank answers for — those with a free
// body it owns — and splits them into those of islands wholly in this
// rank (local) and those of islands reaching a free ghost (boundary).
// Islands are the components of the free bodies joined by contacts
// (fixed bodies and walls join nothing, as in package impact).
func (g *grid) classify(cs []contact) (local, boundary []contact) {
	all := g.all
	if g.Last.Ghosts == 0 {
		// No ghost: every island is this rank's alone; keep the contacts
		// with a free body.
		local = g.kept[:0]
		for _, c := range cs {
			if (c.i >= 0 && !all[c.i].fixed) || (c.j >= 0 && !all[c.j].fixed) {
				local = append(local, c)
			}
		}
		g.kept, g.boundary = local, g.boundary[:0]
		return local, g.boundary
	}
	n := int32(len(all))
	g.parent = g.parent[:0]
	for i := int32(0); i < n; i++ {
		g.parent = append(g.parent, i)
	}
	free := func(i int32) bool { return i >= 0 && !all[i].fixed }
	mine := func(i int32) bool { return free(i) && !all[i].ghost }
	g.kept = g.kept[:0]
	for _, c := range cs {
		if !mine(c.i) && !mine(c.j) {
			continue
		}
		g.kept = append(g.kept, c)
		if free(c.i) && free(c.j) {
			ri, rj := g.find(c.i), g.find(c.j)
			if ri != rj {
				g.parent[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	// A component is crossing when it holds a free ghost (cross is
	// indexed by the component's root).
	if cap(g.cross) < int(n) {
		g.cross = make([]bool, n, n+n/4+16)
	}
	cross := g.cross[:n]
	clear(cross)
	for _, c := range g.kept {
		for _, i := range [2]int32{c.i, c.j} {
			if free(i) && all[i].ghost {
				cross[g.find(i)] = true
			}
		}
	}
	local, boundary = g.local[:0], g.boundary[:0]
	for _, c := range g.kept {
		r := c.i
		if !free(r) {
			r = c.j
		}
		if cross[g.find(r)] {
			boundary = append(boundary, c)
		} else {
			local = append(local, c)
		}
	}
	g.local, g.boundary = local, boundary
	return local, boundary
}

// conLen is the length of a contact record sent to Root: kind, global
// ids of i and j (−1), object, the model's data, and the image shifts of
// i and j.
func (g *grid) conLen() int { return 4 + g.m.ndata() + 2*g.nd }

// crossing sends the contacts of the crossing islands and their bodies to
// Root, which merges them (a contact seen by the owners of both bodies is
// kept once: the copy whose body i is not an image), orders them as the
// whole system would, solves them and sends v⁺ of their free bodies back.
func (g *grid) crossing(cs []contact) error {
	if g.cart.Size() == 1 && len(cs) == 0 {
		return nil // Root is this rank and has nothing to solve
	}
	// Message: nbodies, then body records, then contact records.
	msg := g.out[0][:0]
	msg = append(msg, 0)
	// g.cross, free after classify, marks the bodies already packed.
	seen := g.cross[:len(g.all)]
	clear(seen)
	nb := 0
	for _, c := range cs {
		for _, i := range [2]int32{c.i, c.j} {
			if i >= 0 && !seen[i] {
				seen[i] = true
				msg = g.put(msg, &g.all[i])
				nb++
			}
		}
	}
	msg[0] = float64(nb)
	nd := g.m.ndata()
	for _, c := range cs {
		a := &g.all[c.i]
		gj := -1.0
		var sj [3]int8
		if c.j >= 0 {
			bj := &g.all[c.j]
			gj, sj = float64(bj.gid), bj.s
		}
		msg = append(msg, float64(c.kind), float64(a.gid), gj, float64(c.obj))
		msg = append(msg, c.d[:nd]...)
		for d := 0; d < g.nd; d++ {
			msg = append(msg, float64(a.s[d]))
		}
		for d := 0; d < g.nd; d++ {
			msg = append(msg, float64(sj[d]))
		}
	}
	g.out[0] = msg
	root := g.root
	if len(g.gath) < g.cart.Size() {
		g.gath = make([][]float64, g.cart.Size())
	}
	t := time.Now()
	err := mpi.Gather(g.cart, root, tagGather, msg, g.gath)
	g.Last.Comm += time.Since(t)
	if g.cart.Rank() != root {
		g.Last.BytesSent += 8 * len(msg)
	}
	if err != nil {
		return err
	}
	res := g.rbuf
	if g.cart.Rank() == root {
		if res, err = g.solveCrossing(); err != nil {
			return err
		}
	}
	t = time.Now()
	res, err = mpi.Bcast(g.cart, root, tagResult, res)
	if g.cart.Rank() != root {
		g.rbuf = res
	}
	g.Last.Comm += time.Since(t)
	if g.cart.Rank() == root {
		g.Last.BytesSent += 8 * len(res) * (g.cart.Size() - 1)
	}
	if err != nil {
		return err
	}
	// v⁺ of the owned bodies among the results.
	nv := g.m.nv()
	for j := 0; j+1+nv <= len(res); j += 1 + nv {
		gid := int64(res[j])
		i, ok := slices.BinarySearchFunc(g.all, gid, func(a body, g int64) int { return cmp.Compare(a.gid, g) })
		for ; ok && i < len(g.all) && g.all[i].gid == gid; i++ {
			if !g.all[i].ghost {
				g.m.setVel(i, res[j+1:j+1+nv])
			}
		}
	}
	return nil
}

type crossContact struct {
	c        contact
	gi, gj   int64
	sI, rel  [3]int8 // shift of i's image; shift of j relative to i
	fromReal bool
}

// solveCrossing is Root's part of crossing: the merged problem of every
// crossing island, solved, as (gid, v⁺) records.
func (g *grid) solveCrossing() ([]float64, error) {
	bodies, cons := g.cballs[:0], g.ccons[:0]
	defer func() { g.cballs, g.ccons = bodies[:0], cons[:0] }()
	rl, cl, nd := g.recLen(), g.conLen(), g.m.ndata()
	for _, m := range g.gath {
		if len(m) == 0 {
			continue
		}
		nb := int(m[0])
		off := 1
		for k := 0; k < nb; k++ {
			b := g.get(m[off : off+rl])
			b.s = [3]int8{}
			bodies = append(bodies, b)
			off += rl
		}
		for ; off+cl <= len(m); off += cl {
			r := m[off : off+cl]
			cc := crossContact{c: contact{kind: int32(r[0]), obj: int32(r[3])}, gi: int64(r[1]), gj: int64(r[2])}
			copy(cc.c.d[:nd], r[4:4+nd])
			for d := 0; d < g.nd; d++ {
				cc.sI[d] = int8(r[4+nd+d])
				if cc.gj >= 0 {
					cc.rel[d] = int8(r[4+nd+g.nd+d]) - cc.sI[d]
				}
			}
			cc.fromReal = cc.sI == [3]int8{}
			cons = append(cons, cc)
		}
	}
	slices.SortFunc(bodies, key)
	bodies = slices.CompactFunc(bodies, func(a, c body) bool { return a.gid == c.gid })
	// Canonical order: (kind, object, gid_i, gid_j, shift) — the order of
	// the whole system's detection — and among copies of one contact the
	// one found with body i real first.
	slices.SortFunc(cons, func(x, y crossContact) int {
		return cmp.Or(cmp.Compare(x.c.kind, y.c.kind),
			cmp.Compare(x.c.obj, y.c.obj),
			cmp.Compare(x.gi, y.gi), cmp.Compare(x.gj, y.gj),
			cmp.Compare(x.rel[0], y.rel[0]), cmp.Compare(x.rel[1], y.rel[1]), cmp.Compare(x.rel[2], y.rel[2]),
			-cmp.Compare(b2i(x.fromReal), b2i(y.fromReal)))
	})
	cons = slices.CompactFunc(cons, func(x, y crossContact) bool {
		return x.c.kind == y.c.kind && x.c.obj == y.c.obj && x.gi == y.gi && x.gj == y.gj && x.rel == y.rel
	})
	g.Last.Solved = len(cons)
	if len(cons) == 0 {
		return nil, nil
	}
	idx := func(id int64) int32 {
		i, _ := slices.BinarySearchFunc(bodies, id, func(a body, id int64) int { return cmp.Compare(a.gid, id) })
		return int32(i)
	}
	cs := g.ccs[:0]
	for k := range cons {
		c := cons[k].c
		c.i, c.j = idx(cons[k].gi), -1
		if cons[k].gj >= 0 {
			c.j = idx(cons[k].gj)
		}
		c.k = int32(k)
		cs = append(cs, c)
	}
	g.ccs = cs
	st, err := g.m.solveRoot(bodies, cs)
	g.addLaw(st)
	if err != nil {
		return nil, fmt.Errorf("%d contacts on rank %d: %w", len(cs), g.cart.Rank(), err)
	}
	res := g.cres[:0]
	defer func() { g.cres = res }()
	nv := g.m.nv()
	for i := range bodies {
		if !bodies[i].fixed {
			res = append(res, float64(bodies[i].gid))
			res = append(res, bodies[i].p[:nv]...)
		}
	}
	return res, nil
}

func b2i(x bool) int {
	if x {
		return 1
	}
	return 0
}

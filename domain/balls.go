package domain

import (
	"cmp"
	"fmt"
	"math"
	"time"

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

// Stats describes the last step on this rank.
type Stats struct {
	Owned, Ghosts int
	// Contacts is the number of contacts this rank kept; Local those of
	// islands it solved alone, Boundary those it sent to Root.
	Contacts, Local, Boundary int
	// Solved is the number of contacts Root solved for the crossing
	// islands (0 on other ranks).
	Solved int
	// Halo is the interaction halo of the step.
	Halo float64
	// BytesSent counts the payload bytes this rank sent; Comm is the
	// time spent in exchanges and collectives, Total the step's.
	BytesSent   int
	Comm, Total time.Duration
	// Detect is the time of the prediction and contact detection.
	Detect time.Duration
	Law    mech.Stats
}

// Totals sums a rank's Stats over the steps taken (since New).
type Totals struct {
	Steps               int
	Owned, Ghosts       int // summed over the steps
	Boundary, Solved    int
	BytesSent           int
	Comm, Total, Gather time.Duration // Gather: the state gathered to Root for output (Attach)
}

// record is a ball as it travels between ranks: global id, position
// (of the image, for a ghost), velocity, mass, radius, fixed flag and the
// image's periodic shift in periods along x and y.
const recLen = 10

type ball struct {
	gid          int64
	x, y, vx, vy float64
	m, r         float64
	fixed        bool
	sx, sy       int8 // image shift in periods (ghosts only)
	ghost        bool
}

func (b *ball) put(dst []float64) []float64 {
	f := 0.0
	if b.fixed {
		f = 1
	}
	return append(dst, float64(b.gid), b.x, b.y, b.vx, b.vy, b.m, b.r, f, float64(b.sx), float64(b.sy))
}

func getBall(src []float64) ball {
	return ball{gid: int64(src[0]), x: src[1], y: src[2], vx: src[3], vy: src[4], m: src[5], r: src[6],
		fixed: src[7] != 0, sx: int8(src[8]), sy: int8(src[9])}
}

// key orders balls by global id, then image shift: the order of a
// rank's local system, in which its contacts come out in the global
// system's order.
func key(a, b ball) int {
	if c := cmp.Compare(a.gid, b.gid); c != 0 {
		return c
	}
	if c := cmp.Compare(a.sx, b.sx); c != 0 {
		return c
	}
	return cmp.Compare(a.sy, b.sy)
}

// Balls is one rank's part of a distributed ball2d system: the balls
// whose centres lie in its subdomain. Step advances the whole system by
// one step of Alg. 4 across all ranks (collective).
type Balls struct {
	cart   *mpi.Cart
	cfg    Config
	coord  [2]int
	lo, hi [2]float64 // this rank's subdomain
	width  [2]float64
	period [2]float64

	tmpl *ball2d.System // geometry, gravity, integrator, coefficients; no balls
	law  sim.ContactLaw
	H    float64
	N    int

	own []ball // sorted by gid

	// workspaces
	loc             ball2d.System // owned balls and ghosts, in key order
	all             []ball
	qt, vt          []float64
	vplus           []float64
	scr             []float64
	prob            mech.Problem
	lambda          []float64
	beta            []float64
	kept            []ball2d.Contact
	local, boundary []ball2d.Contact // classify's result
	cross           []bool
	// Root's crossing-island workspaces (solveCrossing)
	cballs       []ball
	ccons        []crossContact
	ccs          []ball2d.Contact
	cvplus, cres []float64
	rbuf         []float64 // the crossing islands' v⁺ received from Root
	gmsg, gq, gv []float64 // Gather
	gin          [][]float64
	ghosts, got  []ball
	parent       []int32
	out, in      [][]float64
	bsys         ball2d.System // Root's system of the crossing islands
	bprob        mech.Problem
	gath         [][]float64
	Last         Stats
	Total        Totals
	contacts     int // of the whole system in the last step (followStep)
}

// New splits the system sys, which every rank holds whole (read from the
// same scene), over the ranks of c: each rank keeps the balls of its
// subdomain (global ids are the indices in sys). sys must have no
// portals (periodicity comes from Config.Periodic) and no moving
// geometry.
func New(c mpi.Comm, sys *ball2d.System, cfg Config) (*Balls, error) {
	if len(sys.Portals) > 0 {
		return nil, fmt.Errorf("domain: portals are not decomposed; use Config.Periodic")
	}
	for i := range sys.Planes {
		if sys.Planes[i].Moving() {
			return nil, fmt.Errorf("domain: plane %d moves; moving geometry is not decomposed", i)
		}
	}
	for i := range sys.Drums {
		if sys.Drums[i].Moving() {
			return nil, fmt.Errorf("domain: drum %d moves; moving geometry is not decomposed", i)
		}
	}
	if cfg.NewLaw == nil {
		return nil, fmt.Errorf("domain: Config.NewLaw is nil")
	}
	if cfg.Dims == [2]int{} {
		d := mpi.DimsCreate(c.Size(), 2)
		cfg.Dims = [2]int{d[0], d[1]}
	}
	for d := 0; d < 2; d++ {
		if !(cfg.Hi[d] > cfg.Lo[d]) {
			return nil, fmt.Errorf("domain: region [%v, %v] along dimension %d is empty", cfg.Lo[d], cfg.Hi[d], d)
		}
	}
	cart, err := mpi.NewCart(c, cfg.Dims[:], cfg.Periodic[:])
	if err != nil {
		return nil, fmt.Errorf("domain: %w", err)
	}
	law, err := cfg.NewLaw()
	if err != nil {
		return nil, fmt.Errorf("domain: %w", err)
	}
	b := &Balls{cart: cart, cfg: cfg, law: law, H: sys.Dt}
	x := cart.Coords(cart.Rank())
	for d := 0; d < 2; d++ {
		b.coord[d] = x[d]
		b.period[d] = cfg.Hi[d] - cfg.Lo[d]
		b.width[d] = b.period[d] / float64(cfg.Dims[d])
		b.lo[d] = cfg.Lo[d] + float64(x[d])*b.width[d]
		b.hi[d] = cfg.Lo[d] + float64(x[d]+1)*b.width[d]
	}
	// The geometry and parameters of sys, with fresh workspaces (a copy of
	// sys would share its detector's).
	t := ball2d.System{Planes: sys.Planes, Drums: sys.Drums, Gravity: sys.Gravity, Integrator: sys.Integrator,
		Dt: sys.Dt, CoR: sys.CoR, Mu: sys.Mu, NoFrictionBasis: sys.NoFrictionBasis}
	b.tmpl = &t
	b.loc = t
	b.bsys = t
	b.loc.SetPool(cfg.Pool)
	b.bsys.SetPool(cfg.Pool)
	if pu, ok := law.(interface{ SetPool(*par.Pool) }); ok {
		pu.SetPool(cfg.Pool)
	}
	for i := range sys.M {
		bl := ball{gid: int64(i), x: sys.Q[2*i], y: sys.Q[2*i+1], vx: sys.V[2*i], vy: sys.V[2*i+1],
			m: sys.M[i], r: sys.R[i], fixed: sys.Fixed[i]}
		b.wrap(&bl)
		if b.owner(&bl) == [2]int{b.coord[0], b.coord[1]} {
			b.own = append(b.own, bl)
		}
	}
	// A subdomain narrower than the interaction halo is refused before the
	// first step (later steps check again: speeds change).
	if _, err := b.halo(); err != nil {
		return nil, err
	}
	return b, nil
}

// Cart returns the rank's Cartesian communicator.
func (b *Balls) Cart() *mpi.Cart { return b.cart }

// cell returns the subdomain coordinate of position x along dimension d
// (clamped to the grid).
func (b *Balls) cell(x float64, d int) int {
	c := int(math.Floor((x - b.cfg.Lo[d]) / b.width[d]))
	return max(0, min(b.cfg.Dims[d]-1, c))
}

func (b *Balls) owner(bl *ball) [2]int { return [2]int{b.cell(bl.x, 0), b.cell(bl.y, 1)} }

// wrap moves a centre outside a periodic dimension back into the region.
func (b *Balls) wrap(bl *ball) {
	p := [2]*float64{&bl.x, &bl.y}
	for d := 0; d < 2; d++ {
		if !b.cfg.Periodic[d] {
			continue
		}
		if *p[d] >= b.cfg.Hi[d] {
			*p[d] -= b.period[d]
		} else if *p[d] < b.cfg.Lo[d] {
			*p[d] += b.period[d]
		}
	}
}

package domain

import (
	"fmt"
	"math"
	"time"

	"impactsim/friction"
	"impactsim/mpi"
)

// Sweeps says how a distributed NBGS step sweeps the contacts across ranks
// (package documentation, "Distributed NBGS").
type Sweeps int

const (
	// Colours is the reproducible mode: a fixed grid of blocks coloured
	// by the parities of their coordinates; one colour at a time, every
	// rank sweeps its contacts of that colour, then the changed ghosts'
	// values overwrite their owners' and the owners' overwrite every
	// copy. Bitwise the same for any number of ranks.
	Colours Sweeps = iota
	// PE is waLBerla pe's mode: every rank sweeps its contacts once per
	// sweep, a contact with a ghost takes the relaxed increment, the
	// ghosts' velocity corrections are summed on their owners and the
	// owners' values sent back to every copy.
	PE
)

func (s Sweeps) String() string {
	switch s {
	case Colours:
		return "colours"
	case PE:
		return "pe"
	}
	return fmt.Sprintf("Sweeps(%d)", int(s))
}

// NBGSConfig configures the sweeps of a distributed NBGS step.
type NBGSConfig struct {
	// Law is the block law, tolerance, cap and (PE) relaxation, with
	// friction.NBGS's meaning and defaults; Domains is not used (the
	// ranks are the domains).
	Law friction.NBGS
	// Mode chooses the reproducible colour sweeps or pe's.
	Mode Sweeps
	// Blocks is the number of colour blocks along each dimension
	// (Colours): a multiple of the ranks along it, even when more than
	// one, and each block wider than twice the interaction halo, so that
	// two contacts of one colour in different blocks never share a
	// sphere. It is fixed for the run, so the sweeps do not depend on the
	// number of ranks.
	Blocks [3]int
}

func (c *NBGSConfig) check(periodic [2]bool) error {
	if err := c.Law.Check(); err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	switch c.Mode {
	case PE:
	case Colours:
		for d, nb := range c.Blocks {
			if nb < 1 {
				return fmt.Errorf("domain: colour sweeps need Blocks along every dimension (≥ 1), got %v", c.Blocks)
			}
			if nb > 1 && nb%2 != 0 {
				return fmt.Errorf("domain: %d colour blocks along dimension %d; want 1 or an even number", nb, d)
			}
			if d < 2 && periodic[d] && nb < 2 {
				return fmt.Errorf("domain: %d colour block along periodic dimension %d; want an even number ≥ 2 (a block must not meet its own image)", nb, d)
			}
		}
	default:
		return fmt.Errorf("domain: unknown sweep mode %d", int(c.Mode))
	}
	return nil
}

// nbgsWork is the distributed sweeps' workspace.
type nbgsWork struct {
	idx     []int32    // contacts swept here, canonical order
	colour  [8][]int32 // Colours: idx by colour
	relaxed []bool     // PE: per local sphere, a ghost
	shadows []int32    // PE: the ghosts of the contacts swept here
	before  []float64  // PE: their velocities at a sweep's start
	vals    []float64  // PE: per local sphere, the corrections going home
	legs    []mpi.Leg
	fOnce   func() float64
	res     [2]float64 // a sweep's residual: this rank's, all ranks'
	name    string     // the sweeps' name in the law's statistics
	err     error
}

// stepNBGS is one step of Preclik et al.'s time stepping across the ranks
// (collective): ghosts, the kick, the contacts at the current positions
// with the whole system's margin, the sweeps (colours or pe), the drift,
// migration.
func (d *Spheres) stepNBGS() error {
	t0 := time.Now()
	g, m := d.grid, d.m
	g.Last = Stats{}
	cfg := m.cfg.NBGS
	if cfg.Mode == Colours {
		for k := 0; k < g.nd; k++ {
			if cfg.Blocks[k]%g.dims[k] != 0 {
				return fmt.Errorf("domain: %d colour blocks along dimension %d are not a multiple of its %d ranks", cfg.Blocks[k], k, g.dims[k])
			}
		}
		g.blocks = cfg.Blocks
	}
	if err := g.prepare(); err != nil {
		return err
	}
	g.routes()
	if cfg.Mode == Colours {
		for k := 0; k < g.nd; k++ {
			if w := g.period[k] / float64(cfg.Blocks[k]); cfg.Blocks[k] > 1 && !(w > 2*g.Last.Halo) {
				return fmt.Errorf("domain: step %d: colour blocks %.6g wide along dimension %d, want more than twice the interaction halo %.6g: use fewer blocks", g.N+1, w, k, g.Last.Halo)
			}
		}
	}
	nb := &m.nb
	n := len(g.all)
	// the contacts this rank sweeps: those whose sphere I (the lower ID)
	// it owns, not an image
	nb.idx = nb.idx[:0]
	for c := range g.cs {
		if !g.all[g.cs[c].i].ghost {
			nb.idx = append(nb.idx, int32(c))
			if j := g.cs[c].j; j >= 0 && g.all[j].ghost {
				g.Last.Boundary++
			}
		}
	}
	g.Last.Contacts = len(nb.idx)
	g.Last.Local = len(nb.idx) - g.Last.Boundary
	for _, k := range nb.idx {
		if g.cs[k].j >= 0 {
			g.Last.Pairs++
		}
	}
	g.Last.MaxPenetration, g.Last.MaxWallPenetration = m.loc.Penetrations()
	if cfg.Mode == Colours {
		for c := range nb.colour {
			nb.colour[c] = nb.colour[c][:0]
		}
		for _, k := range nb.idx {
			x := g.all[g.cs[k].i].x
			col := 0
			for a := 0; a < g.nd; a++ {
				if cfg.Blocks[a] > 1 {
					col |= (g.block(x[a], a) & 1) << a
				}
			}
			nb.colour[col] = append(nb.colour[col], k)
		}
	} else {
		if cap(nb.relaxed) < n {
			nb.relaxed = make([]bool, n, n+n/4+16)
		}
		nb.relaxed = nb.relaxed[:n]
		for i := range g.all {
			nb.relaxed[i] = g.all[i].ghost
		}
		g.newEpoch()
		nb.shadows = nb.shadows[:0]
		for _, k := range nb.idx {
			if j := g.cs[k].j; j >= 0 && g.all[j].ghost && g.setMark(j) {
				nb.shadows = append(nb.shadows, j)
			}
		}
		nb.before = grow(nb.before, 6*n)
		nb.vals = grow(nb.vals, 6*n)
	}
	tol, maxIter, _, _ := cfg.Law.Params()
	nb.err = nil
	if nb.fOnce == nil {
		nb.fOnce = d.sweepOnce
	}
	// Every rank runs the same number of sweeps: the residual is the
	// maximum over the ranks (an Allreduce: its order cannot change a max).
	if nb.name == "" {
		nb.name = "nbgs-" + cfg.Mode.String()
	}
	st := friction.RunSweeps(nb.name, len(nb.idx), tol, maxIter, nb.fOnce)
	if nb.err != nil {
		return fmt.Errorf("domain: step %d: sweeps: %w", g.N+1, nb.err)
	}
	g.addLaw(st)
	return g.finish(t0)
}

// sweepOnce is one collective sweep; it returns the residual of all
// ranks.
func (d *Spheres) sweepOnce() float64 {
	g, m := d.grid, d.m
	nb := &m.nb
	if nb.err != nil {
		return 0
	}
	cfg := m.cfg.NBGS
	loc := &m.loc
	vw := loc.VW
	res := 0.0
	if cfg.Mode == Colours {
		ncol := 1 << g.nd
		for c := 0; c < ncol; c++ {
			if !colourUsed(c, cfg.Blocks) {
				continue // a dimension of one block has no odd blocks
			}
			list := nb.colour[c]
			res = math.Max(res, loc.Sweep(list, &cfg.Law, nil))
			if g.isolated {
				continue // no neighbour: no copies to sync
			}
			// the ghosts this colour changed carry their values home,
			// where they overwrite the owners'
			g.newEpoch()
			for _, k := range list {
				if j := g.cs[k].j; j >= 0 && g.all[j].ghost {
					g.setMark(j)
				}
			}
			if nb.err = g.backward(vw, 6, false); nb.err != nil {
				return 0
			}
			if nb.err = g.forwardChanged(list, vw); nb.err != nil {
				return 0
			}
		}
	} else if g.isolated {
		// no neighbour: no shadows, nothing to sync
		res = loc.Sweep(nb.idx, &cfg.Law, nil)
	} else {
		// the shadows' velocity corrections, summed on the way home and
		// added by the owners
		for _, j := range nb.shadows {
			copy(nb.before[6*j:6*j+6], vw[6*j:6*j+6])
		}
		res = loc.Sweep(nb.idx, &cfg.Law, nb.relaxed)
		g.newEpoch()
		for _, j := range nb.shadows {
			for k := 6 * j; k < 6*j+6; k++ {
				nb.vals[k] = vw[k] - nb.before[k]
			}
			g.setMark(j)
		}
		if nb.err = g.backward(nb.vals, 6, true); nb.err != nil {
			return 0
		}
		for _, a := range g.marked {
			if !g.all[a].ghost {
				for k := 6 * a; k < 6*a+6; k++ {
					vw[k] += nb.vals[k]
				}
			}
		}
		if nb.err = g.forwardChanged(nb.idx, vw); nb.err != nil {
			return 0
		}
	}
	nb.res[0] = res
	t := time.Now()
	nb.err = g.cart.Allreduce(nb.res[0:1], nb.res[1:2], mpi.Max)
	g.Last.Comm += time.Since(t)
	return nb.res[1]
}

// colourUsed reports whether some block has colour c (bit d: the parity
// of the block's coordinate d).
func colourUsed(c int, blocks [3]int) bool {
	for d, nb := range blocks {
		if nb == 1 && c&(1<<d) != 0 {
			return false
		}
	}
	return true
}

// routes fills, per decomposed dimension and direction, the local
// indices of the bodies the ghost exchange sent (sent) and of the ghosts
// it brought (came), in message order.
func (g *grid) routes() {
	at := func(r int32) int32 {
		if int(r) < len(g.ownAll) {
			return g.ownAll[r]
		}
		return g.ghostAll[int(r)-len(g.ownAll)]
	}
	for d := 0; d < g.nd; d++ {
		for k := 0; k < 2; k++ {
			g.sent[d][k] = g.sent[d][k][:0]
			for _, r := range g.sref[d][k] {
				g.sent[d][k] = append(g.sent[d][k], at(r))
			}
			g.came[d][k] = append(g.came[d][k][:0], g.ghostAll[g.arr[d][k][0]:g.arr[d][k][1]]...)
		}
	}
}

// newEpoch starts a new set of marked bodies (the changed ones a sync
// sends).
func (g *grid) newEpoch() {
	n := len(g.all)
	if len(g.mark) < n {
		g.mark = append(g.mark, make([]int32, n-len(g.mark))...)
	}
	if g.epoch == math.MaxInt32 {
		clear(g.mark)
		g.epoch = 0
	}
	g.epoch++
	g.marked = g.marked[:0]
}

// setMark marks local body a in the current epoch and reports whether it
// was not marked yet.
func (g *grid) setMark(a int32) bool {
	if g.mark[a] == g.epoch {
		return false
	}
	g.mark[a] = g.epoch
	g.marked = append(g.marked, a)
	return true
}

// forwardChanged marks the owned bodies that changed in a sweep — those
// of the swept contacts cs and those that took values from home-coming
// ghosts (the last epoch's marks) — and sends their velocities (vw) to
// every copy.
func (g *grid) forwardChanged(cs []int32, vw []float64) error {
	back := append(g.back[:0], g.marked...)
	g.back = back
	g.newEpoch()
	for _, a := range back {
		if !g.all[a].ghost {
			g.setMark(a)
		}
	}
	for _, k := range cs {
		c := &g.cs[k]
		for _, a := range [2]int32{c.i, c.j} {
			if a >= 0 && !g.all[a].ghost {
				g.setMark(a)
			}
		}
	}
	return g.forward(vw, 6)
}

// forward sends the marked bodies' values (L per local body in vals) to
// every copy, along the ghosts' routes (dimension by dimension, as the
// ghosts came), overwriting the copies' and marking them (a copy that is
// forwarded passes them on).
func (g *grid) forward(vals []float64, L int) error {
	for d := 0; d < g.nd; d++ {
		if err := g.route(vals, L, d, false, false); err != nil {
			return err
		}
	}
	return nil
}

// backward sends the marked ghosts' values (L per local body in vals) back
// to the rank each came from, dimension by dimension in the reverse order
// of the ghost exchange, where they overwrite (add false) or are added to
// (add true; the first to arrive is copied) the body they copy — an owned
// body, or a ghost that goes on home in an earlier dimension — which is
// marked.
func (g *grid) backward(vals []float64, L int, add bool) error {
	for d := g.nd - 1; d >= 0; d-- {
		if err := g.route(vals, L, d, true, add); err != nil {
			return err
		}
	}
	return nil
}

// route is one dimension of forward (back false: sent → came) or backward
// (came → sent): the marked bodies of the sending side go as (position in
// the route, values), one message per neighbour and direction.
func (g *grid) route(vals []float64, L, d int, back, add bool) error {
	legs := g.legs[d]
	if legs == nil {
		return nil
	}
	from, to, tag := g.sent[d], g.came[d], tagSync
	if back {
		from, to, tag = g.came[d], g.sent[d], tagBack
	}
	for k := 0; k < 2; k++ {
		out := g.out[k][:0]
		for j, a := range from[k] {
			if g.mark[a] == g.epoch {
				out = append(out, float64(j))
				out = append(out, vals[L*int(a):L*int(a)+L]...)
			}
		}
		g.out[k] = out
	}
	var sl [2]mpi.Leg
	for k, l := range legs {
		sl[k] = mpi.Leg{Src: l.Src, Dest: l.Dest, Tag: tag + 2*d + k}
		if back {
			sl[k].Src, sl[k].Dest = l.Dest, l.Src
		}
	}
	t := time.Now()
	n, err := mpi.Exchange(g.cart, sl[:], g.out, g.in)
	g.Last.Comm += time.Since(t)
	g.Last.BytesSent += n
	if err != nil {
		return err
	}
	for k := 0; k < 2; k++ {
		in := g.in[k]
		if len(in)%(L+1) != 0 {
			return fmt.Errorf("velocity sync along dimension %d: a message of %d values", d, len(in))
		}
		for r := 0; r < len(in); r += L + 1 {
			j := int(in[r])
			if j < 0 || j >= len(to[k]) {
				return fmt.Errorf("velocity sync along dimension %d: body %d of a route of %d", d, j, len(to[k]))
			}
			a := to[k][j]
			dst, src := vals[L*int(a):L*int(a)+L], in[r+1:r+1+L]
			if g.setMark(a) || !add {
				copy(dst, src)
			} else {
				for i := range dst {
					dst[i] += src[i]
				}
			}
		}
	}
	return nil
}

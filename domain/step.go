package domain

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"impactsim/ball2d"
	"impactsim/mech"
	"impactsim/mpi"
)

// Message tags of a step (user tags of the Cartesian communicator).
const (
	tagGhost   = 10 // + 2·dim + (0 up, 1 down)
	tagMigrate = 20 // + 2·dim + (0 up, 1 down)
	tagGather  = 30
	tagResult  = 31
	tagState   = 32
	tagReport  = 33
)

// Step advances the distributed system by one step of Alg. 4
// (collective): ghosts within the interaction halo are exchanged with the
// neighbours, every rank predicts and detects the contacts of its balls,
// solves the islands that lie wholly in it, sends the contacts of islands
// that cross subdomains to Root, which solves them and returns their
// velocities, and balls whose centres left the subdomain migrate to their
// new owners.
func (b *Balls) Step() error {
	t0 := time.Now()
	b.Last = Stats{}
	halo, err := b.halo()
	if err != nil {
		return err
	}
	ghosts, err := b.exchange(b.own, halo, tagGhost, true)
	if err != nil {
		return fmt.Errorf("domain: step %d: ghost exchange: %w", b.N+1, err)
	}
	b.Last.Halo, b.Last.Owned, b.Last.Ghosts = halo, len(b.own), len(ghosts)
	b.assemble(ghosts)
	loc := &b.loc
	n := len(b.all)
	h := b.H
	b.qt = grow(b.qt, 2*n)
	b.vt = grow(b.vt, 2*n)
	b.vplus = grow(b.vplus, 2*n)
	td := time.Now()
	loc.FreeFlight(loc.Q, loc.V, h, b.qt, b.vt)
	cs := loc.Detect(loc.Q, b.qt)
	b.Last.Detect = time.Since(td)
	local, boundary := b.classify(cs)
	b.Last.Local, b.Last.Boundary = len(local), len(boundary)
	b.Last.Contacts = len(local) + len(boundary)

	// Islands of this rank alone.
	copy(b.vplus, loc.V)
	if len(local) > 0 {
		if err := b.solve(loc, local, b.vplus, &b.prob); err != nil {
			return fmt.Errorf("domain: step %d, rank %d, %d contacts of its own islands: %w", b.N+1, b.cart.Rank(), len(local), err)
		}
	}
	// Islands across subdomains, solved on Root.
	if err := b.crossing(boundary); err != nil {
		return fmt.Errorf("domain: step %d: islands across subdomains: %w", b.N+1, err)
	}
	// New state of the owned balls: free flight with v⁺ from qᵗ.
	loc.FreeFlight(loc.Q, b.vplus, h, b.qt, b.vt)
	k := 0
	for i := range b.all {
		if b.all[i].ghost {
			continue
		}
		o := &b.own[k]
		o.x, o.y, o.vx, o.vy = b.qt[2*i], b.qt[2*i+1], b.vt[2*i], b.vt[2*i+1]
		b.wrap(o)
		k++
	}
	if err := b.migrate(); err != nil {
		return fmt.Errorf("domain: step %d: migration: %w", b.N+1, err)
	}
	b.N++
	b.Last.Total = time.Since(t0)
	l, t := &b.Last, &b.Total
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

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4+16)
	}
	return s[:n]
}

// halo returns the interaction halo 2 r_max + 2 d_max, d_max the largest
// distance a ball's centre can move in the step (h|v| + h²|g|), over all
// ranks, and checks that it fits in a subdomain.
func (b *Balls) halo() (float64, error) {
	h := b.H
	g := math.Hypot(b.tmpl.Gravity[0], b.tmpl.Gravity[1])
	var loc [2]float64
	v2 := 0.0
	for i := range b.own {
		o := &b.own[i]
		loc[0] = max(loc[0], o.r)
		if !o.fixed {
			v2 = max(v2, o.vx*o.vx+o.vy*o.vy)
		}
	}
	if v2 > 0 || g > 0 {
		loc[1] = h*math.Sqrt(v2) + h*h*g
	}
	var all [2]float64
	t := time.Now()
	err := b.cart.Allreduce(loc[:], all[:], mpi.Max)
	b.Last.Comm += time.Since(t)
	if err != nil {
		return 0, err
	}
	halo := (2*all[0] + 2*all[1]) * (1 + 1e-9)
	for d := 0; d < 2; d++ {
		if (b.cfg.Dims[d] > 1 || b.cfg.Periodic[d]) && halo > b.width[d] {
			return 0, fmt.Errorf("domain: step %d: interaction halo %.6g (2 r_max + 2 h v_max) exceeds the subdomain width %.6g along dimension %d: use fewer ranks along it", b.N+1, halo, b.width[d], d)
		}
	}
	return halo, nil
}

// exchange sends, one dimension after the other, the balls of set that
// lie within reach of a neighbour's subdomain to it (ghosts: within halo
// of the shared face, images shifted across periodic faces, those
// received along x forwarded along y), or those whose centre lies in
// another subdomain (migration, ghosts false: they leave this rank). It
// returns the balls received.
func (b *Balls) exchange(set []ball, halo float64, tag int, ghosts bool) ([]ball, error) {
	got := b.got[:0]
	arrived := false
	if ghosts {
		got = b.ghosts[:0]
	}
	if len(b.out) < 2 {
		b.out, b.in = make([][]float64, 2), make([][]float64, 2)
	}
	for d := 0; d < 2; d++ {
		src, dst := b.cart.Shift(d, 1)
		if src == mpi.ProcNull && dst == mpi.ProcNull {
			// No neighbour along d (one rank, not periodic): nothing
			// leaves, no ghost comes.
			continue
		}
		legs := []mpi.Leg{{Src: src, Dest: dst, Tag: tag + 2*d}, {Src: dst, Dest: src, Tag: tag + 2*d + 1}}
		b.out[0], b.out[1] = b.out[0][:0], b.out[1][:0]
		last := b.coord[d] == b.cfg.Dims[d]-1
		first := b.coord[d] == 0
		send := func(bl ball, up bool) {
			k := 1
			if up {
				k = 0
			}
			if ghosts && b.cfg.Periodic[d] {
				p := [2]*float64{&bl.x, &bl.y}
				s := [2]*int8{&bl.sx, &bl.sy}
				if up && last {
					*p[d] -= b.period[d]
					*s[d]--
				} else if !up && first {
					*p[d] += b.period[d]
					*s[d]++
				}
			}
			b.out[k] = bl.put(b.out[k])
		}
		// Migration filters set in place (kept balls are written at or
		// before where they were read).
		keep := set[:0]
		scan := func(bl *ball) error {
			x := bl.x
			if d == 1 {
				x = bl.y
			}
			if ghosts {
				if dst != mpi.ProcNull && x > b.hi[d]-halo {
					send(*bl, true)
				}
				if src != mpi.ProcNull && x < b.lo[d]+halo {
					send(*bl, false)
				}
				return nil
			}
			delta := b.cell(x, d) - b.coord[d]
			if b.cfg.Periodic[d] {
				n := b.cfg.Dims[d]
				delta = ((delta % n) + n) % n
				if delta > n/2 {
					delta -= n
				}
			}
			switch {
			case delta == 0:
				keep = append(keep, *bl)
			case delta == 1 || delta == -1:
				send(*bl, delta == 1)
			default:
				return fmt.Errorf("ball %d moved %d subdomains along dimension %d in one step", bl.gid, delta, d)
			}
			return nil
		}
		for i := range set {
			if err := scan(&set[i]); err != nil {
				return nil, err
			}
		}
		for i := range got {
			if err := scan(&got[i]); err != nil {
				return nil, err
			}
		}
		if !ghosts {
			// The balls that stay: the unmoved ones, then those received
			// along the earlier dimension that stay too.
			set, got = keep, got[:0]
		}
		t := time.Now()
		n, err := mpi.Exchange(b.cart, legs, b.out, b.in)
		b.Last.Comm += time.Since(t)
		b.Last.BytesSent += n
		if err != nil {
			return nil, err
		}
		for k := range b.in {
			for j := 0; j+recLen <= len(b.in[k]); j += recLen {
				bl := getBall(b.in[k][j : j+recLen])
				bl.ghost = ghosts
				got = append(got, bl)
				arrived = true
			}
		}
	}
	if ghosts {
		b.ghosts = got
		return got, nil
	}
	// The balls that stayed are still in id order; arrivals need a sort.
	b.own = append(set, got...)
	if arrived {
		slices.SortFunc(b.own, key)
	}
	b.got = got
	return nil, nil
}

// migrate hands every ball whose centre left the subdomain to its new
// owner (through the faces, x then y, so a diagonal move takes two hops).
func (b *Balls) migrate() error {
	_, err := b.exchange(b.own, 0, tagMigrate, false)
	return err
}

// assemble fills the local system with the owned balls and the ghosts in
// key order.
func (b *Balls) assemble(ghosts []ball) {
	// own is sorted and the ghosts are few: sort them and merge.
	slices.SortFunc(ghosts, key)
	b.all = b.all[:0]
	i, j := 0, 0
	for i < len(b.own) || j < len(ghosts) {
		if j == len(ghosts) || (i < len(b.own) && key(b.own[i], ghosts[j]) < 0) {
			b.all = append(b.all, b.own[i])
			i++
		} else {
			b.all = append(b.all, ghosts[j])
			j++
		}
	}
	s := &b.loc
	n := len(b.all)
	s.Q, s.V = grow(s.Q, 2*n), grow(s.V, 2*n)
	s.M, s.R = grow(s.M, n), grow(s.R, n)
	if cap(s.Fixed) < n {
		s.Fixed = make([]bool, n, n+n/4+16)
	}
	s.Fixed = s.Fixed[:n]
	for i := range b.all {
		a := &b.all[i]
		s.Q[2*i], s.Q[2*i+1], s.V[2*i], s.V[2*i+1] = a.x, a.y, a.vx, a.vy
		s.M[i], s.R[i], s.Fixed[i] = a.m, a.r, a.fixed
	}
}

func (b *Balls) find(i int32) int32 {
	p := b.parent
	for p[i] != i {
		p[i] = p[p[i]]
		i = p[i]
	}
	return i
}

// classify keeps the contacts this rank answers for — those with a free
// ball it owns — and splits them into those of islands wholly in this
// rank (local) and those of islands reaching a free ghost (boundary).
// Islands are the components of the free balls joined by contacts
// (fixed balls and walls join nothing, as in package impact).
func (b *Balls) classify(cs []ball2d.Contact) (local, boundary []ball2d.Contact) {
	all := b.all
	n := int32(len(all))
	b.parent = b.parent[:0]
	for i := int32(0); i < n; i++ {
		b.parent = append(b.parent, i)
	}
	free := func(i int32) bool { return i >= 0 && !all[i].fixed }
	mine := func(i int32) bool { return free(i) && !all[i].ghost }
	b.kept = b.kept[:0]
	for _, c := range cs {
		if !mine(c.I) && !mine(c.J) {
			continue
		}
		b.kept = append(b.kept, c)
		if free(c.I) && free(c.J) {
			ri, rj := b.find(c.I), b.find(c.J)
			if ri != rj {
				b.parent[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	// A component is crossing when it holds a free ghost (cross is
	// indexed by the component's root).
	if cap(b.cross) < int(n) {
		b.cross = make([]bool, n, n+n/4+16)
	}
	cross := b.cross[:n]
	clear(cross)
	for _, c := range b.kept {
		for _, i := range [2]int32{c.I, c.J} {
			if free(i) && all[i].ghost {
				cross[b.find(i)] = true
			}
		}
	}
	local, boundary = b.local[:0], b.boundary[:0]
	for _, c := range b.kept {
		r := c.I
		if !free(r) {
			r = c.J
		}
		if cross[b.find(r)] {
			boundary = append(boundary, c)
		} else {
			local = append(local, c)
		}
	}
	b.local, b.boundary = local, boundary
	return local, boundary
}

// solve fills p with the contacts cs of system s (positions s.Q,
// velocities s.V), runs the law and writes v⁺ = v + M⁻¹(Gλ + Dβ) into
// vplus (the stepper's arithmetic, so islands come out bitwise as in one
// process).
func (b *Balls) solve(s *ball2d.System, cs []ball2d.Contact, vplus []float64, p *mech.Problem) error {
	s.FillProblem(cs, s.Q, s.V, p)
	m := p.NContacts()
	b.lambda = grow(b.lambda, m)
	b.beta = grow(b.beta, p.D.NCols())
	st, err := b.law.Solve(p, b.lambda, b.beta)
	// The problems of one step are parts of the whole system's: its
	// iteration count is the largest of theirs, not their sum.
	it := max(b.Last.Law.Iterations, st.Iterations)
	b.Last.Law.Add(st)
	b.Last.Law.Iterations = it
	if err != nil {
		return err
	}
	b.scr = grow(b.scr, len(s.V))
	p.ApplyImpulses(vplus, s.V, b.lambda, b.beta, b.scr)
	return nil
}

// Contact records sent to Root: kind, global ids of I and J (−1), object,
// normal, and the image shifts of I and J.
const conLen = 10

// crossing sends the contacts of the crossing islands and their balls to
// Root, which merges them (a contact seen by the owners of both balls is
// kept once: the copy whose ball I is not an image), orders them as the
// whole system would, solves them and sends v⁺ of their free balls back.
func (b *Balls) crossing(cs []ball2d.Contact) error {
	// Message: nballs, then ball records, then contact records.
	msg := b.out[0][:0]
	msg = append(msg, 0)
	// b.cross, free after classify, marks the balls already packed.
	seen := b.cross[:len(b.all)]
	clear(seen)
	nb := 0
	for _, c := range cs {
		for _, i := range [2]int32{c.I, c.J} {
			if i >= 0 && !seen[i] {
				seen[i] = true
				msg = b.all[i].put(msg)
				nb++
			}
		}
	}
	msg[0] = float64(nb)
	for _, c := range cs {
		a := &b.all[c.I]
		gj, sjx, sjy := -1.0, 0.0, 0.0
		if c.J >= 0 {
			bj := &b.all[c.J]
			gj, sjx, sjy = float64(bj.gid), float64(bj.sx), float64(bj.sy)
		}
		msg = append(msg, float64(c.Kind), float64(a.gid), gj, float64(c.Obj), c.N[0], c.N[1], float64(a.sx), float64(a.sy), sjx, sjy)
	}
	b.out[0] = msg
	root := b.cfg.Root
	if len(b.gath) < b.cart.Size() {
		b.gath = make([][]float64, b.cart.Size())
	}
	t := time.Now()
	err := mpi.Gather(b.cart, root, tagGather, msg, b.gath)
	b.Last.Comm += time.Since(t)
	if b.cart.Rank() != root {
		b.Last.BytesSent += 8 * len(msg)
	}
	if err != nil {
		return err
	}
	res := b.rbuf
	if b.cart.Rank() == root {
		if res, err = b.solveCrossing(); err != nil {
			return err
		}
	}
	t = time.Now()
	res, err = mpi.Bcast(b.cart, root, tagResult, res)
	if b.cart.Rank() != root {
		b.rbuf = res
	}
	b.Last.Comm += time.Since(t)
	if b.cart.Rank() == root {
		b.Last.BytesSent += 8 * len(res) * (b.cart.Size() - 1)
	}
	if err != nil {
		return err
	}
	// v⁺ of the owned balls among the results.
	for j := 0; j+3 <= len(res); j += 3 {
		gid := int64(res[j])
		i, ok := slices.BinarySearchFunc(b.all, gid, func(a ball, g int64) int { return cmp.Compare(a.gid, g) })
		for ; ok && i < len(b.all) && b.all[i].gid == gid; i++ {
			if !b.all[i].ghost {
				b.vplus[2*i], b.vplus[2*i+1] = res[j+1], res[j+2]
			}
		}
	}
	return nil
}

type crossContact struct {
	c        ball2d.Contact
	gi, gj   int64
	sI, rel  [2]int8 // shift of I's image; shift of J relative to I
	fromReal bool
}

// solveCrossing is Root's part of crossing: the merged problem of every
// crossing island, solved, as (gid, v⁺x, v⁺y) triples.
func (b *Balls) solveCrossing() ([]float64, error) {
	balls, cons := b.cballs[:0], b.ccons[:0]
	defer func() { b.cballs, b.ccons = balls[:0], cons[:0] }()
	for _, m := range b.gath {
		if len(m) == 0 {
			continue
		}
		nb := int(m[0])
		off := 1
		for k := 0; k < nb; k++ {
			bl := getBall(m[off : off+recLen])
			bl.sx, bl.sy = 0, 0
			balls = append(balls, bl)
			off += recLen
		}
		for ; off+conLen <= len(m); off += conLen {
			r := m[off : off+conLen]
			cc := crossContact{c: ball2d.Contact{Kind: ball2d.ContactKind(r[0]), Obj: int32(r[3]), N: [2]float64{r[4], r[5]}, PortalI: -1, PortalJ: -1},
				gi: int64(r[1]), gj: int64(r[2]), sI: [2]int8{int8(r[6]), int8(r[7])}}
			if cc.gj >= 0 {
				cc.rel = [2]int8{int8(r[8]) - cc.sI[0], int8(r[9]) - cc.sI[1]}
			}
			cc.fromReal = cc.sI == [2]int8{}
			cons = append(cons, cc)
		}
	}
	slices.SortFunc(balls, key)
	balls = slices.CompactFunc(balls, func(a, c ball) bool { return a.gid == c.gid })
	// Canonical order: pairs by (I, J, shift), then drums and planes by
	// (object, ball) — the order of ball2d's detection — and among copies
	// of one contact the one found with ball I real first.
	slices.SortFunc(cons, func(x, y crossContact) int {
		return cmp.Or(cmp.Compare(x.c.Kind, y.c.Kind),
			cmp.Compare(x.c.Obj, y.c.Obj),
			cmp.Compare(x.gi, y.gi), cmp.Compare(x.gj, y.gj),
			cmp.Compare(x.rel[0], y.rel[0]), cmp.Compare(x.rel[1], y.rel[1]),
			-cmp.Compare(b2i(x.fromReal), b2i(y.fromReal)))
	})
	cons = slices.CompactFunc(cons, func(x, y crossContact) bool {
		return x.c.Kind == y.c.Kind && x.c.Obj == y.c.Obj && x.gi == y.gi && x.gj == y.gj && x.rel == y.rel
	})
	b.Last.Solved = len(cons)
	if len(cons) == 0 {
		return nil, nil
	}
	s := &b.bsys
	n := len(balls)
	s.Q, s.V = grow(s.Q, 2*n), grow(s.V, 2*n)
	s.M, s.R = grow(s.M, n), grow(s.R, n)
	if cap(s.Fixed) < n {
		s.Fixed = make([]bool, n, n+n/4+16)
	}
	s.Fixed = s.Fixed[:n]
	for i := range balls {
		a := &balls[i]
		s.Q[2*i], s.Q[2*i+1], s.V[2*i], s.V[2*i+1] = a.x, a.y, a.vx, a.vy
		s.M[i], s.R[i], s.Fixed[i] = a.m, a.r, a.fixed
	}
	idx := func(g int64) int32 {
		i, _ := slices.BinarySearchFunc(balls, g, func(a ball, g int64) int { return cmp.Compare(a.gid, g) })
		return int32(i)
	}
	cs := b.ccs[:0]
	for k := range cons {
		c := cons[k].c
		c.I, c.J = idx(cons[k].gi), -1
		if cons[k].gj >= 0 {
			c.J = idx(cons[k].gj)
		}
		cs = append(cs, c)
	}
	b.ccs = cs
	b.cvplus = grow(b.cvplus, 2*n)
	vplus := b.cvplus
	if err := b.solve(s, cs, vplus, &b.bprob); err != nil {
		return nil, fmt.Errorf("%d contacts on rank %d: %w", len(cs), b.cart.Rank(), err)
	}
	res := b.cres[:0]
	defer func() { b.cres = res }()
	for i := range balls {
		if !balls[i].fixed {
			res = append(res, float64(balls[i].gid), vplus[2*i], vplus[2*i+1])
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

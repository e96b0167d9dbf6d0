package domain

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"impactsim/mpi"
)

// Count returns the number of bodies on all ranks and checks that every
// global id in [0, n) is held by exactly one rank (collective): a body
// lost or duplicated by migration is an error naming the id.
func (g *grid) Count(n int) error {
	g.syncOwn()
	held := make([]float64, n)
	for i := range g.own {
		id := g.own[i].gid
		if id < 0 || id >= int64(n) {
			return fmt.Errorf("domain: rank %d holds body %d, ids are in [0, %d)", g.cart.Rank(), id, n)
		}
		held[id]++
	}
	all := make([]float64, n)
	if err := g.cart.Allreduce(held, all, mpi.Sum); err != nil {
		return err
	}
	for id, k := range all {
		if k != 1 {
			return fmt.Errorf("domain: after step %d body %d is held by %v ranks", g.N, id, k)
		}
	}
	return nil
}

// momentum returns the total linear momentum of the free bodies
// (collective; every rank gets it).
func (g *grid) momentum() ([3]float64, error) {
	g.syncOwn()
	var p, all [3]float64
	for i := range g.own {
		if o := &g.own[i]; !o.fixed {
			g.m.momentum(o, &p)
		}
	}
	err := g.cart.Allreduce(p[:], all[:], mpi.Sum)
	return all, err
}

// gather returns on root every rank's bodies sorted by global id; other
// ranks get nil (collective). The slice is reused by the next call.
func (g *grid) gather(root int) ([]body, error) {
	g.syncOwn()
	me := g.cart.Rank()
	msg := g.gmsg[:0]
	if me != root {
		for i := range g.own {
			msg = g.put(msg, &g.own[i])
		}
	}
	g.gmsg = msg
	rows, err := g.gatherAt(root, tagState, msg)
	if err != nil || rows == nil {
		return nil, err
	}
	out := append(g.gbod[:0], g.own...)
	rl := g.recLen()
	for r, m := range rows {
		if r == root {
			continue
		}
		for j := 0; j+rl <= len(m); j += rl {
			out = append(out, g.get(m[j:j+rl]))
		}
	}
	slices.SortFunc(out, func(a, b body) int { return cmp.Compare(a.gid, b.gid) })
	g.gbod = out
	return out, nil
}

// Report gathers every rank's Totals on Root and writes one line per rank
// there (collective): bodies owned and ghosts held on average, payload
// bytes sent, step, communication and gather time per step, contacts of
// crossing islands solved.
func (g *grid) Report(w io.Writer) error {
	t := &g.Total
	k := float64(max(t.Steps, 1))
	mine := []float64{float64(t.Owned) / k, float64(t.Ghosts) / k, float64(t.BytesSent) / k,
		t.Total.Seconds() / k, t.Comm.Seconds() / k, t.Gather.Seconds() / k, float64(t.Solved) / k}
	in := make([][]float64, g.cart.Size())
	if err := mpi.Gather(g.cart, g.root, tagReport, mine, in); err != nil {
		return err
	}
	if g.cart.Rank() != g.root {
		return nil
	}
	dims := fmt.Sprint(g.dims[0])
	for d := 1; d < g.nd; d++ {
		dims += fmt.Sprintf(" × %d", g.dims[d])
	}
	fmt.Fprintf(w, "ranks      %d (%s); per step: rank, bodies, ghosts, bytes sent, step ms, comm ms, gather ms, crossing contacts solved\n", g.cart.Size(), dims)
	for r, m := range in {
		if len(m) < 7 {
			continue
		}
		fmt.Fprintf(w, "           %d  %.0f  %.0f  %.0f  %.3f  %.3f  %.3f  %.1f\n", r, m[0], m[1], m[2], 1e3*m[3], 1e3*m[4], 1e3*m[5], m[6])
	}
	return nil
}

// AllDone is a collective check that every rank did its part of what
// (writing its piece of a frame): nil when every rank's err is nil;
// otherwise the rank's own error, or on the ranks that succeeded an error
// naming the lowest rank that failed.
func (g *grid) AllDone(err error, what string) error {
	bad := float64(g.cart.Size())
	if err != nil {
		bad = float64(g.cart.Rank())
	}
	first := []float64{0}
	if e := g.cart.Allreduce([]float64{bad}, first, mpi.Min); e != nil {
		return e
	}
	if err != nil {
		return fmt.Errorf("rank %d: %w", g.cart.Rank(), err)
	}
	if r := int(first[0]); r < g.cart.Size() {
		return fmt.Errorf("domain: %s: rank %d could not do its part", what, r)
	}
	return nil
}

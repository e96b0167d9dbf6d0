package domain

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"impactsim/mpi"
)

// Insertion and deletion of bodies between steps (the channel flow's
// inflow and outflow). Global ids are the caller's: a rule every rank
// evaluates the same way (a counter of the bodies created so far, as one
// process numbers them) gives the same ids on any number of ranks. Every
// rank offers every new body and keeps it only when its centre lies in
// its subdomain; a body is deleted by its owner alone. Ghosts live for one
// step — every step rebuilds them from the owners' bodies — so a deleted
// body's ghosts are dropped on the neighbours at the next exchange and no
// message is needed; what must not survive is the rank's own local
// system, which a rank without ghosts keeps between steps (reuse): both
// operations make the next step load it again.

// insert offers body b to this rank (not collective): it is kept, in key
// order, when its centre (wrapped into a periodic region) lies in the
// rank's subdomain, and insert reports whether it was. A body whose id
// this rank already holds is an error.
func (g *grid) insert(b body) (bool, error) {
	g.wrap(&b)
	for d := 0; d < g.nd; d++ {
		if g.cell(b.x[d], d) != g.coord[d] {
			return false, nil
		}
	}
	g.syncOwn()
	i, found := slices.BinarySearchFunc(g.own, b, key)
	if found || (i < len(g.own) && g.own[i].gid == b.gid) || (i > 0 && g.own[i-1].gid == b.gid) {
		return false, fmt.Errorf("domain: rank %d already holds body %d", g.cart.Rank(), b.gid)
	}
	if i == len(g.own) {
		g.own = append(g.own, b) // new ids are usually the largest: no shift
	} else {
		g.own = slices.Insert(g.own, i, b)
	}
	g.reuse = false
	return true, nil
}

// remove deletes this rank's bodies for which drop(x, gid) is true,
// keeping the others in order, and returns how many it deleted (not
// collective; the owner decides). It does not allocate.
func (g *grid) remove(drop func(x *[3]float64, gid int64) bool) int {
	g.syncOwn()
	keep := g.own[:0]
	for i := range g.own {
		if drop(&g.own[i].x, g.own[i].gid) {
			continue
		}
		keep = append(keep, g.own[i])
	}
	n := len(g.own) - len(keep)
	g.own = keep
	g.removed += n
	if n > 0 {
		// The local system still holds the deleted bodies: load it again
		// (on several ranks the ghosts are rebuilt anyway).
		g.reuse = false
	}
	return n
}

// Census is the whole system after a step, by reductions over the ranks:
// integer counts summed as float64 (exact below 2⁵³ in any order) and
// maxima (no order changes them), so every rank count gives the same
// numbers and every rank gets them.
type Census struct {
	// Bodies is the number of bodies on all ranks; Removed the number
	// the ranks deleted since the last census.
	Bodies, Removed int
	// Contacts is the step's contacts, each counted once (by the rank
	// that swept or solved it), Pairs the body–body ones among them.
	Contacts, Pairs int
	// MaxPenetration is the largest overlap of two bodies at the step's
	// start, MaxWallPenetration that of a body and a wall.
	MaxPenetration, MaxWallPenetration float64
}

// census reduces the step's counts (collective).
func (g *grid) census() (Census, error) {
	g.syncOwn()
	l := &g.Last
	if g.cen == nil {
		g.cen = make([]float64, 12) // MPI buffers hold no Go pointers
	}
	buf := g.cen
	buf[0], buf[1], buf[2], buf[3] = float64(len(g.own)), float64(g.removed), float64(l.Contacts), float64(l.Pairs)
	buf[8], buf[9] = l.MaxPenetration, l.MaxWallPenetration
	t := time.Now()
	err := g.cart.Allreduce(buf[0:4], buf[4:8], mpi.Sum)
	if err == nil {
		err = g.cart.Allreduce(buf[8:10], buf[10:12], mpi.Max)
	}
	g.Last.Comm += time.Since(t)
	if err != nil {
		return Census{}, err
	}
	g.removed = 0
	return Census{Bodies: int(buf[4]), Removed: int(buf[5]), Contacts: int(buf[6]), Pairs: int(buf[7]), MaxPenetration: buf[10], MaxWallPenetration: buf[11]}, nil
}

// gatherAt gathers every rank's row on root (collective) into the grid's
// buffer: root gets one slice per rank, in rank order (valid until the
// next gather), the other ranks nil.
func (g *grid) gatherAt(root, tag int, row []float64) ([][]float64, error) {
	if len(g.gin) < g.cart.Size() {
		g.gin = make([][]float64, g.cart.Size())
	}
	if err := mpi.Gather(g.cart, root, tag, row, g.gin); err != nil {
		return nil, err
	}
	if g.cart.Rank() != root {
		return nil, nil
	}
	return g.gin[:g.cart.Size()], nil
}

// sumOrdered returns on every rank the sum over the ranks of each rank's
// vals, added on Root in rank order (collective): the same number for a
// given rank count on every run (MPI's Allreduce order is unspecified).
func (g *grid) sumOrdered(vals []float64) ([]float64, error) {
	rows, err := g.gatherAt(g.root, tagSum, vals)
	if err != nil {
		return nil, err
	}
	var out []float64
	if rows != nil {
		out = make([]float64, len(vals))
		for r, m := range rows {
			if len(m) != len(vals) {
				return nil, fmt.Errorf("domain: rank %d sent %d values to sum, want %d", r, len(m), len(vals))
			}
			for k := range out {
				out[k] += m[k]
			}
		}
	}
	return mpi.Bcast(g.cart, g.root, tagSum+1, out)
}

// CheckIDs checks that every global id is held by exactly one rank and
// returns their number (collective): the ids of all ranks are gathered
// on Root, sorted and checked for repeats there, and the verdict is
// broadcast. A test and debugging aid (it moves every id).
func (g *grid) CheckIDs() (int, error) {
	g.syncOwn()
	msg := g.gmsg[:0]
	for i := range g.own {
		msg = append(msg, float64(g.own[i].gid))
	}
	g.gmsg = msg
	rows, err := g.gatherAt(g.root, tagIDs, msg)
	if err != nil {
		return 0, err
	}
	verdict := []float64{0, -1}
	if rows != nil {
		var all []float64
		for _, m := range rows {
			all = append(all, m...)
		}
		slices.SortFunc(all, cmp.Compare[float64])
		verdict[0] = float64(len(all))
		for k := 1; k < len(all); k++ {
			if all[k] == all[k-1] {
				verdict[1] = all[k]
				break
			}
		}
	}
	v, err := mpi.Bcast(g.cart, g.root, tagIDs+1, verdict)
	if err != nil {
		return 0, err
	}
	if len(v) != 2 {
		return 0, fmt.Errorf("domain: id check: %d values from rank %d", len(v), g.root)
	}
	if v[1] >= 0 {
		return 0, fmt.Errorf("domain: after step %d body %v is held by more than one rank", g.N, v[1])
	}
	if math.IsNaN(v[0]) {
		return 0, fmt.Errorf("domain: id check failed")
	}
	return int(v[0]), nil
}

// GatherRows gathers every rank's row of values on Root, in rank order
// (collective; other ranks get nil): per-rank figures for a report.
func (g *grid) GatherRows(row []float64) ([]float64, error) {
	rows, err := g.gatherAt(g.root, tagRows, row)
	if err != nil || rows == nil {
		return nil, err
	}
	var out []float64
	for _, m := range rows {
		out = append(out, m...)
	}
	return out, nil
}

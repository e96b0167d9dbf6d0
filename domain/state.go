package domain

import (
	"fmt"

	"impactsim/mpi"
)

// Count returns the number of balls on all ranks and checks that every
// global id in [0, n) is held by exactly one rank (collective): a ball lost
// or duplicated by migration is an error naming the id.
func (b *Balls) Count(n int) error {
	held := make([]float64, n)
	for i := range b.own {
		g := b.own[i].gid
		if g < 0 || g >= int64(n) {
			return fmt.Errorf("domain: rank %d holds ball %d, ids are in [0, %d)", b.cart.Rank(), g, n)
		}
		held[g]++
	}
	all := make([]float64, n)
	if err := b.cart.Allreduce(held, all, mpi.Sum); err != nil {
		return err
	}
	for g, k := range all {
		if k != 1 {
			return fmt.Errorf("domain: after step %d ball %d is held by %v ranks", b.N, g, k)
		}
	}
	return nil
}

// Momentum returns the total linear momentum Σ mᵢ vᵢ of the free balls
// (collective; every rank gets it).
func (b *Balls) Momentum() ([2]float64, error) {
	var p, all [2]float64
	for i := range b.own {
		if o := &b.own[i]; !o.fixed {
			p[0] += o.m * o.vx
			p[1] += o.m * o.vy
		}
	}
	err := b.cart.Allreduce(p[:], all[:], mpi.Sum)
	return all, err
}

// Gather returns on root the state of all n balls (q, v indexed by global
// id, as ball2d.System's Q and V); other ranks get nil (collective). The
// slices are reused by the next call.
func (b *Balls) Gather(root, n int) (q, v []float64, err error) {
	me := b.cart.Rank()
	msg := b.gmsg[:0]
	if me != root {
		for i := range b.own {
			msg = b.own[i].put(msg)
		}
	}
	b.gmsg = msg
	if len(b.gin) < b.cart.Size() {
		b.gin = make([][]float64, b.cart.Size())
	}
	if err := mpi.Gather(b.cart, root, tagState, msg, b.gin); err != nil {
		return nil, nil, err
	}
	if me != root {
		return nil, nil, nil
	}
	b.gq, b.gv = grow(b.gq, 2*n), grow(b.gv, 2*n)
	q, v = b.gq, b.gv
	set := func(bl *ball) error {
		if bl.gid < 0 || bl.gid >= int64(n) {
			return fmt.Errorf("domain: gathered ball %d, ids are in [0, %d)", bl.gid, n)
		}
		g := 2 * bl.gid
		q[g], q[g+1], v[g], v[g+1] = bl.x, bl.y, bl.vx, bl.vy
		return nil
	}
	for i := range b.own {
		if err := set(&b.own[i]); err != nil {
			return nil, nil, err
		}
	}
	for r, m := range b.gin[:b.cart.Size()] {
		if r == root {
			continue
		}
		for j := 0; j+recLen <= len(m); j += recLen {
			bl := getBall(m[j : j+recLen])
			if err := set(&bl); err != nil {
				return nil, nil, err
			}
		}
	}
	return q, v, nil
}

package spheres

import (
	"cmp"
	"slices"
)

// canonicalize puts the step's contacts in the canonical order of the
// spheres' IDs: every sphere pair is oriented from the lower ID (i) to the
// higher (j) — swapping the two negates the normal, which is exact, since
// the separation x_j − x_i is the exact negation of x_i − x_j — and the
// pairs are ordered by (ID_i, ID_j), then the wall contacts by (wall,
// ID_i). The tangents and blocks are recomputed from the oriented pair,
// so a contact's record depends only on the two spheres (and the wall),
// not on which of them the broad phase met first. The islands' contacts
// and spheres then come in the same order whatever the arrays' order and
// the grid, and so do their solutions, bit for bit.
func (s *System) canonicalize() {
	w := &s.work
	w.conGen++
	for k := 0; k < w.npair; k++ {
		c := &w.con[k]
		if s.ID[c.i] > s.ID[c.j] {
			c.i, c.j = c.j, c.i
			c.n = [3]float64{-c.n[0], -c.n[1], -c.n[2]}
		}
		c.t, _ = tangents(c.n) // of the swapped normal, as the broad phase makes it
	}
	// Sort small keys, not the contact records (64 B each), then move
	// each record once. Keys are unique (a pair or a sphere–wall contact
	// is found once), so the order is the keys' alone.
	keys := w.ckeys[:0]
	for k := range w.con {
		c := &w.con[k]
		if k < w.npair {
			keys = append(keys, canonKey{s.ID[c.i], s.ID[c.j], int32(k)})
		} else {
			// walls by index: j = −1 − wall
			keys = append(keys, canonKey{int64(-1 - c.j), s.ID[c.i], int32(k)})
		}
	}
	byKey := func(a, b canonKey) int { return cmp.Or(cmp.Compare(a.a, b.a), cmp.Compare(a.b, b.b)) }
	slices.SortFunc(keys[:w.npair], byKey)
	slices.SortFunc(keys[w.npair:], byKey)
	w.ckeys = keys
	w.cbuf = append(w.cbuf[:0], w.con...)
	for r, k := range keys {
		w.con[r] = w.cbuf[k.k]
	}
}

// canonKey is a contact's place in the canonical order: (ID_i, ID_j) for
// a pair, (wall, ID_i) for a wall contact, and its index k.
type canonKey struct {
	a, b int64
	k    int32
}

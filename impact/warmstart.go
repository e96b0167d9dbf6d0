package impact

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// warmStart carries the impulses of an LCP solve from one time step to the
// next as initial guesses of the island solves (Config.WarmStart).
//
// Why: in a resting or slowly moving pile most contacts that push at step
// t+1 pushed at step t (c < 1) or at step t−1 (c = 1, where a resting
// contact alternates between reflecting and separating), and the active-set
// and MPRGP solvers start from the guess's free set. Across GR iterations
// within one step there is nothing to carry: every contact that pushed at
// iteration k leaves it non-approaching, so the violators of iteration k+1
// had zero impulse at k.
//
// A contact is identified by its pair of bodies (a < b, or b = −1 for static
// geometry) and its rank among the consecutive contacts of that pair in
// island order (a box–box manifold; balls have one contact per pair). The
// guess is its impulse at the last step at which it was nonzero, if that was
// one of the last two. A guess is only a starting point: the solvers meet
// the same KKT tolerance from any start, so only the rounding of the answer
// depends on it.
type warmStart struct {
	gen [2]warmGen // gen[0]: the last step, gen[1]: the step before
}

// warmGen is one step's nonzero impulses, bucketed by the pair's first body.
type warmGen struct {
	nb  int      // bodies of the system it was recorded for (0: empty)
	off []int32  // bucket a holds key[off[a]:off[a+1]] (len nb+1)
	key []uint64 // (b+1)<<16 | rank
	y   []float64
	// A generation read from a file keeps its entries' first bodies in at
	// (pending) until prepare sees a system of nb bodies: only then are the
	// nb+1 offsets worth allocating, not on the word of a file.
	at      []int32
	pending bool
}

const warmMaxRank = 1<<16 - 1

// warmPair returns contact j's pair of bodies in the order used as its key:
// a ≥ 0 and either b > a or b = −1.
func warmPair(bodies []int, j int) (a, b int) {
	a, b = bodies[2*j], bodies[2*j+1]
	if a < 0 || (b >= 0 && b < a) {
		a, b = b, a
	}
	return a, b
}

func warmKey(b, rank int) uint64 { return uint64(b+1)<<16 | uint64(min(rank, warmMaxRank)) }

// find returns the impulse stored for key k in bucket a of a system of nb
// bodies, or 0.
func (g *warmGen) find(nb, a int, k uint64) float64 {
	if g.nb != nb || g.pending {
		return 0
	}
	for e := g.off[a]; e < g.off[a+1]; e++ {
		if g.key[e] == k {
			return g.y[e]
		}
	}
	return 0
}

// guess writes into y the warm start of the island columns gcols (columns
// of the problem whose contacts touch bodies; island order). It only reads
// w, so islands may be guessed concurrently.
func (w *warmStart) guess(bodies []int, nb int, gcols []int, y []float64) {
	if w.gen[0].nb != nb && w.gen[1].nb != nb {
		clear(y[:len(gcols)])
		return
	}
	r, pa, pb := 0, -2, -2
	for i, j := range gcols {
		a, b := warmPair(bodies, j)
		r = warmNextRank(r, a, b, pa, pb)
		pa, pb = a, b
		k := warmKey(b, r)
		v := w.gen[0].find(nb, a, k)
		if v == 0 {
			v = w.gen[1].find(nb, a, k)
		}
		y[i] = v
	}
}

// warmNextRank returns the rank of a contact of pair (a, b) that follows
// one of pair (pa, pb) and rank r in island order.
func warmNextRank(r, a, b, pa, pb int) int {
	if a == pa && b == pb {
		return r + 1
	}
	return 0
}

// prepare readies the warm start for a system of nb bodies: generations
// read from a file get their offsets if recorded for nb bodies and are
// dropped otherwise.
func (w *warmStart) prepare(nb int) {
	for i := range w.gen {
		g := &w.gen[i]
		if !g.pending {
			continue
		}
		g.pending = false
		if g.nb != nb {
			g.nb, g.at = 0, nil
			continue
		}
		g.off = growInt32(g.off, nb+1)
		clear(g.off)
		for _, a := range g.at {
			g.off[a+1]++
		}
		for a := 1; a <= nb; a++ {
			g.off[a] += g.off[a-1]
		}
		g.at = nil
	}
}

// record stores the nonzero impulses y (indexed by problem column) of the
// columns of isl (island c holds cols(c), mapped through colMap when set)
// as the newest generation, dropping the oldest.
func (w *warmStart) record(isl *islands, colMap []int, bodies []int, nb int, y []float64) {
	w.gen[0], w.gen[1] = w.gen[1], w.gen[0]
	g := &w.gen[0]
	g.nb, g.pending, g.at = nb, false, nil
	g.off = growInt32(g.off, nb+1)
	clear(g.off)
	n := 0
	w.eachColumn(isl, colMap, bodies, func(j, a, k int) {
		if y[j] > 0 {
			g.off[a+1]++
			n++
		}
	})
	for a := 1; a <= nb; a++ {
		g.off[a] += g.off[a-1]
	}
	if cap(g.key) < n {
		g.key = make([]uint64, n, n+n/4+8)
		g.y = make([]float64, n, n+n/4+8)
	}
	g.key, g.y = g.key[:n], g.y[:n]
	// Fill with off[a] as bucket a's cursor, then shift the cursors (now
	// each bucket's end) back to starts.
	w.eachColumn(isl, colMap, bodies, func(j, a, k int) {
		if y[j] > 0 {
			_, b := warmPair(bodies, j)
			e := g.off[a]
			g.key[e], g.y[e] = warmKey(b, k), y[j]
			g.off[a]++
		}
	})
	copy(g.off[1:], g.off[:nb])
	g.off[0] = 0
}

// eachColumn calls f(j, a, rank) for every column j of isl, island by
// island in order, with a its pair's first body.
func (w *warmStart) eachColumn(isl *islands, colMap []int, bodies []int, f func(j, a, rank int)) {
	for c := 0; c < isl.n(); c++ {
		cols := isl.cols(c)
		r, pa, pb := 0, -2, -2
		for _, j := range cols {
			if colMap != nil {
				j = colMap[j]
			}
			a, b := warmPair(bodies, j)
			r = warmNextRank(r, a, b, pa, pb)
			pa, pb = a, b
			f(j, a, r)
		}
	}
}

// skip records a step without impulses.
func (w *warmStart) skip() {
	w.gen[0], w.gen[1] = w.gen[1], w.gen[0]
	w.gen[0].nb, w.gen[0].pending, w.gen[0].at = 0, false, nil
}

func (w *warmStart) reset() {
	for i := range w.gen {
		w.gen[i].nb, w.gen[i].pending, w.gen[i].at = 0, false, nil
	}
}

// warmMagic starts a serialized warm start; the digit is the format version.
const warmMagic = "warm1"

// writeTo writes both generations: the magic, then per generation uint64
// nb and entry count and the entries (uint32 body a, uint64 key, float64
// impulse) in bucket order; little-endian.
func (w *warmStart) writeTo(wr io.Writer) error {
	buf := []byte(warmMagic)
	for i := range w.gen {
		g := &w.gen[i]
		n := 0
		switch {
		case g.pending:
			n = len(g.at)
		case g.nb > 0:
			n = int(g.off[g.nb])
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(g.nb))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(n))
		entry := func(a int, e int32) {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(a))
			buf = binary.LittleEndian.AppendUint64(buf, g.key[e])
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(g.y[e]))
		}
		if g.pending {
			for e, a := range g.at {
				entry(int(a), int32(e))
			}
			continue
		}
		for a := 0; a < g.nb; a++ {
			for e := g.off[a]; e < g.off[a+1]; e++ {
				entry(a, e)
			}
		}
	}
	if _, err := wr.Write(buf); err != nil {
		return fmt.Errorf("impact: writing the warm start: %w", err)
	}
	return nil
}

// maxWarmBodies bounds nb in a serialized warm start (a reader must not
// allocate what a corrupt field asks for).
const maxWarmBodies = 1 << 31

// readFrom replaces w by the warm start in data (written by writeTo), or
// leaves w unchanged and returns an error naming what is wrong.
func (w *warmStart) readFrom(data []byte) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("impact: reading the warm start: "+format, args...)
	}
	if len(data) < len(warmMagic) || string(data[:len(warmMagic)]) != warmMagic {
		return fail("expected the header %q", warmMagic)
	}
	data = data[len(warmMagic):]
	var gens [2]warmGen
	for i := range gens {
		if len(data) < 16 {
			return fail("generation %d: %w", i, io.ErrUnexpectedEOF)
		}
		nb, n := binary.LittleEndian.Uint64(data), binary.LittleEndian.Uint64(data[8:])
		data = data[16:]
		if nb >= maxWarmBodies || n > uint64(len(data))/20 || (nb == 0 && n > 0) {
			return fail("generation %d: %d bodies and %d entries in %d bytes", i, nb, n, len(data))
		}
		g := &gens[i]
		g.nb = int(nb)
		if nb == 0 {
			continue
		}
		g.pending = true
		g.at = make([]int32, n)
		g.key = make([]uint64, n)
		g.y = make([]float64, n)
		last := 0
		for e := range g.key {
			a := int(binary.LittleEndian.Uint32(data))
			k := binary.LittleEndian.Uint64(data[4:])
			y := math.Float64frombits(binary.LittleEndian.Uint64(data[12:]))
			data = data[20:]
			b := int(k>>16) - 1
			switch {
			case a < last || a >= int(nb):
				return fail("generation %d, entry %d: body %d out of order or range (%d bodies)", i, e, a, nb)
			case b != -1 && (b <= a || b >= int(nb)):
				return fail("generation %d, entry %d: pair (%d, %d) out of range", i, e, a, b)
			case !(y > 0) || math.IsInf(y, 0):
				return fail("generation %d, entry %d: impulse %v, want a finite y > 0", i, e, y)
			}
			last = a
			g.at[e], g.key[e], g.y[e] = int32(a), k, y
		}
	}
	if len(data) != 0 {
		return fail("%d bytes after the last entry", len(data))
	}
	w.gen = gens
	return nil
}

// WarmStarter is implemented by operators that carry a warm start from one
// problem to the next (Config.WarmStart). A run resumed from a saved state
// continues bitwise as the uninterrupted one only if the warm start is saved
// and restored with it.
type WarmStarter interface {
	// WriteWarmStart writes the warm start to w.
	WriteWarmStart(w io.Writer) error
	// ReadWarmStart replaces the warm start by the one in data (written by
	// WriteWarmStart), or returns an error and keeps the current one.
	ReadWarmStart(data []byte) error
	// ResetWarmStart forgets the warm start: the next solve starts cold.
	ResetWarmStart()
}

package friction

import (
	"math/bits"

	"impactsim/mech"
)

// blcpColours is the colour order of BoxedLCP's coloured sweep: a greedy
// colouring of the contacts in which two contacts of one colour share no
// row of v (no body), so that the updates of one colour are independent
// and may run on any number of workers with the same bits.
//
// Contacts are coloured in contact order, each with the smallest colour
// not used by a contact that shares one of its rows (the rows of its
// normal and friction columns and of their M⁻¹ images); a per-row bit set
// of the colours seen holds that, so colours are 0…63. A contact that finds
// all 64 taken (it would need a body with more than 63 contacts' worth of
// neighbours — never in sphere packings, whose contacts need about 15)
// goes to a last group that one worker sweeps in contact order. The order
// is then the contacts colour by colour, in contact order within a colour.
type blcpColours struct {
	order []int32  // the contacts, colour by colour
	start []int32  // group g is order[start[g]:start[g+1]]
	tail  bool     // the last group is the uncoloured rest, swept by one worker
	col   []int8   // per contact: its colour, −1 for the rest
	mask  []uint64 // per row of v: the colours of the contacts coloured so far that touch it
}

// colour computes the order for p; fPtr, fCol are each contact's friction
// columns (blcpPack.frictionColumns), mg and md M⁻¹G and M⁻¹D.
func (c *blcpColours) colour(p *mech.Problem, mg, md *mech.Cols, fPtr, fCol []int32) {
	m := p.NContacts()
	c.mask = growU64(c.mask, p.NDof())
	clear(c.mask)
	if cap(c.col) < m {
		c.col = make([]int8, m)
	}
	c.col = c.col[:m]
	var count [65]int32
	for i := 0; i < m; i++ {
		fc := fCol[fPtr[i]:fPtr[i+1]]
		var used uint64
		seen := func(cs *mech.Cols, j int) {
			for _, r := range cs.Row[cs.Ptr[j]:cs.Ptr[j+1]] {
				used |= c.mask[r]
			}
		}
		seen(&p.G, i)
		seen(mg, i)
		for _, j := range fc {
			seen(&p.D, int(j))
			seen(md, int(j))
		}
		if used == ^uint64(0) {
			c.col[i] = -1
			count[64]++
			continue
		}
		k := bits.TrailingZeros64(^used)
		c.col[i] = int8(k)
		count[k]++
		bit := uint64(1) << k
		take := func(cs *mech.Cols, j int) {
			for _, r := range cs.Row[cs.Ptr[j]:cs.Ptr[j+1]] {
				c.mask[r] |= bit
			}
		}
		take(&p.G, i)
		take(mg, i)
		for _, j := range fc {
			take(&p.D, int(j))
			take(md, int(j))
		}
	}
	ncol := 0
	for k := 63; k >= 0; k-- {
		if count[k] > 0 {
			ncol = k + 1
			break
		}
	}
	c.tail = count[64] > 0
	groups := ncol
	if c.tail {
		groups++
	}
	c.start = growI32(c.start, groups+1)
	c.start[0] = 0
	for g := 0; g < ncol; g++ {
		c.start[g+1] = c.start[g] + count[g]
	}
	if c.tail {
		c.start[groups] = c.start[ncol] + count[64]
	}
	// counting sort, stable: contact order within a colour
	var next [65]int32
	for g := 0; g < groups; g++ {
		k := g
		if g == ncol {
			k = 64
		}
		next[k] = c.start[g]
	}
	c.order = growI32(c.order, m)
	for i := 0; i < m; i++ {
		k := int(c.col[i])
		if k < 0 {
			k = 64
		}
		c.order[next[k]] = int32(i)
		next[k]++
	}
}

// groups returns the number of groups (colours, and the rest if any).
func (c *blcpColours) groups() int { return len(c.start) - 1 }

func growU64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

package friction

import (
	"math/bits"

	"impactsim/mech"
)

// blcpColours is the order of BoxedLCP's coloured sweep: groups of
// contacts whose updates are independent, so that a group may run on any
// number of workers with the same bits.
//
// Blocks. The contacts are cut, in contact order, into blocks of
// blockContacts (the last one shorter; the cut depends on the problem
// only). A row of v touched only by the contacts of one block belongs to
// it; a contact whose rows all belong to its own block is interior. The
// interior contacts of different blocks share no row, so the blocks'
// interiors are the first groups: each swept in contact order by one
// worker, the blocks side by side. Systems that number contacts by place
// (package spheres' cell-sorted detection) make a block a region of
// space, so most contacts are interior and are swept as contact by
// contact, with its cache reuse: consecutive contacts share bodies.
//
// Colours. The rest (the contacts on the blocks' borders) are coloured
// greedily in contact order, each with the smallest colour not used by a
// border contact that shares one of its rows (the rows of its normal and
// friction columns and of their M⁻¹ images; a per-row bit set of the
// colours seen holds that, so colours are 0…63); each colour is a group,
// split over the workers. A contact that finds all 64 taken goes to a last
// group that one worker sweeps in contact order.
type blcpColours struct {
	order  []int32  // the contacts, group by group
	start  []int32  // group g is order[start[g]:start[g+1]]
	blocks int      // groups [0, blocks) are the blocks' interiors
	tail   bool     // the last group is the uncoloured rest, swept by one worker
	col    []int8   // per contact: its colour, −1 for the rest, −2 interior
	mask   []uint64 // per row of v: the colours of the border contacts coloured so far that touch it
	owner  []int32  // per row of v: 1 + the block of the contacts that touch it, −1 several, 0 none
	size   int      // blockContacts override (tests; 0: the constant)
	count  []int32  // per block, colour and the rest: its contacts
	next   []int32  // the counting sort's cursors
	rs     []int32  // one contact's rows
}

// rowsOf returns the rows of v that contact i's columns and their M⁻¹
// images touch (with repeats), in c.rs; with mg nil (a problem of the
// compact shape, blcpCompact), all six rows of each of the contact's
// bodies, which its compact update writes and which, for scalar blocks,
// are the rows of its columns' images.
func (c *blcpColours) rowsOf(p *mech.Problem, mg, md *mech.Cols, fPtr, fCol []int32, i int) []int32 {
	c.rs = c.rs[:0]
	if mg == nil {
		for _, b := range p.Bodies[2*i : 2*i+2] {
			for r := 6 * b; b >= 0 && r < 6*b+6; r++ {
				c.rs = append(c.rs, int32(r))
			}
		}
		return c.rs
	}
	c.rs = append(c.rs, p.G.Row[p.G.Ptr[i]:p.G.Ptr[i+1]]...)
	c.rs = append(c.rs, mg.Row[mg.Ptr[i]:mg.Ptr[i+1]]...)
	for _, j := range fCol[fPtr[i]:fPtr[i+1]] {
		c.rs = append(c.rs, p.D.Row[p.D.Ptr[j]:p.D.Ptr[j+1]]...)
		c.rs = append(c.rs, md.Row[md.Ptr[j]:md.Ptr[j+1]]...)
	}
	return c.rs
}

// blockContacts is the number of contacts per block: a block is swept by
// one worker, so the landing island of 48,000 contacts has 6 of them.
const blockContacts = 8192

// colour computes the order for p; fPtr, fCol are each contact's friction
// columns (blcpPack.frictionColumns), mg and md M⁻¹G and M⁻¹D (nil: by
// the contacts' bodies, rowsOf).
func (c *blcpColours) colour(p *mech.Problem, mg, md *mech.Cols, fPtr, fCol []int32) {
	m := p.NContacts()
	bs := blockContacts
	if c.size > 0 {
		bs = c.size
	}
	nb := (m + bs - 1) / bs
	c.mask = growU64(c.mask, p.NDof())
	clear(c.mask)
	c.owner = growI32(c.owner, p.NDof())
	clear(c.owner)
	if cap(c.col) < m {
		c.col = make([]int8, m)
	}
	c.col = c.col[:m]
	for i := 0; i < m; i++ {
		b := int32(i/bs) + 1
		for _, r := range c.rowsOf(p, mg, md, fPtr, fCol, i) {
			if o := c.owner[r]; o == 0 {
				c.owner[r] = b
			} else if o != b {
				c.owner[r] = -1
			}
		}
	}
	c.count = growI32(c.count, nb+65) // blocks, colours 0…63, the rest
	clear(c.count)
	count := c.count
	for i := 0; i < m; i++ {
		b := int32(i/bs) + 1
		interior := true
		var used uint64
		rs := c.rowsOf(p, mg, md, fPtr, fCol, i)
		for _, r := range rs {
			interior = interior && c.owner[r] == b
			used |= c.mask[r]
		}
		switch {
		case interior:
			c.col[i] = -2
			count[b-1]++
		case used == ^uint64(0):
			c.col[i] = -1
			count[nb+64]++
		default:
			k := bits.TrailingZeros64(^used)
			c.col[i] = int8(k)
			count[nb+k]++
			bit := uint64(1) << k
			for _, r := range rs {
				c.mask[r] |= bit
			}
		}
	}
	// the groups: the blocks (all, even empty), the colours used, the rest
	ncol := 0
	for k := 63; k >= 0; k-- {
		if count[nb+k] > 0 {
			ncol = k + 1
			break
		}
	}
	c.blocks = nb
	c.tail = count[nb+64] > 0
	groups := nb + ncol
	if c.tail {
		groups++
	}
	c.start = growI32(c.start, groups+1)
	c.start[0] = 0
	c.next = growI32(c.next, nb+65)
	next := c.next
	for g := 0; g < groups; g++ {
		k := g
		if g == nb+ncol {
			k = nb + 64
		}
		next[k] = c.start[g]
		c.start[g+1] = c.start[g] + count[k]
	}
	// counting sort, stable: contact order within a group
	c.order = growI32(c.order, m)
	for i := 0; i < m; i++ {
		var k int
		switch col := int(c.col[i]); col {
		case -2:
			k = i / bs
		case -1:
			k = nb + 64
		default:
			k = nb + col
		}
		c.order[next[k]] = int32(i)
		next[k]++
	}
}

// groups returns the number of groups (blocks, colours, and the rest if
// any).
func (c *blcpColours) groups() int { return len(c.start) - 1 }

func growU64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

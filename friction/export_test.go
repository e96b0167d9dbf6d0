package friction

import "unsafe"

// ColourGroups returns the order of o's last coloured solve: the contacts
// group by group (order[start[g]:start[g+1]]), how many of the groups are
// blocks' interiors, and whether the last group is the uncoloured rest.
func ColourGroups(o *BoxedLCP) (order, start []int32, blocks int, tail bool) {
	return o.colours.order, o.colours.start, o.colours.blocks, o.colours.tail
}

// SetColourBlock sets the contacts per block of the coloured sweep.
func SetColourBlock(o *BoxedLCP, n int) { o.colours.size = n }

// SetColourGrain sets the fewest contacts of a colour one worker takes.
func SetColourGrain(o *BoxedLCP, grain int) { o.grain = grain }

// SetPacked makes o pack every problem (blcpPack), never compact.
func SetPacked(o *BoxedLCP, packed bool) { o.noCompact = packed }

// Compact reports whether o's last solve swept the compact form
// (blcpCompact).
func Compact(o *BoxedLCP) bool { return o.useCompact }

// BitDiff is bitDiff for the external tests.
var BitDiff = bitDiff

// CompactBytes is the size of one contact's record in the compact sweep.
const CompactBytes = unsafe.Sizeof(compactContact{})

// LocalUpdates returns the contact updates of o's last solve's local
// sweeps.
func LocalUpdates(o *BoxedLCP) int { return o.localUpdates }

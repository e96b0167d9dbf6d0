package geom2d

import "slices"

// ImagePair is a candidate contact between two bodies through portals:
// body B0 (its image through plane B of portal P0 if ThroughB0, through A
// otherwise; itself when P0 < 0) and body B1 likewise.
type ImagePair struct {
	B0, B1               int32
	P0, P1               int32
	ThroughB0, ThroughB1 bool
}

// Ordered returns the pair with B0 < B1.
func (c ImagePair) Ordered() ImagePair {
	if c.B0 > c.B1 {
		return ImagePair{c.B1, c.B0, c.P1, c.P0, c.ThroughB1, c.ThroughB0}
	}
	return c
}

// FirstPerPair sorts ordered pairs by (B0, B1), keeping their order among
// equals, and keeps the first of each pair of bodies: one contact per pair
// of bodies, the first candidate found, as SCISim's set of teleported
// collisions keyed by the body indices.
func FirstPerPair(pairs []ImagePair) []ImagePair {
	slices.SortStableFunc(pairs, func(x, y ImagePair) int {
		if x.B0 != y.B0 {
			return int(x.B0 - y.B0)
		}
		return int(x.B1 - y.B1)
	})
	return slices.CompactFunc(pairs, func(a, b ImagePair) bool { return a.B0 == b.B0 && a.B1 == b.B1 })
}

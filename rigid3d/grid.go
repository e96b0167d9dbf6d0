package rigid3d

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"
)

// gridThreshold is the body count from which the broad phase uses the
// uniform grid instead of all pairs.
const gridThreshold = 32

type cellEntry struct {
	key  [3]int64
	body int
}

type grid struct {
	entries []cellEntry
	big     []int // bodies larger than a cell (tested against everything)
}

func cmpKey(a, b [3]int64) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(a[1], b[1]); c != 0 {
		return c
	}
	return cmp.Compare(a[2], b[2])
}

// pairs appends to out the pairs (i < j) whose bounding spheres at q
// overlap, sorted by (i, j), using a uniform grid whose cell is the
// largest bounding diameter of the moving bodies (larger, fixed bodies are
// tested against all).
// Pairs of two fixed bodies are skipped. Once its slices have grown it
// does not allocate.
func (g *grid) pairs(s *System, q []float64, out []pair) []pair {
	n := s.N()
	g.entries = g.entries[:0]
	g.big = g.big[:0]
	cell := 0.0
	for i := 0; i < n; i++ {
		if !s.Fixed[i] {
			cell = math.Max(cell, 2*s.Shapes[i].BoundingRadius())
		}
	}
	if cell == 0 {
		cell = 1
	}
	if s.cellSize > 0 {
		cell = s.cellSize
	}
	for i := 0; i < n; i++ {
		r := s.Shapes[i].BoundingRadius()
		if 2*r > cell {
			g.big = append(g.big, i)
			continue
		}
		x, _ := Pose(q, i)
		lo := [3]int64{int64(math.Floor((x.X - r) / cell)), int64(math.Floor((x.Y - r) / cell)), int64(math.Floor((x.Z - r) / cell))}
		hi := [3]int64{int64(math.Floor((x.X + r) / cell)), int64(math.Floor((x.Y + r) / cell)), int64(math.Floor((x.Z + r) / cell))}
		for a := lo[0]; a <= hi[0]; a++ {
			for b := lo[1]; b <= hi[1]; b++ {
				for c := lo[2]; c <= hi[2]; c++ {
					g.entries = append(g.entries, cellEntry{[3]int64{a, b, c}, i})
				}
			}
		}
	}
	slices.SortFunc(g.entries, func(a, b cellEntry) int {
		if c := cmpKey(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.body, b.body)
	})
	start := len(out)
	for a := 0; a < len(g.entries); {
		b := a + 1
		for b < len(g.entries) && g.entries[b].key == g.entries[a].key {
			b++
		}
		for u := a; u < b; u++ {
			for v := u + 1; v < b; v++ {
				out = appendIfOverlap(s, q, out, g.entries[u].body, g.entries[v].body)
			}
		}
		a = b
	}
	for _, i := range g.big {
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			if slices.Contains(g.big, j) && j < i {
				continue // big–big pairs once
			}
			out = appendIfOverlap(s, q, out, min(i, j), max(i, j))
		}
	}
	ps := out[start:]
	slices.SortFunc(ps, func(a, b pair) int {
		if c := cmp.Compare(a.i, b.i); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	return append(out[:start], slices.Compact(ps)...)
}

func appendIfOverlap(s *System, q []float64, out []pair, i, j int) []pair {
	if s.Fixed[i] && s.Fixed[j] {
		return out
	}
	xi, _ := Pose(q, i)
	xj, _ := Pose(q, j)
	r := s.Shapes[i].BoundingRadius() + s.Shapes[j].BoundingRadius()
	if r3.Norm2(r3.Sub(xi, xj)) <= r*r {
		out = append(out, pair{i, j})
	}
	return out
}

// allPairs is the O(N²) broad phase, sorted by (i, j).
func allPairs(s *System, q []float64, out []pair) []pair {
	n := s.N()
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			out = appendIfOverlap(s, q, out, i, j)
		}
	}
	return out
}

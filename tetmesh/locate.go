package tetmesh

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// Locator finds the tetrahedron of a mesh that holds a point, through a
// uniform grid of the tetrahedra's bounding boxes.
type Locator struct {
	m     *Mesh
	lo    r3.Vec
	h     float64
	n     [3]int
	cells [][]int32
}

// NewLocator indexes m with a grid whose cells are about the mean edge
// length.
func NewLocator(m *Mesh) *Locator {
	lo, hi := rigid3d.Bounds(m.V)
	ext := r3.Sub(hi, lo)
	// Cells of about the mean edge length (a tetrahedron's volume is
	// about edge³/6).
	h := math.Cbrt(6 * math.Max(m.Volume(), 1e-300) / float64(len(m.T)))
	if !(h > 0) {
		h = math.Max(ext.X, math.Max(ext.Y, ext.Z)) + 1
	}
	l := &Locator{m: m, lo: lo, h: h}
	for a, e := range [3]float64{ext.X, ext.Y, ext.Z} {
		l.n[a] = max(1, int(math.Ceil(e/h)))
		if l.n[a] > 1024 {
			l.n[a] = 1024
		}
	}
	l.h = math.Max(h, math.Max(ext.X/float64(l.n[0]), math.Max(ext.Y/float64(l.n[1]), ext.Z/float64(l.n[2]))))
	l.cells = make([][]int32, l.n[0]*l.n[1]*l.n[2])
	for k, t := range m.T {
		blo, bhi := m.V[t[0]], m.V[t[0]]
		for _, v := range t[1:] {
			p := m.V[v]
			blo = r3.Vec{X: math.Min(blo.X, p.X), Y: math.Min(blo.Y, p.Y), Z: math.Min(blo.Z, p.Z)}
			bhi = r3.Vec{X: math.Max(bhi.X, p.X), Y: math.Max(bhi.Y, p.Y), Z: math.Max(bhi.Z, p.Z)}
		}
		a, b := l.cell(blo), l.cell(bhi)
		for z := a[2]; z <= b[2]; z++ {
			for y := a[1]; y <= b[1]; y++ {
				for x := a[0]; x <= b[0]; x++ {
					c := (z*l.n[1]+y)*l.n[0] + x
					l.cells[c] = append(l.cells[c], int32(k))
				}
			}
		}
	}
	return l
}

func (l *Locator) cell(p r3.Vec) [3]int {
	var c [3]int
	for a, x := range [3]float64{p.X - l.lo.X, p.Y - l.lo.Y, p.Z - l.lo.Z} {
		c[a] = min(l.n[a]-1, max(0, int(math.Floor(x/l.h))))
	}
	return c
}

// Barycentric returns the barycentric coordinates of p in tetrahedron k.
func (m *Mesh) Barycentric(k int, p r3.Vec) [4]float64 {
	t := m.T[k]
	a, b, c, d := m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]]
	v := SignedVolume(a, b, c, d)
	w1 := SignedVolume(a, p, c, d) / v
	w2 := SignedVolume(a, b, p, d) / v
	w3 := SignedVolume(a, b, c, p) / v
	return [4]float64{1 - w1 - w2 - w3, w1, w2, w3}
}

// Locate returns the tetrahedron holding p with p's barycentric
// coordinates in it and dist = 0; for a point outside the mesh, the
// tetrahedron nearest to p, the barycentric coordinates of the point of it
// closest to p (all in [0, 1]), and the distance to that point. Ties go to
// the lowest tetrahedron index.
func (l *Locator) Locate(p r3.Vec) (tet int, bary [4]float64, dist float64) {
	m := l.m
	c := l.cell(p)
	best, bestD := -1, math.Inf(1)
	var bestQ r3.Vec
	// Rings of cells around p's cell, until the ring is farther than the
	// best distance found.
	for r := 0; ; r++ {
		ringD := math.Max(0, float64(r-1)) * l.h
		if ringD > bestD || r > l.n[0]+l.n[1]+l.n[2] {
			break
		}
		for z := c[2] - r; z <= c[2]+r; z++ {
			for y := c[1] - r; y <= c[1]+r; y++ {
				for x := c[0] - r; x <= c[0]+r; x++ {
					if max(abs(x-c[0]), abs(y-c[1]), abs(z-c[2])) != r || x < 0 || y < 0 || z < 0 || x >= l.n[0] || y >= l.n[1] || z >= l.n[2] {
						continue
					}
					for _, k32 := range l.cells[(z*l.n[1]+y)*l.n[0]+x] {
						k := int(k32)
						w := m.Barycentric(k, p)
						if w[0] >= 0 && w[1] >= 0 && w[2] >= 0 && w[3] >= 0 {
							if bestD > 0 || k < best {
								best, bestD, bestQ = k, 0, p
							}
							continue
						}
						if bestD == 0 {
							continue
						}
						t := m.T[k]
						for _, f := range tetFaces {
							q := rigid3d.ClosestOnTriangle(p, m.V[t[f[0]]], m.V[t[f[1]]], m.V[t[f[2]]])
							if d := r3.Norm(r3.Sub(q, p)); d < bestD || (d == bestD && k < best) {
								best, bestD, bestQ = k, d, q
							}
						}
					}
				}
			}
		}
	}
	w := m.Barycentric(best, bestQ)
	var s float64
	for i := range w {
		w[i] = math.Max(0, w[i])
		s += w[i]
	}
	for i := range w {
		w[i] /= s
	}
	return best, w, bestD
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

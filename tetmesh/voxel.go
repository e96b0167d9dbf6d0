package tetmesh

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// Options control FromSurface.
type Options struct {
	// Cells is the number of lattice cells along the longest side of the
	// surface's bounding box (at least 2).
	Cells int
	// Snap moves the vertices of the voxel boundary onto the surface (the
	// closest surface point), as far as the tetrahedra around each vertex
	// keep a radius ratio of at least MinRatio.
	Snap bool
	// MinRatio is the radius-ratio floor while snapping (default 0.2).
	MinRatio float64
}

// Report describes what FromSurface did.
type Report struct {
	H        float64 // lattice spacing
	Grid     [3]int  // cells per axis
	Cells    int     // kept cells (6 tetrahedra each)
	Parts    int     // face-connected parts of the inside cells
	Dropped  int     // cells in the parts other than the largest
	Boundary int     // vertices on the voxel boundary
	// Snapped, Partial and Unsnapped count the boundary vertices moved
	// onto the surface, moved part of the way, and left in place.
	Snapped, Partial, Unsnapped int
	SurfaceVolume               float64 // volume enclosed by the input surface
	MaxSnapDistance             float64 // largest distance from a boundary vertex to the surface after snapping
	Quality                     Quality
}

// kuhn lists the six tetrahedra of the Kuhn (Freudenthal) split of the
// unit cube, as corner bits (1 → +x, 2 → +y, 4 → +z): the paths
// 0 → e_a → e_a + e_b → 7 over the permutations (a, b, c). Neighbouring
// cubes split this way share their face diagonals, so the mesh conforms.
var kuhn = [6][4]int{
	{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7},
}

// FromSurface fills the closed, outward-oriented triangle surface (vs, fs)
// with tetrahedra: the cubes of a regular lattice whose centres lie inside
// the surface (winding number along lattice rows), each split into six Kuhn
// tetrahedra, the largest face-connected part kept, and optionally the
// boundary vertices snapped onto the surface. The surface is checked as
// rigid3d.NewMesh checks it (the error names source and the first open
// edge).
func FromSurface(vs []r3.Vec, fs [][3]int, opt Options, source string) (*Mesh, Report, error) {
	var rep Report
	if err := rigid3d.ValidateSurface(vs, fs, source); err != nil {
		return nil, rep, err
	}
	if opt.Cells < 2 {
		return nil, rep, &rigid3d.MeshError{Source: source, Msg: fmt.Sprintf("tetrahedral meshing needs at least 2 cells along the longest side, got %d", opt.Cells)}
	}
	if opt.MinRatio == 0 {
		opt.MinRatio = 0.2
	}
	lo, hi := rigid3d.Bounds(vs)
	ext := r3.Sub(hi, lo)
	h := math.Max(ext.X, math.Max(ext.Y, ext.Z)) / float64(opt.Cells)
	rep.H = h
	var n [3]int
	var o [3]float64
	l3, h3 := [3]float64{lo.X, lo.Y, lo.Z}, [3]float64{hi.X, hi.Y, hi.Z}
	for a, e := range [3]float64{ext.X, ext.Y, ext.Z} {
		k := e / h
		if r := math.Round(k); math.Abs(k-r) < 1e-6 {
			n[a] = max(1, int(r))
		} else {
			n[a] = int(math.Ceil(k))
		}
		o[a] = (l3[a]+h3[a])/2 - float64(n[a])*h/2
	}
	org := r3.Vec{X: o[0], Y: o[1], Z: o[2]}
	rep.Grid = n
	for _, t := range fs {
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		rep.SurfaceVolume += r3.Dot(a, r3.Cross(b, c)) / 6
	}
	inside, err := classify(vs, fs, org, h, n, source)
	if err != nil {
		return nil, rep, err
	}
	cell := func(i, j, k int) int { return (k*n[1]+j)*n[0] + i }
	// Face-connected parts of the inside cells; keep the largest (the
	// first found among equals).
	label := make([]int32, len(inside))
	for i := range label {
		label[i] = -1
	}
	var sizes []int
	var stack []int
	for c0, in := range inside {
		if !in || label[c0] >= 0 {
			continue
		}
		id := int32(len(sizes))
		size := 0
		label[c0] = id
		stack = append(stack[:0], c0)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			i, j, k := c%n[0], (c/n[0])%n[1], c/(n[0]*n[1])
			for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
				u, v, w := i+d[0], j+d[1], k+d[2]
				if u < 0 || v < 0 || w < 0 || u >= n[0] || v >= n[1] || w >= n[2] {
					continue
				}
				if c2 := cell(u, v, w); inside[c2] && label[c2] < 0 {
					label[c2] = id
					stack = append(stack, c2)
				}
			}
		}
		sizes = append(sizes, size)
	}
	if len(sizes) == 0 {
		return nil, rep, &rigid3d.MeshError{Source: source, Msg: fmt.Sprintf("no lattice cell centre lies inside the surface at %d cells along the longest side (spacing %.3g); use more cells", opt.Cells, h)}
	}
	best := int32(0)
	for id, s := range sizes {
		if s > sizes[best] {
			best = int32(id)
		}
	}
	rep.Parts = len(sizes)
	for id, s := range sizes {
		if int32(id) != best {
			rep.Dropped += s
		}
	}
	// Vertices of the kept cells, numbered in lattice order.
	nv := [3]int{n[0] + 1, n[1] + 1, n[2] + 1}
	vid := make([]int32, nv[0]*nv[1]*nv[2])
	for i := range vid {
		vid[i] = -1
	}
	vert := func(i, j, k int) int { return (k*nv[1]+j)*nv[0] + i }
	for c, l := range label {
		if l != best {
			continue
		}
		rep.Cells++
		i, j, k := c%n[0], (c/n[0])%n[1], c/(n[0]*n[1])
		for b := 0; b < 8; b++ {
			vid[vert(i+b&1, j+(b>>1)&1, k+(b>>2)&1)] = 0
		}
	}
	m := &Mesh{}
	for v := range vid {
		if vid[v] == 0 {
			vid[v] = int32(len(m.V))
			i, j, k := v%nv[0], (v/nv[0])%nv[1], v/(nv[0]*nv[1])
			m.V = append(m.V, r3.Add(org, r3.Vec{X: float64(i) * h, Y: float64(j) * h, Z: float64(k) * h}))
		}
	}
	for c, l := range label {
		if l != best {
			continue
		}
		i, j, k := c%n[0], (c/n[0])%n[1], c/(n[0]*n[1])
		var corner [8]int
		for b := 0; b < 8; b++ {
			corner[b] = int(vid[vert(i+b&1, j+(b>>1)&1, k+(b>>2)&1)])
		}
		for _, t := range kuhn {
			tet := [4]int{corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]]}
			if SignedVolume(m.V[tet[0]], m.V[tet[1]], m.V[tet[2]], m.V[tet[3]]) < 0 {
				tet[2], tet[3] = tet[3], tet[2]
			}
			m.T = append(m.T, tet)
		}
	}
	if opt.Snap {
		snap(m, vs, fs, org, h, n, opt.MinRatio, &rep)
	}
	rep.Quality = m.Quality()
	if err := m.Validate(source + " (tetrahedral mesh)"); err != nil {
		return nil, rep, err
	}
	return m, rep, nil
}

// classify returns, per lattice cell, whether its centre is inside the
// surface: along each lattice row in x, the surface crossings beyond a
// centre, counted with the sign of the crossed triangle's normal x
// component, sum to its winding number (1 inside, 0 outside for a closed
// outward surface). The row points are shifted off the centres by a
// fraction 1e-7 of h in y and z so that rows through mesh edges of
// axis-aligned surfaces miss them; a row that still hits an edge exactly
// is reported.
func classify(vs []r3.Vec, fs [][3]int, org r3.Vec, h float64, n [3]int, source string) ([]bool, error) {
	type crossing struct {
		x    float64
		sign int
	}
	rows := make([][]crossing, n[1]*n[2])
	dy, dz := 1e-7*h*(math.Sqrt2-1), 1e-7*h*(math.Sqrt(3)-1)
	for ti, t := range fs {
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		nx := (b.Y-a.Y)*(c.Z-a.Z) - (b.Z-a.Z)*(c.Y-a.Y) // normal x (twice the projected area)
		if nx == 0 {
			continue // parallel to the rows
		}
		ymin, ymax := math.Min(a.Y, math.Min(b.Y, c.Y)), math.Max(a.Y, math.Max(b.Y, c.Y))
		zmin, zmax := math.Min(a.Z, math.Min(b.Z, c.Z)), math.Max(a.Z, math.Max(b.Z, c.Z))
		j0 := max(0, int(math.Floor((ymin-org.Y)/h-0.5)))
		j1 := min(n[1]-1, int(math.Ceil((ymax-org.Y)/h-0.5)))
		k0 := max(0, int(math.Floor((zmin-org.Z)/h-0.5)))
		k1 := min(n[2]-1, int(math.Ceil((zmax-org.Z)/h-0.5)))
		for k := k0; k <= k1; k++ {
			pz := org.Z + (float64(k)+0.5)*h + dz
			for j := j0; j <= j1; j++ {
				py := org.Y + (float64(j)+0.5)*h + dy
				// Barycentric weights in the (y, z) projection.
				wa := (b.Y-py)*(c.Z-pz) - (b.Z-pz)*(c.Y-py)
				wb := (c.Y-py)*(a.Z-pz) - (c.Z-pz)*(a.Y-py)
				wc := (a.Y-py)*(b.Z-pz) - (a.Z-pz)*(b.Y-py)
				if wa == 0 || wb == 0 || wc == 0 {
					if (wa >= 0 && wb >= 0 && wc >= 0) || (wa <= 0 && wb <= 0 && wc <= 0) {
						return nil, &rigid3d.MeshError{Source: source, Msg: fmt.Sprintf("lattice row (y = %g, z = %g) passes exactly through an edge of triangle %d; use another cell count", py, pz, ti+1)}
					}
					continue
				}
				if (wa > 0) != (wb > 0) || (wb > 0) != (wc > 0) {
					continue
				}
				s := wa + wb + wc
				x := (wa*a.X + wb*b.X + wc*c.X) / s
				sign := 1
				if nx < 0 {
					sign = -1
				}
				r := k*n[1] + j
				rows[r] = append(rows[r], crossing{x, sign})
			}
		}
	}
	inside := make([]bool, n[0]*n[1]*n[2])
	for r, cs := range rows {
		if len(cs) == 0 {
			continue
		}
		slices.SortFunc(cs, func(p, q crossing) int {
			switch {
			case p.x < q.x:
				return -1
			case p.x > q.x:
				return 1
			}
			return p.sign - q.sign
		})
		wind := 0
		for _, c := range cs {
			wind += c.sign
		}
		// Walk the row left to right: the winding number of a point is the
		// signed count of the crossings to its right.
		q := 0
		for i := 0; i < n[0]; i++ {
			x := org.X + (float64(i)+0.5)*h
			for q < len(cs) && cs[q].x <= x {
				wind -= cs[q].sign
				q++
			}
			inside[r*n[0]+i] = wind > 0
		}
	}
	return inside, nil
}

// snap moves each boundary vertex (in index order) towards its closest
// surface point: the whole way, or half, or a quarter, whichever first
// keeps every tetrahedron around it at radius ratio ≥ minRatio.
func snap(m *Mesh, vs []r3.Vec, fs [][3]int, org r3.Vec, h float64, n [3]int, minRatio float64, rep *Report) {
	onBoundary := make([]bool, len(m.V))
	for _, f := range m.Boundary() {
		for _, v := range f {
			onBoundary[v] = true
		}
	}
	around := make([][]int, len(m.V))
	for k, t := range m.T {
		for _, v := range t {
			around[v] = append(around[v], k)
		}
	}
	// Triangles binned by the lattice cells their bounding boxes touch
	// (one cell of margin around the lattice).
	g := [3]int{n[0] + 2, n[1] + 2, n[2] + 2}
	bin := func(p r3.Vec) [3]int {
		return [3]int{
			min(g[0]-1, max(0, int(math.Floor((p.X-org.X)/h))+1)),
			min(g[1]-1, max(0, int(math.Floor((p.Y-org.Y)/h))+1)),
			min(g[2]-1, max(0, int(math.Floor((p.Z-org.Z)/h))+1)),
		}
	}
	bins := make([][]int32, g[0]*g[1]*g[2])
	for ti, t := range fs {
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		l := bin(r3.Vec{X: math.Min(a.X, math.Min(b.X, c.X)), Y: math.Min(a.Y, math.Min(b.Y, c.Y)), Z: math.Min(a.Z, math.Min(b.Z, c.Z))})
		u := bin(r3.Vec{X: math.Max(a.X, math.Max(b.X, c.X)), Y: math.Max(a.Y, math.Max(b.Y, c.Y)), Z: math.Max(a.Z, math.Max(b.Z, c.Z))})
		for k := l[2]; k <= u[2]; k++ {
			for j := l[1]; j <= u[1]; j++ {
				for i := l[0]; i <= u[0]; i++ {
					c := (k*g[1]+j)*g[0] + i
					bins[c] = append(bins[c], int32(ti))
				}
			}
		}
	}
	seen := make([]int32, len(fs))
	for i := range seen {
		seen[i] = -1
	}
	closest := func(v int, p r3.Vec) (r3.Vec, float64) {
		best, bd := p, math.Inf(1)
		b := bin(p)
		const reach = 2 // cells: a boundary vertex lies within √3·h of the surface
		for k := max(0, b[2]-reach); k <= min(g[2]-1, b[2]+reach); k++ {
			for j := max(0, b[1]-reach); j <= min(g[1]-1, b[1]+reach); j++ {
				for i := max(0, b[0]-reach); i <= min(g[0]-1, b[0]+reach); i++ {
					for _, ti := range bins[(k*g[1]+j)*g[0]+i] {
						if seen[ti] == int32(v) {
							continue
						}
						seen[ti] = int32(v)
						t := fs[ti]
						q := rigid3d.ClosestOnTriangle(p, vs[t[0]], vs[t[1]], vs[t[2]])
						if d := r3.Norm2(r3.Sub(q, p)); d < bd {
							best, bd = q, d
						}
					}
				}
			}
		}
		return best, math.Sqrt(bd)
	}
	ok := func(v int) bool {
		for _, k := range around[v] {
			t := m.T[k]
			a, b, c, d := m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]]
			if !(SignedVolume(a, b, c, d) > 0) || RadiusRatio(a, b, c, d) < minRatio {
				return false
			}
		}
		return true
	}
	orig := slices.Clone(m.V)
	for v, on := range onBoundary {
		if !on {
			continue
		}
		p := m.V[v]
		q, d := closest(v, p)
		if math.IsInf(d, 1) || d == 0 {
			continue
		}
		for _, s := range [3]float64{1, 0.5, 0.25} {
			m.V[v] = r3.Add(p, r3.Scale(s, r3.Sub(q, p)))
			if ok(v) {
				break
			}
			m.V[v] = p
		}
	}
	for v, on := range onBoundary {
		if !on {
			continue
		}
		rep.Boundary++
		_, d := closest(v, m.V[v])
		switch {
		case d <= 1e-12*h:
			rep.Snapped++
		case m.V[v] != orig[v]:
			rep.Partial++
		default:
			rep.Unsnapped++
		}
		if !math.IsInf(d, 1) {
			rep.MaxSnapDistance = math.Max(rep.MaxSnapDistance, d)
		}
	}
}

package rigid3d

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/par"
)

// Mesh is a closed, consistently outward-oriented triangle mesh in its body
// frame: the origin is the centre of mass (for uniform density) and the
// coordinate axes are principal axes of inertia. It carries a signed
// distance field on a regular grid for contact queries.
type Mesh struct {
	V []r3.Vec // vertices, body frame
	F [][3]int // triangles, counter-clockwise seen from outside
	// Volume and the principal second moments of the unit-density solid
	// (I = ρ·Moments).
	Volume  float64
	Moments r3.Vec
	Radius  float64 // max |v|
	SDF     *SDF
}

// MeshError is a problem with a mesh (Line > 0 for OBJ input).
type MeshError struct {
	Source string
	Line   int
	Msg    string
}

func (e *MeshError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Source, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Source, e.Msg)
}

// ReadOBJ reads the vertices (v) and faces (f, polygons fan-triangulated,
// "i", "i/t", "i//n", "i/t/n" and negative indices accepted) of a Wavefront
// OBJ file; other statements (vn, vt, o, g, s, usemtl, mtllib, comments)
// are ignored. The result is the raw geometry for NewMesh.
func ReadOBJ(r io.Reader, source string) ([]r3.Vec, [][3]int, error) {
	var vs []r3.Vec
	var fs [][3]int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "v":
			if len(f) < 4 {
				return nil, nil, &MeshError{source, line, fmt.Sprintf("vertex: expected three coordinates, got %d", len(f)-1)}
			}
			var c [3]float64
			for k := 0; k < 3; k++ {
				x, err := strconv.ParseFloat(f[k+1], 64)
				if err != nil || !finite(x) {
					return nil, nil, &MeshError{source, line, fmt.Sprintf("vertex: expected a finite number, got %q", f[k+1])}
				}
				c[k] = x
			}
			vs = append(vs, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
		case "f":
			if len(f) < 4 {
				return nil, nil, &MeshError{source, line, fmt.Sprintf("face: expected at least three vertices, got %d", len(f)-1)}
			}
			idx := make([]int, 0, len(f)-1)
			for _, s := range f[1:] {
				s, _, _ = strings.Cut(s, "/")
				i, err := strconv.Atoi(s)
				if err == nil && i < 0 {
					i = len(vs) + 1 + i
				}
				if err != nil || i < 1 || i > len(vs) {
					return nil, nil, &MeshError{source, line, fmt.Sprintf("face: vertex index %q out of range 1..%d", s, len(vs))}
				}
				idx = append(idx, i-1)
			}
			for k := 1; k+1 < len(idx); k++ {
				fs = append(fs, [3]int{idx[0], idx[k], idx[k+1]})
			}
		case "vn", "vt", "vp", "o", "g", "s", "usemtl", "mtllib", "l":
		default:
			return nil, nil, &MeshError{source, line, fmt.Sprintf("unsupported OBJ statement %q", f[0])}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, &MeshError{source, line, err.Error()}
	}
	return vs, fs, nil
}

// WriteOBJ writes vertices and triangles as a Wavefront OBJ file (1-based
// indices, shortest exact decimal coordinates), readable by ReadOBJ.
func WriteOBJ(w io.Writer, vs []r3.Vec, fs [][3]int) error {
	bw := bufio.NewWriter(w)
	for _, v := range vs {
		fmt.Fprintf(bw, "v %s %s %s\n", strconv.FormatFloat(v.X, 'g', -1, 64), strconv.FormatFloat(v.Y, 'g', -1, 64), strconv.FormatFloat(v.Z, 'g', -1, 64))
	}
	for _, f := range fs {
		fmt.Fprintf(bw, "f %d %d %d\n", f[0]+1, f[1]+1, f[2]+1)
	}
	return bw.Flush()
}

type edgeKey struct{ a, b int }

// ValidateSurface checks that (vs, fs) is a closed, consistently oriented
// triangle mesh without degenerate triangles: at least 4 triangles, every
// index in range, every triangle of positive area, and every directed edge
// used exactly once with its reverse used exactly once. The error is a
// *MeshError naming the first offending triangle or edge (in triangle
// order, so the message is the same on every run).
func ValidateSurface(vs []r3.Vec, fs [][3]int, source string) error {
	bad := func(format string, args ...any) error {
		return &MeshError{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fs) < 4 {
		return bad("mesh has %d triangles; a closed surface needs at least 4", len(fs))
	}
	edges := make(map[edgeKey]int, 3*len(fs))
	var scale float64
	for _, v := range vs {
		scale = math.Max(scale, r3.Norm(v))
	}
	for k, t := range fs {
		for _, i := range t {
			if i < 0 || i >= len(vs) {
				return bad("triangle %d has vertex index %d outside 1..%d", k, i+1, len(vs))
			}
		}
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		if r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(c, a))) <= 1e-14*scale*scale {
			return bad("triangle %d (vertices %d, %d, %d) is degenerate (zero area)", k, t[0]+1, t[1]+1, t[2]+1)
		}
		for e := 0; e < 3; e++ {
			edges[edgeKey{t[e], t[(e+1)%3]}]++
		}
	}
	for _, t := range fs {
		for i := 0; i < 3; i++ {
			e := edgeKey{t[i], t[(i+1)%3]}
			if n := edges[e]; n != 1 || edges[edgeKey{e.b, e.a}] != 1 {
				return bad("mesh is not closed and consistently oriented: edge %d→%d is used %d times, %d→%d %d times", e.a+1, e.b+1, n, e.b+1, e.a+1, edges[edgeKey{e.b, e.a}])
			}
		}
	}
	return nil
}

// NewMesh validates a closed, outward-oriented triangle mesh, computes its
// volume, centre of mass and principal moments (divergence theorem over
// the tetrahedra (0, a, b, c)), moves it to its principal frame and builds
// its signed distance field with res cells along the longest side. It also
// returns the centre of mass and the principal axes (columns of R) of the
// input, so callers can place the body where the input geometry was.
func NewMesh(vs []r3.Vec, fs [][3]int, res int, source string) (*Mesh, r3.Vec, Quat, error) {
	return NewMeshProgress(vs, fs, res, source, nil)
}

// NewMeshProgress is NewMesh telling progress(done, total) how much of the
// signed distance field is done (the costly part: every grid cell against
// every triangle, seconds for the bunny), from any goroutine. The field's
// slabs are computed on GOMAXPROCS goroutines; each cell's value does not
// depend on their number.
func NewMeshProgress(vs []r3.Vec, fs [][3]int, res int, source string, progress func(done, total int)) (*Mesh, r3.Vec, Quat, error) {
	bad := func(format string, args ...any) (*Mesh, r3.Vec, Quat, error) {
		return nil, r3.Vec{}, Identity, &MeshError{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	if err := ValidateSurface(vs, fs, source); err != nil {
		return nil, r3.Vec{}, Identity, err
	}
	// volume, first and second moments (unit density)
	var vol float64
	var first r3.Vec
	var cov [3][3]float64
	for _, t := range fs {
		a, b, c := vs[t[0]], vs[t[1]], vs[t[2]]
		v6 := r3.Dot(a, r3.Cross(b, c))
		v := v6 / 6
		vol += v
		s := r3.Add(a, r3.Add(b, c))
		first = r3.Add(first, r3.Scale(v/4, s))
		pts := [4]r3.Vec{a, b, c, s}
		for _, p := range pts {
			pp := [3]float64{p.X, p.Y, p.Z}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					cov[i][j] += v / 20 * pp[i] * pp[j]
				}
			}
		}
	}
	if !(vol > 0) {
		return bad("mesh encloses volume %v; faces must be oriented outward (counter-clockwise seen from outside)", vol)
	}
	com := r3.Scale(1/vol, first)
	cc := [3]float64{com.X, com.Y, com.Z}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			cov[i][j] -= vol * cc[i] * cc[j]
		}
	}
	tr := cov[0][0] + cov[1][1] + cov[2][2]
	in := mat.NewSymDense(3, nil)
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			x := -cov[i][j]
			if i == j {
				x += tr
			}
			in.SetSym(i, j, x)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(in, true) {
		return bad("inertia tensor eigen-decomposition failed")
	}
	vals := eig.Values(nil)
	var ev mat.Dense
	eig.VectorsTo(&ev)
	var R Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			R[i][j] = ev.At(i, j)
		}
	}
	c0, c1, c2 := R.Col(0), R.Col(1), R.Col(2)
	if r3.Dot(c0, r3.Cross(c1, c2)) < 0 {
		for i := 0; i < 3; i++ {
			R[i][2] = -R[i][2]
		}
	}
	m := &Mesh{F: append([][3]int(nil), fs...), Volume: vol, Moments: r3.Vec{X: vals[0], Y: vals[1], Z: vals[2]}}
	for _, v := range vs {
		b := R.MulTVec(r3.Sub(v, com))
		m.V = append(m.V, b)
		m.Radius = math.Max(m.Radius, r3.Norm(b))
	}
	if !(vals[0] > 0) {
		return bad("mesh has non-positive principal moment %v", vals[0])
	}
	sdf, err := newSDF(m, res, progress)
	if err != nil {
		return bad("%v", err)
	}
	m.SDF = sdf
	return m, com, quatFromMatrix(&R), nil
}

// quatFromMatrix converts a rotation matrix to a unit quaternion.
func quatFromMatrix(r *Mat3) Quat {
	tr := r[0][0] + r[1][1] + r[2][2]
	var q Quat
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		q = Quat{0.25 * s, (r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s}
	case r[0][0] > r[1][1] && r[0][0] > r[2][2]:
		s := 2 * math.Sqrt(1+r[0][0]-r[1][1]-r[2][2])
		q = Quat{(r[2][1] - r[1][2]) / s, 0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s}
	case r[1][1] > r[2][2]:
		s := 2 * math.Sqrt(1+r[1][1]-r[0][0]-r[2][2])
		q = Quat{(r[0][2] - r[2][0]) / s, (r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s}
	default:
		s := 2 * math.Sqrt(1+r[2][2]-r[0][0]-r[1][1])
		q = Quat{(r[1][0] - r[0][1]) / s, (r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s}
	}
	return q.Normalized()
}

// SDF is a signed distance field sampled on a regular grid (negative
// inside), trilinearly interpolated.
type SDF struct {
	Lo  r3.Vec
	H   float64
	N   [3]int // nodes per axis
	Phi []float64
}

// Bounds returns the corners of the axis-aligned bounding box of vs
// (+Inf, −Inf for no points).
func Bounds(vs []r3.Vec) (lo, hi r3.Vec) {
	lo = r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi = r3.Scale(-1, lo)
	for _, v := range vs {
		lo = r3.Vec{X: math.Min(lo.X, v.X), Y: math.Min(lo.Y, v.Y), Z: math.Min(lo.Z, v.Z)}
		hi = r3.Vec{X: math.Max(hi.X, v.X), Y: math.Max(hi.Y, v.Y), Z: math.Max(hi.Z, v.Z)}
	}
	return lo, hi
}

// newSDF samples the signed distance of m on a grid covering its bounding
// box plus two cells, res cells along the longest side: the distance is the
// minimum point–triangle distance, the sign the generalized winding number
// (solid angles summed over the triangles, ≈ 1 inside, 0 outside).
func newSDF(m *Mesh, res int, progress func(done, total int)) (*SDF, error) {
	if res < 4 {
		return nil, errors.New("signed distance field needs at least 4 cells per side")
	}
	lo, hi := Bounds(m.V)
	ext := r3.Sub(hi, lo)
	h := math.Max(ext.X, math.Max(ext.Y, ext.Z)) / float64(res)
	if !(h > 0) {
		return nil, errors.New("mesh has zero extent")
	}
	lo = r3.Sub(lo, r3.Vec{X: 2 * h, Y: 2 * h, Z: 2 * h})
	s := &SDF{Lo: lo, H: h}
	s.N = [3]int{int(math.Ceil(ext.X/h)) + 5, int(math.Ceil(ext.Y/h)) + 5, int(math.Ceil(ext.Z/h)) + 5}
	s.Phi = make([]float64, s.N[0]*s.N[1]*s.N[2])
	pool := par.New(0)
	defer pool.Close()
	var done atomic.Int64
	pool.Each(s.N[2], func(_, k int) {
		for j := 0; j < s.N[1]; j++ {
			for i := 0; i < s.N[0]; i++ {
				p := r3.Add(lo, r3.Vec{X: float64(i) * h, Y: float64(j) * h, Z: float64(k) * h})
				d := math.Inf(1)
				var wind float64
				for _, t := range m.F {
					a, b, c := m.V[t[0]], m.V[t[1]], m.V[t[2]]
					d = math.Min(d, r3.Norm2(r3.Sub(p, closestOnTriangle(p, a, b, c))))
					wind += solidAngle(r3.Sub(a, p), r3.Sub(b, p), r3.Sub(c, p))
				}
				d = math.Sqrt(d)
				if wind > 2*math.Pi { // winding number > ½
					d = -d
				}
				s.Phi[(k*s.N[1]+j)*s.N[0]+i] = d
			}
		}
		if n := done.Add(1); progress != nil {
			progress(int(n), s.N[2])
		}
	})
	return s, nil
}

// solidAngle is the signed solid angle of triangle (a, b, c) seen from the
// origin (Van Oosterom–Strackee).
func solidAngle(a, b, c r3.Vec) float64 {
	la, lb, lc := r3.Norm(a), r3.Norm(b), r3.Norm(c)
	num := r3.Dot(a, r3.Cross(b, c))
	den := la*lb*lc + r3.Dot(a, b)*lc + r3.Dot(b, c)*la + r3.Dot(c, a)*lb
	return 2 * math.Atan2(num, den)
}

// closestOnTriangle returns the point of triangle (a, b, c) closest to p
// (Voronoi-region case analysis).
func closestOnTriangle(p, a, b, c r3.Vec) r3.Vec {
	ab, ac, ap := r3.Sub(b, a), r3.Sub(c, a), r3.Sub(p, a)
	d1, d2 := r3.Dot(ab, ap), r3.Dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := r3.Sub(p, b)
	d3, d4 := r3.Dot(ab, bp), r3.Dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return r3.Add(a, r3.Scale(d1/(d1-d3), ab))
	}
	cp := r3.Sub(p, c)
	d5, d6 := r3.Dot(ab, cp), r3.Dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return r3.Add(a, r3.Scale(d2/(d2-d6), ac))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return r3.Add(b, r3.Scale((d4-d3)/((d4-d3)+(d5-d6)), r3.Sub(c, b)))
	}
	den := 1 / (va + vb + vc)
	return r3.Add(a, r3.Add(r3.Scale(vb*den, ab), r3.Scale(vc*den, ac)))
}

// Eval returns the interpolated signed distance at body-frame point p and
// its gradient; ok is false outside the grid.
func (s *SDF) Eval(p r3.Vec) (phi float64, grad r3.Vec, ok bool) {
	u := r3.Scale(1/s.H, r3.Sub(p, s.Lo))
	fx, fy, fz := math.Floor(u.X), math.Floor(u.Y), math.Floor(u.Z)
	i, j, k := int(fx), int(fy), int(fz)
	if i < 0 || j < 0 || k < 0 || i+1 >= s.N[0] || j+1 >= s.N[1] || k+1 >= s.N[2] {
		return 0, r3.Vec{}, false
	}
	tx, ty, tz := u.X-fx, u.Y-fy, u.Z-fz
	at := func(a, b, c int) float64 { return s.Phi[((k+c)*s.N[1]+j+b)*s.N[0]+i+a] }
	c000, c100, c010, c110 := at(0, 0, 0), at(1, 0, 0), at(0, 1, 0), at(1, 1, 0)
	c001, c101, c011, c111 := at(0, 0, 1), at(1, 0, 1), at(0, 1, 1), at(1, 1, 1)
	c00 := c000 + tx*(c100-c000)
	c10 := c010 + tx*(c110-c010)
	c01 := c001 + tx*(c101-c001)
	c11 := c011 + tx*(c111-c011)
	c0 := c00 + ty*(c10-c00)
	c1 := c01 + ty*(c11-c01)
	phi = c0 + tz*(c1-c0)
	// analytic gradient of the trilinear interpolant
	dx0 := (c100 - c000) + ty*((c110-c010)-(c100-c000))
	dx1 := (c101 - c001) + ty*((c111-c011)-(c101-c001))
	dy0 := c10 - c00
	dy1 := c11 - c01
	grad = r3.Scale(1/s.H, r3.Vec{X: dx0 + tz*(dx1-dx0), Y: dy0 + tz*(dy1-dy0), Z: c1 - c0})
	return phi, grad, true
}

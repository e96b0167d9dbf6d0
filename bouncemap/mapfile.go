package bouncemap

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/fem"
)

// FormatVersion is the version of the map file format this package writes
// and reads.
const FormatVersion = 1

// magic starts every map file.
const magic = "impactsim-bouncemap"

// maxSamples bounds the sample count a file may announce.
const maxSamples = 1 << 26

// Map is a bounce map: the restitution samples of one surface and how
// they were made (see the package documentation for the file format).
type Map struct {
	// Shape identifies the surface: "sha256:" and the hash of its vertices
	// and triangles (ShapeHash), with their counts.
	Shape                    string
	SurfaceVertices, Surface int
	// Source is the surface file the map was made from, relative to the
	// map file's directory when it was written ("-" if unknown).
	Source string
	// Scale is the length in metres of one surface unit in the analysis
	// (ε does not depend on it; frequencies do).
	Scale    float64
	Material fem.Material
	// Modes is m; FreqLow and FreqHigh are f₁ and f_m in Hz.
	Modes             int
	FreqLow, FreqHigh float64
	// Method is "exact" or "alg1"; Dt and Speed are Alg. 1's time step and
	// |v_n⁻| (zero for exact).
	Method    string
	Dt, Speed float64
	// Center and Axes give the modal body frame in surface coordinates
	// (centre of mass of the FEM mass matrix; principal axes as columns).
	Center r3.Vec
	Axes   [3][3]float64
	// Tets describes the volume mesh ("voxel CELLS" or the TetGen file
	// name) with its counts.
	Tets                  string
	TetVertices, TetCount int
	Hx, Htheta            float64 // lookup scales of eq. (10), surface units and radians
	Samples               []Sample
	index                 *sampleIndex
	gamma2, mlsR2         float64
}

// ShapeHash returns "sha256:" and the hex SHA-256 of the surface: each
// vertex as three little-endian float64, then each triangle as three
// little-endian int32 indices, in order.
func ShapeHash(vs []r3.Vec, fs [][3]int) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range vs {
		for _, x := range [3]float64{v.X, v.Y, v.Z} {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	for _, f := range fs {
		for _, i := range f {
			binary.LittleEndian.PutUint32(b[:4], uint32(int32(i)))
			h.Write(b[:4])
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// CheckShape returns an error unless the map was made for surface
// (vs, fs), named source.
func (mp *Map) CheckShape(vs []r3.Vec, fs [][3]int, source, mapName string) error {
	if h := ShapeHash(vs, fs); h != mp.Shape {
		return fmt.Errorf("%s: bounce map is for another surface (%d vertices, %d triangles, %s); %s has %d vertices, %d triangles, %s",
			mapName, mp.SurfaceVertices, mp.Surface, mp.Shape, source, len(vs), len(fs), h)
	}
	return nil
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Write writes mp in the map file format (version 1).
func (mp *Map) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", magic, FormatVersion)
	fmt.Fprintf(bw, "surface %d %d %s\n", mp.SurfaceVertices, mp.Surface, mp.Shape)
	src := mp.Source
	if strings.TrimSpace(src) == "" || strings.ContainsAny(src, "\n\r") {
		src = "-"
	}
	fmt.Fprintf(bw, "source %s\n", src)
	fmt.Fprintf(bw, "scale %s\n", ftoa(mp.Scale))
	fmt.Fprintf(bw, "material %s %s %s\n", ftoa(mp.Material.Density), ftoa(mp.Material.Young), ftoa(mp.Material.Poisson))
	fmt.Fprintf(bw, "modes %d %s %s\n", mp.Modes, ftoa(mp.FreqLow), ftoa(mp.FreqHigh))
	fmt.Fprintf(bw, "method %s %s %s\n", mp.Method, ftoa(mp.Dt), ftoa(mp.Speed))
	a := mp.Axes
	fmt.Fprintf(bw, "frame %s %s %s %s %s %s %s %s %s %s %s %s\n", ftoa(mp.Center.X), ftoa(mp.Center.Y), ftoa(mp.Center.Z),
		ftoa(a[0][0]), ftoa(a[0][1]), ftoa(a[0][2]), ftoa(a[1][0]), ftoa(a[1][1]), ftoa(a[1][2]), ftoa(a[2][0]), ftoa(a[2][1]), ftoa(a[2][2]))
	fmt.Fprintf(bw, "tets %d %d %s\n", mp.TetVertices, mp.TetCount, strings.ReplaceAll(mp.Tets, "\n", " "))
	fmt.Fprintf(bw, "lookup %s %s\n", ftoa(mp.Hx), ftoa(mp.Htheta))
	fmt.Fprintf(bw, "samples %d\n", len(mp.Samples))
	for _, s := range mp.Samples {
		capped := 0
		if s.Capped {
			capped = 1
		}
		var loc string
		switch s.Kind {
		case Face:
			loc = fmt.Sprintf("f %d", s.Elem+1)
		case Edge:
			loc = fmt.Sprintf("e %d %d", s.Elem+1, s.Other+1)
		default:
			loc = fmt.Sprintf("v %d", s.Elem+1)
		}
		fmt.Fprintf(bw, "%s %s %s %s %s %s %s %s %s %s %d %d\n", loc,
			ftoa(s.X.X), ftoa(s.X.Y), ftoa(s.X.Z), ftoa(s.N.X), ftoa(s.N.Y), ftoa(s.N.Z),
			ftoa(s.Eps), ftoa(s.TauSim), ftoa(s.TauLast), s.Collisions, capped)
	}
	fmt.Fprintln(bw, "end")
	return bw.Flush()
}

// ReadError is a problem in a map file at a line.
type ReadError struct {
	Source string
	Line   int
	Msg    string
}

func (e *ReadError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Source, e.Line, e.Msg) }

type mapReader struct {
	sc     *bufio.Scanner
	source string
	line   int
}

func (r *mapReader) errorf(format string, args ...any) error {
	return &ReadError{r.source, r.line, fmt.Sprintf(format, args...)}
}

// record returns the next non-empty, non-comment line's fields; it must
// start with key and have n fields after it (n < 0: at least −n).
func (r *mapReader) record(key string, n int) ([]string, error) {
	for r.sc.Scan() {
		r.line++
		s := strings.TrimSpace(r.sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(s)
		if key != "" && f[0] != key {
			return nil, r.errorf("expected %q, got %q", key, f[0])
		}
		if (n >= 0 && len(f)-1 != n) || (n < 0 && len(f)-1 < -n) {
			want := fmt.Sprint(n)
			if n < 0 {
				want = fmt.Sprintf("at least %d", -n)
			}
			return nil, r.errorf("%s: expected %s values, got %d", f[0], want, len(f)-1)
		}
		return f, nil
	}
	if err := r.sc.Err(); err != nil {
		return nil, r.errorf("%v", err)
	}
	if key == "" {
		key = "a sample or end"
	}
	return nil, r.errorf("file ends where %q was expected", key)
}

func (r *mapReader) float(f []string, i int, what string, ok func(float64) bool, want string) (float64, error) {
	x, err := strconv.ParseFloat(f[i], 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || !ok(x) {
		return 0, r.errorf("%s %s: expected %s, got %q", f[0], what, want, f[i])
	}
	return x, nil
}

func (r *mapReader) int(f []string, i int, what string, lo, hi int) (int, error) {
	x, err := strconv.Atoi(f[i])
	if err != nil || x < lo || x > hi {
		return 0, r.errorf("%s %s: expected an integer in %d..%d, got %q", f[0], what, lo, hi, f[i])
	}
	return x, nil
}

func any64(float64) bool       { return true }
func positive(x float64) bool  { return x > 0 }
func nonNeg(x float64) bool    { return x >= 0 }
func unitRange(x float64) bool { return x >= 0 && x <= 1 }

// Read reads a map file; errors name source and the line.
func Read(rd io.Reader, source string) (*Map, error) {
	r := &mapReader{sc: bufio.NewScanner(rd), source: source}
	r.sc.Buffer(make([]byte, 1<<16), 1<<20)
	f, err := r.record(magic, 1)
	if err != nil {
		if r.line <= 1 {
			return nil, &ReadError{source, max(r.line, 1), fmt.Sprintf("not a bounce map: the first line must be %q", magic+" 1")}
		}
		return nil, err
	}
	if v, err := strconv.Atoi(f[1]); err != nil || v != FormatVersion {
		return nil, r.errorf("map format version %q; this impactsim reads version %d", f[1], FormatVersion)
	}
	mp := &Map{}
	if f, err = r.record("surface", 3); err != nil {
		return nil, err
	}
	if mp.SurfaceVertices, err = r.int(f, 1, "vertices", 3, maxSamples); err != nil {
		return nil, err
	}
	if mp.Surface, err = r.int(f, 2, "triangles", 4, maxSamples); err != nil {
		return nil, err
	}
	if h := f[3]; !strings.HasPrefix(h, "sha256:") || len(h) != 7+64 {
		return nil, r.errorf("surface hash: expected sha256: and 64 hex digits, got %q", h)
	} else if _, err := hex.DecodeString(h[7:]); err != nil {
		return nil, r.errorf("surface hash: expected sha256: and 64 hex digits, got %q", h)
	}
	mp.Shape = f[3]
	if f, err = r.record("source", -1); err != nil {
		return nil, err
	}
	mp.Source = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.sc.Text()), "source"))
	if f, err = r.record("scale", 1); err != nil {
		return nil, err
	}
	if mp.Scale, err = r.float(f, 1, "", positive, "a positive length"); err != nil {
		return nil, err
	}
	if f, err = r.record("material", 3); err != nil {
		return nil, err
	}
	if mp.Material.Density, err = r.float(f, 1, "density", positive, "ρ > 0"); err != nil {
		return nil, err
	}
	if mp.Material.Young, err = r.float(f, 2, "Young's modulus", positive, "E > 0"); err != nil {
		return nil, err
	}
	if mp.Material.Poisson, err = r.float(f, 3, "Poisson's ratio", func(x float64) bool { return x > -1 && x < 0.5 }, "−1 < ν < 0.5"); err != nil {
		return nil, err
	}
	if f, err = r.record("modes", 3); err != nil {
		return nil, err
	}
	if mp.Modes, err = r.int(f, 1, "count", 0, 100000); err != nil {
		return nil, err
	}
	if mp.FreqLow, err = r.float(f, 2, "f1", nonNeg, "a frequency ≥ 0"); err != nil {
		return nil, err
	}
	if mp.FreqHigh, err = r.float(f, 3, "fm", func(x float64) bool { return x >= mp.FreqLow }, "a frequency ≥ f1"); err != nil {
		return nil, err
	}
	if f, err = r.record("method", 3); err != nil {
		return nil, err
	}
	if mp.Method = f[1]; mp.Method != "exact" && mp.Method != "alg1" {
		return nil, r.errorf("method: expected exact or alg1, got %q", f[1])
	}
	if mp.Dt, err = r.float(f, 2, "dt", nonNeg, "a time step ≥ 0"); err != nil {
		return nil, err
	}
	if mp.Speed, err = r.float(f, 3, "speed", nonNeg, "a speed ≥ 0"); err != nil {
		return nil, err
	}
	if f, err = r.record("frame", 12); err != nil {
		return nil, err
	}
	var fr [12]float64
	for i := range fr {
		if fr[i], err = r.float(f, 1+i, fmt.Sprintf("value %d", i+1), any64, "a number"); err != nil {
			return nil, err
		}
	}
	mp.Center = r3.Vec{X: fr[0], Y: fr[1], Z: fr[2]}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			mp.Axes[i][j] = fr[3+3*i+j]
		}
	}
	c0 := r3.Vec{X: mp.Axes[0][0], Y: mp.Axes[1][0], Z: mp.Axes[2][0]}
	c1 := r3.Vec{X: mp.Axes[0][1], Y: mp.Axes[1][1], Z: mp.Axes[2][1]}
	c2 := r3.Vec{X: mp.Axes[0][2], Y: mp.Axes[1][2], Z: mp.Axes[2][2]}
	if math.Abs(r3.Dot(c0, r3.Cross(c1, c2))-1) > 1e-6 || math.Abs(r3.Dot(c0, c1)) > 1e-6 || math.Abs(r3.Dot(c1, c2)) > 1e-6 || math.Abs(r3.Dot(c0, c2)) > 1e-6 {
		return nil, r.errorf("frame: the axes are not a rotation (orthonormal, right-handed)")
	}
	if f, err = r.record("tets", -2); err != nil {
		return nil, err
	}
	if mp.TetVertices, err = r.int(f, 1, "vertices", 0, 1<<30); err != nil {
		return nil, err
	}
	if mp.TetCount, err = r.int(f, 2, "tetrahedra", 0, 1<<30); err != nil {
		return nil, err
	}
	mp.Tets = strings.Join(f[3:], " ")
	if f, err = r.record("lookup", 2); err != nil {
		return nil, err
	}
	if mp.Hx, err = r.float(f, 1, "hx", positive, "a length > 0"); err != nil {
		return nil, err
	}
	if mp.Htheta, err = r.float(f, 2, "htheta", positive, "an angle > 0 (radians)"); err != nil {
		return nil, err
	}
	if f, err = r.record("samples", 1); err != nil {
		return nil, err
	}
	n, err := r.int(f, 1, "count", 1, maxSamples)
	if err != nil {
		return nil, err
	}
	mp.Samples = make([]Sample, 0, min(n, 1<<16))
	for k := 0; k < n; k++ {
		f, err := r.record("", -1)
		if err != nil {
			return nil, err
		}
		var s Sample
		s.Other = -1
		first := 2
		switch f[0] {
		case "f", "v":
			s.Kind = Face
			if f[0] == "v" {
				s.Kind = Vertex
			}
		case "e":
			s.Kind, first = Edge, 3
		default:
			return nil, r.errorf("sample %d: expected f, e or v, got %q", k+1, f[0])
		}
		if want := first - 1 + 11; len(f)-1 != want {
			return nil, r.errorf("%s: expected %d values, got %d", f[0], want, len(f)-1)
		}
		limit := mp.Surface
		if s.Kind != Face {
			limit = mp.SurfaceVertices
		}
		e, err := r.int(f, 1, "index", 1, limit)
		if err != nil {
			return nil, err
		}
		s.Elem = e - 1
		if s.Kind == Edge {
			o, err := r.int(f, 2, "second index", 1, mp.SurfaceVertices)
			if err != nil {
				return nil, err
			}
			s.Other = o - 1
		}
		var v [9]float64
		names := [9]string{"x", "y", "z", "nx", "ny", "nz", "eps", "tau_sim", "tau_last"}
		checks := [9]func(float64) bool{any64, any64, any64, any64, any64, any64, unitRange, nonNeg, nonNeg}
		wants := [9]string{"a number", "a number", "a number", "a number", "a number", "a number", "0 ≤ ε ≤ 1", "a time ≥ 0", "a time ≥ 0"}
		for i := range v {
			if v[i], err = r.float(f, first+i, names[i], checks[i], wants[i]); err != nil {
				return nil, err
			}
		}
		s.X = r3.Vec{X: v[0], Y: v[1], Z: v[2]}
		s.N = r3.Vec{X: v[3], Y: v[4], Z: v[5]}
		if l := r3.Norm(s.N); math.Abs(l-1) > 1e-6 {
			return nil, r.errorf("%s normal: expected a unit vector, got length %v", f[0], l)
		}
		s.Eps, s.TauSim, s.TauLast = v[6], v[7], v[8]
		if s.Collisions, err = r.int(f, first+9, "collisions", 0, 1<<30); err != nil {
			return nil, err
		}
		c, err := r.int(f, first+10, "capped", 0, 1)
		if err != nil {
			return nil, err
		}
		s.Capped = c == 1
		mp.Samples = append(mp.Samples, s)
	}
	if _, err := r.record("end", 0); err != nil {
		return nil, err
	}
	for r.sc.Scan() {
		r.line++
		if s := strings.TrimSpace(r.sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			return nil, r.errorf("unexpected %q after end", s)
		}
	}
	return mp, nil
}

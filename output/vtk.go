package output

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// VTKEncoding selects how DataArray values are stored in a .vtp file.
type VTKEncoding int

const (
	// VTKASCII writes whitespace-separated decimal numbers (readable, large).
	VTKASCII VTKEncoding = iota
	// VTKBinary writes inline base64 little-endian binary (format="binary"),
	// each array preceded by its own base64-encoded UInt64 byte count.
	VTKBinary
)

// PointField is one named point-data array of a .vtp file: either Scalars
// (one value per point) or Vectors (one 3-vector per point), not both.
type PointField struct {
	Name    string
	Scalars []float64
	Vectors [][3]float64
}

// ScalarField returns a one-component point field.
func ScalarField(name string, values []float64) PointField {
	return PointField{Name: name, Scalars: values}
}

// VectorField returns a three-component point field.
func VectorField(name string, values [][3]float64) PointField {
	return PointField{Name: name, Vectors: values}
}

// RadiusField is the conventional name of the radius point array. When a
// scalar field of this name is present WriteVTP makes it the active scalars,
// so ParaView's Glyph filter (glyph type Sphere, Scale Array "radius",
// scale factor 2 since the sphere source has radius 0.5) draws each ball at its
// size.
const RadiusField = "radius"

// WriteVTP writes a VTK XML PolyData file (.vtp, file version 1.0,
// LittleEndian, header_type UInt64) containing one vertex cell per point
// and the given point-data arrays in order (Float64). The active scalars are
// the field named RadiusField if present, else the first scalar field; the
// active vectors are the first vector field. The file is written to
// path+".tmp" and renamed.
func WriteVTP(path string, points [][3]float64, fields []PointField, enc VTKEncoding) error {
	n := len(points)
	seen := map[string]bool{}
	activeS, activeV := "", ""
	for _, f := range fields {
		if f.Name == "" || strings.ContainsAny(f.Name, "<>&\"'\r\n\t") {
			return fmt.Errorf("output: vtp: bad field name %q", f.Name)
		}
		if seen[f.Name] {
			return fmt.Errorf("output: vtp: duplicate field %q", f.Name)
		}
		seen[f.Name] = true
		switch {
		case f.Scalars != nil && f.Vectors != nil:
			return fmt.Errorf("output: vtp: field %q has both scalars and vectors", f.Name)
		case f.Vectors != nil:
			if len(f.Vectors) != n {
				return fmt.Errorf("output: vtp: field %q has %d vectors for %d points", f.Name, len(f.Vectors), n)
			}
			if activeV == "" {
				activeV = f.Name
			}
		default:
			if len(f.Scalars) != n {
				return fmt.Errorf("output: vtp: field %q has %d values for %d points", f.Name, len(f.Scalars), n)
			}
			if activeS == "" || f.Name == RadiusField {
				activeS = f.Name
			}
		}
	}
	if enc != VTKASCII && enc != VTKBinary {
		return fmt.Errorf("output: vtp: unknown encoding %d", enc)
	}
	a, err := createAtomic(path, false)
	if err != nil {
		return err
	}
	vw := &vtkWriter{w: a, enc: enc}
	vw.printf("<?xml version=\"1.0\"?>\n")
	vw.printf("<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n")
	vw.printf("  <PolyData>\n")
	vw.printf("    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"%d\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n", n, n)
	vw.printf("      <PointData")
	if activeS != "" {
		vw.printf(" Scalars=\"%s\"", activeS)
	}
	if activeV != "" {
		vw.printf(" Vectors=\"%s\"", activeV)
	}
	vw.printf(">\n")
	for _, f := range fields {
		if f.Vectors != nil {
			vw.floats(f.Name, 3, flatten3(f.Vectors))
		} else {
			vw.floats(f.Name, 1, f.Scalars)
		}
	}
	vw.printf("      </PointData>\n")
	vw.printf("      <Points>\n")
	vw.floats("Points", 3, flatten3(points))
	vw.printf("      </Points>\n")
	vw.printf("      <Verts>\n")
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	vw.ints("connectivity", ids)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	vw.ints("offsets", ids)
	vw.printf("      </Verts>\n")
	vw.printf("    </Piece>\n")
	vw.printf("  </PolyData>\n")
	vw.printf("</VTKFile>\n")
	if vw.err != nil {
		a.Abort()
		return fmt.Errorf("output: writing %s: %w", path, vw.err)
	}
	return a.Close()
}

func flatten3(v [][3]float64) []float64 {
	out := make([]float64, 0, 3*len(v))
	for _, p := range v {
		out = append(out, p[0], p[1], p[2])
	}
	return out
}

// vtkWriter writes DataArray elements, remembering the first error.
type vtkWriter struct {
	w   io.Writer
	enc VTKEncoding
	err error
	buf []byte
}

func (v *vtkWriter) printf(format string, args ...any) {
	if v.err == nil {
		_, v.err = fmt.Fprintf(v.w, format, args...)
	}
}

func (v *vtkWriter) write(b []byte) {
	if v.err == nil {
		_, v.err = v.w.Write(b)
	}
}

func (v *vtkWriter) open(typ, name string, ncomp int) {
	v.printf("        <DataArray type=\"%s\" Name=\"%s\"", typ, name)
	if ncomp > 1 {
		v.printf(" NumberOfComponents=\"%d\"", ncomp)
	}
	if v.enc == VTKBinary {
		v.printf(" format=\"binary\">\n          ")
	} else {
		v.printf(" format=\"ascii\">\n")
	}
}

func (v *vtkWriter) close() {
	if v.enc == VTKBinary {
		v.printf("\n")
	}
	v.printf("        </DataArray>\n")
}

// binary writes the UInt64 byte count and the raw bytes as two separately
// padded base64 blocks, as VTK's XML readers expect.
func (v *vtkWriter) binary(raw []byte) {
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(len(raw)))
	v.write([]byte(base64.StdEncoding.EncodeToString(hdr[:])))
	e := base64.NewEncoder(base64.StdEncoding, errWriter{v})
	e.Write(raw)
	e.Close()
}

// errWriter adapts vtkWriter to io.Writer for the base64 encoder.
type errWriter struct{ v *vtkWriter }

func (e errWriter) Write(p []byte) (int, error) {
	e.v.write(p)
	if e.v.err != nil {
		return 0, e.v.err
	}
	return len(p), nil
}

func (v *vtkWriter) floats(name string, ncomp int, xs []float64) {
	v.open("Float64", name, ncomp)
	if v.enc == VTKBinary {
		raw := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(x))
		}
		v.binary(raw)
	} else {
		per := 6 // numbers per line; a multiple of 1 and 3
		for i := 0; i < len(xs); i += per {
			b := append(v.buf[:0], "          "...)
			for j := i; j < len(xs) && j < i+per; j++ {
				if j > i {
					b = append(b, ' ')
				}
				b = strconv.AppendFloat(b, xs[j], 'g', -1, 64)
			}
			b = append(b, '\n')
			v.buf = b
			v.write(b)
		}
	}
	v.close()
}

func (v *vtkWriter) ints(name string, xs []int64) {
	v.open("Int64", name, 1)
	if v.enc == VTKBinary {
		raw := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(x))
		}
		v.binary(raw)
	} else {
		per := 12
		for i := 0; i < len(xs); i += per {
			b := append(v.buf[:0], "          "...)
			for j := i; j < len(xs) && j < i+per; j++ {
				if j > i {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, xs[j], 10)
			}
			b = append(b, '\n')
			v.buf = b
			v.write(b)
		}
	}
	v.close()
}

// PVDWriter builds a ParaView collection file (.pvd) that lists one data
// file per time step, so ParaView opens a whole run as one time series.
type PVDWriter struct {
	path    string
	dir     string
	entries []pvdEntry
	closed  bool
}

type pvdEntry struct {
	t    float64
	file string
}

// NewPVDWriter starts a collection to be written at path. Nothing is written
// until Flush or Close; the directory is created now.
func NewPVDWriter(path string) (*PVDWriter, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	return &PVDWriter{path: path, dir: dir}, nil
}

// Dir is the directory of the .pvd file; entry file names are relative to it.
func (p *PVDWriter) Dir() string { return p.dir }

// Add records that file (a path relative to the .pvd file's directory)
// holds the data set at time t.
func (p *PVDWriter) Add(t float64, file string) error {
	if p.closed {
		return errors.New("output: pvd: Add after Close")
	}
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return fmt.Errorf("output: pvd: time %g is not finite", t)
	}
	if file == "" || filepath.IsAbs(file) || strings.ContainsAny(file, "<>&\"") {
		return fmt.Errorf("output: pvd: bad file name %q (want a relative path)", file)
	}
	p.entries = append(p.entries, pvdEntry{t, filepath.ToSlash(file)})
	return nil
}

// AddVTP writes the .vtp file name (relative to Dir) with WriteVTP and
// records it at time t.
func (p *PVDWriter) AddVTP(t float64, name string, points [][3]float64, fields []PointField, enc VTKEncoding) error {
	if err := WriteVTP(filepath.Join(p.dir, name), points, fields, enc); err != nil {
		return err
	}
	return p.Add(t, name)
}

// Flush (re)writes the .pvd file with the entries added so far, atomically,
// so that a long run can keep a usable index while it goes on.
func (p *PVDWriter) Flush() error {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n")
	b.WriteString("<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n")
	b.WriteString("  <Collection>\n")
	for _, e := range p.entries {
		fmt.Fprintf(&b, "    <DataSet timestep=\"%s\" group=\"\" part=\"0\" file=\"%s\"/>\n",
			strconv.FormatFloat(e.t, 'g', -1, 64), e.file)
	}
	b.WriteString("  </Collection>\n")
	b.WriteString("</VTKFile>\n")
	return writeFileAtomic(p.path, []byte(b.String()))
}

// Close writes the .pvd file. Further Adds fail. Close is idempotent.
func (p *PVDWriter) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	return p.Flush()
}

// Points2D turns a flat 2D position vector (ball i at [2i, 2i+1]) into
// points with z = 0.
func Points2D(q []float64) [][3]float64 {
	pts := make([][3]float64, len(q)/2)
	for i := range pts {
		pts[i] = [3]float64{q[2*i], q[2*i+1], 0}
	}
	return pts
}

// ExportVTK2D writes one .vtp file per frame of a 2D trajectory into dir
// (balls_00000.vtp, ... numbered by position in traj.Frames) and the
// collection dir/balls.pvd, returning the .pvd path. Point arrays: radius,
// mass, fixed (0 or 1), id (ball index), velocity (vx, vy, 0) and speed.
func ExportVTK2D(dir string, traj *Trajectory, sc *Scene2D, enc VTKEncoding) (string, error) {
	if err := checkTrajScene(traj, sc); err != nil {
		return "", err
	}
	if sc.Shapes != nil {
		return "", errors.New("output: ExportVTK2D exports balls; a rigid-body run writes its VTK files as it runs (run --vtk)")
	}
	pvd, err := NewPVDWriter(filepath.Join(dir, "balls.pvd"))
	if err != nil {
		return "", err
	}
	n := traj.NumBodies
	fixed := make([]float64, n)
	id := make([]float64, n)
	for i := 0; i < n; i++ {
		if sc.Fixed[i] {
			fixed[i] = 1
		}
		id[i] = float64(i)
	}
	vel := make([][3]float64, n)
	speed := make([]float64, n)
	for k, f := range traj.Frames {
		for i := 0; i < n; i++ {
			vx, vy := f.V[2*i], f.V[2*i+1]
			vel[i] = [3]float64{vx, vy, 0}
			speed[i] = math.Hypot(vx, vy)
		}
		fields := []PointField{
			ScalarField(RadiusField, sc.Radii),
			ScalarField("mass", sc.Masses),
			ScalarField("fixed", fixed),
			ScalarField("id", id),
			VectorField("velocity", vel),
			ScalarField("speed", speed),
		}
		if err := pvd.AddVTP(f.Time, fmt.Sprintf("balls_%05d.vtp", k), Points2D(f.Q), fields, enc); err != nil {
			return "", err
		}
	}
	return pvd.path, pvd.Close()
}

// checkTrajScene checks that a trajectory and a scene belong together.
func checkTrajScene(traj *Trajectory, sc *Scene2D) error {
	return checkTrajScenes(traj, &Panel{Traj: traj, Scene: sc})
}

// checkTrajScenes checks that every frame of traj has the bodies of the
// panel's description of it (Panel.Scenes).
func checkTrajScenes(traj *Trajectory, pn *Panel) error {
	if traj == nil || pn.Scene == nil {
		return errors.New("output: nil trajectory or scene")
	}
	if err := pn.Scene.Validate(); err != nil {
		return err
	}
	for i, c := range pn.Scenes {
		if c.Scene == nil || (i > 0 && c.From <= pn.Scenes[i-1].From) {
			return fmt.Errorf("output: scene changes: change %d (from frame %d) is nil or out of order", i, c.From)
		}
		if err := c.Scene.Validate(); err != nil {
			return fmt.Errorf("output: the scene from frame %d: %w", c.From, err)
		}
	}
	for k := range traj.Frames {
		f := &traj.Frames[k]
		sc := pn.sceneAt(f)
		if l := sc.Layout(); len(f.Q) != len(l.Q)*sc.NumBalls || len(f.V) != len(l.V)*sc.NumBalls {
			return fmt.Errorf("output: trajectory frame %d (index %d): %d positions, %d velocities, but its scene description has %d bodies", k, f.Index, len(f.Q), len(f.V), sc.NumBalls)
		}
	}
	return nil
}

// PieceFile is the name of rank r's piece of frame k in a run's vtk
// directory under mpirun: frame_00012_r0003.vtp.
func PieceFile(frame, rank int) string { return fmt.Sprintf("frame_%05d_r%04d.vtp", frame, rank) }

// WritePVTP writes a parallel PolyData index (.pvtp, file version 1.0)
// at path naming the pieces (.vtp files written by WriteVTP, paths
// relative to the index's directory) that together hold one data set.
// fields gives the point arrays' names and kinds (their values are not
// used; a rank's own fields will do): every piece must hold those
// arrays, in that order. The index is written atomically; write it after
// every piece is in place, so that a reader never finds an index naming a
// missing piece.
func WritePVTP(path string, fields []PointField, pieces []string) error {
	activeS, activeV := "", ""
	for _, f := range fields {
		if f.Name == "" || strings.ContainsAny(f.Name, "<>&\"'\r\n\t") {
			return fmt.Errorf("output: pvtp: bad field name %q", f.Name)
		}
		if f.Vectors != nil {
			if activeV == "" {
				activeV = f.Name
			}
		} else if activeS == "" || f.Name == RadiusField {
			activeS = f.Name
		}
	}
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n")
	b.WriteString("<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n")
	b.WriteString("  <PPolyData GhostLevel=\"0\">\n")
	b.WriteString("    <PPointData")
	if activeS != "" {
		fmt.Fprintf(&b, " Scalars=\"%s\"", activeS)
	}
	if activeV != "" {
		fmt.Fprintf(&b, " Vectors=\"%s\"", activeV)
	}
	b.WriteString(">\n")
	for _, f := range fields {
		nc := 1
		if f.Vectors != nil {
			nc = 3
		}
		fmt.Fprintf(&b, "      <PDataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n", f.Name, nc)
	}
	b.WriteString("    </PPointData>\n")
	b.WriteString("    <PPoints>\n")
	b.WriteString("      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n")
	b.WriteString("    </PPoints>\n")
	for _, p := range pieces {
		if p == "" || filepath.IsAbs(p) || strings.ContainsAny(p, "<>&\"") {
			return fmt.Errorf("output: pvtp: bad piece name %q (want a relative path)", p)
		}
		fmt.Fprintf(&b, "    <Piece Source=\"%s\"/>\n", filepath.ToSlash(p))
	}
	b.WriteString("  </PPolyData>\n")
	b.WriteString("</VTKFile>\n")
	return writeFileAtomic(path, []byte(b.String()))
}

// AddPVTP writes the index name (relative to Dir) of the pieces with
// WritePVTP and records it at time t.
func (p *PVDWriter) AddPVTP(t float64, name string, fields []PointField, pieces []string) error {
	if err := WritePVTP(filepath.Join(p.dir, name), fields, pieces); err != nil {
		return err
	}
	return p.Add(t, name)
}

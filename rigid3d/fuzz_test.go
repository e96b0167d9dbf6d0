package rigid3d

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// FuzzReadOBJ: no OBJ input panics the reader, the surface check or the
// mesh set-up, and every face the reader accepts indexes its vertices.
// go test -fuzz=FuzzReadOBJ ./rigid3d/
func FuzzReadOBJ(f *testing.F) {
	vs, fs := BoxMesh(r3.Vec{X: 1, Y: 0.5, Z: 0.25})
	var b bytes.Buffer
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, v := range vs {
		b.WriteString("v " + g(v.X) + " " + g(v.Y) + " " + g(v.Z) + "\n")
	}
	for _, t := range fs {
		b.WriteString("f " + strconv.Itoa(t[0]+1) + "/1/1 " + strconv.Itoa(t[1]+1) + "//2 " + strconv.Itoa(t[2]+1) + "\n")
	}
	f.Add(b.Bytes())
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))
	f.Add([]byte("# tetrahedron, negative indices\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf -4 -2 -3\nf -4 -3 -1\nf -4 -1 -2\nf -3 -2 -1\nvn 0 0 1\ng x\n"))
	f.Add([]byte("v 1e308 0 0\nf 1 1 1 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return // the distance field costs cells × triangles
		}
		vs, fs, err := ReadOBJ(bytes.NewReader(data), "fuzz.obj")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.obj") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, tr := range fs {
			for _, k := range tr {
				if k < 0 || k >= len(vs) {
					t.Fatalf("face index %d of %d vertices accepted", k, len(vs))
				}
			}
		}
		if ValidateSurface(vs, fs, "fuzz.obj") != nil {
			return
		}
		NewMesh(vs, fs, 4, "fuzz.obj")
	})
}

// FuzzReadSCISimMesh: no file given as one of SCISim's HDF5 meshes panics
// or exhausts the reader (a third-party HDF5 decoder underneath: it found
// the allocations checkHDF5Sizes now refuses), and what it accepts indexes
// its vertices. go test -fuzz=FuzzReadSCISimMesh -fuzzminimizetime=5s
// ./rigid3d/ (each input is a file; minimizing one with the default 60 s
// looks like a stall)
func FuzzReadSCISimMesh(f *testing.F) {
	dir := f.TempDir()
	vs, fs := BoxMesh(r3.Vec{X: 1, Y: 0.5, Z: 0.25})
	seed := filepath.Join(dir, "box.h5")
	writeSCISimMesh(f, seed, vs, fs, false)
	if data, err := os.ReadFile(seed); err == nil {
		f.Add(data)
	}
	f.Add([]byte("\x89HDF\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		path := filepath.Join(t.TempDir(), "m.h5")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		vs, fs, err := ReadSCISimMesh(path)
		if err != nil {
			return
		}
		for _, tr := range fs {
			for _, k := range tr {
				if k < 0 || k >= len(vs) {
					t.Fatalf("face index %d of %d vertices accepted", k, len(vs))
				}
			}
		}
	})
}

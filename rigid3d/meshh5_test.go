package rigid3d

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scigolib/hdf5"
	"gonum.org/v1/gonum/spatial/r3"
)

// writeSCISimMesh writes vs and fs in the layout of SCISim's mesh files:
// mesh/vertices 3 × N float64 and mesh/faces 3 × M uint32 (row k holds
// component k), transposed when rowsLast.
func writeSCISimMesh(t testing.TB, path string, vs []r3.Vec, fs [][3]int, rowsLast bool) {
	t.Helper()
	fw, err := hdf5.CreateForWrite(path, hdf5.CreateTruncate)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.CreateGroup("/mesh"); err != nil {
		t.Fatal(err)
	}
	n, m := len(vs), len(fs)
	vd := make([]float64, 3*n)
	fd := make([]uint32, 3*m)
	for i, v := range vs {
		vd[i], vd[n+i], vd[2*n+i] = v.X, v.Y, v.Z
	}
	for i, f := range fs {
		for k := 0; k < 3; k++ {
			fd[k*m+i] = uint32(f[k])
		}
	}
	vdims, fdims := []uint64{3, uint64(n)}, []uint64{3, uint64(m)}
	if rowsLast {
		vdims, fdims = []uint64{uint64(n), 3}, []uint64{uint64(m), 3}
	}
	dv, err := fw.CreateDataset("/mesh/vertices", hdf5.Float64, vdims)
	if err != nil {
		t.Fatal(err)
	}
	if err := dv.Write(vd); err != nil {
		t.Fatal(err)
	}
	df, err := fw.CreateDataset("/mesh/faces", hdf5.Uint32, fdims)
	if err != nil {
		t.Fatal(err)
	}
	if err := df.Write(fd); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReadSCISimMesh: a box written in SCISim's HDF5 mesh layout reads back
// exactly and makes the same mesh as the box's own triangles; a file in
// another layout or without the mesh is refused naming the file and the
// dataset.
func TestReadSCISimMesh(t *testing.T) {
	dir := t.TempDir()
	vs, fs := BoxMesh(r3.Vec{X: 0.5, Y: 0.25, Z: 1})
	path := filepath.Join(dir, "box.h5")
	writeSCISimMesh(t, path, vs, fs, false)
	gv, gf, err := ReadSCISimMesh(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(gv) != len(vs) || len(gf) != len(fs) {
		t.Fatalf("%d vertices and %d faces, want %d and %d", len(gv), len(gf), len(vs), len(fs))
	}
	for i := range vs {
		if gv[i] != vs[i] {
			t.Fatalf("vertex %d = %v, want %v", i, gv[i], vs[i])
		}
	}
	for i := range fs {
		if gf[i] != fs[i] {
			t.Fatalf("face %d = %v, want %v", i, gf[i], fs[i])
		}
	}
	m, _, _, err := NewMesh(gv, gf, 16, path)
	if err != nil {
		t.Fatal(err)
	}
	if v := m.Volume; v < 1-1e-12 || v > 1+1e-12 {
		t.Errorf("volume %v, want 1", v)
	}

	bad := filepath.Join(dir, "transposed.h5")
	writeSCISimMesh(t, bad, vs, fs, true)
	if _, _, err := ReadSCISimMesh(bad); err == nil || !strings.Contains(err.Error(), "transposed.h5: dataset /mesh/") || !strings.Contains(err.Error(), "expected a 3 × N array") {
		t.Errorf("transposed layout: %v", err)
	}
	if _, _, err := ReadSCISimMesh(filepath.Join(dir, "missing.h5")); err == nil || !strings.Contains(err.Error(), "missing.h5") {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadSCISimMeshDamagedHeap: one damaged length field (a local heap
// claiming 2⁴⁰ bytes) is refused before the decoder allocates it; the
// process ran out of memory (found by FuzzReadSCISimMesh).
func TestReadSCISimMeshDamagedHeap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "box.h5")
	vs, fs := BoxMesh(r3.Vec{X: 1, Y: 1, Z: 1})
	writeSCISimMesh(t, path, vs, fs, false)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k := bytes.Index(data, []byte("HEAP\x00\x00\x00\x00"))
	if k < 0 {
		t.Fatal("no local heap in the test file")
	}
	binary.LittleEndian.PutUint64(data[k+8:], 1<<40)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSCISimMesh(path); err == nil || !strings.Contains(err.Error(), "a local heap of 1099511627776 bytes") {
		t.Errorf("damaged heap: %v", err)
	}
}

package tetmesh

import (
	"math"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

const sharedMeshes = "../../shared/meshes/"

func readShared(t *testing.T, name string) ([]r3.Vec, [][3]int) {
	t.Helper()
	f, err := os.Open(sharedMeshes + name)
	if err != nil {
		t.Skipf("shared meshes not available: %v", err)
	}
	defer f.Close()
	vs, fs, err := rigid3d.ReadOBJ(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return vs, fs
}

// TestBoxLattice: a box whose sides are multiples of the lattice spacing
// is filled exactly: volume, vertex and tetrahedron counts, and the Kuhn
// tetrahedron's angles (45°–90°, radius ratio 0.717).
func TestBoxLattice(t *testing.T) {
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 0.5, Y: 1, Z: 1.5})
	m, rep, err := FromSurface(vs, fs, Options{Cells: 6, Snap: true}, "box")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.V) != 3*5*7 || len(m.T) != 6*2*4*6 || rep.Cells != 48 {
		t.Fatalf("%d vertices, %d tetrahedra, %d cells; want 105, 288, 48", len(m.V), len(m.T), rep.Cells)
	}
	q := m.Quality()
	if math.Abs(q.Volume-6) > 1e-12 || math.Abs(rep.SurfaceVolume-6) > 1e-12 {
		t.Errorf("volume %v, surface volume %v; want 6", q.Volume, rep.SurfaceVolume)
	}
	if math.Abs(q.MinDihedral-45) > 1e-9 || math.Abs(q.MaxDihedral-90) > 1e-9 {
		t.Errorf("dihedral angles %v–%v, want 45–90", q.MinDihedral, q.MaxDihedral)
	}
	if math.Abs(q.MinRadiusRatio-q.MeanRadiusRatio) > 1e-12 || math.Abs(q.MinRadiusRatio-0.7174389352) > 1e-9 {
		t.Errorf("radius ratio min %v mean %v, want both 0.7174389352", q.MinRadiusRatio, q.MeanRadiusRatio)
	}
	if rep.Snapped != rep.Boundary || rep.MaxSnapDistance > 1e-12 {
		t.Errorf("box boundary: %d of %d snapped, max distance %g", rep.Snapped, rep.Boundary, rep.MaxSnapDistance)
	}
	if b := q.BoundaryFaces; b != 2*2*(2*4+4*6+2*6) {
		t.Errorf("%d boundary triangles, want %d", b, 2*2*(2*4+4*6+2*6))
	}
	if err := m.Validate("box"); err != nil {
		t.Error(err)
	}
}

// TestSphereSnapping: a sphere filled and snapped encloses the surface's
// volume to 2% at 16 cells across (4% without snapping is typical of the
// staircase), and every tetrahedron keeps the radius-ratio floor.
func TestSphereSnapping(t *testing.T) {
	vs, fs := rigid3d.IcosphereMesh(4)
	for _, snap := range []bool{false, true} {
		m, rep, err := FromSurface(vs, fs, Options{Cells: 16, Snap: snap}, "sphere")
		if err != nil {
			t.Fatal(err)
		}
		rel := math.Abs(rep.Quality.Volume/rep.SurfaceVolume - 1)
		t.Logf("snap %v: %v; volume error %.3g; snapped %d partly %d not %d of %d", snap, rep.Quality, rel, rep.Snapped, rep.Partial, rep.Unsnapped, rep.Boundary)
		if snap {
			if rel > 0.02 {
				t.Errorf("snapped volume %v vs surface %v", rep.Quality.Volume, rep.SurfaceVolume)
			}
			if rep.Quality.MinRadiusRatio < 0.2 {
				t.Errorf("radius ratio %v below the floor", rep.Quality.MinRadiusRatio)
			}
			if rep.Snapped < rep.Boundary/2 {
				t.Errorf("only %d of %d boundary vertices snapped", rep.Snapped, rep.Boundary)
			}
		}
		if err := m.Validate("sphere"); err != nil {
			t.Error(err)
		}
	}
}

// TestSharedSurfaces: the bunny meshes into one connected piece; the open
// teapot is refused with its file name and an open edge.
func TestSharedSurfaces(t *testing.T) {
	vs, fs := readShared(t, "bunny.obj")
	m, rep, err := FromSurface(vs, fs, Options{Cells: 20, Snap: true}, "bunny.obj")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("bunny: %v; parts %d (dropped %d cells); snapped %d partly %d not %d of %d; surface volume %.4g", rep.Quality, rep.Parts, rep.Dropped, rep.Snapped, rep.Partial, rep.Unsnapped, rep.Boundary, rep.SurfaceVolume)
	if rel := math.Abs(m.Volume()/rep.SurfaceVolume - 1); rel > 0.05 {
		t.Errorf("bunny tet volume %v vs surface %v", m.Volume(), rep.SurfaceVolume)
	}
	vs, fs = readShared(t, "teapot.obj")
	_, _, err = FromSurface(vs, fs, Options{Cells: 20}, "teapot.obj")
	if err == nil || !strings.Contains(err.Error(), "teapot.obj") || !strings.Contains(err.Error(), "edge") {
		t.Fatalf("teapot: err = %v", err)
	}
	t.Log(err)
}

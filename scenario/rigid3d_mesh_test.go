package scenario

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/rigid3d"
	"impactsim/scene"
)

func writeOBJ(t *testing.T, path string, drop int) {
	t.Helper()
	vs, fs := rigid3d.TorusMesh(1, 0.3, 24, 8)
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "v %.17g %.17g %.17g\n", v.X, v.Y, v.Z)
	}
	for k, f := range fs {
		if k == drop {
			continue
		}
		fmt.Fprintf(&b, "f %d %d %d\n", f[0]+1, f[1]+1, f[2]+1)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMeshScene: a torus OBJ referenced from a rigidbody3d scene falls on a
// plane and bounces (gr keeps the energy); an open mesh is a FILE:LINE
// error naming the mesh problem.
func TestMeshScene(t *testing.T) {
	dir := t.TempDir()
	writeOBJ(t, filepath.Join(dir, "torus.obj"), -1)
	writeOBJ(t, filepath.Join(dir, "open.obj"), 5)
	xml := func(obj string) string {
		return `<rigidbody3d_scene>
  <integrator type="dmv" dt="0.005"/>
  <impact_operator type="gr" CoR="1" v_tol="1e-9"/>
  <near_earth_gravity f="0 -9.81 0"/>
  <static_plane x="0 0 0" n="0 1 0"/>
  <geometry type="mesh" filename="` + obj + `"/>
  <rigid_body_with_density x="0 1.5 0" v="0 0 0" omega="0.3 0 0.2" rho="1" fixed="0" geo_idx="0" R="0.4 0 0"/>
</rigidbody3d_scene>
`
	}
	good := filepath.Join(dir, "good.xml")
	os.WriteFile(good, []byte(xml("torus.obj")), 0o644)
	sc, err := scene.LoadRigidBody3D(good)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRigid3D(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e0 := r.Sys.Energy(r.Stepper.Q, r.Stepper.V)
	impacts := 0
	var minY float64 = math.Inf(1)
	for i := 0; i < 400; i++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if r.Stepper.Last.Contacts > 0 {
			impacts++
		}
		x, _ := rigid3d.Pose(r.Stepper.Q, 0)
		minY = math.Min(minY, x.Y)
	}
	e1 := r.Sys.Energy(r.Stepper.Q, r.Stepper.V)
	t.Logf("torus: %d impact steps, lowest centre %.4f, energy %.12g → %.12g", impacts, minY, e0, e1)
	if impacts == 0 || math.Abs(e1-e0) > 1e-9*math.Abs(e0) || minY < 0.2 {
		t.Errorf("impacts %d, energy %.12g → %.12g, lowest centre %v", impacts, e0, e1, minY)
	}
	bad := filepath.Join(dir, "bad.xml")
	os.WriteFile(bad, []byte(xml("open.obj")), 0o644)
	sc, err = scene.LoadRigidBody3D(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRigid3D(sc, Options{}); err == nil || !strings.Contains(err.Error(), "bad.xml:6: geometry: ") || !strings.Contains(err.Error(), "not closed") {
		t.Errorf("open mesh: %v", err)
	}
}

// TestSCISimMeshScene: a box read from one of SCISim's HDF5 mesh files
// (testdata/box_mesh.h5: mesh/vertices 3 × 8, mesh/faces 3 × 12, half
// widths 0.5, 0.25, 1, written by rigid3d's test helper in SCISim's layout)
// falls flat on a plane beside a box geometry of the same size and moves
// as it does.
func TestSCISimMeshScene(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/box_mesh.h5")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "box_mesh.h5"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	xml := `<rigidbody3d_scene>
  <integrator type="dmv" dt="0.01"/>
  <impact_operator type="gr" CoR="1.0"/>
  <near_earth_gravity f="0 -9.81 0"/>
  <static_plane x="0 0 0" n="0 1 0"/>
  <geometry type="mesh" filename="box_mesh.h5"/>
  <geometry type="box" r="0.5 0.25 1"/>
  <rigid_body_with_density x="-2 1 0" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="0"/>
  <rigid_body_with_density x="2 1 0" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="1"/>
</rigidbody3d_scene>`
	path := filepath.Join(dir, "scene.xml")
	if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scene.LoadRigidBody3D(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRigid3D(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bounces := 0
	for k := 0; k < 100; k++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if r.Stepper.Last.Contacts > 0 {
			bounces++
		}
	}
	xm, _ := rigid3d.Pose(r.Stepper.Q, 0)
	xb, _ := rigid3d.Pose(r.Stepper.Q, 1)
	if bounces == 0 || math.Abs(xm.Y-xb.Y) > 1e-9 || math.Abs(xm.X+2) > 1e-9 {
		t.Errorf("after 1 s (%d contact steps): mesh box at %v, box at %v", bounces, xm, xb)
	}
}

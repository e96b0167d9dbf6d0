package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun3D(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"run", "builtin:box_drop", "--end", "0.5", "--out", dir, "--quiet", "--vtk", "--frames", "5"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"render", dir, "--width", "64", "--height", "48"}, &out, &errb); code != 0 {
		t.Fatalf("render: exit %d: %s", code, errb.String())
	}
	for _, f := range []string{"trajectory.csv", "energy.csv", "summary.json", "scene3d.json", "vtk/trajectory.pvd", "vtk/frame_00005.vtp", "render/animation.gif", "render/frame_00005.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	bad := filepath.Join(dir, "mesh.xml")
	os.WriteFile(bad, []byte("<rigidbody3d_scene>\n<integrator type=\"dmv\" dt=\"0.01\"/>\n<geometry type=\"staple\" w=\"1\" l=\"1\" D=\"0.1\"/>\n</rigidbody3d_scene>\n"), 0o644)
	errb.Reset()
	if code := run([]string{"run", bad, "--out", filepath.Join(dir, "m")}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "mesh.xml:3: geometry attribute \"type\": staple geometry is not supported yet") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "m")); err == nil {
		t.Error("output directory created for bad input")
	}
	os.WriteFile(bad, []byte("<rigidbody3d_scene>\n<integrator type=\"dmv\" dt=\"0.01\"/>\n<geometry type=\"mesh\" filename=\"missing.obj\"/>\n<rigid_body_with_density x=\"0 0 0\" v=\"0 0 0\" omega=\"0 0 0\" rho=\"1\" fixed=\"0\" geo_idx=\"0\"/>\n</rigidbody3d_scene>\n"), 0o644)
	errb.Reset()
	if code := run([]string{"run", bad, "--out", filepath.Join(dir, "m")}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "mesh.xml:3: geometry: open ") {
		t.Errorf("missing mesh: exit %d, stderr %q", code, errb.String())
	}
}

// A SCISim rigidbody2d scene runs through the same driver and renders.
func TestRunRigid2D(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	scene := "../../parity/testdata/rigidbody2d/box_circle/box_circle_0.xml"
	if code := run([]string{"run", scene, "--end", "0.5", "--out", dir, "--quiet", "--vtk", "--frames", "5"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "integrator verlet") && !strings.Contains(out.String(), "integrator symplectic_euler") {
		t.Errorf("summary:\n%s", out.String())
	}
	errb.Reset()
	if code := run([]string{"render", dir, "--width", "64", "--height", "48", "--no-mp4"}, &out, &errb); code != 0 {
		t.Fatalf("render: exit %d: %s", code, errb.String())
	}
	for _, f := range []string{"scene.json", "trajectory.csv", "energy.csv", "summary.json", "vtk/trajectory.pvd", "render/animation.gif"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "trajectory.csv"))
	if !strings.HasPrefix(string(data), "frame,time,body,x,y,theta,vx,vy,omega\n") {
		t.Errorf("trajectory header %q", strings.SplitN(string(data), "\n", 2)[0])
	}
}

package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"impactsim/output"
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

// TestRenderClosedContainers: what a closed container holds is seen in the
// render (the tori in their box, matryoshka's inner dolls: render used to
// draw one opaque box), and render picks the containers itself.
func TestRenderClosedContainers(t *testing.T) {
	for _, c := range []struct {
		scene, end string
		inside     []int // bodies held by a container: each must show
		cut        []bool
	}{
		{"tori_in_box", "0.01", []int{0, 1}, []bool{false, false, true}},
		{"matryoshka", "0.002", []int{1, 2}, []bool{true, true, false}},
	} {
		b := builtins3D[c.scene]
		sys, _, err := b.make()
		if err != nil {
			t.Fatal(err)
		}
		if got := containers(sys, sys.Q); !slices.Equal(got, c.cut) {
			t.Errorf("%s: containers %v, want %v", c.scene, got, c.cut)
		}
		dir := t.TempDir()
		if code, _, errs := runCLI(t, "run", "builtin:"+c.scene, "--end", c.end, "--quiet", "--out", dir); code != 0 {
			t.Fatalf("%s: run: exit %d: %s", c.scene, code, errs)
		}
		if code, _, errs := runCLI(t, "render", dir, "--width", "200", "--height", "150", "--max-frames", "1", "--no-gif", "--no-mp4"); code != 0 {
			t.Fatalf("%s: render: exit %d: %s", c.scene, code, errs)
		}
		fh, err := os.Open(filepath.Join(dir, "render", "frame_00000.png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range c.inside {
			if n := pixelsOfBody(img, output.BallColor(i)); n < 50 {
				t.Errorf("%s: body %d inside a container shows in %d pixels", c.scene, i, n)
			}
		}
	}
}

// pixelsOfBody counts the pixels of img that are base at some brightness
// (Render3D's flat shading scales a body's colour).
func pixelsOfBody(img image.Image, base color.RGBA) int {
	bv := [3]float64{float64(base.R), float64(base.G), float64(base.B)}
	bb := bv[0]*bv[0] + bv[1]*bv[1] + bv[2]*bv[2]
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			cv := [3]float64{float64(cr >> 8), float64(cg >> 8), float64(cb >> 8)}
			s := (cv[0]*bv[0] + cv[1]*bv[1] + cv[2]*bv[2]) / bb
			if s > 0.3 && math.Abs(cv[0]-s*bv[0]) < 2 && math.Abs(cv[1]-s*bv[1]) < 2 && math.Abs(cv[2]-s*bv[2]) < 2 {
				n++
			}
		}
	}
	return n
}

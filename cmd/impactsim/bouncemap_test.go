package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/rigid3d"
)

// writeOBJ writes a rod (capsule, 20 cm × ⌀20 mm) as an OBJ file.
func writeOBJ(t *testing.T, path string) {
	t.Helper()
	vs, fs := rigid3d.CapsuleMesh(0.01, 0.18, 16, 4, 12)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rigid3d.WriteOBJ(f, vs, fs); err != nil {
		t.Fatal(err)
	}
}

// TestBouncemapBuildShow: build writes a map and reports its statistics;
// show renders the picture and the VTK file from the map alone (it finds
// the surface through the map's source line); bad input exits 2 with the
// file (and line or edge).
func TestBouncemapBuildShow(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "rod.obj")
	writeOBJ(t, obj)
	mapPath := filepath.Join(dir, "maps", "rod.bmap")
	code, out, errs := runCLI(t, "bouncemap", "build", obj, "--modes", "8", "--cells", "20", "--out", mapPath, "--quiet", "--write-tets", filepath.Join(dir, "rodtets"))
	if code != 0 {
		t.Fatalf("build exit %d: %s", code, errs)
	}
	for _, want := range []string{"modes: 8", "ε: min", "wrote " + mapPath} {
		if !strings.Contains(out, want) {
			t.Errorf("build output lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "bouncemap", "show", mapPath, "--width", "96", "--height", "80")
	if code != 0 {
		t.Fatalf("show exit %d: %s", code, errs)
	}
	for _, f := range []string{"bouncemap.png", "bouncemap.vtp"} {
		if _, err := os.Stat(filepath.Join(dir, "maps", "rod_show", f)); err != nil {
			t.Errorf("show wrote no %s: %v\n%s", f, err, out)
		}
	}
	// The tetrahedral mesh written by build feeds a second build.
	code, _, errs = runCLI(t, "bouncemap", "build", obj, "--modes", "8", "--tets", filepath.Join(dir, "rodtets.node"), "--out", filepath.Join(dir, "rod2.bmap"), "--quiet")
	if code != 0 {
		t.Fatalf("build from TetGen files: exit %d: %s", code, errs)
	}

	teapot := "../../../shared/meshes/teapot.obj"
	otherObj := filepath.Join(dir, "other.obj")
	os.WriteFile(otherObj, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"), 0o644)
	badMap := filepath.Join(dir, "bad.bmap")
	os.WriteFile(badMap, []byte("impactsim-bouncemap 1\nsurface 3 x sha256:00\n"), 0o644)
	badNode := filepath.Join(dir, "bad.node")
	os.WriteFile(badNode, []byte("4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.ele"), []byte("1 4 0\n1 1 2 3 4\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bouncemap", "build", teapot, "--quiet"}, "teapot.obj: mesh is not closed and consistently oriented: edge"},
		{[]string{"bouncemap", "build", obj, "--modes", "0"}, "--modes: expected an integer from 1 to 2000, got \"0\""},
		{[]string{"bouncemap", "build", obj, "--method", "rk4"}, "--method"},
		{[]string{"bouncemap", "build", obj, "--poisson", "0.5"}, "Poisson"},
		{[]string{"bouncemap", "build", obj, "--tets", badNode, "--quiet"}, "bad.ele: tetrahedron 1 (vertices 1 2 3 4) has volume 0"},
		{[]string{"bouncemap", "show", badMap}, "bad.bmap:2: surface triangles"},
		{[]string{"bouncemap", "show", mapPath, "--mesh", otherObj}, "bounce map is for another surface"},
		{[]string{"bouncemap", "frobnicate"}, "unknown subcommand"},
	}
	for _, c := range cases {
		if len(c.args) > 2 && c.args[2] == teapot {
			if _, err := os.Stat(teapot); err != nil {
				// The shared meshes sit beside the repository, not in it.
				t.Logf("skipping the open-teapot case: %v", err)
				continue
			}
		}
		code, _, errs := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat("out/teapot.bmap"); err == nil {
		t.Error("a refused build wrote a map")
	}
}

// TestBouncemapRodsScene: the built-in rods scene builds its map and runs;
// the run's summary reports contacts (the rods reach the floor by t = 0.3).
func TestBouncemapRodsScene(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "run", "builtin:bouncemap_rods", "--end", "0.3", "--out", dir, "--quiet", "--frames", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "steps with contacts") || strings.Contains(out, " 0 steps with contacts") {
		t.Errorf("summary:\n%s", out)
	}
}

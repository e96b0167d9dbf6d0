package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptExitStatus: a script that calls a function impactsim does not
// provide is refused before the run (exit 2, nothing written, the
// script's line); one that fails in a step stops the run there (exit 1,
// the step and the script's line, the last good state saved).
func TestScriptExitStatus(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "s.xml")
	os.WriteFile(scene, []byte(`<ball2d_scene>
<scripting callback="s"/>
<integrator type="verlet" dt="0.01"/>
<gravity fx="0" fy="-10"/>
<static_plane x="0 0" n="0 1"/>
<ball x="0" y="0.5" vx="0" vy="0" m="1" r="0.5" fixed="0"/>
</ball2d_scene>
`), 0o644)
	py := filepath.Join(dir, "s.py")
	os.WriteFile(py, []byte("import balls2d\ndef startOfStep():\n  balls2d.frobnicate()\n"), 0o644)
	out := filepath.Join(dir, "o1")
	code, _, errs := runCLI(t, "run", scene, "--out", out, "--quiet")
	if code != 2 || !strings.Contains(errs, "s.xml:2: scripting: s.py:3: balls2d.frobnicate is not provided by impactsim") {
		t.Errorf("missing function: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("wrote %s", out)
	}
	os.WriteFile(py, []byte("import balls2d\ndef startOfStep():\n  if balls2d.nextIteration() == 5:\n    balls2d.setStaticPlanePosition(3, 0.0, 0.0)\n"), 0o644)
	out = filepath.Join(dir, "o2")
	code, _, errs = runCLI(t, "run", scene, "--out", out, "--quiet", "--end", "1")
	if code != 1 || !strings.Contains(errs, "step 5 (t = 0.04 → 0.05)") || !strings.Contains(errs, "s.py:4: balls2d.setStaticPlanePosition: plane index 3 out of range") {
		t.Errorf("bad plane index: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "trajectory.csv")); err != nil {
		t.Errorf("no last good state: %v", err)
	}
}

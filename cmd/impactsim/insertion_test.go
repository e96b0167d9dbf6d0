package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/output"
	"impactsim/runner"
)

// TestRunInsertionScenes: SCISim's scripted scenes that insert and delete
// bodies run to their end through `impactsim run` (exit 0), trajectory.csv
// has per frame the number of bodies the script dictates, summary.json
// reports the changes, and `impactsim render` draws every frame, also of
// the same run cut as if killed.
func TestRunInsertionScenes(t *testing.T) {
	td := filepath.Join("..", "..", "parity", "testdata")
	for _, c := range []struct {
		scene, end string
		dt         float64
		layout     output.Layout
		// bodies returns the number of bodies after step n.
		bodies func(n int) int
	}{
		// none at first, a ball in the steps ending at t = 0.25, 0.5, … (dt
		// 0.001: steps 250, 500, 750, 1000)
		{"ball2d/tests_python_serialization/insertion_test.xml", "1", 0.001, output.BallLayout,
			func(n int) int { return n / 250 }},
		// none at first, a circle in the steps starting at t = 0, 0.25, …
		// (steps 1, 251, 501, 751)
		{"rigidbody2d/tests_python_serialization/insertion_test.xml", "1", 0.001, output.Rigid2DLayout,
			func(n int) int { return min((n+249)/250, 4) }},
		// a circle every 25 steps (dt 0.02), all but the last deleted every
		// 400: 16 bodies after step 400, 1 after step 401
		{"rigidbody2d/tests_python_serialization/insertion_deletion_test.xml", "10", 0.02, output.Rigid2DLayout,
			func(n int) int { return 1 + ((n-1)%400)/25 }},
	} {
		t.Run(c.scene, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, errs := runCLI(t, "run", filepath.Join(td, c.scene), "--out", out, "--quiet", "--end", c.end, "--frames", "100")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(stdout, "bodies     changed in") {
				t.Errorf("stdout does not report the changes:\n%s", stdout)
			}
			tr, err := output.ReadLayoutTrajectory(out, c.layout)
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Varying {
				t.Error("trajectory not read as varying")
			}
			seen := 0
			for _, f := range tr.Frames {
				n := int(math.Round(f.Time / c.dt)) // the step
				if got, want := f.Bodies(c.layout), c.bodies(n); got != want {
					t.Fatalf("frame %d (step %d): %d bodies, want %d", f.Index, n, got, want)
				}
				seen++
			}
			var s runner.Summary
			b, _ := os.ReadFile(filepath.Join(out, output.SummaryFile))
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			bc := s.BodyChanges
			last := tr.Frames[len(tr.Frames)-1]
			if s.Status != runner.StatusComplete || bc == nil || bc.Final != last.Bodies(c.layout) || len(bc.SceneFiles) == 0 {
				t.Fatalf("summary: status %s, body changes %+v", s.Status, bc)
			}
			code, _, errs = runCLI(t, "render", out, "--no-mp4", "--no-gif", "--width", "64", "--height", "48", "--max-frames", "0")
			if code != 0 {
				t.Fatalf("render: exit %d: %s", code, errs)
			}
			if pngs, _ := filepath.Glob(filepath.Join(out, "render", "frame_*.png")); len(pngs) != seen {
				t.Errorf("render: %d PNGs for %d frames", len(pngs), seen)
			}
			// Killed in the middle of a frame after the first change:
			// the whole frames before it render.
			path := filepath.Join(out, output.TrajectoryFile)
			data, _ := os.ReadFile(path)
			cut := len(data) * 2 / 3
			os.WriteFile(path, data[:cut], 0o644)
			s.Status = runner.StatusRunning
			output.WriteJSON(filepath.Join(out, output.SummaryFile), &s)
			code, stdout, errs = runCLI(t, "render", out, "--no-mp4", "--no-gif", "--width", "64", "--height", "48", "--max-frames", "0")
			if code != 0 || !strings.Contains(stdout, "still going on or was killed") {
				t.Fatalf("render of a killed run: exit %d: %s %s", code, stdout, errs)
			}
		})
	}
}

// TestRender3DVaryingBodies: a 3D trajectory whose frames differ in their
// number of bodies (no rigidbody3d script inserts or deletes; a hand-made
// or damaged file) is refused in one line, exit 2, not drawn with bodies
// missing.
func TestRender3DVaryingBodies(t *testing.T) {
	out := t.TempDir()
	if code, _, errs := runCLI(t, "run", "builtin:eight_cubes", "--end", "0.03", "--frames", "3", "--quiet", "--out", out); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	path := filepath.Join(out, output.TrajectoryFile)
	data, _ := os.ReadFile(path)
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "1,") || !strings.Contains(strings.SplitN(l, ",", 4)[2], "7") {
			kept = append(kept, l) // frame 1 without body 7
		}
	}
	os.WriteFile(path, []byte(strings.Join(kept, "\n")), 0o644)
	code, _, errs := runCLI(t, "render", out, "--no-mp4", "--no-gif", "--width", "32", "--height", "32")
	if code != 2 || !strings.Contains(errs, "the frames differ in their number of bodies") {
		t.Errorf("exit %d: %q", code, errs)
	}
}

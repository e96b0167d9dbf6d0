package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"impactsim/output"
)

// FuzzRender: no run directory makes `render` panic or fail as if it were
// impactsim's fault: damaged scene descriptions, trajectories and
// summaries are bad input (exit 2, one line) or are drawn (exit 0).
// go test -fuzz=FuzzRender -fuzzminimizetime=5s ./cmd/impactsim/
func FuzzRender(f *testing.F) {
	for _, scene := range []string{"builtin:newtons_cradle", "builtin:box_drop"} {
		dir := f.TempDir()
		if code := run([]string{"run", scene, "--end", "0.05", "--frames", "3", "--quiet", "--out", dir}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
			f.Fatalf("%s: exit %d", scene, code)
		}
		sum, _ := os.ReadFile(filepath.Join(dir, output.SummaryFile))
		traj, _ := os.ReadFile(filepath.Join(dir, output.TrajectoryFile))
		name := output.SceneFile
		if scene == "builtin:box_drop" {
			name = output.Scene3DFile
		}
		sc, _ := os.ReadFile(filepath.Join(dir, name))
		f.Add(sum, sc, traj, name == output.Scene3DFile)
		f.Add(bytes.Replace(sum, []byte(`"complete"`), []byte(`"running"`), 1), sc, traj[:len(traj)*2/3], name == output.Scene3DFile)
	}
	f.Fuzz(func(t *testing.T, summary, scene, traj []byte, threeD bool) {
		if len(scene)+len(traj) > 1<<16 {
			return
		}
		d := t.TempDir()
		name := output.SceneFile
		if threeD {
			name = output.Scene3DFile
		}
		os.WriteFile(filepath.Join(d, output.SummaryFile), summary, 0o644)
		os.WriteFile(filepath.Join(d, name), scene, 0o644)
		os.WriteFile(filepath.Join(d, output.TrajectoryFile), traj, 0o644)
		var out, errs bytes.Buffer
		code := run([]string{"render", d, "--width", "16", "--height", "16", "--max-frames", "2", "--no-gif", "--no-mp4"}, &out, &errs)
		if code != 0 && code != 2 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		if code == 2 && bytes.Count(errs.Bytes(), []byte("\n")) != 1 {
			t.Fatalf("not one line: %q", errs.String())
		}
	})
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTowerCommands(t *testing.T) {
	code, out, errs := runCLI(t, "tower", "stable", "builtin:harmonic4")
	if code != 0 || !strings.HasPrefix(out, "STABLE") {
		t.Fatalf("stable: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "tower", "stable", "builtin:tower5x5")
	if code != 0 || !strings.HasPrefix(out, "UNSTABLE: brick") {
		t.Fatalf("stable 5x5: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "tower", "collapse", "builtin:single", "--initial")
	if code != 0 || !strings.Contains(out, "stays closed") || !strings.Contains(out, "opens") {
		t.Fatalf("initial: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	code, out, errs = runCLI(t, "tower", "collapse", "builtin:symmetric", "--steps", "40", "--frames", "5", "--width", "80", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("collapse: exit %d\n%s%s", code, out, errs)
	}
	for _, f := range []string{"trajectory.csv", "animation.gif", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "trajectory.csv"))
	if lines := strings.Count(string(data), "\n"); lines != 1+6*6 { // header + 6 frames × 6 bricks
		t.Errorf("trajectory.csv has %d lines", lines)
	}
	code, _, errs = runCLI(t, "tower", "collapse", "builtin:single", "--steps", "5", "--method", "accel", "--no-gif", "--out", t.TempDir(), "--quiet")
	if code != 0 {
		t.Fatalf("accel: exit %d %s", code, errs)
	}
	braced := filepath.Join(t.TempDir(), "braced.txt")
	os.WriteFile(braced, []byte("diagonals 2\nmodel nine\nbrick 0 0 2 1\n"), 0o644)
	code, _, errs = runCLI(t, "tower", "collapse", braced, "--penalty", "100", "--steps", "5", "--no-gif", "--out", t.TempDir(), "--quiet")
	if code != 0 {
		t.Fatalf("penalty: exit %d %s", code, errs)
	}
}

func TestTowerBadInput(t *testing.T) {
	tmp := t.TempDir()
	overlap := filepath.Join(tmp, "overlap.txt")
	os.WriteFile(overlap, []byte("brick 0 0 2 1\n# second\nbrick 1 0.5 2 1\n"), 0o644)
	zero := filepath.Join(tmp, "zero.txt")
	os.WriteFile(zero, []byte("brick 0 0 2 0 name=flat\n"), 0o644)
	mass := filepath.Join(tmp, "mass.txt")
	os.WriteFile(mass, []byte("brick 0 0 2 1 mass=0\n"), 0o644)
	braced := filepath.Join(tmp, "braced.txt")
	os.WriteFile(braced, []byte("diagonals 2\nbrick 0 0 2 1 name=w\n"), 0o644)
	out := filepath.Join(tmp, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tower", "stable", overlap}, "overlap.txt:3: brick #2 overlaps brick #1"},
		{[]string{"tower", "stable", zero}, "zero.txt:1: brick flat: zero-length bar"},
		{[]string{"tower", "collapse", mass, "--out", out}, "mass.txt:1: brick #1: mass 0 must be positive"},
		{[]string{"tower", "stable", "builtin:nope"}, "unknown built-in tower"},
		{[]string{"tower", "stable", filepath.Join(tmp, "missing.txt")}, "missing.txt"},
		{[]string{"tower", "collapse", "builtin:single", "--steps", "0", "--out", out}, "--steps"},
		{[]string{"tower", "collapse", "builtin:single", "--method", "euler", "--out", out}, "--method"},
		{[]string{"tower", "frobnicate"}, "unknown subcommand"},
		{[]string{"tower", "collapse", braced, "--out", out}, "brick w: bar 5 (points 1–3) is redundant"},
		{[]string{"tower", "collapse", "builtin:single", "--penalty", "-1", "--out", out}, "--penalty"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", c.args, code, errs)
		}
		if !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: message %q should be one line containing %q", c.args, errs, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s despite bad input", c.args, out)
			os.RemoveAll(out)
		}
	}
}

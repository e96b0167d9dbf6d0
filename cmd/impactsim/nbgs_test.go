package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNBGSBadInput: the nbgs law's bad input — restitution ≠ 0, negative μ,
// ε outside [0, 1), a tolerance ≤ 0 — from flags and from a scene file is
// one line (FILE:LINE for the scene), exit status 2, nothing written.
func TestNBGSBadInput(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, solver string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte("<rigidbody3d_scene>\n<integrator type=\"symplectic_euler\" dt=\"0.001\"/>\n"+solver+"\n<static_plane x=\"0 0 0\" n=\"0 1 0\"/>\n<geometry type=\"sphere\" r=\"0.1\"/>\n<rigid_body_with_density x=\"0 0.1 0\" v=\"0 0 0\" omega=\"0 0 0\" rho=\"1\" fixed=\"0\" geo_idx=\"0\"/>\n</rigidbody3d_scene>\n"), 0o644)
		return p
	}
	good := write("good.xml", `<nbgs_friction_solver mu="0.4" max_iters="100" tol="1e-8" epsilon="0.5"/>`)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", write("cor.xml", `<nbgs_friction_solver mu="0.4" CoR="0.2" max_iters="100" tol="1e-8"/>`)}, `cor.xml:3: nbgs_friction_solver attribute "CoR"`},
		{[]string{"run", write("mu.xml", `<nbgs_friction_solver mu="-1" max_iters="100" tol="1e-8"/>`)}, `mu.xml:3: nbgs_friction_solver attribute "mu"`},
		{[]string{"run", write("eps.xml", `<nbgs_friction_solver mu="0.4" max_iters="100" tol="1e-8" epsilon="1.5"/>`)}, `eps.xml:3: nbgs_friction_solver attribute "epsilon"`},
		{[]string{"run", write("tol.xml", `<nbgs_friction_solver mu="0.4" max_iters="100" tol="-1e-8"/>`)}, `tol.xml:3: nbgs_friction_solver attribute "tol"`},
		{[]string{"run", good, "--cor", "0.5"}, "--cor"},
		{[]string{"run", good, "--mu", "-0.1"}, "--mu"},
		{[]string{"run", good, "--epsilon", "-0.1"}, "--epsilon"},
		{[]string{"run", good, "--tol", "0"}, "--tol"},
		{[]string{"run", good, "--relax", "2"}, "--relax"},
		{[]string{"run", good, "--domains", "0"}, "--domains"},
		{[]string{"run", "builtin:box_drop", "--law", "nbgs-maxdiss"}, "purely inelastic"},
		{[]string{"run", "builtin:box_drop", "--law", "nbgs"}, "--law"},
		{[]string{"run", "builtin:box_drop", "--law", "nbgs-maxdiss", "--cor", "0", "--operator", "gr"}, "--operator"},
	}
	for _, c := range cases {
		out := filepath.Join(tmp, "out")
		code, _, errs := runCLI(t, append(c.args, "--out", out, "--end", "0.01", "--quiet")...)
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
	// the good scene runs
	out := filepath.Join(tmp, "good")
	if code, _, errs := runCLI(t, "run", good, "--out", out, "--end", "0.05", "--quiet"); code != 0 {
		t.Fatalf("good scene: exit %d: %s", code, errs)
	}
	s := readCappedSummary(t, out)
	if s.Steps != 50 || s.Capped != 0 {
		t.Errorf("good scene: %+v", s)
	}
}

// TestAcademicAndPainleveCommands: Table 1's numbers and the Painlevé
// sweep's agreement with μ*(θ) reach the files.
func TestAcademicAndPainleveCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "academic", "--out", dir)
	if code != 0 || !strings.Contains(out, "-0.6340074") || !strings.Contains(out, "-0.6309600") {
		t.Fatalf("academic: exit %d, %q %q", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "table1.csv"))
	if err != nil || strings.Count(string(data), "\n") != 5 {
		t.Fatalf("table1.csv: %v\n%s", err, data)
	}
	code, out, errs = runCLI(t, "painleve", "--theta", "40", "--mu", "0:4:40", "--out", dir)
	if code != 0 || !strings.Contains(out, "at 1600 of 1600 points") {
		t.Fatalf("painleve: exit %d, %q %q", code, out, errs)
	}
	for _, f := range []string{"painleve.csv", "painleve.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if code, _, errs := runCLI(t, "painleve", "--mu", "4:0:10", "--out", dir); code != 2 || !strings.Contains(errs, "--mu") {
		t.Errorf("bad --mu: exit %d, %q", code, errs)
	}
}

// TestChannelCommand runs the tiny channel briefly with both laws and
// checks the run directory; bad flags exit 2 with one line.
func TestChannelCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "channel", "--preset", "tiny", "--end", "0.003", "--sample-every", "50", "--out", dir, "--quiet", "--save-state", filepath.Join(dir, "s.state"))
	if code != 0 || !strings.Contains(out, "maxdiss") || !strings.Contains(out, "coulomb") {
		t.Fatalf("channel: exit %d, %q %q", code, out, errs)
	}
	for _, f := range []string{"table2.csv", "maxdiss/summary.json", "maxdiss/samples.csv", "maxdiss/speed.png", "maxdiss/speed.csv", "maxdiss/omega.png", "maxdiss/rdf.csv", "maxdiss/rdf.png", "coulomb/summary.json", "s_maxdiss.state"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// resume continues from the saved state
	code, out, errs = runCLI(t, "channel", "--preset", "tiny", "--end", "0.001", "--law", "maxdiss", "--resume", filepath.Join(dir, "s_maxdiss.state"), "--out", filepath.Join(dir, "r"), "--quiet")
	if code != 0 || !strings.Contains(out, "400 steps to t = 0.004") {
		t.Fatalf("resume: exit %d, %q %q", code, out, errs)
	}
	// --strict stops at the first capped step (10 sweeps do not reach the
	// tolerance), exit 1, with the outputs written
	code, _, errs = runCLI(t, "channel", "--preset", "tiny", "--end", "0.003", "--law", "maxdiss", "--strict", "--out", filepath.Join(dir, "strict"), "--quiet")
	if code != 1 || !strings.Contains(errs, "iteration cap") {
		t.Errorf("--strict: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "strict", "summary.json")); err != nil {
		t.Error(err)
	}
	for _, args := range [][]string{
		{"channel", "--preset", "huge"},
		{"channel", "--epsilon", "1"},
		{"channel", "--tol", "0"},
		{"channel", "--sweeps", "0"},
		{"channel", "--law", "hertz"},
		{"channel", "--resume", filepath.Join(dir, "missing.state")},
		{"bench", "channel", "--domains", "0"},
	} {
		if args[0] == "channel" {
			args = append(args, "--out", filepath.Join(dir, "bad"))
		}
		code, _, errs := runCLI(t, args...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || strings.Contains(errs, "not defined") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Error("a bad channel command wrote its directory")
	}
	// bench channel: every line BENCHMARKS.md quotes
	code, out, errs = runCLI(t, "bench", "channel", "--preset", "tiny", "--steps", "3", "--warm", "20", "--workers", "2")
	if code != 0 {
		t.Fatalf("bench channel: exit %d, %q", code, errs)
	}
	for _, want := range []string{"spheres ", "step     median", "contact updates per second per core (2 workers)", "cpu      ", "B per sphere", "peak RSS", "load average"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench channel: no %q in\n%s", want, out)
		}
	}
}

// TestPreclikBuiltins: the six-mass body and the Painlevé rod run with the
// NBGS law by default; --operator runs them with Alg. 4 instead.
func TestPreclikBuiltins(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "builtin:six_mass_drop", "--end", "0.5"},
		{"run", "builtin:painleve_rod", "--end", "0.01"},
		{"run", "builtin:painleve_rod", "--end", "0.01", "--law", "nbgs-coulomb", "--mu", "1"},
	} {
		code, out, errs := runCLI(t, append(args, "--out", dir, "--quiet")...)
		if code != 0 || !strings.Contains(out, "nbgs-") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errs)
		}
	}
	if code, out, errs := runCLI(t, "run", "builtin:painleve_rod", "--operator", "gr", "--end", "0.01", "--out", dir, "--quiet"); code != 0 || !strings.Contains(out, "gr") || strings.Contains(out, "nbgs") {
		t.Errorf("gr on the rod: exit %d, %q %q", code, out, errs)
	}
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"impactsim/output"
)

// TestPatternsCommand: a small layer (400 spheres, 2.2 drive periods at
// h = 10⁻³) writes series.csv with two samples and the three pictures; a
// bad --pattern is a usage error (exit 2).
func TestPatternsCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := cmdPatterns([]string{"--pattern", "stripes", "--n", "400", "--cycles", "2.2", "--dt", "1e-3", "--quiet", "--workers", "2", "--out", dir}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(out.String()))
	tab, err := output.ReadSeries(filepath.Join(dir, "stripes", "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Columns) != len(seriesColumns) || len(tab.Columns[0]) != 2 {
		t.Fatalf("series.csv: %d columns of %d rows, want %d columns of 2 rows", len(tab.Columns), len(tab.Columns[0]), len(seriesColumns))
	}
	if !slices.Equal(tab.Header, seriesColumns) {
		t.Errorf("series.csv header %q, want %q", tab.Header, seriesColumns)
	}
	for _, f := range []string{"top.png", "side.png", "spectrum.png", "top.gif"} {
		if st, err := os.Stat(filepath.Join(dir, "stripes", f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	err = cmdPatterns([]string{"--pattern", "triangles", "--out", dir}, &out, &errb)
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("--pattern triangles: %v, want a usage error", err)
	}
	err = cmdPatterns([]string{"--position-correction", "maybe", "--out", dir}, &out, &errb)
	if !errors.As(err, &ue) {
		t.Errorf("--position-correction maybe: %v, want a usage error", err)
	}
}

// TestPatternsCorrection: with --position-correction on the summary
// reports the correction, and the deepest floor overlap stays within the
// search's bound (2·Search + Tol = 2.51·10⁻³σ; measured 2.5·10⁻⁶σ),
// against 0.304σ without on this 900-sphere layer (0.3 cycles, h = 10⁻³).
func TestPatternsCorrection(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := cmdPatterns([]string{"--pattern", "hexagons", "--n", "900", "--cycles", "0.3", "--sample-every", "0.3", "--dt", "1e-3", "--quiet", "--out", dir, "--position-correction", "on"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(out.String())
	t.Log(line)
	var pen float64
	i := strings.Index(line, "deepest floor overlap ")
	if i < 0 || !strings.Contains(line, "position correction ") {
		t.Fatalf("summary without the correction: %s", line)
	}
	if _, err := fmt.Sscanf(line[i:], "deepest floor overlap %gσ", &pen); err != nil {
		t.Fatal(err)
	}
	if !(pen <= 2.51e-3) {
		t.Errorf("deepest floor overlap %gσ with the correction, want ≤ 2.51e-3σ", pen)
	}
}

// TestPatternsActiveRounds: --active-rounds closes the active set. On 900
// spheres at h = 10⁻³ (0.3 periods, the first landing) the summary reports
// the solves and no open step, and the deepest floor overlap is below a
// tenth of Alg. 4's (one detection) on the same run; with the position
// correction it is a usage error (exit 2).
func TestPatternsActiveRounds(t *testing.T) {
	floor := func(args ...string) (float64, string) {
		var out, errb bytes.Buffer
		a := append([]string{"--pattern", "hexagons", "--n", "900", "--cycles", "0.3", "--sample-every", "0.3", "--dt", "1e-3", "--quiet", "--out", t.TempDir()}, args...)
		if err := cmdPatterns(a, &out, &errb); err != nil {
			t.Fatal(err)
		}
		line := strings.TrimSpace(out.String())
		var pen float64
		i := strings.Index(line, "deepest floor overlap ")
		if i < 0 {
			t.Fatalf("summary without the floor overlap: %s", line)
		}
		if _, err := fmt.Sscanf(line[i:], "deepest floor overlap %gσ", &pen); err != nil {
			t.Fatal(err)
		}
		return pen, line
	}
	one, _ := floor()
	closed, line := floor("--active-rounds", "100")
	t.Log(line)
	if !strings.Contains(line, "closed active set: ") || !strings.Contains(line, ", 0 steps open at the cap") {
		t.Errorf("summary without the closed set's solves, or with open steps: %s", line)
	}
	if !(closed < one/10) {
		t.Errorf("deepest floor overlap %gσ with the closed set, %gσ with one detection: want below a tenth", closed, one)
	}
	cont, line := floor("--active-rounds", "100", "--rounds-continue")
	t.Log(line)
	if !strings.Contains(line, ", 0 steps open at the cap") || !(cont < one/10) {
		t.Errorf("--rounds-continue: deepest floor overlap %gσ (one detection %gσ), want below a tenth and no open step: %s", cont, one, line)
	}
	args := []string{"patterns", "--n", "900", "--quiet", "--out", t.TempDir(), "--active-rounds", "5", "--position-correction", "on"}
	if code, _, errs := runCLI(t, args...); code != 2 || !strings.Contains(errs, "--active-rounds 5: not with --position-correction on") {
		t.Errorf("%v: exit %d, %q, want 2 and a message about the correction", args, code, errs)
	}
	args = []string{"patterns", "--n", "900", "--quiet", "--out", t.TempDir(), "--rounds-continue"}
	if code, _, errs := runCLI(t, args...); code != 2 || !strings.Contains(errs, "--rounds-continue: expected --active-rounds above 1") {
		t.Errorf("%v: exit %d, %q, want 2 and a message about --active-rounds", args, code, errs)
	}
}

// seriesColumns is series.csv's header as patterns/doc.go documents it.
var seriesColumns = []string{"time", "cycles", "lambda_sigma", "lambda_over_H", "dispersion_lambda_over_H", "peaks", "contrast", "mean_height_sigma",
	"shell_lambda_sigma", "shell_lambda_over_H", "shell_symmetry", "shell_q2", "shell_q4", "shell_q6", "shell_contrast_sigma",
	"exact_lambda_sigma", "exact_lambda_over_H", "exact_peaks", "exact_m", "exact_n", "exact_contrast", "exact_triads"}

// TestPatternsResume: a run of 40 steps (--cycles 0.459, rounded up to
// whole steps: 0.4594 drive periods of the squares at h = 10⁻³) saved with
// --save-state and continued for 40 more with --resume ends in the state
// of one run of 80 steps, bit for bit (900 spheres, a √3/2 cell). The
// segments are a multiple of the spheres' sort
// interval (spheres.DefaultSortEvery = 20 steps, which the state file does
// not record): otherwise the resumed run reorders the spheres at other
// steps and differs by rounding. --save-state with several patterns is a
// usage error.
func TestPatternsResume(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	run := func(sub, state, resume string, cycles string) {
		t.Helper()
		args := []string{"--pattern", "squares", "--n", "900", "--aspect", "0.866", "--cycles", cycles, "--sample-every", "0.3", "--dt", "1e-3", "--quiet", "--workers", "2", "--out", filepath.Join(dir, sub), "--save-state", state}
		if resume != "" {
			args = append(args, "--resume", resume)
		}
		if err := cmdPatterns(args, &out, &errb); err != nil {
			t.Fatal(err)
		}
	}
	a, b, whole := filepath.Join(dir, "a.state"), filepath.Join(dir, "b.state"), filepath.Join(dir, "whole.state")
	run("a", a, "", "0.459")
	run("b", b, a, "0.459")
	run("whole", whole, "", "0.918")
	sb, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sb, sw) {
		t.Errorf("resumed state (%d bytes) differs from the uninterrupted run's (%d bytes)", len(sb), len(sw))
	}
	tab, err := output.ReadSeries(filepath.Join(dir, "b", "squares", "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tab.Columns[0]); n != 2 || tab.Columns[1][0] < 0.6 {
		t.Errorf("resumed series.csv: %d rows at %v cycles, want 2 rows (0.6 and 0.9 cycles)", n, tab.Columns[1])
	}
	err = cmdPatterns([]string{"--save-state", filepath.Join(dir, "x"), "--out", dir}, &out, &errb)
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("--save-state with every pattern: %v, want a usage error", err)
	}

	// --measure: the saved state (0.92 cycles) under the three measures,
	// no steps
	out.Reset()
	if err := cmdPatterns([]string{"--pattern", "squares", "--n", "900", "--aspect", "0.866", "--resume", b, "--measure", "--out", filepath.Join(dir, "m")}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	m := out.String()
	t.Log(strings.TrimSpace(m))
	if !strings.Contains(m, "squares at 0.92 cycles") || !strings.Contains(m, "ring:  λ = ") || !strings.Contains(m, "shell: λ = ") || !strings.Contains(m, "exact: λ = ") {
		t.Errorf("--measure printed %q, want the state at 0.92 cycles, a ring, a shell and an exact line", m)
	}
	if _, err := os.Stat(filepath.Join(dir, "m")); err == nil {
		t.Errorf("--measure wrote an output directory")
	}
	err = cmdPatterns([]string{"--pattern", "squares", "--measure", "--out", dir}, &out, &errb)
	if !errors.As(err, &ue) {
		t.Errorf("--measure without --resume: %v, want a usage error", err)
	}
}

// TestPhaseOf: flight below one contact per phaseContacts spheres; each
// run of steps above it is a landing up to its most contacts, then the
// compressed layer.
func TestPhaseOf(t *testing.T) {
	var recs []stepRec
	for _, c := range []int{1, 4, 6, 9, 7, 5, 2, 5, 8, 5} {
		recs = append(recs, stepRec{contacts: c})
	}
	got := fmt.Sprint(phaseOf(recs, 5*phaseContacts))
	if want := "[0 0 1 1 2 2 0 1 1 2]"; got != want {
		t.Errorf("phases %s, want %s", got, want)
	}
}

// TestBenchPatternsStepsCSV: bench patterns --steps-csv writes one row per
// timed step with the boxed LCP's sweeps apart from QCE's iterations, and
// the phase table ends with the whole run.
func TestBenchPatternsStepsCSV(t *testing.T) {
	f := filepath.Join(t.TempDir(), "steps.csv")
	var out, errb bytes.Buffer
	if err := cmdBenchPatterns([]string{"--n", "900", "--dt", "5e-4", "--operator", "qce", "--friction", "blcp", "--warm-cycles", "0", "--steps", "40", "--workers", "1", "--steps-csv", f}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	tab, err := output.ReadSeries(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Columns) != len(stepsHeader) || len(tab.Columns[0]) != 40 {
		t.Fatalf("steps.csv: %d columns of %d rows, want %d of 40", len(tab.Columns), len(tab.Columns[0]), len(stepsHeader))
	}
	most, qce := 0.0, 0.0
	for k, s := range tab.Column("sweeps") {
		most, qce = max(most, s), max(qce, tab.Column("qce_iterations")[k])
	}
	for k, r := range tab.Column("rounds") {
		if r != 1 || tab.Column("open")[k] != 0 {
			t.Fatalf("step %d: %v solves, open %v; want 1 and 0 without --active-rounds", k, r, tab.Column("open")[k])
		}
	}
	if most < 2 || qce < 1 || qce > 20 {
		t.Errorf("at most %v sweeps and %v QCE iterations per step in 40 steps of a landing layer, want the boxed LCP's sweeps (≥ 2) apart from QCE's iterations", most, qce)
	}
	if !strings.Contains(out.String(), "by phase") || !strings.Contains(out.String(), "\nall ") {
		t.Errorf("no phase table in\n%s", out.String())
	}
	// qce on the layer's e(v) with e₀ = 0.7: one warning line saying so;
	// qce_lcp applies it: none
	if w := "warning: bench patterns: operator qce is purely elastic"; strings.Count(errb.String(), w) != 1 || !strings.Contains(errb.String(), "e(v) with e₀ = 0.7 is ignored") {
		t.Errorf("want one warning %q about e(v) in stderr:\n%s", w, errb.String())
	}
	errb.Reset()
	if err := cmdBenchPatterns([]string{"--n", "900", "--dt", "5e-4", "--operator", "qce_lcp", "--friction", "blcp", "--warm-cycles", "0", "--steps", "1", "--workers", "1"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errb.String(), "warning") {
		t.Errorf("qce_lcp: unexpected warning in stderr:\n%s", errb.String())
	}
}

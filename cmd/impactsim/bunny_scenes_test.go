package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/output"
)

// TestBenchPileBunnies: bench pile --kind bunny runs Fig. 9's closed box
// once per --cor and writes the energy and cost series of every step and
// the plot; builtin:bunny_pile_N runs under `run`.
func TestBenchPileBunnies(t *testing.T) {
	if _, err := os.Stat("../../" + bunnyPath); err != nil {
		t.Skipf("shared meshes not available: %v", err)
	}
	t.Chdir("../..") // bunnyPath is relative to the repository root
	dir := t.TempDir()
	code, out, errs := runCLI(t, "bench", "pile", "--kind", "bunny", "--n", "8", "--steps", "20", "--cor", "0,1", "--mu", "0.5",
		"--operator", "grr", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if c := strings.Count(out, "| pile bunny | 8 |"); c != 2 {
		t.Errorf("%d table rows, want one per c:\n%s", c, out)
	}
	e, err := output.ReadSeries(filepath.Join(dir, "energy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cs, total := e.Column("c"), e.Column("total")
	if len(cs) != 2*21 || cs[0] != 0 || cs[21] != 1 {
		t.Fatalf("energy.csv: %d rows (c %v), want 21 per c", len(cs), cs)
	}
	for k := 1; k < 21; k++ { // c = 0: never gains energy
		if total[k] > total[k-1]+1e-12*total[0] {
			t.Errorf("c = 0: energy rose at step %d: %v → %v", k, total[k-1], total[k])
		}
	}
	c, err := output.ReadSeries(filepath.Join(dir, "costs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Column("detection_s")); n != 40 {
		t.Errorf("costs.csv: %d rows, want 40", n)
	}
	if st, err := os.Stat(filepath.Join(dir, "energy.png")); err != nil || st.Size() == 0 {
		t.Errorf("energy.png: %v", err)
	}
	code, _, errs = runCLI(t, "run", "builtin:bunny_pile_8", "--end", "0.005", "--out", filepath.Join(dir, "run"), "--quiet")
	if code != 0 {
		t.Fatalf("run builtin:bunny_pile_8: exit %d: %s", code, errs)
	}
}

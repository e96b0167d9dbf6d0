package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runDrop1000 runs builtin:drum_drop_1000 to t = 1.5 with the extra
// arguments into a temporary directory, which it returns with the
// standard error, after reading summary.json into sum.
func runDrop1000(t *testing.T, sum any, args ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	code, _, errs := runCLI(t, append([]string{"run", "builtin:drum_drop_1000", "--end", "1.5", "--quiet", "--out", dir}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, sum); err != nil {
		t.Fatal(err)
	}
	return dir, errs
}

// TestRunRedetect: --redetect on with a cap of one re-solve on the
// 1,000-ball drop: the mapping names the closure, energy.csv has its
// columns, summary.json counts the capped steps, one warning line says so;
// --redetect maybe, and --redetect on for a rigid3d scene, are usage
// errors (exit status 2).
func TestRunRedetect(t *testing.T) {
	var sum struct {
		Mapping string
		Capped  int `json:"redetect_capped_steps"`
	}
	dir, errs := runDrop1000(t, &sum, "--redetect", "on", "--redetect-rounds", "1")
	if !strings.Contains(sum.Mapping, "active set closed under v⁺ (command line): ≤ 1 re-solves") {
		t.Errorf("mapping %q", sum.Mapping)
	}
	e, err := os.ReadFile(filepath.Join(dir, "energy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.SplitN(string(e), "\n", 2)[0]; !strings.HasSuffix(h, ",redetect_rounds,redetect_added,redetect_missing") {
		t.Errorf("energy.csv header %q", h)
	}
	if sum.Capped == 0 || strings.Count(errs, "re-solve cap") != 1 {
		t.Errorf("%d capped steps; stderr %q: want some, and one warning line", sum.Capped, errs)
	}
	if code, _, errs := runCLI(t, "bench", "drum", "--n", "10", "--redetect", "maybe"); code != 2 || !strings.Contains(errs, "--redetect: expected on or off") {
		t.Errorf("--redetect maybe: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "run", "builtin:box_drop", "--end", "0.01", "--quiet", "--out", t.TempDir(), "--redetect", "on"); code != 2 || !strings.Contains(errs, "only ball2d scenes can close the active set") {
		t.Errorf("--redetect on a rigid3d scene: exit %d, %q", code, errs)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SCISim's frictional 3D scenes whose so-bogus solve reaches max_iters
// (card_house once, box_stair_case nine times in SCISim): they run to their
// end with the capped steps recorded, and --strict stops at the first one
// (impactsim's Coulomb solver, whose tol is so-bogus's error ‖FB‖²:
// card_house at step 52, box_stair_case at 3597).
const sciSim3D = "../../parity/testdata/rigidbody3d/tests_serialization/"

type cappedSummary struct {
	Steps     int     `json:"steps"`
	EndTime   float64 `json:"end_time"`
	Capped    int     `json:"capped_steps"`
	First     int     `json:"first_capped_step"`
	Worst     float64 `json:"worst_capped_residual"`
	Tolerance float64 `json:"capped_tolerance"`
	Error     string  `json:"error"`
}

func readCappedSummary(t *testing.T, dir string) cappedSummary {
	t.Helper()
	var s cappedSummary
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkCappedScene runs a scene to its end; if steps were capped, the
// summary says so consistently, stderr has one warning line, and --strict
// stops after step first−1 with exit status 1 and the last good state
// saved. (How often the cap is reached depends on the Coulomb solver; the
// numbers are logged.)
func checkCappedScene(t *testing.T, name string, steps int) {
	dir := t.TempDir()
	code, _, errs := runCLI(t, "run", sciSim3D+name+".xml", "--out", dir, "--quiet", "--frames", "10")
	s := readCappedSummary(t, dir)
	if code != 0 || s.Steps != steps || s.Error != "" {
		t.Fatalf("exit %d, summary %+v, stderr %q", code, s, errs)
	}
	t.Logf("%s: %d steps, %d capped from step %d, worst residual %.3g", name, s.Steps, s.Capped, s.First, s.Worst)
	if s.Capped == 0 {
		if errs != "" {
			t.Errorf("no capped step, yet stderr %q", errs)
		}
		return
	}
	if s.First < 1 || !(s.Worst > s.Tolerance) || s.Tolerance != 1e-12 {
		t.Errorf("summary %+v", s)
	}
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "impactsim: warning:") {
		t.Errorf("want one warning line, got %q", errs)
	}
	strict := t.TempDir()
	code, _, errs = runCLI(t, "run", sciSim3D+name+".xml", "--out", strict, "--quiet", "--frames", "10", "--strict")
	st := readCappedSummary(t, strict)
	if code != 1 || st.Steps != s.First-1 || !strings.Contains(errs, "iteration cap reached") || !strings.Contains(errs, "last good state saved") {
		t.Errorf("--strict: exit %d after %d steps, stderr %q", code, st.Steps, errs)
	}
}

func TestCappedBoxStairCase(t *testing.T) { checkCappedScene(t, "box_stair_case", 10000) }

func TestCappedCardHouse(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("long (about 10 s): set IMPACTSIM_LONG=1")
	}
	checkCappedScene(t, "card_house", 1000)
}

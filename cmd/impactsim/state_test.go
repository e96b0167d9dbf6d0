package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFilesRefused: a state file with one flipped byte, or resumed
// with another operator, is refused (exit 2); an unwritable --save-state
// and a --save-at beyond --steps are refused before the first step.
func TestStateFilesRefused(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "s.state")
	if code, _, errs := runCLI(t, "bench", "drum", "--n", "100", "--steps", "20", "--quiet", "--save-state", st, "--save-at", "20"); code != 0 {
		t.Fatal(errs)
	}
	good, err := os.ReadFile(filepath.Join(dir, "s_20.state"))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 0x10 // one bit of some ball's coordinate
	os.WriteFile(filepath.Join(dir, "bad.state"), bad, 0o644)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume", filepath.Join(dir, "bad.state")}, "checksum mismatch"},
		{[]string{"--resume", filepath.Join(dir, "s_20.state"), "--operator", "lcp"}, `written with the contact law "gr", this run uses "lcp"`},
		{[]string{"--save-state", filepath.Join(notDir, "x.state"), "--save-at", "10"}, "--save-state"},
		{[]string{"--save-state", st, "--save-at", "10,50"}, "--save-at 50 is beyond --steps 30"},
		{[]string{"--resume", filepath.Join(dir, "s_20.state"), "--save-state", st, "--save-at", "15"}, "--save-at 15 is not after the resumed step 20"},
	} {
		args := append([]string{"bench", "drum", "--n", "100", "--steps", "30", "--quiet"}, c.args...)
		code, out, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%v: exit %d, %q, stdout %q (want 2, %q and nothing run)", c.args, code, errs, out, c.want)
		}
	}
	// the channel's state files too
	ch := filepath.Join(dir, "c.state")
	if code, _, errs := runCLI(t, "channel", "--preset", "tiny", "--end", "0.0002", "--law", "maxdiss", "--quiet", "--out", filepath.Join(dir, "ch"), "--save-state", ch); code != 0 {
		t.Fatal(errs)
	}
	data, _ := os.ReadFile(ch)
	data[len(data)/2] ^= 1
	os.WriteFile(ch, data, 0o644)
	code, _, errs := runCLI(t, "channel", "--preset", "tiny", "--end", "0.0002", "--law", "maxdiss", "--quiet", "--out", filepath.Join(dir, "ch2"), "--resume", ch)
	if code != 2 || !strings.Contains(errs, "checksum mismatch") {
		t.Errorf("damaged channel state: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "channel", "--preset", "tiny", "--end", "0.0002", "--quiet", "--out", filepath.Join(dir, "ch3"), "--save-state", filepath.Join(notDir, "c.state"))
	if code != 2 || !strings.Contains(errs, "--save-state") {
		t.Errorf("unwritable channel --save-state: exit %d, %q", code, errs)
	}
}

// TestBareFileNamesGoUnderOut: README's bench commands with bare file
// names (--csv steps.csv, --save-state pile.state) write under out/, not
// into the working directory, and --resume finds the state there.
func TestBareFileNamesGoUnderOut(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, errs := runCLI(t, "bench", "drum", "--n", "50", "--steps", "10", "--quiet", "--csv", "steps.csv",
		"--save-state", "pile.state", "--save-at", "5", "--cpuprofile", "cpu.prof")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, f := range []string{"steps.csv", "pile_5.state", "cpu.prof"} {
		if _, err := os.Stat(filepath.Join(dir, "out", f)); err != nil {
			t.Errorf("out/%s: %v", f, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the working directory holds %v, want only out/", ents)
	}
	if code, _, errs := runCLI(t, "bench", "drum", "--n", "50", "--steps", "10", "--quiet", "--resume", "pile_5.state"); code != 0 {
		t.Errorf("--resume pile_5.state: %s", errs)
	}
}

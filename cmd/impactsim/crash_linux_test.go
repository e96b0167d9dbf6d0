package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"impactsim/output"
	"impactsim/runner"
)

// TestHelperProcess is not a test: it is the impactsim process the crash
// tests start (and kill), with the command line after "--" and, if set,
// IMPACTSIM_FSIZE as the largest file it may write (RLIMIT_FSIZE: a full
// disk for one file; Go ignores SIGXFSZ, so writes fail with EFBIG).
func TestHelperProcess(t *testing.T) {
	if os.Getenv("IMPACTSIM_HELPER") != "1" {
		return
	}
	if s := os.Getenv("IMPACTSIM_FSIZE"); s != "" {
		n, _ := strconv.ParseUint(s, 10, 64)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
			os.Exit(99)
		}
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

func helper(t *testing.T, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperProcess$", "--"}, args...)...)
	cmd.Env = append(append(os.Environ(), "IMPACTSIM_HELPER=1"), env...)
	return cmd
}

func readSummary(t *testing.T, dir string) *runner.Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if err != nil {
		return nil
	}
	var s runner.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("summary.json is not whole JSON: %v\n%s", err, data)
	}
	return &s
}

// TestKilledRunRenders: kill -9 at random moments of 2D and 3D runs (in a
// helper process) leaves a directory that render accepts — the scene
// description, whole frames, a whole summary.json saying "running" — and
// a re-run into it replaces every file of the old run.
func TestKilledRunRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	cases := [][]string{
		{"run", "builtin:eight_cubes", "--end", "1000", "--frames", "1000000", "--quiet"},
		{"run", "builtin:drum9x9", "--end", "1e6", "--frames", "100000000", "--quiet"},
		{"run", "builtin:eight_cubes", "--end", "1000", "--frames", "1000000", "--quiet", "--vtk"},
		// a script adds a body every 25 steps and deletes all but one
		// every 400: killed after its bodies changed
		{"run", filepath.Join("..", "..", "parity", "testdata", "rigidbody2d", "tests_python_serialization", "insertion_deletion_test.xml"),
			"--end", "1e6", "--frames", "100000000", "--quiet"},
	}
	dir := filepath.Join(t.TempDir(), "out")
	for k, args := range cases {
		cmd := helper(t, nil, append(args, "--out", dir)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// wait (without a time limit that load could break) for the run
		// to have saved its first frame, then kill it 0–300 ms later
		for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
			if s := readSummary(t, dir); s != nil && s.Frames >= 1 && s.PID == cmd.Process.Pid && (k != 3 || s.BodyChanges != nil) {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("case %d: no frame after 5 minutes", k)
			}
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		s := readSummary(t, dir)
		if s.Status != runner.StatusRunning || s.PID != cmd.Process.Pid {
			t.Errorf("case %d: summary of the killed run: status %q pid %d (helper %d)", k, s.Status, s.PID, cmd.Process.Pid)
		}
		code, out, errs := runCLI(t, "render", dir, "--width", "32", "--height", "32", "--max-frames", "2", "--no-gif", "--no-mp4", "--out", filepath.Join(dir, "render"))
		if code != 0 || !strings.Contains(out, "status running") {
			t.Fatalf("case %d (%v): render of the killed run: exit %d\n%s%s", k, args, code, out, errs)
		}
		if _, err := output.ReadSeries(filepath.Join(dir, output.EnergyFile)); err != nil {
			t.Errorf("case %d: energy.csv of the killed run: %v", k, err)
		}
		if k == 1 {
			// the 2D run replaced the 3D run's files: no scene3d.json left
			if _, err := os.Stat(filepath.Join(dir, output.Scene3DFile)); err == nil {
				t.Errorf("scene3d.json of the earlier 3D run left beside a 2D run")
			}
		}
		if k == 3 && s.BodyChanges == nil {
			t.Errorf("case 3: killed before its bodies changed")
		}
		if k == 2 {
			if _, err := os.Stat(filepath.Join(dir, "vtk", "trajectory.pvd")); err != nil {
				t.Errorf("killed VTK run has no index: %v", err)
			}
		}
	}
}

// TestFullDiskStopsAtOnce: a run whose files cannot grow past 64 KiB (a
// full disk for each file) stops at the first write that fails, within
// one step, with exit 1, the error in summary.json and the rows written
// before it intact.
func TestFullDiskStopsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts helper processes")
	}
	for _, scene := range []string{"builtin:eight_cubes", "builtin:drum9x9"} {
		dir := filepath.Join(t.TempDir(), "out")
		cmd := helper(t, []string{"IMPACTSIM_FSIZE=65536"}, "run", scene, "--end", "1000", "--quiet", "--out", dir)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s: %v\n%s", scene, err, out)
		}
		s := readSummary(t, dir)
		if s == nil || s.Status != runner.StatusFailed || !strings.Contains(s.Error, "file too large") {
			t.Fatalf("%s: summary %+v\n%s", scene, s, out)
		}
		tab, err := output.ReadSeries(filepath.Join(dir, output.EnergyFile))
		if err != nil {
			t.Fatal(err)
		}
		rows := len(tab.Column("step")) // steps 0 … rows−1 recorded
		if s.Steps > rows || s.Steps < rows-1 {
			t.Errorf("%s: the run went on to step %d after its writes failed (energy.csv has steps 0…%d)", scene, s.Steps, rows-1)
		}
	}
}

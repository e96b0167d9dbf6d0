package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"impactsim/mpi"
)

// mpiRunEnv makes the test binary, started by mpirun, run the impactsim
// command line given after "--" on its main goroutine (mpiMain).
const mpiRunEnv = "IMPACTSIM_MPI_RUN"

// mpiMain is for TestMain: in a process mpiCommand started it runs the
// command line and exits; rank mpiKillRank's process (if set) kills
// itself with SIGKILL after a while, as a crashed node would.
func mpiMain() {
	if os.Getenv(mpiRunEnv) == "" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	if k := os.Getenv("IMPACTSIM_MPI_KILL_RANK"); k != "" && k == os.Getenv("OMPI_COMM_WORLD_RANK") {
		go func() {
			time.Sleep(700 * time.Millisecond)
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}()
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

func TestMain(m *testing.M) {
	mpiMain()
	os.Exit(m.Run())
}

func mpiCommand(np int, env []string, args ...string) *exec.Cmd {
	return mpi.Command(np, append([]string{mpiRunEnv + "=1"}, env...), os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
}

func skipWithoutMPI(t *testing.T) {
	t.Helper()
	if !mpi.Enabled {
		t.Skip("MPI tests skipped: built without the MPI binding; run CGO_ENABLED=1 go test -tags mpi ./cmd/impactsim -run MPI")
	}
	if mpi.Mpirun() == "" {
		t.Skip("MPI tests skipped: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)")
	}
}

// energyPrefix is energy.csv without its timing and later columns: step,
// time, energies, momentum, contacts, iterations.
func energyPrefix(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "energy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, ",")
		b.WriteString(strings.Join(f[:min(len(f), 9)], ","))
		b.WriteByte('\n')
	}
	return b.String()
}

// mpirun -np N impactsim run writes the one-process run's trajectory.csv
// byte for byte and the same energy.csv (but for timings), on 1, 2 and 4
// ranks.
func TestMPIRunMatchesOneProcess(t *testing.T) {
	skipWithoutMPI(t)
	args := []string{"run", "builtin:drum_gas_1000", "--end", "1", "--quiet"}
	one := t.TempDir()
	if code, _, errs := runCLI(t, append(args, "--out", one)...); code != 0 {
		t.Fatalf("one process: exit %d: %s", code, errs)
	}
	traj, err := os.ReadFile(filepath.Join(one, "trajectory.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, np := range []int{1, 2, 4} {
		dir := t.TempDir()
		out, err := mpiCommand(np, nil, append(args, "--out", dir)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%d ranks: %v\n%s", np, err, out)
		}
		got, err := os.ReadFile(filepath.Join(dir, "trajectory.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, traj) {
			t.Errorf("%d ranks: trajectory.csv differs from one process's", np)
		}
		if energyPrefix(t, dir) != energyPrefix(t, one) {
			t.Errorf("%d ranks: energy.csv differs from one process's", np)
		}
	}
}

// A rank killed mid-run fails the job, and mpirun's message names the
// rank.
func TestMPIRankKilled(t *testing.T) {
	skipWithoutMPI(t)
	dir := t.TempDir()
	out, err := mpiCommand(3, []string{"IMPACTSIM_MPI_KILL_RANK=1"}, "run", "builtin:drum_gas_1000", "--end", "1000", "--quiet", "--out", dir).CombinedOutput()
	if err == nil {
		t.Fatalf("job with a killed rank succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "rank 1") {
		t.Fatalf("output does not name rank 1:\n%s", out)
	}
	t.Logf("%v\n%s", err, out)
}

// A pure-Go build started by mpirun on several ranks refuses to run
// (every process would run the whole job).
func TestPureBuildRefusesMpirun(t *testing.T) {
	if mpi.Enabled {
		t.Skip("the MPI build runs under mpirun")
	}
	t.Setenv("OMPI_COMM_WORLD_SIZE", "2")
	code, _, errs := runCLI(t, "run", "builtin:newtons_cradle", "--end", "0.1", "--quiet", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errs, "built without MPI") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// lastFrame is the last frame of a run's trajectory.csv without its frame
// number (a resumed run counts its frames from 0).
func lastFrame(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "trajectory.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	last := strings.SplitN(lines[len(lines)-1], ",", 2)[0]
	var b strings.Builder
	for _, l := range lines[1:] {
		if f := strings.SplitN(l, ",", 2); f[0] == last {
			b.WriteString(f[1] + "\n")
		}
	}
	return b.String()
}

// A checkpoint written during a run (--save-state every --save-every
// steps) resumes (--resume) to the same end state, bitwise.
func TestRunCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "ck.state")
	args := []string{"run", "builtin:drum_gas_1000", "--end", "1", "--quiet"}
	if code, _, errs := runCLI(t, append(args, "--out", filepath.Join(dir, "full"), "--save-state", ck, "--save-every", "40")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, append(args, "--out", filepath.Join(dir, "resumed"), "--resume", ck)...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	full, res := lastFrame(t, filepath.Join(dir, "full")), lastFrame(t, filepath.Join(dir, "resumed"))
	if full != res || !strings.HasPrefix(res, "1,0,") {
		t.Fatalf("resumed end state differs:\n%.200s\nfull run:\n%.200s", res, full)
	}
	code, _, errs := runCLI(t, "run", "builtin:drum_gas_1000", "--end", "0.5", "--quiet", "--out", filepath.Join(dir, "past"), "--resume", ck)
	if code != 2 || !strings.Contains(errs, "the state is at step 80") {
		t.Fatalf("resume past the end: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "run", "builtin:newtons_cradle", "--save-state", ck); code != 2 || !strings.Contains(errs, "go together") {
		t.Fatalf("--save-state alone: exit %d: %s", code, errs)
	}
}

// A checkpoint of a run on 2 ranks restarts on 4 ranks and in one plain
// process, and both reach the uninterrupted run's end state bitwise.
func TestMPICheckpointOtherRankCount(t *testing.T) {
	skipWithoutMPI(t)
	dir := t.TempDir()
	ck := filepath.Join(dir, "ck.state")
	args := []string{"run", "builtin:drum_gas_1000", "--end", "1", "--quiet"}
	if out, err := mpiCommand(2, nil, append(args, "--out", filepath.Join(dir, "full"), "--save-state", ck, "--save-every", "40")...).CombinedOutput(); err != nil {
		t.Fatalf("2 ranks: %v\n%s", err, out)
	}
	if out, err := mpiCommand(4, nil, append(args, "--out", filepath.Join(dir, "r4"), "--resume", ck)...).CombinedOutput(); err != nil {
		t.Fatalf("resume on 4 ranks: %v\n%s", err, out)
	}
	if code, _, errs := runCLI(t, append(args, "--out", filepath.Join(dir, "r1"), "--resume", ck)...); code != 0 {
		t.Fatalf("resume in one process: exit %d: %s", code, errs)
	}
	full := lastFrame(t, filepath.Join(dir, "full"))
	for _, d := range []string{"r4", "r1"} {
		if got := lastFrame(t, filepath.Join(dir, d)); got != full {
			t.Errorf("%s: end state differs from the uninterrupted run's", d)
		}
	}
}

// Bad input under mpirun (here: 4 subdomains of a three-ball cradle, each
// narrower than the interaction halo; a scene with position correction)
// is refused before anything is written: exit status 2 and one message.
func TestMPIBadInput(t *testing.T) {
	skipWithoutMPI(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "builtin:newtons_cradle", "--end", "1"}, "exceeds the subdomain width"},
		{[]string{"run", "builtin:drum_drop_1000", "--end", "1"}, "add --position-correction off"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		out, err := mpiCommand(4, nil, append(tc.args, "--quiet", "--out", dir)...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%v: got %v, want exit status 2\n%s", tc.args, err, out)
		}
		if n := strings.Count(string(out), tc.want); n != 1 {
			t.Errorf("%v: %d messages containing %q, want 1:\n%s", tc.args, n, tc.want, out)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: the run directory was created", tc.args)
		}
	}
}

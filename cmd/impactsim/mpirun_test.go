package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"impactsim/mpi"
	"impactsim/output"
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

// mpirun -np N impactsim run writes the one-process run's trajectory.csv
// byte for byte (gathered at frames) and energy.csv's step, time,
// contacts and iterations exactly, its energies and momentum (reduced
// across ranks, added in another order) to rounding, on 1, 2 and 4
// ranks; with --vtk the union of the ranks' pieces of each frame holds
// every ball once, with the one-process frame's position, velocity and
// radius bit for bit, and every index names pieces that exist.
func TestMPIRunMatchesOneProcess(t *testing.T) {
	skipWithoutMPI(t)
	args := []string{"run", "builtin:drum_gas_1000", "--end", "1", "--quiet", "--vtk", "--frames", "5"}
	one, traj := oneProcessRun(t, args)
	for _, np := range []int{1, 2, 4} {
		dir := checkMPIRun(t, np, args, one, traj)
		if np > 1 {
			checkPieces(t, np, one, dir, 6)
		}
	}
}

// oneProcessRun runs args in this process into a new directory and
// returns it and its trajectory.csv.
func oneProcessRun(t *testing.T, args []string) (string, []byte) {
	t.Helper()
	one := t.TempDir()
	if code, _, errs := runCLI(t, append(args, "--out", one)...); code != 0 {
		t.Fatalf("one process: exit %d: %s", code, errs)
	}
	traj, err := os.ReadFile(filepath.Join(one, "trajectory.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return one, traj
}

// checkMPIRun runs args on np mpirun ranks into a new directory, which it
// returns, and checks its trajectory.csv against one process's traj byte
// for byte and its energy.csv against the one in directory one
// (checkEnergyRounding).
func checkMPIRun(t *testing.T, np int, args []string, one string, traj []byte) string {
	t.Helper()
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
	checkEnergyRounding(t, np, one, dir)
	return dir
}

// checkEnergyRounding compares energy.csv of a run across ranks with one
// process's: step, time, contacts and iterations equal, energies and
// momentum within 1e-13 of the column's largest magnitude (sums of 1,000
// terms in another order).
func checkEnergyRounding(t *testing.T, np int, one, dir string) {
	t.Helper()
	a, b := readCSV(t, filepath.Join(one, "energy.csv")), readCSV(t, filepath.Join(dir, "energy.csv"))
	if len(a) != len(b) {
		t.Fatalf("%d ranks: energy.csv has %d rows, one process %d", np, len(b), len(a))
	}
	scale := make([]float64, 9)
	for _, r := range a {
		for j := 2; j < 7; j++ {
			scale[j] = max(scale[j], math.Abs(r[j]))
		}
	}
	worst := 0.0
	for i := range a {
		for j := 0; j < 9; j++ {
			d := math.Abs(a[i][j] - b[i][j])
			if j >= 2 && j < 7 {
				if scale[j] > 0 {
					worst = max(worst, d/scale[j])
				}
				if d > 1e-13*scale[j] {
					t.Fatalf("%d ranks: energy.csv row %d column %d: %v, one process %v", np, i, j, b[i][j], a[i][j])
				}
			} else if d != 0 {
				t.Fatalf("%d ranks: energy.csv row %d column %d: %v, one process %v", np, i, j, b[i][j], a[i][j])
			}
		}
	}
	t.Logf("%d ranks: energies and momentum within %.2g of their scale", np, worst)
}

func readCSV(t *testing.T, path string) [][]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r []float64
		for _, f := range strings.Split(l, ",") {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				x = math.NaN()
			}
			r = append(r, x)
		}
		rows = append(rows, r)
	}
	return rows
}

// checkPieces checks the VTK pieces of frames 0..frames−1 of a run on np
// ranks against the one-process run's frames.
func checkPieces(t *testing.T, np int, one, dir string, frames int) {
	t.Helper()
	pvd, err := os.ReadFile(filepath.Join(dir, "vtk", "trajectory.pvd"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pvd), ".pvtp\""); n != frames {
		t.Fatalf("%d ranks: trajectory.pvd lists %d indexes, want %d", np, n, frames)
	}
	for k := 0; k < frames; k++ {
		ref := readVTP(t, filepath.Join(one, "vtk", fmt.Sprintf("frame_%05d.vtp", k)))
		n := len(ref["radius"])
		idx, err := os.ReadFile(filepath.Join(dir, "vtk", fmt.Sprintf("frame_%05d.pvtp", k)))
		if err != nil {
			t.Fatal(err)
		}
		if c := strings.Count(string(idx), "<Piece "); c != np {
			t.Fatalf("%d ranks: frame %d index names %d pieces", np, k, c)
		}
		seen := make([]bool, n)
		for r := 0; r < np; r++ {
			name := output.PieceFile(k, r)
			if !strings.Contains(string(idx), `Source="`+name+`"`) {
				t.Fatalf("%d ranks: frame %d index does not name %s", np, k, name)
			}
			p := readVTP(t, filepath.Join(dir, "vtk", name))
			for i, x := range p["id"] {
				id := int(x)
				if float64(id) != x || id < 0 || id >= n || seen[id] {
					t.Fatalf("%d ranks: frame %d piece %d: ball id %v out of range or held twice", np, k, r, x)
				}
				seen[id] = true
				for c := 0; c < 3; c++ {
					if p["Points"][3*i+c] != ref["Points"][3*id+c] || p["velocity"][3*i+c] != ref["velocity"][3*id+c] {
						t.Fatalf("%d ranks: frame %d ball %d differs from one process's", np, k, id)
					}
				}
				if p["radius"][i] != ref["radius"][id] {
					t.Fatalf("%d ranks: frame %d ball %d radius differs", np, k, id)
				}
			}
		}
		for id, ok := range seen {
			if !ok {
				t.Fatalf("%d ranks: frame %d: ball %d in no piece", np, k, id)
			}
		}
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, "vtk", "*.tmp"))
	if len(tmp) > 0 {
		t.Fatalf("%d ranks: temporary files left: %v", np, tmp)
	}
}

// readVTP returns the Float64 arrays of a binary .vtp file by name
// (WriteVTP's inline base64: a padded 8-byte length, then the values).
func readVTP(t *testing.T, path string) map[string][]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	s := string(data)
	for {
		i := strings.Index(s, `<DataArray type="Float64" Name="`)
		if i < 0 {
			return out
		}
		s = s[i+len(`<DataArray type="Float64" Name="`):]
		name := s[:strings.Index(s, `"`)]
		s = s[strings.Index(s, ">")+1:]
		body := strings.TrimSpace(s[:strings.Index(s, "</DataArray>")])
		raw, err := base64.StdEncoding.DecodeString(body[12:])
		if err != nil {
			t.Fatalf("%s: array %s: %v", path, name, err)
		}
		v := make([]float64, len(raw)/8)
		for j := range v {
			v[j] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*j:]))
		}
		out[name] = v
	}
}

// A rank killed mid-run fails the job, and mpirun's message names the
// rank; of the VTK frames it was writing (one per step), every index in
// trajectory.pvd exists and names only whole pieces.
func TestMPIRankKilled(t *testing.T) {
	skipWithoutMPI(t)
	dir := t.TempDir()
	out, err := mpiCommand(3, []string{"IMPACTSIM_MPI_KILL_RANK=1"}, "run", "builtin:drum_gas_1000", "--end", "1000", "--quiet", "--vtk", "--frames", "100000", "--out", dir).CombinedOutput()
	if err == nil {
		t.Fatalf("job with a killed rank succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "rank 1") {
		t.Fatalf("output does not name rank 1:\n%s", out)
	}
	t.Logf("%v\n%s", err, out)
	vtk := filepath.Join(dir, "vtk")
	pvd, err := os.ReadFile(filepath.Join(vtk, "trajectory.pvd"))
	if err != nil {
		t.Fatalf("no trajectory.pvd: %v", err)
	}
	frames := 0
	for _, l := range strings.Split(string(pvd), "\n") {
		_, f, ok := strings.Cut(l, `file="`)
		if !ok {
			continue
		}
		f = f[:strings.Index(f, `"`)]
		idx, err := os.ReadFile(filepath.Join(vtk, f))
		if err != nil {
			t.Fatalf("trajectory.pvd lists %s: %v", f, err)
		}
		pieces := 0
		for _, pl := range strings.Split(string(idx), "\n") {
			if _, src, ok := strings.Cut(pl, `Source="`); ok {
				p := readVTP(t, filepath.Join(vtk, src[:strings.Index(src, `"`)]))
				pieces++
				if len(p["id"]) != len(p["radius"]) || 3*len(p["id"]) != len(p["Points"]) {
					t.Fatalf("%s: piece %s is not whole", f, src)
				}
			}
		}
		if pieces != 3 {
			t.Fatalf("%s names %d pieces, want 3", f, pieces)
		}
		frames++
	}
	t.Logf("%d frames listed, each with its 3 whole pieces", frames)
}

// A pure-Go build started by mpirun on several ranks refuses to run
// (every process would run the whole job).
func TestPureBuildRefusesMpirun(t *testing.T) {
	if mpi.Enabled {
		t.Skip("the MPI build runs under mpirun")
	}
	t.Setenv("OMPI_COMM_WORLD_SIZE", "2")
	for _, args := range [][]string{
		{"run", "builtin:newtons_cradle", "--end", "0.1"},
		{"patterns", "--pattern", "hexagons", "--n", "900", "--cycles", "0.1"},
		{"channel", "--preset", "tiny", "--end", "0.0001"},
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, _, errs := runCLI(t, append(args, "--quiet", "--out", out)...)
		if code != 2 || !strings.Contains(errs, args[0]+": started by mpirun on 2 ranks, but this impactsim was built without MPI") {
			t.Errorf("%s: exit %d: %s", args[0], code, errs)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: the output directory was created", args[0])
		}
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
		{[]string{"run", "builtin:drum_drop_1000", "--end", "1"}, "add --position-correction off --mirror-order off"},
		{[]string{"run", "builtin:drum_drop_1000", "--end", "1", "--position-correction", "off"}, "add --mirror-order off"},
	} {
		checkMPIRefused(t, 4, append(tc.args, "--quiet"), tc.want)
	}
}

// checkMPIRefused runs args (without --out) on np mpirun ranks and checks
// that the job is refused: exit status 2, exactly one message containing
// want, and no output directory created.
func checkMPIRefused(t *testing.T, np int, args []string, want string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	out, err := mpiCommand(np, nil, append(append([]string{}, args...), "--out", dir)...).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("%v: got %v, want exit status 2\n%s", args, err, out)
	}
	if n := strings.Count(string(out), want); n != 1 {
		t.Errorf("%v: %d messages containing %q, want 1:\n%s", args, n, want, out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%v: the run directory was created", args)
	}
}

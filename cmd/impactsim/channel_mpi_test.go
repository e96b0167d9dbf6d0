package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"impactsim/channelflow"
	"impactsim/mpi"
	"impactsim/output"
)

// channelMPIArgs is the channel the MPI tests run: the tiny preset for
// 200 steps (spheres leave through the outflow from about step 50, a
// layer is spawned at step 94), one law, VTK every 100 steps.
var channelMPIArgs = []string{"channel", "--preset", "tiny", "--law", "maxdiss", "--end", "0.002", "--quiet", "--vtk", "--vtk-every", "100"}

// In the default build `channel --mpi-sweeps` runs the decomposed flow
// on one rank (summary.json records the ranks), and the MPI flags'
// bad combinations are refused with exit status 2 before anything is
// written.
func TestChannelMPISweepsOneRank(t *testing.T) {
	if mpi.Enabled {
		t.Skip("the MPI build initialises MPI once per process: TestMPIChannel runs this path under mpirun")
	}
	out := filepath.Join(t.TempDir(), "c")
	if code, _, errs := runCLI(t, "channel", "--preset", "tiny", "--law", "maxdiss", "--end", "0.0003", "--quiet", "--mpi-sweeps", "pe", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sum struct {
		Ranks map[string]any `json:"ranks"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil || sum.Ranks["ranks"] != 1.0 {
		t.Errorf("summary.json ranks entry %v (%v), want 1 rank", sum.Ranks, err)
	}
	code, stdout, errs := runCLI(t, "bench", "channel", "--preset", "tiny", "--steps", "3", "--mpi-sweeps", "colours")
	if code != 0 || !strings.Contains(stdout, "rank 0 ") || !strings.Contains(stdout, "sweeps per step") {
		t.Errorf("bench channel --mpi-sweeps colours: exit %d, %s%s", code, stdout, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mpi-sweeps", "red"}, "expected colours or pe"},
		{[]string{"--mpi-sweeps", "colours", "--blocks", "3,2,1"}, "expected 1 or an even count"},
		{[]string{"--mpi-sweeps", "colours", "--blocks", "8,4"}, "expected NX,NY,NZ"},
		{[]string{"--mpi-sweeps", "pe", "--blocks", "8,4,1"}, "--blocks is for --mpi-sweeps colours"},
		{[]string{"--blocks", "8,4,1"}, "are for the flow across MPI ranks"},
		{[]string{"--mpi-sweeps", "pe", "--dims", "2,1,1"}, "2 subdomains for 1 ranks"},
		{[]string{"--mpi-sweeps", "pe", "--dims", "0,1,1"}, "expected a count ≥ 1"},
		{[]string{"--mpi-sweeps", "pe", "--domains", "4"}, "the ranks are the domains"},
	} {
		out := filepath.Join(t.TempDir(), "c")
		code, _, errs := runCLI(t, append([]string{"channel", "--preset", "tiny", "--end", "0.0001", "--quiet", "--out", out}, tc.args...)...)
		if code != 2 || strings.Count(errs, tc.want) != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one message containing %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: the output directory was created", tc.args)
		}
	}
}

// mpirun -np N impactsim channel (colour sweeps, the default) on 1, 2 and
// 4 ranks: the final states (--save-state: step, random source, every
// sphere by ID, planes, next ID) are byte for byte the same; samples.csv
// is the same except the kinetic energy, summed per rank and over the
// ranks in rank order (to 1e-13 relative); the maps and the RDF from the
// gathered state are the same bytes; every VTK frame's pieces hold every
// sphere once. A run of 100 steps on 2 ranks, checkpointed and resumed
// for 100 on 4 ranks, ends in the same state file as 200 steps on one
// rank. With the sweeps converged (tolerance 1e-10, cap 2000) both modes
// on 2 and 4 ranks stay within 100 tol of one process's velocities after
// 40 steps (measured: colours 0.16 tol, pe 0.04 and 2.0 tol). --domains
// is refused (exit 2, one message, nothing written).
func TestMPIChannel(t *testing.T) {
	skipWithoutMPI(t)
	dir := t.TempDir()
	run := func(np int, name string, extra ...string) (state []byte) {
		t.Helper()
		out, ck := filepath.Join(dir, name), filepath.Join(dir, name+".state")
		args := append(append(append([]string{}, channelMPIArgs...), "--out", out, "--save-state", ck), extra...)
		if b, err := mpiCommand(np, nil, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s on %d ranks: %v\n%s", name, np, err, b)
		}
		state, err := os.ReadFile(ck)
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	ref := run(1, "np1", "--mpi-sweeps", "colours")
	refSamples := readCSV(t, filepath.Join(dir, "np1", "samples.csv"))
	for _, np := range []int{2, 4} {
		name := "np" + string(rune('0'+np))
		if state := run(np, name); !bytes.Equal(state, ref) {
			t.Errorf("%d ranks: the final state differs from one rank's; want the same bytes", np)
		}
		samples := readCSV(t, filepath.Join(dir, name, "samples.csv"))
		if len(samples) != len(refSamples) || len(samples) != 2 {
			t.Fatalf("%d ranks: %d samples, one rank %d, want 2", np, len(samples), len(refSamples))
		}
		for i, r := range samples {
			for j, v := range r {
				w := refSamples[i][j]
				if j < 7 && v != w || math.Abs(v-w) > 1e-13*math.Abs(w) {
					t.Errorf("%d ranks: samples.csv row %d column %d: %v, one rank %v", np, i+1, j, v, w)
				}
			}
		}
		for _, f := range []string{"speed.csv", "omega.csv", "rdf.csv"} {
			a, _ := os.ReadFile(filepath.Join(dir, "np1", f))
			b, err := os.ReadFile(filepath.Join(dir, name, f))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%d ranks: %s differs from one rank's (%v)", np, f, err)
			}
		}
		for k := 0; k < 2; k++ {
			var ids []float64
			for r := 0; r < np; r++ {
				ids = append(ids, readVTP(t, filepath.Join(dir, name, "vtk", output.PieceFile(k, r)))["id"]...)
			}
			n := len(ids)
			slices.Sort(ids)
			if n < 700 || len(slices.Compact(ids)) != n {
				t.Errorf("%d ranks, frame %d: the pieces hold %d spheres, with repeats or too few", np, k, n)
			}
			if _, err := os.Stat(filepath.Join(dir, name, "vtk", "frame_0000"+string(rune('0'+k))+".pvtp")); err != nil {
				t.Error(err)
			}
		}
	}
	// restart on another rank count
	half := append(append([]string{}, channelMPIArgs...), "--end", "0.001", "--out", filepath.Join(dir, "h2"), "--save-state", filepath.Join(dir, "h2.state"))
	if b, err := mpiCommand(2, nil, half...).CombinedOutput(); err != nil {
		t.Fatalf("first half on 2 ranks: %v\n%s", err, b)
	}
	if state := run(4, "h4", "--end", "0.001", "--resume", filepath.Join(dir, "h2.state")); !bytes.Equal(state, ref) {
		t.Errorf("100 steps on 2 ranks, then 100 on 4 from the checkpoint: the state differs from 200 steps on one rank")
	}
	run(2, "pe", "--mpi-sweeps", "pe")
	// both modes against one process with the sweeps converged (tolerance
	// 1e-10, cap 2000): velocities (v and rω) within 100 tol after 40 steps
	conv := []string{"--end", "0.0004", "--tol", "1e-10", "--sweeps", "2000", "--vtk=false"}
	oneCk := filepath.Join(dir, "one.state")
	if code, _, errs := runCLI(t, append(append(append([]string{}, channelMPIArgs...), conv...), "--out", filepath.Join(dir, "one"), "--save-state", oneCk)...); code != 0 {
		t.Fatalf("one process: exit %d: %s", code, errs)
	}
	one := readChannelState(t, oneCk)
	for _, mode := range []string{"colours", "pe"} {
		for _, np := range []int{2, 4} {
			name := fmt.Sprintf("conv_%s_%d", mode, np)
			run(np, name, append(append([]string{}, conv...), "--mpi-sweeps", mode)...)
			got := readChannelState(t, filepath.Join(dir, name+".state"))
			dv, err := channelVelocityDiff(one, got)
			if err != nil || dv > 100*1e-10 {
				t.Errorf("%s on %d ranks: |Δv| %.3g from one process (%v), want ≤ 100 × 1e-10", mode, np, dv, err)
			}
			t.Logf("%s on %d ranks: |Δv| %.3g = %.3g tol from one process after 40 steps", mode, np, dv, dv/1e-10)
		}
	}
	b, err := mpiCommand(2, nil, "bench", "channel", "--preset", "tiny", "--steps", "3").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "rank 1 ") || !strings.Contains(string(b), "distributed NBGS colours") {
		t.Errorf("bench channel on 2 ranks: %v\n%s", err, b)
	}
	checkMPIRefused(t, 2, []string{"channel", "--preset", "tiny", "--end", "0.001", "--quiet", "--domains", "4"}, "the ranks are the domains")
}

// readChannelState reads a tiny channel's state file.
func readChannelState(t *testing.T, path string) *channelflow.Flow {
	t.Helper()
	f, err := channelflow.New(channelflow.Tiny())
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := f.ReadState(r); err != nil {
		t.Fatal(err)
	}
	return f
}

// channelVelocityDiff is the largest difference of two flows' sphere
// velocities (v and rω), matched by ID; an error when they hold other
// spheres.
func channelVelocityDiff(a, b *channelflow.Flow) (float64, error) {
	at := map[int64]int{}
	for i, id := range a.Sys.ID {
		at[id] = i
	}
	if len(at) != b.Sys.N() {
		return 0, fmt.Errorf("%d spheres vs %d", len(at), b.Sys.N())
	}
	d := 0.0
	for j, id := range b.Sys.ID {
		i, ok := at[id]
		if !ok {
			return 0, fmt.Errorf("sphere %d only in one flow", id)
		}
		r := a.Sys.R[i]
		for k := 0; k < 3; k++ {
			d = math.Max(d, math.Abs(a.Sys.VW[6*i+k]-b.Sys.VW[6*j+k]))
			d = math.Max(d, r*math.Abs(a.Sys.VW[6*i+3+k]-b.Sys.VW[6*j+3+k]))
		}
	}
	return d, nil
}

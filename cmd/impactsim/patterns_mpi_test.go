package main

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"impactsim/mpi"
	"impactsim/par"
	"impactsim/patterns"
)

// The small layer of the across-ranks tests: 900 spheres (12.9σ × 12.9σ,
// 2 × 2 subdomains of 6.5σ), half a drive period (103 steps of GR + Alg. 3),
// sampled every quarter period. It is the first sessions' layer (H =
// 5.4σ, 5.4 spheres per σ²), whose half period of 102.9 steps rounds to
// 103 steps that reach the second sample (Bizon et al.'s H = 5.42σ makes
// it 103.1 steps: one sample).
var patternsMPIArgs = []string{"patterns", "--pattern", "hexagons", "--n", "900", "--depth", "5.4", "--per-area", "5.4", "--cycles", "0.5", "--sample-every", "0.25", "--quiet"}

// readLayerState reads a state file of the small layer.
func readLayerState(t *testing.T, data []byte) *patterns.Layer {
	t.Helper()
	c := patterns.DefaultConfig(patterns.Fig12[0])
	c.N, c.Depth, c.PerArea = 900, 5.4, 5.4
	y, err := patterns.New(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := y.ReadState(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	return y
}

// layerDiff is the largest difference of two layer states, sphere by
// sphere (matched by ID), relative to each quantity's largest magnitude:
// centres (across the periodic cell: x and x ± L are the same point),
// velocities and spins; and the floor's height. It fails the test when
// the times or step counts differ.
func layerDiff(t *testing.T, a, b *patterns.Layer) float64 {
	t.Helper()
	if a.T != b.T || a.N != b.N {
		t.Fatalf("states at t = %v (step %d) and t = %v (step %d)", a.T, a.N, b.T, b.N)
	}
	sa, sb := a.Sys, b.Sys
	at := make([]int, sa.N())
	for i, id := range sb.ID {
		at[id] = i
	}
	lx, ly := a.Cfg.Sides()
	var xmax, vmax float64
	for i := range sa.X {
		xmax = math.Max(xmax, math.Abs(sa.X[i]))
	}
	for i := range sa.VW {
		vmax = math.Max(vmax, math.Abs(sa.VW[i]))
	}
	worst := math.Abs(sa.Planes[0].P[2]-sb.Planes[0].P[2]) / xmax
	for i, id := range sa.ID {
		j := at[id]
		for d := 0; d < 3; d++ {
			e := math.Abs(sa.X[3*i+d] - sb.X[3*j+d])
			if d < 2 {
				l := []float64{lx, ly}[d]
				e = math.Min(e, math.Abs(e-l))
			}
			worst = math.Max(worst, e/xmax)
		}
		for d := 0; d < 6; d++ {
			worst = math.Max(worst, math.Abs(sa.VW[6*i+d]-sb.VW[6*j+d])/vmax)
		}
	}
	return worst
}

// The layer split over goroutine ranks (the code path of patterns under
// mpirun: setupPatternsMPI, layerRanks as the layer's Remote) takes the
// one-process run's steps: the states after 103 steps are bitwise equal
// on 2 and 4 ranks and equal to one process's to 1e-12 (the one process
// orders its contacts by the broad phase's grid and forms periodic
// separations as x_i − x_j + L, the ranks in canonical order and with
// images x_i − (x_j − L): rounding, 1e-15 here).
func TestPatternsAcrossGoroutineRanks(t *testing.T) {
	var o patternOpts
	fs := newFlags("patterns")
	o.register(fs, "all")
	if err := fs.Parse(patternsMPIArgs[1:9]); err != nil {
		t.Fatal(err)
	}
	pts, err := o.points("patterns")
	if err != nil {
		t.Fatal(err)
	}
	ro := patterns.RunOptions{Cycles: 0.5, SampleEvery: 0.25}
	one, err := o.layer("patterns", pts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	resOne, err := one.Run(ro)
	if err != nil {
		t.Fatal(err)
	}
	var states [][]byte
	for _, np := range []int{2, 4} {
		var state bytes.Buffer
		var res patterns.Result
		err := mpi.RunLocal(np, func(c mpi.Comm) error {
			pool := par.New(1)
			defer pool.Close()
			y, d, _, err := setupPatternsMPI(c, &o, pts, patternsRun{}, pool, io.Discard)
			if err != nil {
				return err
			}
			y.Remote = &layerRanks{d: d, rank: c.Rank()}
			r, err := y.Run(ro)
			if err != nil || c.Rank() != 0 {
				return err
			}
			res = r
			return y.WriteState(&state)
		})
		if err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
		if len(res.Samples) != len(resOne.Samples) || len(res.Samples) != 2 {
			t.Fatalf("%d ranks: %d samples, one process %d, want 2", np, len(res.Samples), len(resOne.Samples))
		}
		y := readLayerState(t, state.Bytes())
		diff := layerDiff(t, one, y)
		t.Logf("%d ranks: state after %d steps differs from one process's by %.3g (relative)", np, y.N, diff)
		if diff > 1e-12 || y.N != 103 {
			t.Errorf("%d ranks: difference %.3g from one process after %d steps, want ≤ 1e-12 after 103", np, diff, y.N)
		}
		states = append(states, state.Bytes())
	}
	if !bytes.Equal(states[0], states[1]) {
		t.Errorf("the states on 2 and 4 ranks differ; want them bitwise equal")
	}
}

// mpirun -np N impactsim patterns writes one process's results: on 1 rank
// (the one-process path) the same state file, series.csv and pictures
// byte for byte; on 2 and 4 ranks a state bitwise equal between them and
// within 1e-12 of one process's (rounding, see the goroutine test), and
// series.csv with the same rows to 1e-12 of each column's magnitude. Bad
// combinations are refused with exit status 2 and one message, before
// anything is written.
func TestMPIPatterns(t *testing.T) {
	skipWithoutMPI(t)
	dir := t.TempDir()
	run1 := func(name string, np int) (state []byte, series [][]float64) {
		out, ck := filepath.Join(dir, name), filepath.Join(dir, name+".state")
		args := append(append([]string{}, patternsMPIArgs...), "--out", out, "--save-state", ck)
		if np == 0 {
			if code, _, errs := runCLI(t, args...); code != 0 {
				t.Fatalf("one process: exit %d: %s", code, errs)
			}
		} else if b, err := mpiCommand(np, nil, args...).CombinedOutput(); err != nil {
			t.Fatalf("%d ranks: %v\n%s", np, err, b)
		}
		for _, f := range []string{"top.png", "side.png", "spectrum.png", "top.gif"} {
			if _, err := os.Stat(filepath.Join(out, "hexagons", f)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		state, err := os.ReadFile(ck)
		if err != nil {
			t.Fatal(err)
		}
		return state, readCSV(t, filepath.Join(out, "hexagons", "series.csv"))
	}
	oneState, oneSeries := run1("one", 0)
	one := readLayerState(t, oneState)
	var states [][]byte
	for _, np := range []int{1, 2, 4} {
		name := "np" + string(rune('0'+np))
		state, series := run1(name, np)
		if np == 1 {
			if !bytes.Equal(state, oneState) {
				t.Errorf("1 rank: the state differs from one process's; want the same bytes")
			}
		} else {
			states = append(states, state)
		}
		y := readLayerState(t, state)
		diff := layerDiff(t, one, y)
		t.Logf("%d ranks: state after %d steps differs from one process's by %.3g (relative)", np, y.N, diff)
		if diff > 1e-12 {
			t.Errorf("%d ranks: difference %.3g from one process, want ≤ 1e-12", np, diff)
		}
		if len(series) != len(oneSeries) || len(series) != 2 {
			t.Fatalf("%d ranks: series.csv has %d rows, one process %d, want 2", np, len(series), len(oneSeries))
		}
		for i, r := range series {
			for j, v := range r {
				w := oneSeries[i][j]
				if math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(w)) {
					t.Errorf("%d ranks: series.csv row %d column %d: %v, one process %v", np, i+1, j, v, w)
				}
			}
		}
	}
	if !bytes.Equal(states[0], states[1]) {
		t.Errorf("the states on 2 and 4 ranks differ; want them bitwise equal")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--position-correction", "on"}, "add --position-correction off"},
		{[]string{"--friction", "blcp"}, "is not run across ranks"},
		{[]string{"--operator", "qce"}, "is not run across ranks"},
	} {
		checkMPIRefused(t, 2, append(append([]string{}, patternsMPIArgs...), tc.args...), tc.want)
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"impactsim/scenario"
	"impactsim/scene"
)

// minAvgMax accumulates a per-step quantity.
type minAvgMax struct {
	min, max, sum float64
	n             int
}

func (m *minAvgMax) add(x float64) {
	if m.n == 0 || x < m.min {
		m.min = x
	}
	if m.n == 0 || x > m.max {
		m.max = x
	}
	m.sum += x
	m.n++
}

func (m *minAvgMax) avg() float64 {
	if m.n == 0 {
		return 0
	}
	return m.sum / float64(m.n)
}

// cmdBench runs `bench drum`: the drum scenes of Table 2 of Smith et al.
// 2012 with per-step timings in the table's layout.
func cmdBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "pile" {
		return cmdBenchPile(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "drum" {
		return badInput("bench: expected 'bench drum [--n N] [--mode drop|gas] [--steps S] [--operator NAME]' or 'bench pile [--kind box|mesh] [--n N] [--steps S]'")
	}
	fs := newFlags("bench drum")
	n := fs.Int("n", 1000, "number of balls")
	mode := fs.String("mode", "drop", "drop (from rest under gravity) or gas (random unit velocities)")
	steps := fs.Int("steps", 1000, "number of steps")
	from := fs.Int("from", 0, "first step to include in the statistics")
	op := fs.String("operator", "gr", "impact operator")
	solver := fs.String("solver", "", "QP solver (auto, dense, sparse)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	memprofile := fs.String("memprofile", "", "write a heap profile (go tool pprof) at the end of the run to this file")
	workers := fs.Int("workers", 0, "goroutines of the step loop (0: GOMAXPROCS); results do not depend on it")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("bench drum: unexpected argument %q", pos[0])
	}
	if *n < 1 || *steps < 1 || *from < 0 || *from >= *steps {
		return badInput("bench drum: need --n ≥ 1, --steps ≥ 1 and 0 ≤ --from < --steps")
	}
	if *mode != "drop" && *mode != "gas" {
		return badInput("bench drum: --mode: expected drop or gas, got %q", *mode)
	}
	if os.Getenv("GOGC") == "" {
		// The step loop allocates nothing in steady state, so collections
		// are rare (they happen while the workspaces grow with the contact
		// count) and a small heap headroom costs no time but keeps the peak
		// RSS near the live heap (100K drop pile: 94–96 MiB at 20, 84 MiB
		// at 10).
		debug.SetGCPercent(10)
	}
	sc := scene.DrumGrid(*n, *mode, 1)
	sc.Source = fmt.Sprintf("builtin:drum_%s_%d", *mode, *n)
	r, err := scenario.NewBall2D(sc, scenario.Options{Operator: *op, Solver: *solver, Workers: benchWorkers(*workers)})
	if err != nil {
		return usageError{err}
	}
	defer r.Close()
	// The stepper keeps its own copy of the state and the system its own
	// ball arrays; the scene's ball list and the system's initial state are
	// not read again, so let them go (about 100 bytes per ball).
	sc.Balls = nil
	r.Sys.Q, r.Sys.V = nil, nil
	st := r.Stepper
	var integ, detect, imp, iters, cons minAvgMax
	prog := progress(stderr, *quiet, float64(*steps), "bench "+sc.Source)
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	start := time.Now()
	for i := 0; i < *steps; i++ {
		if err := st.Step(); err != nil {
			return err
		}
		prog.Update(float64(i + 1))
		if i < *from {
			continue
		}
		l := st.Last
		integ.add(l.Integration.Seconds())
		detect.add(l.Detection.Seconds())
		imp.add(l.Impact.Seconds())
		iters.add(float64(l.Law.Iterations))
		cons.add(float64(l.Contacts))
	}
	prog.Finish()
	wall := time.Since(start).Seconds()
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return usageError{err}
		}
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "drum %s, %d balls, operator %s (%s), steps %d–%d of %d, h = %g, wall %.2f s, %s, %d cores (GOMAXPROCS %d), %d workers, peak RSS %s\n\n",
		*mode, *n, r.Law.Name(), r.Mapping, *from+1, *steps, *steps, st.H, wall, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), r.Pool.Workers(), peakRSS())
	fmt.Fprintln(stdout, "| scene | balls | integration avg / max / min (s) | detection avg / max / min (s) | impact avg / max / min (s) | iterations min / avg / max | constraints min / avg / max |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
	f := func(m minAvgMax) string { return fmt.Sprintf("%.3g / %.3g / %.3g", m.avg(), m.max, m.min) }
	g := func(m minAvgMax) string { return fmt.Sprintf("%.0f / %.1f / %.0f", m.min, m.avg(), m.max) }
	fmt.Fprintf(stdout, "| %s | %d | %s | %s | %s | %s | %s |\n", *mode, *n, f(integ), f(detect), f(imp), g(iters), g(cons))
	return nil
}

// cpuModel reads the CPU model name from /proc/cpuinfo when available.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// peakRSS reads the peak resident set size (VmHWM) from /proc/self/status.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 {
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
					return fmt.Sprintf("%.1f MiB", kb/1024)
				}
			}
		}
	}
	return "unknown"
}

// benchWorkers maps --workers (0: all, GOMAXPROCS) onto scenario.Options.Workers.
func benchWorkers(w int) int {
	if w <= 0 {
		return -1
	}
	return w
}

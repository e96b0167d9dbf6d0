package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"impactsim/impact"
	"impactsim/output"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
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

// cmdBenchDrum runs `bench drum`: the drum scenes of Table 2 of Smith et
// al. 2012 with per-step timings in the table's layout.
func cmdBenchDrum(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench drum")
	n := countMemory(fs, "n", 1000, 1, 1<<40, 900, "ball", "number of balls")
	mode := fs.String("mode", "drop", "`drop|gas`: from rest under gravity, or random unit velocities")
	steps := count(fs, "steps", 1000, 1, 1e9, "number of steps")
	from := count(fs, "from", 0, 0, 1e9, "first step to include in the statistics")
	op := fs.String("operator", "gr", "impact operator, or a comma-separated list run one after the other on the same scene (one table row each)")
	solver := fs.String("solver", "", "QP solver: `auto|dense|sparse|interior`")
	cor := fs.Float64("cor", 1, "coefficient of restitution of every contact (Table 2 of the paper: 1)")
	warm := fs.Bool("warm-start", false, "start island solves from the contacts' impulses at the previous two steps")
	quiet := fs.Bool("quiet", false, "no progress bar")
	cpuprofile := outFile(fs, "cpuprofile", "write a CPU profile (go tool pprof) to this file")
	memprofile := outFile(fs, "memprofile", "write a heap profile (go tool pprof) at the end of the run to this file")
	workers := count(fs, "workers", 0, 0, maxWorkers, "goroutines of the step loop (0: GOMAXPROCS); results do not depend on it")
	csvPath := outFile(fs, "csv", "write one line per step (timings, constraints, iterations, largest island and its solver) to this file as the run goes, so a long run can be measured in part")
	savePath := outFile(fs, "save-state", "write the state (step, t, q, v, bit for bit) after the steps of --save-at to this file, with _STEP inserted before its extension")
	saveAt := fs.String("save-at", "", "comma-separated step numbers at which --save-state writes")
	resume := inFile(fs, "resume", "start from a state written by --save-state for the same --n and --mode (--steps and --from count from step 0, not from the resumed step)")
	var corr scenario.CorrectionOptions
	fs.StringVar(&corr.Mode, "position-correction", "off", "on: project positions out of penetration after every step (sim.Correction, the minimal displacement); ngs: nonlinear Gauss–Seidel sweeps instead (cheaper, not minimal); off (default here, Table 2 as in the paper)")
	fs.Float64Var(&corr.Tol, "correction-tol", 0, "position correction: overlap tolerance, a length (0: 1e-5 of the radius)")
	countVar(fs, &corr.MaxPasses, "correction-passes", 0, 0, 1000, "position correction: projection passes per step at most (0: 8)")
	countVar(fs, &corr.MaxSweeps, "correction-sweeps", 0, 0, 1000000, "position correction ngs: sweeps per step at most (0: 1000)")
	redetectFlags(fs, &corr, "off")
	overlap := fs.Bool("overlap", false, "with the position correction off, measure every step's deepest overlap (the gaps of the step's contacts and a search for the contacts it missed; two thirds of the step's CPU on the 100K gas, so off by default: the table then prints — and the CSV NaN); the correction always measures it")
	pos, err := parse(fs, args)
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
	if !(*cor >= 0 && *cor <= 1) {
		return badInput("bench drum: --cor: expected 0 ≤ c ≤ 1, got %v", *cor)
	}
	if err := checkCorrectionFlags("bench drum", corr); err != nil {
		return err
	}
	saves, err := parseSteps(*saveAt)
	if err != nil {
		return badInput("bench drum: --save-at: %v", err)
	}
	if (len(saves) > 0) != (*savePath != "") {
		return badInput("bench drum: --save-state and --save-at go together")
	}
	for _, k := range saves {
		if k > *steps {
			return badInput("bench drum: --save-at %d is beyond --steps %d: no state would be written", k, *steps)
		}
	}
	if len(saves) > 0 {
		// where the states go is checked now, not when the first is due
		if err := output.CheckWritable(stepPath(*savePath, saves[0])); err != nil {
			return usageError{fmt.Errorf("bench drum: --save-state: %w", err)}
		}
	}
	lowGCHeadroom()
	// Check every operator name before the first run starts, so a typo in
	// the second name does not cost the first run.
	ops := strings.Split(*op, ",")
	for _, name := range ops {
		if !slices.Contains(impact.Names(), name) {
			return badInput("bench drum: --operator: unknown operator %q (valid: %s)", name, strings.Join(impact.Names(), ", "))
		}
	}
	var rows []benchRow
	var heads []string
	for _, name := range ops {
		path, prof, mprof := *csvPath, *cpuprofile, *memprofile
		save := *savePath
		if strings.Contains(*op, ",") {
			save = suffixed(save, filepath.Ext(save), name)
			path, prof, mprof = suffixed(path, ".csv", name), suffixed(prof, ".prof", name), suffixed(mprof, ".prof", name)
		}
		// Each operator gets a fresh scene, so all start from the same state.
		row, h, err := benchDrumRun(drumRun{n: *n, mode: *mode, steps: *steps, from: *from, op: name, solver: *solver, cor: *cor, warm: *warm,
			workers: *workers, quiet: *quiet, overlap: *overlap, csv: path, cpuprofile: prof, memprofile: mprof, corr: corr,
			save: save, saveAt: saves, resume: *resume}, stderr)
		if err != nil {
			return err
		}
		heads = append(heads, h)
		rows = append(rows, row)
	}
	for _, h := range heads {
		fmt.Fprintln(stdout, h)
	}
	fmt.Fprintf(stdout, "%s, %d cores (GOMAXPROCS %d), peak RSS %s\n\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), peakRSS())
	fmt.Fprintln(stdout, "| scene | balls | operator | integration avg / max / min (s) | detection avg / max / min (s) | impact avg / max / min (s) | correction avg / max / min (s) | worst overlap / radius | iterations min / avg / max | constraints min / avg / max | wall (s) |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|")
	f := func(m minAvgMax) string { return fmt.Sprintf("%.3g / %.3g / %.3g", m.avg(), m.max, m.min) }
	g := func(m minAvgMax) string { return fmt.Sprintf("%.0f / %.1f / %.0f", m.min, m.avg(), m.max) }
	for _, r := range rows {
		ov := "—" // not measured (--overlap)
		if r.measured {
			ov = fmt.Sprintf("%.3g", r.overlap)
		}
		fmt.Fprintf(stdout, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %.3g |\n", *mode, *n, r.op, f(r.integ), f(r.detect), f(r.imp), f(r.corr), ov, g(r.iters), g(r.cons), r.wall)
	}
	return nil
}

// suffixed inserts "_"+name before ext in path ("" stays "").
func suffixed(path, ext, name string) string {
	if path == "" {
		return ""
	}
	return strings.TrimSuffix(path, ext) + "_" + name + ext
}

// drumRun holds the settings of one operator's bench drum run.
type drumRun struct {
	n, steps, from, workers int
	mode, op, solver        string
	cor                     float64
	quiet, warm             bool
	overlap                 bool // measure the overlap without the correction (--overlap)
	csv, cpuprofile         string
	memprofile              string
	save, resume            string // state files (see --save-state, --resume)
	saveAt                  []int
	corr                    scenario.CorrectionOptions
}

// benchRow is one operator's statistics over the measured steps.
type benchRow struct {
	op                              string
	integ, detect, imp, iters, cons minAvgMax
	corr                            minAvgMax // position correction time (s)
	overlap                         float64   // worst overlap at a step's end (radius 1)
	measured                        bool      // overlap was measured (correction on, or --overlap)
	wall                            float64
}

// benchDrumRun builds the drum scene and steps it with one operator,
// returning its statistics and a description of the run.
func benchDrumRun(c drumRun, stderr io.Writer) (benchRow, string, error) {
	row := benchRow{op: c.op}
	sc := scene.DrumGrid(c.n, c.mode, 1)
	sc.Source = fmt.Sprintf("builtin:drum_%s_%d", c.mode, c.n)
	r, err := scenario.NewBall2D(sc, scenario.Options{Operator: c.op, Solver: c.solver, CoR: &c.cor, Workers: benchWorkers(c.workers), WarmStart: c.warm, Correction: c.corr})
	if err != nil {
		return row, "", usageError{err}
	}
	defer r.Close()
	// The stepper keeps its own copy of the state and the system its own
	// ball arrays; the scene's ball list and the system's initial state are
	// not read again, so let them go (about 100 bytes per ball).
	sc.Balls = nil
	r.Sys.Q, r.Sys.V = nil, nil
	st := r.Stepper
	if c.resume != "" {
		if err := readState(st, c.resume, sc.Source); err != nil {
			return row, "", err
		}
		if st.N >= c.steps {
			return row, "", badInput("bench drum: %s: the state is at step %d, --steps %d leaves nothing to run", c.resume, st.N, c.steps)
		}
		for _, k := range c.saveAt {
			if k <= st.N {
				return row, "", badInput("bench drum: --save-at %d is not after the resumed step %d: no state would be written", k, st.N)
			}
		}
	}
	// The correction measures the overlap as it corrects; without it the
	// measurement is a stage of its own, which Table 2's timings did not
	// have, so it runs only when asked.
	if c.overlap {
		if err := st.MeasureOverlap(); err != nil {
			return row, "", err
		}
	}
	row.measured = st.Correction() != nil
	first := st.N
	var perStep *stepLog
	if c.csv != "" {
		if perStep, err = newStepLog(c.csv); err != nil {
			return row, "", usageError{err}
		}
		defer perStep.Close()
	}
	prog := progress(stderr, c.quiet, float64(c.steps), "bench "+sc.Source+" "+c.op)
	st.OnPhase = prog.Phase // a step that takes seconds shows its phase
	stopProfile, err := startCPUProfile(c.cpuprofile)
	if err != nil {
		return row, "", err
	}
	defer stopProfile()
	start := time.Now()
	hinted := false
	for i := first; i < c.steps; i++ {
		if err := st.Step(); err != nil {
			return row, "", err
		}
		prog.Update(float64(i + 1))
		if h := impact.SlowGRHint(st.Law.Name(), st.Last.Law.Iterations, &st.Problem); h != "" && !hinted {
			hinted = true
			fmt.Fprintf(stderr, "impactsim: %s (step %d)\n", h, st.N)
		}
		if slices.Contains(c.saveAt, st.N) {
			if err := writeState(st, stepPath(c.save, st.N), sc.Source); err != nil {
				return row, "", err
			}
		}
		l := st.Last
		if perStep != nil {
			if err := perStep.add(st.N, st.T, &l, row.measured); err != nil {
				return row, "", err
			}
		}
		if i < c.from {
			continue
		}
		row.integ.add(l.Integration.Seconds())
		row.detect.add(l.Detection.Seconds())
		row.imp.add(l.Impact.Seconds())
		row.corr.add(l.Correction.Time.Seconds())
		row.overlap = max(row.overlap, l.Correction.Overlap)
		row.iters.add(float64(l.Law.Iterations))
		row.cons.add(float64(l.Contacts))
	}
	prog.Finish()
	row.wall = time.Since(start).Seconds()
	// The heap profile is taken while the run's state is still alive.
	if c.memprofile != "" {
		if err := writeHeapProfile(c.memprofile); err != nil {
			return row, "", err
		}
	}
	head := fmt.Sprintf("drum %s, %d balls, %s: %s, c = %g, steps %d–%d of %d, h = %g, %d workers",
		c.mode, c.n, c.op, r.Mapping, c.cor, max(c.from, first)+1, c.steps, c.steps, st.H, r.Pool.Workers())
	if c.warm {
		head += ", warm start"
	}
	if c.resume != "" {
		head += fmt.Sprintf(", resumed at step %d from %s", first, c.resume)
	}
	return row, head, nil
}

// parseSteps reads a comma-separated list of step numbers ≥ 1 ("" is none).
func parseSteps(list string) ([]int, error) {
	if list == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(list, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("expected step numbers ≥ 1 separated by commas, got %q", f)
		}
		out = append(out, k)
	}
	return out, nil
}

// stepPath inserts "_STEP" before the extension of path.
func stepPath(path string, step int) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s_%d%s", strings.TrimSuffix(path, ext), step, ext)
}

// writeState writes the stepper's state to path through a temporary file
// renamed into place, so a stopped run never leaves half a state file.
func writeState(st *sim.Stepper, path, tag string) error {
	return writeStateAs("bench drum", st, path, tag)
}

func writeStateAs(cmd string, st *sim.Stepper, path, tag string) error {
	if err := output.WriteAtomic(path, func(w io.Writer) error { return st.WriteState(w, tag) }); err != nil {
		return fmt.Errorf("%s: --save-state: %w", cmd, err)
	}
	return nil
}

// readState loads a state written by writeState for the scene tag.
func readState(st *sim.Stepper, path, tag string) error {
	return readStateAs("bench drum", st, path, tag)
}

func readStateAs(cmd string, st *sim.Stepper, path, tag string) error {
	f, err := os.Open(path)
	if err != nil {
		return usageError{fmt.Errorf("%s: --resume: %w", cmd, err)}
	}
	defer f.Close()
	if err := st.ReadState(f, tag); err != nil {
		return usageError{fmt.Errorf("%s: --resume %s: %w", cmd, path, err)}
	}
	return nil
}

// writeHeapProfile writes the in-use heap (after a collection) to path.
func writeHeapProfile(path string) error {
	f, err := createFile(path)
	if err != nil {
		return usageError{err}
	}
	runtime.GC()
	err = pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// stepLog writes one CSV line per step and flushes it, so the file of a
// run that is stopped early holds every finished step.
type stepLog struct {
	f *os.File
	w *bufio.Writer
}

func newStepLog(path string) (*stepLog, error) {
	f, err := createFile(path)
	if err != nil {
		return nil, err
	}
	l := &stepLog{f: f, w: bufio.NewWriter(f)}
	fmt.Fprintln(l.w, "step,t,constraints,iterations,solves,solver_iterations,residual,largest_island,largest_method,integration_s,detection_s,impact_s,correction_s,correction_passes,overlap_before,overlap,correction_pe,correction_contacts,correction_missed,correction_largest,correction_solver_iterations,correction_rounds,redetect_s,redetect_rounds,redetect_added,redetect_missing,correction_sweeps")
	return l, l.w.Flush()
}

func (l *stepLog) add(step int, t float64, s *sim.StepStats, measured bool) error {
	c := &s.Correction
	before, after := c.OverlapBefore, c.Overlap
	if !measured {
		before, after = math.NaN(), math.NaN()
	}
	fmt.Fprintf(l.w, "%d,%.6g,%d,%d,%d,%d,%.3g,%d,%s,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%d,%d,%d,%d,%d,%.6g,%d,%d,%d,%d\n", step, t, s.Contacts, s.Law.Iterations, s.Law.Solves,
		s.Law.SolverIterations, s.Law.Residual, s.Law.Largest, s.Law.Method, s.Integration.Seconds(), s.Detection.Seconds(), s.Impact.Seconds(),
		c.Time.Seconds(), c.Passes, before, after, c.PotentialChange, c.Contacts, c.Missed, c.Law.Largest, c.Law.SolverIterations, c.Law.Iterations,
		s.Closure.Time.Seconds(), s.Closure.Rounds, s.Closure.Added, s.Closure.Missing, c.Sweeps)
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("bench: writing the per-step CSV: %w", err)
	}
	return nil
}

func (l *stepLog) Close() error { return l.f.Close() }

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

// loadAvg returns the 1-, 5- and 15-minute load averages from
// /proc/loadavg ("unknown" elsewhere): benchmarks quote it with their
// numbers.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// lowGCHeadroom sets the collector's heap headroom to 10 % unless GOGC is
// set. The step loops allocate nothing in steady state, so collections
// are rare (they happen while the workspaces grow with the contact count)
// and a small headroom costs no time but keeps the peak RSS near the live
// heap (100K drop pile: 94–96 MiB at 20, 84 MiB at 10; 60k vibrated layer
// at its landing: 4,145 → 3,361 B per sphere, CPU per step unchanged).
func lowGCHeadroom() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(10)
	}
}

// peakRSS reads the peak resident set size (VmHWM) from /proc/self/status.
func peakRSS() string {
	if b, ok := peakRSSBytes(); ok {
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return "unknown"
}

// peakRSSBytes returns the peak resident set size (VmHWM) in bytes.
func peakRSSBytes() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 {
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
					return kb * 1024, true
				}
			}
		}
	}
	return 0, false
}

// benchWorkers maps --workers (0: all, GOMAXPROCS) onto scenario.Options.Workers.
func benchWorkers(w int) int {
	if w <= 0 {
		return -1
	}
	return w
}

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"impactsim/output"
	"impactsim/par"
	"impactsim/patterns"
	"impactsim/scenario"
	"impactsim/sim"
	"impactsim/spheres"
)

// patternOpts are the layer flags shared by `patterns` and `bench patterns`.
type patternOpts struct {
	pattern            string
	n                  int
	dt, sigma, depth   float64
	perArea, aspect    float64
	beta0              float64
	mdpFree            int
	constantCoR        bool
	activeRounds       int
	roundsContinue     bool
	operator, friction string
	solver             string
	blcpTol            float64
	blcpIters          int
	workers            int
	seed               uint64
	corr               scenario.CorrectionOptions
}

func (o *patternOpts) register(fs *flag.FlagSet, pattern string) {
	fs.StringVar(&o.pattern, "pattern", pattern, "Fig. 12 point: `hexagons` (f* = 0.38, Γ = 4), squares (0.27, 3), stripes (0.44, 3)"+map[bool]string{true: " or all", false: ""}[pattern == "all"])
	countVar(fs, &o.n, "n", 60000, 1, 1e8, "number of spheres (Bizon et al.: 60,000)")
	fs.Float64Var(&o.dt, "dt", 3e-4, "time step (s)")
	fs.Float64Var(&o.sigma, "sigma", 1e-3, "sphere diameter σ (m)")
	fs.Float64Var(&o.depth, "depth", patterns.BizonDepth, "layer depth H/σ, the H of f* = f√(H/g) and λ/H (Bizon et al.: 5.42)")
	fs.Float64Var(&o.perArea, "per-area", patterns.BizonPerArea, "spheres per σ² of floor: the periodic cell's area is nσ²/per-area (Bizon et al.: 60,000 in 100σ × 100σ, 6; 0: the depth, the first sessions' layer)")
	fs.Float64Var(&o.aspect, "aspect", 1, "the periodic cell's L_y/L_x (1: square; 0.866 = √3/2 holds hexagons of wavelength L_x/4, package patterns)")
	fs.StringVar(&o.operator, "operator", "gr", "impact operator: "+strings.Join(spheresOperators(), ", "))
	fs.StringVar(&o.friction, "friction", "alg3", "friction law: `alg3` (maximal dissipation, Smith et al. Alg. 3) or blcp (boxed LCP, Zhang et al.)")
	fs.BoolVar(&o.constantCoR, "constant-restitution", false, "every impact's restitution coefficient e₀ = 0.7 (Smith et al.'s one coefficient of generalized restitution) instead of Bizon et al.'s e(v) = 1 − 0.3 (v/√(gσ))^{3/4} below √(gσ)")
	fs.Float64Var(&o.beta0, "beta0", 0, "Walton's tangential restitution β₀ on alg3's friction: a sticking contact's tangential velocity reversed by β₀ within the Coulomb bound (Bizon et al.: 0.35; 0: Alg. 3 as published)")
	countVar(fs, &o.activeRounds, "active-rounds", 1, 1, 1000, "solves of the contact law per step at most: above 1 the active set is closed — after each solve the contacts that touch at the end of the step (the prediction with v⁺) join it and the law is solved again from the step's velocities, until none is added (1: Alg. 4 as published, one detection at the free-flight prediction; at the cap the step goes on and is counted as open; not with --position-correction on)")
	fs.BoolVar(&o.roundsContinue, "rounds-continue", false, "with --active-rounds above 1: each later solve starts from the last solve's velocities instead of the step's (the contacts the impulses drove together collide after them, in the same step)")
	countVar(fs, &o.mdpFree, "mdp-matrix-free", 0, 0, 1e9, "alg3: islands with at least this many sliding contacts solve the friction QP with the generic matrix-free form, A z = Dᵀ(M⁻¹(D z)) from stored directions, instead of the default assembly from the spheres' compact directions (which is smaller and faster; for comparison; 0: never)")
	fs.StringVar(&o.solver, "solver", "auto", "QP solver of the exact island solves: `auto` (dense active set, interior point or MPRGP by size) or sparse (MPRGP), dense, interior")
	fs.Float64Var(&o.blcpTol, "blcp-tol", 1e-6, "boxed LCP: relative change of the impulses at which the sweeps stop (--friction blcp)")
	countVar(fs, &o.blcpIters, "blcp-sweeps", 1000, 1, 1e8, "boxed LCP: sweep cap (at the cap the step goes on and is counted as capped)")
	countVar(fs, &o.workers, "workers", 0, 0, maxWorkers, "goroutines (0: GOMAXPROCS); results do not depend on it")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the initial lattice's jitter and velocities")
	fs.StringVar(&o.corr.Mode, "position-correction", "off", "on or off: project the centres out of penetration after every step, velocities untouched (off by default: Alg. 4 as in the papers' runs; on removes the floor penetration of ½gh² per step at 2.4–72× the step's cost, README)")
	fs.Float64Var(&o.corr.Tol, "correction-tol", 0, "position correction: overlap tolerance, a length (0: 1e-5 of the radius)")
	countVar(fs, &o.corr.MaxPasses, "correction-passes", 0, 0, 1000, "position correction: projection passes per step at most (0: 8)")
}

// correction returns the position correction the flags select (nil: off):
// run's defaults relative to the radius σ/2 (scenario.DefaultCorrectionTol,
// scenario.DefaultCorrectionSearch).
func (o *patternOpts) correction() *sim.Correction {
	if o.corr.Mode != "on" {
		return nil
	}
	r := o.sigma / 2
	c := &sim.Correction{Project: true, Tol: o.corr.Tol, MaxPasses: o.corr.MaxPasses, Search: scenario.DefaultCorrectionSearch * r}
	if c.Tol == 0 {
		c.Tol = scenario.DefaultCorrectionTol * r
	}
	if o.solver != "auto" {
		c.Solver = o.solver
	}
	return c
}

func spheresOperators() []string {
	return []string{"gr", "grr", "lcp", "qce", "qce_lcp", "gauss_seidel", "jacobi"}
}

// points returns the Fig. 12 points the flags select.
func (o *patternOpts) points(name string) ([]patterns.Point, error) {
	if o.pattern == "all" {
		return patterns.Fig12, nil
	}
	p, err := patterns.PointByName(o.pattern)
	if err != nil {
		return nil, badInput("%s: --pattern: expected hexagons, squares, stripes or all, got %q", name, o.pattern)
	}
	return []patterns.Point{p}, nil
}

// layer builds the layer of point p (bad flags: exit 2) and prints the
// law's warning (spheres.Law.Warning) on warn unless warn is nil.
func (o *patternOpts) layer(name string, p patterns.Point, warn io.Writer) (*patterns.Layer, error) {
	c, err := o.config(name, p, warn, 1)
	if err != nil {
		return nil, err
	}
	return patterns.New(c)
}

// config is the layer's configuration from the flags, checked, for a job
// of the given number of ranks (the memory check is per rank).
func (o *patternOpts) config(name string, p patterns.Point, warn io.Writer, ranks int) (patterns.Config, error) {
	c := patterns.DefaultConfig(p)
	c.N, c.H, c.Sigma, c.Depth, c.Operator, c.Friction, c.Solver, c.Seed = o.n, o.dt, o.sigma, o.depth, o.operator, o.friction, o.solver, o.seed
	c.BoxedTol, c.BoxedMaxIter, c.Aspect, c.PerArea, c.Beta0, c.ConstantCoR = o.blcpTol, o.blcpIters, o.aspect, o.perArea, o.beta0, o.constantCoR
	c.MatrixFreeFrom, c.ActiveRounds, c.RoundsContinue = o.mdpFree, o.activeRounds, o.roundsContinue
	if !(o.blcpTol > 0) || math.IsInf(o.blcpTol, 0) {
		return c, badInput("%s: --blcp-tol: expected a tolerance > 0, got %v", name, o.blcpTol)
	}
	if err := checkCorrectionFlags(name, o.corr); err != nil {
		return c, err
	}
	if o.corr.Mode == "ngs" {
		return c, badInput("%s: --position-correction ngs: the sphere path has the projection only (on)", name)
	}
	c.Correction = o.correction()
	if o.roundsContinue && o.activeRounds < 2 {
		return c, badInput("%s: --rounds-continue: expected --active-rounds above 1 (the rounds it continues), got %d", name, o.activeRounds)
	}
	if o.activeRounds > 1 && c.Correction != nil {
		return c, badInput("%s: --active-rounds %d: not with --position-correction on (the closed active set leaves the correction's search no missed sphere contacts; choose one)", name, o.activeRounds)
	}
	if err := c.Check(); err != nil {
		return c, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if law := c.Law(); warn != nil && law.Warning() != "" {
		fmt.Fprintf(warn, "impactsim: warning: %s: %s\n", name, law.Warning())
	}
	if mem, ok := physicalMemory(); ok && float64(o.n)*4096/float64(ranks) > mem {
		if ranks > 1 {
			return c, badInput("%s: --n %d over %d ranks needs about %s per rank, more than this machine's %s", name, o.n, ranks, fmtBytes(float64(o.n)*4096/float64(ranks)), fmtBytes(mem))
		}
		return c, badInput("%s: --n %d needs about %s, more than this machine's %s", name, o.n, fmtBytes(float64(o.n)*4096), fmtBytes(mem))
	}
	return c, nil
}

// cmdPatterns runs `patterns`: the vibrated layer at the points of Fig. 12,
// with the pattern analysis.
func cmdPatterns(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("patterns")
	var o patternOpts
	o.register(fs, "all")
	cycles := fs.Float64("cycles", 40, "drive periods to simulate")
	every := fs.Float64("sample-every", 1, "drive periods between samples of the height field (at phase 0)")
	out := fs.String("out", filepath.Join("out", "patterns"), "output directory (one subdirectory per pattern)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	save := outFile(fs, "save-state", "write the layer's state to this file after every sample and at the end (continue the run with --resume; one --pattern)")
	resume := inFile(fs, "resume", "start from a state written by --save-state (same --n, --pattern, --sigma, --depth, --per-area, --aspect; --cycles more periods)")
	measure := fs.Bool("measure", false, "with --resume: print the state's pattern under the three measures (the ring, the shell and the exact measure, package patterns) and stop, no steps")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *measure && *resume == "" {
		return badInput("patterns: --measure needs --resume (the state to measure)")
	}
	lowGCHeadroom()
	pts, err := o.points("patterns")
	if err != nil {
		return err
	}
	if (*save != "" || *resume != "") && len(pts) != 1 {
		return badInput("patterns: --save-state and --resume need one --pattern, got %q", o.pattern)
	}
	if !(*cycles > 0) || math.IsInf(*cycles, 0) || !(*every > 0) || math.IsInf(*every, 0) {
		return badInput("patterns: --cycles and --sample-every: expected positive numbers, got %v and %v", *cycles, *every)
	}
	if dist, err := underMpirun("patterns"); err != nil {
		return err
	} else if dist {
		return patternsMPI(&o, pts, patternsRun{cycles: *cycles, every: *every, out: *out, quiet: *quiet, save: *save, resume: *resume}, stdout, stderr)
	}
	pool := par.New(o.workers)
	defer pool.Close()
	for k, p := range pts {
		warn := stderr
		if k > 0 {
			warn = nil // the same law: warned once
		}
		y, err := o.layer("patterns", p, warn)
		if err != nil {
			return err
		}
		y.SetPool(pool)
		if err := resumeLayer("patterns", y, *resume); err != nil {
			return err
		}
		if *measure {
			printMeasure(stdout, y, *resume)
			continue
		}
		dir := filepath.Join(*out, p.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		ro := patterns.RunOptions{Cycles: *cycles, SampleEvery: *every, Dir: dir}
		if !*quiet {
			ro.Progress = stderr
		}
		if *save != "" {
			ro.Checkpoint = func() error { return output.WriteAtomic(*save, y.WriteState) }
		}
		res, runErr := y.Run(ro)
		printPatternRun(stdout, y, res, dir)
		if runErr != nil {
			return runErr
		}
	}
	return nil
}

// printPatternRun prints a run's summary line.
func printPatternRun(w io.Writer, y *patterns.Layer, res patterns.Result, dir string) {
	c := &y.Cfg
	k := max(1, res.Cost.Steps)
	n := len(res.Samples)
	if n == 0 {
		fmt.Fprintf(w, "%-8s %d steps (%.2f cycles): no sample (the run is shorter than --sample-every); %.3f s/step → %s\n", c.Point.Name, res.Cost.Steps, y.Cycles(), res.Cost.Wall.Seconds()/float64(k), dir)
		return
	}
	last := res.Samples[n-1]
	fmt.Fprintf(w, "%-8s f* = %.2f, Γ = %.1f, %d spheres, h = %g, %s: %d steps (%.1f cycles); last sample λ = %.2fσ, λ/H = %.3f (dispersion %.3f, %+.1f %%), %d peaks (want %d), ring power %.2f; %.3f s/step (%.0f contacts, up to %d GR iterations), deepest floor overlap %.3gσ%s → %s\n",
		c.Point.Name, c.Point.FStar, c.Point.Gamma, c.N, c.H, spheres.Law{Operator: c.Operator, Friction: c.Friction}.Name(), res.Cost.Steps, y.Cycles(),
		last.Lambda, last.LambdaOverH, patterns.Dispersion(c.Point.FStar), 100*(last.LambdaOverH/patterns.Dispersion(c.Point.FStar)-1), last.Peaks, c.Point.Peaks, last.Contrast,
		res.Cost.Wall.Seconds()/float64(k), float64(res.Cost.Contacts)/float64(k), res.Cost.MaxIterations, res.Cost.MaxWallPenetration, correctionSummary(res.Cost, k), dir)
}

// printMeasure prints a state's pattern under the three measures (--measure).
func printMeasure(w io.Writer, y *patterns.Layer, path string) {
	c := &y.Cfg
	h := y.HeightField()
	s := y.Measure(&h)
	d := patterns.Dispersion(c.Point.FStar)
	fmt.Fprintf(w, "%s: %s at %.2f cycles (dispersion λ/H %.3f)\n  ring:  λ = %.2fσ, λ/H = %.3f (%+.1f %%), %d peaks (want %d), ring power %.2f\n  shell: λ = %.2fσ (shell %d), λ/H = %.3f (%+.1f %%), symmetry %d (Q2 %.2f, Q4 %.2f, Q6 %.2f), contrast %.2fσ\n  exact: λ = %.2fσ (family of (%d,%d), %d wave vectors), λ/H = %.3f (%+.1f %%), %d peaks (%d triads: %s), family power %.2f\n",
		path, c.Point.Name, s.Cycles, d, s.Lambda, s.LambdaOverH, 100*(s.LambdaOverH/d-1), s.Peaks, c.Point.Peaks, s.Contrast,
		s.Shell.Lambda, s.Shell.Shell, s.ShellLambdaOverH, 100*(s.ShellLambdaOverH/d-1), s.Shell.Symmetry(), s.Shell.Q2, s.Shell.Q4, s.Shell.Q6, s.Shell.Contrast,
		s.Exact.Lambda, s.Exact.M, s.Exact.N, s.Exact.Members, s.ExactLambdaOverH, 100*(s.ExactLambdaOverH/d-1), s.Exact.Peaks, s.Exact.Triads, triadWord(s.Exact.Triads), s.Exact.Contrast)
}

// correctionSummary describes the position correction of a run (its
// absence when the run had none).
func correctionSummary(c patterns.StepCost, steps int) string {
	if c.MaxRounds > 1 {
		return fmt.Sprintf(", closed active set: %.2f solves a step (at most %d), %d steps open at the cap", float64(c.Rounds)/float64(steps), c.MaxRounds, c.Open)
	}
	if c.Correction == 0 {
		return ", no position correction"
	}
	return fmt.Sprintf(", position correction %.3f s/step (%d passes, %d missed contacts, deepest overlap left %.3gσ)", c.Correction.Seconds()/float64(steps), c.Passes, c.Missed, c.MaxOverlap)
}

// resumeLayer restores y from a state file written by --save-state (no
// file: nothing to do).
func resumeLayer(name string, y *patterns.Layer, path string) error {
	return resumeLayerPart(name, y, path, nil)
}

// resumeLayerPart is resumeLayer keeping only the spheres whose centres
// keep accepts (nil: all): an MPI rank's part of the file.
func resumeLayerPart(name string, y *patterns.Layer, path string, keep func(x [3]float64) bool) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return badInput("%s: --resume: %v", name, err)
	}
	err = y.ReadStatePart(f, keep)
	f.Close()
	if err != nil {
		return usageError{fmt.Errorf("%s: --resume %s: %w", name, path, err)}
	}
	return nil
}

// cmdBenchPatterns runs `bench patterns`: per-step costs of the vibrated
// layer (Smith et al. Table 3's columns), from a warmed-up state.
func cmdBenchPatterns(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench patterns")
	var o patternOpts
	o.register(fs, "hexagons")
	steps := count(fs, "steps", 20, 1, 1e9, "steps to time, after one untimed step that grows the workspaces (a landing step of the closed active set at h = 1e-3 can take minutes there)")
	repeat := count(fs, "repeat", 1, 1, 1000, "time the steps this many times from the same state (medians printed; the later passes run on grown workspaces, so their allocations are a steady step's)")
	tile := count(fs, "tile", 1, 1, 10, "time a layer of tile × tile copies of the warmed (or resumed) state side by side: the same phase at tile² times the spheres (scaling)")
	warm := fs.Float64("warm-cycles", 1, "drive periods to run before timing (after --resume: 0 unless given)")
	dts := fs.String("table3", "", "comma-separated time steps to time one after the other from the warmed state (Table 3: 1e-3,5e-4,3e-4,2e-4,1e-4)")
	save := outFile(fs, "save-state", "write the warmed state to this file")
	resume := inFile(fs, "resume", "start from a state written by --save-state (same --n, --pattern, --sigma, --depth, --per-area, --aspect)")
	cpuprofile := outFile(fs, "cpuprofile", "write a CPU profile (go tool pprof) of the timed steps to this file (the first time step's last pass)")
	stepsCSV := outFile(fs, "steps-csv", "write one row per timed step to this CSV file (h, pass, step, time, cycles, drive phase, contacts, islands, largest island, QCE iterations and boxed-LCP full sweeps of the costliest island, the local sweeps' contact updates of all islands, capped solves, residual, impact, friction and contact-resolution seconds, step wall and CPU seconds, mean height in σ)")
	memprofile := outFile(fs, "memprofile", "write a heap profile (go tool pprof: inuse_space after the timed steps, alloc_space over the run) to this file")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	lowGCHeadroom()
	pts, err := o.points("bench patterns")
	if err != nil {
		return err
	}
	if !(*warm >= 0) || math.IsInf(*warm, 0) {
		return badInput("bench patterns: --warm-cycles: expected a number ≥ 0, got %v", *warm)
	}
	hs := []float64{o.dt}
	if *dts != "" {
		hs = hs[:0]
		for _, f := range strings.Split(*dts, ",") {
			var h float64
			if _, err := fmt.Sscan(strings.TrimSpace(f), &h); err != nil || !(h > 0) || math.IsInf(h, 0) {
				return badInput("bench patterns: --table3: expected positive time steps, got %q", f)
			}
			hs = append(hs, h)
		}
	}
	y, err := o.layer("bench patterns", pts[0], stderr)
	if err != nil {
		return err
	}
	pool := par.New(o.workers)
	defer pool.Close()
	y.SetPool(pool)
	if err := resumeLayer("bench patterns", y, *resume); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *resume != "" && !given["warm-cycles"] {
		*warm = 0
	}
	if *warm > 0 {
		var bar *output.Progress
		ws := int(math.Round(*warm / y.Cfg.Frequency() / y.Cfg.H))
		bar = output.NewProgress(stderr, float64(ws), "warming up")
		for k := 0; k < ws; k++ {
			if _, err := y.Step(); err != nil {
				return err
			}
			bar.Update(float64(k + 1))
		}
		bar.Finish()
	}
	if *save != "" {
		if err := output.WriteAtomic(*save, y.WriteState); err != nil {
			return err
		}
	}
	if *tile > 1 {
		if y, err = y.Tiled(*tile); err != nil {
			return err
		}
		y.SetPool(pool)
	}
	var sw *output.SeriesWriter
	if *stepsCSV != "" {
		if sw, err = output.NewLiveSeriesWriter(*stepsCSV, stepsHeader); err != nil {
			return err
		}
		defer sw.Close()
	}
	state := new(bytes.Buffer)
	if len(hs) > 1 || *repeat > 1 {
		if err := y.WriteState(state); err != nil {
			return err
		}
	}
	c := &y.Cfg
	lx, ly := c.Sides()
	fmt.Fprintf(stdout, "%s: f* = %.2f, Γ = %.1f, %d spheres (%.1fσ × %.1fσ, periodic), %s, %d workers, from t = %.4f s (%.2f cycles); loadavg %s\n",
		c.Point.Name, c.Point.FStar, c.Point.Gamma, c.N, lx/c.Sigma, ly/c.Sigma, spheres.Law{Operator: c.Operator, Friction: c.Friction}.Name(), pool.Workers(), y.Time(), y.Cycles(), loadavg())
	fmt.Fprintf(stdout, "%-9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %7s %7s %7s %8s %8s %8s %7s %9s %9s %9s %9s %7s\n", "h", "step", "integr", "detect", "det max", "det min", "impact", "imp max", "imp min", "friction", "fr max", "fr min", "GR avg", "GR max", "GR min", "con avg", "con max", "con min", "allocs", "B/sphere", "correct", "floor σ", "cpu", "RSS/sph")
	var last layerRow
	for i, h := range hs {
		var rows []layerRow
		for pass := 0; pass < *repeat; pass++ {
			if i > 0 || pass > 0 {
				if err := y.ReadState(bytes.NewReader(state.Bytes())); err != nil {
					return err
				}
			}
			if err := y.SetStep(h); err != nil {
				return badInput("bench patterns: %v", err)
			}
			// the profile covers the first step's last pass (grown
			// workspaces when repeated); the file is written once
			prof := ""
			if i == 0 && pass == *repeat-1 {
				prof = *cpuprofile
			}
			stop, err := startCPUProfile(prof)
			if err != nil {
				return err
			}
			row, err := benchLayer(y, *steps, stepsRow(sw, h, pass))
			last = row
			stop()
			if err != nil {
				return err
			}
			rows = append(rows, row)
			if pass == 0 {
				defer writePhases(stdout, h, y.Sys.N(), row.steps)
			}
			fmt.Fprintf(stdout, "%-9g %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %7.1f %7d %7d %8.0f %8d %8d %7.1f %9.0f %9.4f %9.2g %9.4f %7.0f\n", h,
				row.wall, row.integ, row.det.avg, row.det.max, row.det.min, row.imp.avg, row.imp.max, row.imp.min, row.fr.avg, row.fr.max, row.fr.min,
				row.iter.avg, int(row.iter.max), int(row.iter.min), row.con.avg, int(row.con.max), int(row.con.min), row.allocs, row.bytes, row.corr, row.floor, row.cpu, row.rss)
		}
		if len(rows) > 1 {
			med := func(f func(r *layerRow) float64) float64 {
				x := make([]float64, len(rows))
				for k := range rows {
					x[k] = f(&rows[k])
				}
				slices.Sort(x)
				if n := len(x); n%2 == 0 {
					return (x[n/2-1] + x[n/2]) / 2
				}
				return x[len(x)/2]
			}
			later := rows[1:]
			maxAllocs := 0.0
			for _, r := range later {
				maxAllocs = max(maxAllocs, r.allocs)
			}
			fmt.Fprintf(stdout, "h = %g, median of %d passes: step %.4f s, cpu %.4f s, detection %.4f, impact %.4f, friction %.4f s; allocations per step %.1f in the first pass, at most %.1f in the later ones (grown workspaces)\n",
				h, len(rows), med(func(r *layerRow) float64 { return r.wall }), med(func(r *layerRow) float64 { return r.cpu }),
				med(func(r *layerRow) float64 { return r.det.avg }), med(func(r *layerRow) float64 { return r.imp.avg }), med(func(r *layerRow) float64 { return r.fr.avg }),
				rows[0].allocs, maxAllocs)
		}
	}
	if *memprofile != "" {
		if err := writeHeapProfile(*memprofile); err != nil {
			return err
		}
		runtime.KeepAlive(y) // the profile shows the layer's memory in use
	}
	fmt.Fprintf(stdout, "islands per step %.0f (largest: %.0f contacts on average, %.0f at most); %d capped solves in the last row's steps\n", last.islands.avg, last.largest.avg, last.largest.max, last.capped)
	fmt.Fprintf(stdout, "seconds per step (wall: step, integration, detection; impact and friction summed over the islands' solves; correct: the position correction, part of step); GR iterations per step (the most of an island); constraints per step; allocations per step; peak Go heap (HeapSys) per sphere; floor σ: the deepest overlap of a sphere and the floor at a step's start, in σ; cpu: CPU seconds (user + system, all threads) per step; RSS/sph: the process's peak resident set (VmHWM) per sphere in bytes\n")
	return nil
}

type minMaxAvg struct{ min, max, avg float64 }

func (m *minMaxAvg) add(x float64, k int) {
	if k == 0 || x < m.min {
		m.min = x
	}
	if k == 0 || x > m.max {
		m.max = x
	}
	m.avg += x
}

type layerRow struct {
	wall, integ      float64
	det, imp, fr     minMaxAvg
	iter, con        minMaxAvg
	islands, largest minMaxAvg
	capped           int
	allocs, bytes    float64
	corr, floor      float64 // correction s/step; deepest floor overlap (σ)
	cpu, rss         float64 // CPU s/step (user + system); peak RSS per sphere (B)
	steps            []stepRec
}

// stepRec is one timed step of bench patterns, for the phase table.
type stepRec struct {
	contacts, largest, qce, sweeps, capped int
	resolve, wall, cpu                     float64 // contact resolution (impact + friction), step wall, step CPU: s
}

// stepsHeader is the header of bench patterns --steps-csv.
var stepsHeader = []string{"h", "pass", "step", "time", "cycles", "phase", "contacts", "islands", "largest",
	"qce_iterations", "sweeps", "local_updates", "capped", "residual", "impact_s", "friction_s", "resolve_s", "step_s", "cpu_s", "mean_height", "rounds", "open"}

// stepsRow returns benchLayer's per-step hook writing rows of
// --steps-csv to sw (nil: no hook).
func stepsRow(sw *output.SeriesWriter, h float64, pass int) func(y *patterns.Layer, st *spheres.ImpactStats, wall, cpu float64) error {
	if sw == nil {
		return nil
	}
	return func(y *patterns.Layer, st *spheres.ImpactStats, wall, cpu float64) error {
		cyc := y.Cycles()
		imp, fr := st.Impact.Seconds(), st.Friction.Seconds()
		return sw.Write(h, float64(pass), float64(y.N), y.Time(), cyc, cyc-math.Floor(cyc), float64(st.Contacts), float64(st.Islands), float64(st.LargestIsland),
			float64(st.MaxIslandIterations), float64(st.MaxIslandSweeps), float64(st.Law.LocalUpdates), float64(st.Law.Capped), st.Law.Residual, imp, fr, imp+fr, wall, cpu, y.MeanHeight(), float64(st.Rounds), b2f(st.Open))
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// benchLayer times steps of y after one untimed step (which grows the
// workspaces to the state's size); each (nil or) calls back after every
// timed step with its statistics, wall and CPU seconds.
func benchLayer(y *patterns.Layer, steps int, each func(y *patterns.Layer, st *spheres.ImpactStats, wall, cpu float64) error) (layerRow, error) {
	var r layerRow
	if _, err := y.Step(); err != nil {
		return r, err
	}
	r.steps = make([]stepRec, 0, steps)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	c0, _ := processCPU()
	t0 := time.Now()
	tk, ck := t0, c0
	// st lives outside the loop: each takes its address, so it escapes,
	// and declared inside it would be the harness's own heap allocation
	// in every timed step (counted in the allocations column).
	var st spheres.ImpactStats
	for k := 0; k < steps; k++ {
		var err error
		st, err = y.Step()
		if err != nil {
			return r, err
		}
		t := time.Now()
		c, _ := processCPU()
		wall, cpu := t.Sub(tk).Seconds(), (c - ck).Seconds()
		r.steps = append(r.steps, stepRec{contacts: st.Contacts, largest: st.LargestIsland, qce: st.MaxIslandIterations, sweeps: st.MaxIslandSweeps,
			capped: st.Law.Capped, resolve: (st.Impact + st.Friction).Seconds(), wall: wall, cpu: cpu})
		if each != nil {
			if err := each(y, &st, wall, cpu); err != nil {
				return r, err
			}
			t = time.Now()
		}
		tk, ck = t, c
		r.integ += st.Integrate.Seconds()
		r.det.add(st.Detect.Seconds(), k)
		r.imp.add(st.Impact.Seconds(), k)
		r.fr.add(st.Friction.Seconds(), k)
		r.iter.add(float64(st.MaxIslandIterations), k)
		r.con.add(float64(st.Contacts), k)
		r.islands.add(float64(st.Islands), k)
		r.capped += st.Law.Capped
		r.largest.add(float64(st.LargestIsland), k)
		r.corr += st.Correction.Time.Seconds()
		r.floor = math.Max(r.floor, st.MaxWallPenetration/y.Cfg.Sigma)
	}
	r.wall = time.Since(t0).Seconds()
	c1, _ := processCPU()
	r.cpu = (c1 - c0).Seconds() / float64(steps)
	runtime.ReadMemStats(&m1)
	n := float64(steps)
	r.wall /= n
	r.integ /= n
	r.corr /= n
	for _, m := range []*minMaxAvg{&r.det, &r.imp, &r.fr, &r.iter, &r.con, &r.islands, &r.largest} {
		m.avg /= n
	}
	r.allocs = float64(m1.Mallocs-m0.Mallocs) / n
	r.bytes = float64(m1.HeapSys) / float64(y.Sys.N())
	if b, ok := peakRSSBytes(); ok {
		r.rss = b / float64(y.Sys.N())
	}
	return r, nil
}

// Phases of the drive cycle for bench patterns' phase table: a step is in
// flight while the layer has fewer than one contact per phaseContacts
// spheres; a run of consecutive steps with more is a landing up to its
// step with the most contacts and the compressed layer after it.
const phaseContacts = 20

// phaseOf labels each step of recs 0 (flight), 1 (landing) or 2
// (compressed) for a layer of n spheres.
func phaseOf(recs []stepRec, n int) []int {
	ph := make([]int, len(recs))
	for a := 0; a < len(recs); {
		if recs[a].contacts*phaseContacts < n {
			a++
			continue
		}
		b, peak := a, a
		for ; b < len(recs) && recs[b].contacts*phaseContacts >= n; b++ {
			if recs[b].contacts > recs[peak].contacts {
				peak = b
			}
			ph[b] = 2
		}
		for k := a; k <= peak; k++ {
			ph[k] = 1
		}
		a = b
	}
	return ph
}

// writePhases prints the per-phase table of the timed steps recs of a
// layer of n spheres, with Zhang et al. Table 2's columns: the contact
// resolution's (impact operator + friction: QCE + boxed LCP) CPU seconds
// per step, average / max / min — a step's CPU seconds (all threads) times
// the resolution's share of its wall time (the islands' solves, summed),
// so that other processes on the machine do not count —, the resolution's
// wall seconds (average, max), the step's CPU seconds, the costliest
// island's QCE iterations and boxed-LCP sweeps (average / max / min), the
// largest island and the capped solves.
func writePhases(w io.Writer, h float64, n int, recs []stepRec) {
	if len(recs) == 0 {
		return
	}
	ph := phaseOf(recs, n)
	fmt.Fprintf(w, "h = %g by phase (flight: < 1 contact per %d spheres; landing: from then to the most contacts; compressed: after it):\n", h, phaseContacts)
	fmt.Fprintf(w, "%-10s %6s %6s %9s %9s %9s %9s %9s %9s %7s %5s %5s %7s %5s %5s %8s %6s\n", "phase", "steps", "share", "res cpu", "cpu max", "cpu min", "res wall", "wall max", "step cpu", "QCE avg", "max", "min", "sweeps", "max", "min", "largest", "capped")
	for p, name := range []string{"flight", "landing", "compressed", "all"} {
		var rc, rw, qce, sw minMaxAvg
		var cpu float64
		k, largest, capped := 0, 0, 0
		for a, r := range recs {
			if p < 3 && ph[a] != p {
				continue
			}
			c := 0.0
			if r.wall > 0 {
				c = r.cpu * min(1, r.resolve/r.wall)
			}
			rc.add(c, k)
			rw.add(r.resolve, k)
			qce.add(float64(r.qce), k)
			sw.add(float64(r.sweeps), k)
			cpu += r.cpu
			largest, capped = max(largest, r.largest), capped+r.capped
			k++
		}
		if k == 0 {
			continue
		}
		f := float64(k)
		fmt.Fprintf(w, "%-10s %6d %5.1f%% %9.4f %9.4f %9.5f %9.4f %9.4f %9.4f %7.1f %5.0f %5.0f %7.1f %5.0f %5.0f %8d %6d\n", name, k, 100*f/float64(len(recs)),
			rc.avg/f, rc.max, rc.min, rw.avg/f, rw.max, cpu/f, qce.avg/f, qce.max, qce.min, sw.avg/f, sw.max, sw.min, largest, capped)
	}
	fmt.Fprintf(w, "res cpu: contact resolution (impact operator + friction) CPU s per step = the step's CPU s × the islands' solve time / the step's wall time; res wall: that solve time (wall, summed over islands); step cpu: the whole step's CPU s (all threads); QCE, sweeps: the costliest island's operator iterations and boxed-LCP sweeps per step\n")
}

// loadavg returns /proc/loadavg's first three fields ("?" elsewhere).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// triadWord says what a count of resonant triads means (--measure).
func triadWord(n int) string {
	if n == 0 {
		return "not hexagons"
	}
	return "hexagonal"
}

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"impactsim/par"
	"impactsim/patterns"
	"impactsim/spheres"
)

// patternOpts are the layer flags shared by `patterns` and `bench patterns`.
type patternOpts struct {
	pattern            string
	n                  int
	dt, sigma, depth   float64
	operator, friction string
	workers            int
	seed               uint64
}

func (o *patternOpts) register(fs *flag.FlagSet, pattern string) {
	fs.StringVar(&o.pattern, "pattern", pattern, "Fig. 12 point: `hexagons` (f* = 0.38, Γ = 4), squares (0.27, 3), stripes (0.44, 3)"+map[bool]string{true: " or all", false: ""}[pattern == "all"])
	countVar(fs, &o.n, "n", 60000, 1, 1e8, "number of spheres (Bizon et al.: 60,000)")
	fs.Float64Var(&o.dt, "dt", 3e-4, "time step (s)")
	fs.Float64Var(&o.sigma, "sigma", 1e-3, "sphere diameter σ (m)")
	fs.Float64Var(&o.depth, "depth", 5.4, "layer depth H/σ (the periodic cell's side is σ√(n/depth))")
	fs.StringVar(&o.operator, "operator", "gr", "impact operator: "+strings.Join(spheresOperators(), ", "))
	fs.StringVar(&o.friction, "friction", "alg3", "friction law: `alg3` (maximal dissipation, Smith et al. Alg. 3) or blcp (boxed LCP, Zhang et al.)")
	countVar(fs, &o.workers, "workers", 0, 0, maxWorkers, "goroutines (0: GOMAXPROCS); results do not depend on it")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the initial lattice's jitter and velocities")
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

// layer builds the layer of point p (bad flags: exit 2).
func (o *patternOpts) layer(name string, p patterns.Point) (*patterns.Layer, error) {
	c := patterns.DefaultConfig(p)
	c.N, c.H, c.Sigma, c.Depth, c.Operator, c.Friction, c.Seed = o.n, o.dt, o.sigma, o.depth, o.operator, o.friction, o.seed
	if err := c.Check(); err != nil {
		return nil, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if mem, ok := physicalMemory(); ok && float64(o.n)*4096 > mem {
		return nil, badInput("%s: --n %d needs about %s, more than this machine's %s", name, o.n, fmtBytes(float64(o.n)*4096), fmtBytes(mem))
	}
	return patterns.New(c)
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
	if _, err := parse(fs, args); err != nil {
		return err
	}
	pts, err := o.points("patterns")
	if err != nil {
		return err
	}
	if !(*cycles > 0) || math.IsInf(*cycles, 0) || !(*every > 0) || math.IsInf(*every, 0) {
		return badInput("patterns: --cycles and --sample-every: expected positive numbers, got %v and %v", *cycles, *every)
	}
	pool := par.New(o.workers)
	defer pool.Close()
	for _, p := range pts {
		y, err := o.layer("patterns", p)
		if err != nil {
			return err
		}
		y.SetPool(pool)
		dir := filepath.Join(*out, p.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		ro := patterns.RunOptions{Cycles: *cycles, SampleEvery: *every, Dir: dir}
		if !*quiet {
			ro.Progress = stderr
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
	fmt.Fprintf(w, "%-8s f* = %.2f, Γ = %.1f, %d spheres, h = %g, %s: %d steps (%.1f cycles); last sample λ = %.2fσ, λ/H = %.3f (dispersion %.3f, %+.1f %%), %d peaks (want %d), ring power %.2f; %.3f s/step (%.0f contacts, up to %d GR iterations), deepest floor overlap %.3fσ → %s\n",
		c.Point.Name, c.Point.FStar, c.Point.Gamma, c.N, c.H, spheres.Law{Operator: c.Operator, Friction: c.Friction}.Name(), res.Cost.Steps, y.Cycles(),
		last.Lambda, last.LambdaOverH, patterns.Dispersion(c.Point.FStar), 100*(last.LambdaOverH/patterns.Dispersion(c.Point.FStar)-1), last.Peaks, c.Point.Peaks, last.Contrast,
		res.Cost.Wall.Seconds()/float64(k), float64(res.Cost.Contacts)/float64(k), res.Cost.MaxIterations, res.Cost.MaxWallPenetration, dir)
}

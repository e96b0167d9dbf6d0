package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/rigid3d"
	"impactsim/sim"
)

// timedFriction wraps a friction operator and accumulates the time spent in
// it, so the bench can split the stepper's contact-law time into impact and
// friction.
type timedFriction struct {
	friction.Operator
	spent time.Duration
}

func (t *timedFriction) Resolve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	t0 := time.Now()
	st, err := t.Operator.Resolve(p, lambda, beta)
	t.spent += time.Since(t0)
	return st, err
}

// cmdBenchPile runs `bench pile`: n boxes or tori (rigid3d.Pile) falling
// into an open container, with per-step timings.
func cmdBenchPile(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench pile")
	kind := fs.String("kind", "box", "body kind: `box|mesh` (mesh: a torus of 1,040 triangles)")
	n := count(fs, "n", 1000, 1, 1e6, "number of bodies")
	steps := count(fs, "steps", 300, 1, 1e9, "number of steps")
	from := count(fs, "from", 0, 0, 1e9, "first step to include in the statistics")
	op := fs.String("operator", "gr", "impact operator")
	solver := fs.String("solver", "", "QP solver: `auto|dense|sparse|interior`")
	cor := fs.Float64("cor", 0.5, "coefficient of restitution")
	mu := fs.Float64("mu", 0, "friction coefficient (> 0 adds maximal-dissipation friction)")
	seed := fs.Uint64("seed", 1, "random seed of the initial jitter and orientations")
	quiet := fs.Bool("quiet", false, "no progress bar")
	cpuprofile := outFile(fs, "cpuprofile", "write a CPU profile (go tool pprof) to this file")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("bench pile: unexpected argument %q", pos[0])
	}
	if *kind != "box" && *kind != "mesh" {
		return badInput("bench pile: --kind: expected box or mesh, got %q", *kind)
	}
	if *n < 1 || *steps < 1 || *from < 0 || *from >= *steps {
		return badInput("bench pile: need --n ≥ 1, --steps ≥ 1 and 0 ≤ --from < --steps")
	}
	if !(*cor >= 0 && *cor <= 1) {
		return badInput("bench pile: --cor: expected 0 ≤ c ≤ 1, got %v", *cor)
	}
	if !(*mu >= 0) || *mu > 1e300 {
		return badInput("bench pile: --mu: expected a finite μ ≥ 0, got %v", *mu)
	}
	tBuild := time.Now()
	sys, err := rigid3d.Pile(*n, *kind, *cor, *seed)
	if err != nil {
		return usageError{fmt.Errorf("bench pile: %v", err)}
	}
	sys.Mu = *mu
	if err := sys.Validate(); err != nil {
		return usageError{fmt.Errorf("bench pile: %v", err)}
	}
	build := time.Since(tBuild).Seconds()
	imp, err := impact.New(impact.Config{Name: *op, Solver: solverName(*solver)})
	if err != nil {
		return badInput("bench pile: --operator: %v", err)
	}
	law := &sim.Staggered{Impact: imp}
	var fr *timedFriction
	if sys.Mu > 0 {
		f, err := friction.NewMaxDissipation(solverName(*solver))
		if err != nil {
			return badInput("bench pile: --solver: %v", err)
		}
		fr = &timedFriction{Operator: f}
		law.Friction = fr
	}
	st, err := sim.NewStepper(sys, law, rigid3d.PileDt, sys.Q, sys.V)
	if err != nil {
		return err
	}
	tris := 0
	if *kind == "mesh" {
		tris = len(sys.Shapes[0].Mesh.F)
	}

	source := fmt.Sprintf("builtin:pile_%s_%d", *kind, *n)
	prog := progress(stderr, *quiet, float64(*steps), "bench "+source)
	st.OnPhase = prog.Phase // a step that takes seconds shows its phase
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	var integ, detect, impt, fric, iters, cons minAvgMax
	start := time.Now()
	var stepErr error
	done := 0
	for i := 0; i < *steps; i++ {
		var f0 time.Duration
		if fr != nil {
			f0 = fr.spent
		}
		if err := st.Step(); err != nil {
			stepErr = err
			break
		}
		done = i + 1
		prog.Update(float64(i + 1))
		if i < *from {
			continue
		}
		l := st.Last
		var df time.Duration
		if fr != nil && l.Contacts > 0 {
			df = fr.spent - f0
		}
		integ.add(l.Integration.Seconds())
		detect.add(l.Detection.Seconds())
		impt.add((l.Impact - df).Seconds())
		fric.add(df.Seconds())
		iters.add(float64(l.Law.Iterations))
		cons.add(float64(l.Contacts))
	}
	prog.Finish()
	wall := time.Since(start).Seconds()
	shape := "cubes (edge 0.2)"
	if *kind == "mesh" {
		shape = fmt.Sprintf("tori (%d triangles each)", tris)
	}
	fmt.Fprintf(stdout, "pile of %d %s, operator %s, solver %s, c = %g, μ = %g, h = %g, steps %d–%d of %d, setup %.2f s, wall %.2f s, %s, %d cores (GOMAXPROCS %d), peak RSS %s\n\n",
		*n, shape, law.Name(), solverName(*solver), sys.CoR, sys.Mu, st.H, *from+1, done, *steps, build, wall, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), peakRSS())
	fmt.Fprintln(stdout, "| scene | bodies | detection avg / max / min (s) | impact avg / max / min (s) | friction avg / max / min (s) | integration avg / max / min (s) | iterations min / avg / max | contacts min / avg / max |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|")
	f := func(m minAvgMax) string { return fmt.Sprintf("%.3g / %.3g / %.3g", m.avg(), m.max, m.min) }
	g := func(m minAvgMax) string { return fmt.Sprintf("%.0f / %.1f / %.0f", m.min, m.avg(), m.max) }
	fs2 := "–"
	if fr != nil {
		fs2 = f(fric)
	}
	fmt.Fprintf(stdout, "| pile %s | %d | %s | %s | %s | %s | %s | %s |\n", *kind, *n, f(detect), f(impt), fs2, f(integ), g(iters), g(cons))
	if stepErr != nil {
		// The table above covers the steps that succeeded.
		return fmt.Errorf("bench pile: stopped after %d of %d steps: %w", done, *steps, stepErr)
	}
	return nil
}

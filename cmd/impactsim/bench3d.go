package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/output"
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
// into an open container, or n bunnies (rigid3d.BunnyPile, Fig. 9) in a
// closed one, with per-step timings; one run per --cor value. With --out
// it writes the energy over time and the per-step costs of every run
// (energy.csv, costs.csv) and the energy curves (energy.png).
func cmdBenchPile(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench pile")
	kind := fs.String("kind", "box", "body kind: `box|mesh|bunny` (mesh: a torus of 1,040 triangles; bunny: ../shared/meshes/bunny.obj in a closed box, Fig. 9)")
	n := count(fs, "n", 1000, 1, 1e6, "number of bodies")
	steps := count(fs, "steps", 300, 1, 1e9, "number of steps")
	from := count(fs, "from", 0, 0, 1e9, "first step to include in the statistics")
	op := fs.String("operator", "gr", "impact operator")
	solver := fs.String("solver", "", "QP solver: `auto|dense|sparse|interior`")
	corList := fs.String("cor", "0.5", "coefficient(s) of restitution, comma-separated: one run each")
	mu := fs.Float64("mu", 0, "friction coefficient (> 0 adds maximal-dissipation friction)")
	dt := fs.Float64("dt", 0, "time step (default: the scene's, 10⁻³)")
	seed := fs.Uint64("seed", 1, "random seed of the initial jitter and orientations")
	out := fs.String("out", "", "directory for energy.csv, costs.csv and energy.png (one curve per --cor)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	cpuprofile := outFile(fs, "cpuprofile", "write a CPU profile (go tool pprof) to this file")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("bench pile: unexpected argument %q", pos[0])
	}
	if *kind != "box" && *kind != "mesh" && *kind != "bunny" {
		return badInput("bench pile: --kind: expected box, mesh or bunny, got %q", *kind)
	}
	if *n < 1 || *steps < 1 || *from < 0 || *from >= *steps {
		return badInput("bench pile: need --n ≥ 1, --steps ≥ 1 and 0 ≤ --from < --steps")
	}
	var cors []float64
	for _, f := range strings.Split(*corList, ",") {
		c, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(c >= 0 && c <= 1) {
			return badInput("bench pile: --cor: expected 0 ≤ c ≤ 1 (comma-separated), got %q", f)
		}
		cors = append(cors, c)
	}
	if !(*mu >= 0) || *mu > 1e300 {
		return badInput("bench pile: --mu: expected a finite μ ≥ 0, got %v", *mu)
	}
	if !(*dt >= 0) || *dt > 1e300 {
		return badInput("bench pile: --dt: expected a finite time step > 0, got %v", *dt)
	}
	if _, err := impact.New(impact.Config{Name: *op, Solver: solverName(*solver)}); err != nil {
		return badInput("bench pile: --operator: %v", err)
	}
	var rec *pileRecord
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("bench pile: %w", err)
		}
		if rec, err = newPileRecord(*out); err != nil {
			return fmt.Errorf("bench pile: %w", err)
		}
		defer rec.abort()
	}
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	var bunny *rigid3d.Mesh // built once for all runs
	var frame rigid3d.Quat
	if *kind == "bunny" {
		if bunny, frame, err = sharedBunny(); err != nil {
			return err
		}
	}
	// A run whose step fails (an operator at its cap, say) ends there; the
	// other values of c still run, the files keep the steps that were
	// taken, and the command fails at the end.
	stopped := 0
	for k, cor := range cors {
		err := benchPileRun(pileRun{kind: *kind, n: *n, steps: *steps, from: *from, op: *op, solver: *solver,
			cor: cor, mu: *mu, dt: *dt, seed: *seed, quiet: *quiet, header: k == 0, rec: rec, mesh: bunny, frame: frame}, stdout, stderr)
		var se *stepStopped
		switch {
		case errors.As(err, &se):
			fmt.Fprintf(stderr, "impactsim: %v\n", err)
			stopped++
		case err != nil:
			return err
		}
	}
	if rec != nil {
		if err := rec.finish(*kind, *n, *mu); err != nil {
			return fmt.Errorf("bench pile: %w", err)
		}
		fmt.Fprintf(stdout, "\nwrote %s, %s and %s\n", filepath.Join(*out, "energy.csv"), filepath.Join(*out, "costs.csv"), filepath.Join(*out, "energy.png"))
	}
	if stopped > 0 {
		return fmt.Errorf("bench pile: %d of %d runs stopped at a failed step (above)", stopped, len(cors))
	}
	return nil
}

// stepStopped is a run of bench pile that stopped at a failed step.
type stepStopped struct {
	done, steps int
	err         error
}

func (e *stepStopped) Error() string {
	return fmt.Sprintf("bench pile: stopped after %d of %d steps: %v", e.done, e.steps, e.err)
}

func (e *stepStopped) Unwrap() error { return e.err }

// pileRun is one run of bench pile.
type pileRun struct {
	kind           string
	n, steps, from int
	op, solver     string
	cor, mu        float64
	dt             float64 // 0: the scene's
	seed           uint64
	quiet, header  bool
	rec            *pileRecord
	mesh           *rigid3d.Mesh // kind bunny: the bunny and its frame
	frame          rigid3d.Quat
}

func benchPileRun(r pileRun, stdout, stderr io.Writer) error {
	tBuild := time.Now()
	var sys *rigid3d.System
	var err error
	dt := rigid3d.PileDt
	if r.kind == "bunny" {
		sys, err = rigid3d.BunnyPile(r.mesh, r.frame, r.n, r.cor, r.mu, r.seed)
		dt = rigid3d.BunnyPileDt
	} else {
		sys, err = rigid3d.Pile(r.n, r.kind, r.cor, r.seed)
	}
	if err != nil {
		return usageError{fmt.Errorf("bench pile: %v", err)}
	}
	if r.dt > 0 {
		dt = r.dt
	}
	sys.Mu = r.mu
	if err := sys.Validate(); err != nil {
		return usageError{fmt.Errorf("bench pile: %v", err)}
	}
	build := time.Since(tBuild).Seconds()
	imp, err := impact.New(impact.Config{Name: r.op, Solver: solverName(r.solver)})
	if err != nil {
		return badInput("bench pile: --operator: %v", err)
	}
	law := &sim.Staggered{Impact: imp}
	var fr *timedFriction
	if sys.Mu > 0 {
		f, err := friction.NewMaxDissipation(solverName(r.solver))
		if err != nil {
			return badInput("bench pile: --solver: %v", err)
		}
		fr = &timedFriction{Operator: f}
		law.Friction = fr
	}
	st, err := sim.NewStepper(sys, law, dt, sys.Q, sys.V)
	if err != nil {
		return err
	}
	tris := 0
	if r.kind != "box" {
		tris = len(sys.Shapes[0].Mesh.F)
	}

	source := fmt.Sprintf("builtin:pile_%s_%d c=%g", r.kind, r.n, r.cor)
	prog := progress(stderr, r.quiet, float64(r.steps), "bench "+source)
	st.OnPhase = prog.Phase // a step that takes seconds shows its phase
	var integ, detect, impt, fric, iters, cons minAvgMax
	start := time.Now()
	var stepErr error
	done := 0
	if r.rec != nil {
		if err := r.rec.energy(r.cor, st, sys, nil); err != nil {
			return fmt.Errorf("bench pile: %w", err)
		}
	}
	for i := 0; i < r.steps; i++ {
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
		l := st.Last
		var df time.Duration
		if fr != nil && l.Contacts > 0 {
			df = fr.spent - f0
		}
		if r.rec != nil {
			if err := r.rec.energy(r.cor, st, sys, &l); err != nil {
				return fmt.Errorf("bench pile: %w", err)
			}
			if err := r.rec.costs.Write(r.cor, float64(st.N), l.Detection.Seconds(), (l.Impact - df).Seconds(), df.Seconds(),
				l.Integration.Seconds(), float64(l.Contacts), float64(l.Law.Iterations)); err != nil {
				return fmt.Errorf("bench pile: %w", err)
			}
		}
		if i < r.from {
			continue
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
	switch r.kind {
	case "mesh":
		shape = fmt.Sprintf("tori (%d triangles each)", tris)
	case "bunny":
		shape = fmt.Sprintf("bunnies (%d triangles each) in a closed box", tris)
	}
	if r.header {
		fmt.Fprintf(stdout, "%s, %d cores (GOMAXPROCS %d)\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	}
	fmt.Fprintf(stdout, "pile of %d %s, operator %s, solver %s, c = %g, μ = %g, h = %g, steps %d–%d of %d, setup %.2f s, wall %.2f s, peak RSS %s\n\n",
		r.n, shape, law.Name(), solverName(r.solver), sys.CoR, sys.Mu, st.H, r.from+1, done, r.steps, build, wall, peakRSS())
	fmt.Fprintln(stdout, "| scene | bodies | detection avg / max / min (s) | impact avg / max / min (s) | friction avg / max / min (s) | integration avg / max / min (s) | iterations min / avg / max | contacts min / avg / max |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|")
	f := func(m minAvgMax) string { return fmt.Sprintf("%.3g / %.3g / %.3g", m.avg(), m.max, m.min) }
	g := func(m minAvgMax) string { return fmt.Sprintf("%.0f / %.1f / %.0f", m.min, m.avg(), m.max) }
	fs2 := "–"
	if fr != nil {
		fs2 = f(fric)
	}
	fmt.Fprintf(stdout, "| pile %s | %d | %s | %s | %s | %s | %s | %s |\n", r.kind, r.n, f(detect), f(impt), fs2, f(integ), g(iters), g(cons))
	if stepErr != nil {
		// The table above covers the steps that succeeded.
		return &stepStopped{done: done, steps: r.steps, err: stepErr}
	}
	return nil
}

// pileRecord holds bench pile's --out files: energy.csv (c, step, t,
// kinetic, potential, total, contacts) and costs.csv (c, step and the
// step's detection, impact, friction and integration seconds, contacts,
// iterations), one row per step of every run, and the curves of
// energy.png (total energy over time, one per c).
type pileRecord struct {
	dir            string
	energyW, costs *output.SeriesWriter
	curves         []output.Series
}

func newPileRecord(dir string) (*pileRecord, error) {
	e, err := output.NewSeriesWriter(filepath.Join(dir, "energy.csv"), []string{"c", "step", "t", "kinetic", "potential", "total", "contacts"})
	if err != nil {
		return nil, err
	}
	c, err := output.NewSeriesWriter(filepath.Join(dir, "costs.csv"), []string{"c", "step", "detection_s", "impact_s", "friction_s", "integration_s", "contacts", "iterations"})
	if err != nil {
		e.Abort()
		return nil, err
	}
	return &pileRecord{dir: dir, energyW: e, costs: c}, nil
}

// energy records the state of st (after step l; nil: the start).
func (p *pileRecord) energy(cor float64, st *sim.Stepper, sys *rigid3d.System, l *sim.StepStats) error {
	ke, pe := sys.KineticEnergy(st.Q, st.V), sys.PotentialEnergy(st.Q)
	contacts := 0.0
	if l == nil {
		p.curves = append(p.curves, output.Series{Name: fmt.Sprintf("c = %g", cor)})
	} else {
		contacts = float64(l.Contacts)
	}
	s := &p.curves[len(p.curves)-1]
	s.X, s.Y = append(s.X, st.T), append(s.Y, ke+pe)
	return p.energyW.Write(cor, float64(st.N), st.T, ke, pe, ke+pe, contacts)
}

func (p *pileRecord) finish(kind string, n int, mu float64) error {
	if err := p.energyW.Close(); err != nil {
		return err
	}
	if err := p.costs.Close(); err != nil {
		return err
	}
	p.energyW, p.costs = nil, nil
	title := fmt.Sprintf("%d %s bodies, mu = %g: total energy (Fig. 9)", n, kind, mu) // the plot font is ASCII
	return output.PlotSeries(filepath.Join(p.dir, "energy.png"), title, "t (s)", "energy (J)", p.curves)
}

// abort removes unfinished files (a run that stopped early).
func (p *pileRecord) abort() {
	if p.energyW != nil {
		p.energyW.Abort()
	}
	if p.costs != nil {
		p.costs.Abort()
	}
}

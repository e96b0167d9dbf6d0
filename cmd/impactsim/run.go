package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"impactsim/impact"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// runConfig is everything `run` needs, validated before any file is written.
type runConfig struct {
	sceneArg string
	end      float64
	opts     scenario.Options
	out      string
	frames   int
	vtk      bool
	quiet    bool
	strict   bool
	started  time.Time // when the command began (set-up counts in the wall time)

	// checkpoints: --save-state every --save-every steps, --resume
	saveState, resume string
	saveEvery         int
}

func parseRun(args []string) (*runConfig, error) {
	fs := newFlags("run")
	c := &runConfig{}
	var cor, mu optFloat
	fs.Float64Var(&c.end, "end", 0, "end time (default: the scene's, or 1 s)")
	fs.StringVar(&c.opts.Operator, "operator", "", "impact operator: "+strings.Join(impact.Names(), ", ")+" (default: the scene's)")
	fs.Var(&cor, "cor", "coefficient of restitution")
	fs.Var(&mu, "mu", "friction coefficient")
	fs.Float64Var(&c.opts.RestitutionV0, "cor-v0", 0, "velocity-dependent restitution: a contact approaching at speed v < `V0` gets e = 1 − (1 − c)(v/V0)^(3/4), c from V0 on (0: constant c)")
	fs.StringVar(&c.opts.Solver, "solver", "", "QP solver: `auto|dense|sparse|interior`")
	fs.StringVar(&c.out, "out", "", "output directory (default out/NAME)")
	countVar(fs, &c.frames, "frames", 500, 1, 1e9, "number of trajectory frames to save")
	fs.BoolVar(&c.vtk, "vtk", false, "also write VTK (.vtp + .pvd) for ParaView (under mpirun: a .vtp piece per rank and a .pvtp index per frame)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	countVar(fs, &c.opts.MaxIter, "max-iter", 0, 0, 1e9, "operator iteration cap (default 100000)")
	fs.BoolVar(&c.strict, "strict", false, "stop at a step whose contact law reaches its iteration cap (default: record it and go on)")
	saveState := outFile(fs, "save-state", "checkpoint: write the state (step, t, q, v bit for bit) to this file every --save-every steps, replacing the last one (under mpirun the whole system's, readable on any rank count)")
	countVar(fs, &c.saveEvery, "save-every", 0, 0, 1e12, "steps between checkpoints of --save-state")
	resume := inFile(fs, "resume", "start from a checkpoint of --save-state for the same scene and law, and run on to --end")
	var law string
	var eps optFloat
	nb := &scenario.NBGSOptions{}
	fs.StringVar(&law, "law", "", "`nbgs-maxdiss|nbgs-coulomb`: Preclik et al.'s impulse-velocity time stepping with non-linear block Gauss–Seidel (3D; --max-iter caps the sweeps)")
	fs.Var(&eps, "epsilon", "nbgs: error reduction `E` in [0, 1) of the gap term")
	fs.Float64Var(&nb.Tol, "tol", 0, "nbgs: tolerance (> 0) on the largest change of a contact's relative velocity in a sweep (m/s)")
	countVar(fs, &nb.Domains, "domains", 0, 0, 1e6, "nbgs: domains of the Gauss–Seidel/weighted-Jacobi blend (≥ 1; 1: plain Gauss–Seidel)")
	fs.Float64Var(&nb.Relax, "relax", 0, "nbgs: relaxation ω in (0, 1] of the Jacobi exchange between domains")
	fs.StringVar(&c.opts.Correction.Mode, "position-correction", "", "on, ngs or off: move positions out of penetration after every step, velocities untouched — on: the minimal mass-weighted displacement (or the scene's method), ngs: nonlinear Gauss–Seidel sweeps (ball2d; cheaper, not minimal) (default: the scene's <position_correction>; on for built-in scenes with gravity, off for SCISim files)")
	fs.Float64Var(&c.opts.Correction.Tol, "correction-tol", 0, "position correction: overlap tolerance, a length (0: the scene's, else 1e-5 of the smallest radius)")
	countVar(fs, &c.opts.Correction.MaxPasses, "correction-passes", 0, 0, 1000, "position correction: projection passes per step at most (0: the scene's, else 8)")
	countVar(fs, &c.opts.Correction.MaxSweeps, "correction-sweeps", 0, 0, 1000000, "position correction ngs: sweeps per step at most (0: the scene's, else 1000); a step still above the tolerance goes on and is recorded (--strict: an error)")
	redetectFlags(fs, &c.opts.Correction, "")
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if err := nbgsFlags(fs, law, eps, nb, &c.opts); err != nil {
		return nil, err
	}
	if len(pos) != 1 {
		return nil, badInput("run: expected one SCENE argument, got %d", len(pos))
	}
	c.sceneArg = pos[0]
	c.opts.CoR, c.opts.Mu = cor.v, mu.v
	c.saveState, c.resume = *saveState, *resume
	if (c.saveState == "") != (c.saveEvery == 0) {
		return nil, badInput("run: --save-state and --save-every go together")
	}
	if c.end < 0 || math.IsNaN(c.end) || math.IsInf(c.end, 0) {
		return nil, badInput("run: --end: expected a finite time ≥ 0, got %v", c.end)
	}
	if c.opts.MaxIter < 0 {
		return nil, badInput("run: --max-iter: expected a positive cap, got %d", c.opts.MaxIter)
	}
	if err := checkCorrectionFlags("run", c.opts.Correction); err != nil {
		return nil, err
	}
	if c.frames < 1 {
		return nil, badInput("run: --frames: expected at least 1, got %d", c.frames)
	}
	if v := c.opts.RestitutionV0; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, badInput("run: --cor-v0: expected a positive finite speed (or 0: constant restitution), got %v", v)
	}
	return c, nil
}

// nbgsFlags checks the nbgs flags of run and sets opts.NBGS when any was
// given.
func nbgsFlags(fs *flag.FlagSet, law string, eps optFloat, nb *scenario.NBGSOptions, opts *scenario.Options) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["law"] && !given["epsilon"] && !given["tol"] && !given["domains"] && !given["relax"] {
		return nil
	}
	switch law {
	case "":
	case "nbgs-maxdiss", "nbgs-coulomb":
		nb.Select, nb.Block = true, strings.TrimPrefix(law, "nbgs-")
	default:
		return badInput("run: --law: expected nbgs-maxdiss or nbgs-coulomb, got %q", law)
	}
	if eps.v != nil {
		if e := *eps.v; !(e >= 0 && e < 1) {
			return badInput("run: --epsilon: expected an error reduction in [0, 1), got %v", e)
		}
		nb.Epsilon = eps.v
	}
	if given["tol"] && !(nb.Tol > 0) {
		return badInput("run: --tol: expected a tolerance > 0, got %v", nb.Tol)
	}
	if given["domains"] && nb.Domains < 1 {
		return badInput("run: --domains: expected at least 1, got %d", nb.Domains)
	}
	if given["relax"] && !(nb.Relax > 0 && nb.Relax <= 1) {
		return badInput("run: --relax: expected a relaxation in (0, 1], got %v", nb.Relax)
	}
	opts.NBGS = nb
	return nil
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	started := time.Now()
	c, err := parseRun(args)
	if err != nil {
		return err
	}
	c.started = started
	if mp, err := underMpirun("run"); err != nil || mp {
		if err != nil {
			return err
		}
		return runMPI(c, stdout, stderr)
	}
	if !c.quiet {
		c.opts.Setup = stderr // bars for set-up that takes seconds (meshes)
	}
	sys, name, end, err := openScene(c.sceneArg, c.opts, stderr)
	if err != nil {
		return err
	}
	if c.out == "" {
		c.out = filepath.Join("out", name)
	}
	if c.end == 0 {
		c.end = end
	}
	if c.end == 0 {
		c.end = 1
	}
	return runAndReport(sys, c, stdout, stderr)
}

// runAndReport runs sys with the driver and prints its summary (stdout)
// and the capped-steps warning (stderr).
func runAndReport(sys runner.System, c *runConfig, stdout, stderr io.Writer) error {
	if cl, ok := sys.(interface{ Close() }); ok {
		defer cl.Close()
	}
	for _, w := range sys.Info().Warnings {
		if c.strict {
			return badInput("run: %s: %s (--strict makes this warning an error)", sys.Info().Scene, w)
		}
		fmt.Fprintf(stderr, "impactsim: warning: %s\n", w)
	}
	st := sys.Stepper()
	if c.resume != "" && st.N == 0 {
		if err := readStateAs("run", st, c.resume, sys.Info().Scene); err != nil {
			return err
		}
	}
	if c.saveState != "" {
		tag := sys.Info().Scene
		st.AddHook(sim.Hook{Name: "checkpoint", End: func(s *sim.Stepper) error {
			if s.N%c.saveEvery != 0 {
				return nil
			}
			if d, ok := sys.(runner.Distributed); ok {
				if err := d.Sync(); err != nil {
					return err
				}
			}
			return writeStateAs("run", s, c.saveState, tag)
		}})
	}
	res, err := runner.Run(sys, runner.Config{Out: c.out, End: c.end, Frames: c.frames, VTK: c.vtk,
		Quiet: c.quiet, Strict: c.strict, Progress: stderr, Started: c.started})
	var ie *runner.InputError
	if errors.As(err, &ie) {
		return badInput("run: %s: %v", c.sceneArg, err)
	}
	if res != nil {
		res.Print(stdout)
		if w := res.Warning(); w != "" {
			for _, l := range strings.Split(w, "\n") {
				fmt.Fprintf(stderr, "impactsim: %s\n", l)
			}
		}
	}
	return err
}

// openScene reads the scene of a run: builtin:NAME, or a SCISim XML file
// dispatched on its root element. It returns the system, the run's
// default name and the scene's end time (0 if it has none). Every error is
// bad input; the reader's warnings (input SCISim accepts leniently) go to
// warn, one line each.
func openScene(arg string, opts scenario.Options, warn io.Writer) (sys runner.System, name string, end float64, err error) {
	if b, ok := strings.CutPrefix(arg, "builtin:"); ok {
		mk, found := builtins3D[b]
		if !found {
			mk.make, found = parametricBuiltin3D(b)
			mk.op = "grr"
		}
		if found {
			s, dt, err := mk.make()
			if err != nil {
				return nil, "", 0, err
			}
			if mk.op == "nbgs" && opts.Operator == "" {
				// the scene's law: NBGS unless --law chose a block law
				nb := scenario.NBGSOptions{}
				if opts.NBGS != nil {
					nb = *opts.NBGS
				}
				nb.Select = true
				opts.NBGS = &nb
			}
			r, err := scenario.NewRigid3DSystem(s, dt, arg, mk.op, opts)
			if err != nil {
				return nil, "", 0, usageError{err}
			}
			return runner.Rigid3D(r), b, 0, nil
		}
	} else if root, err := scene.RootElement(arg); err == nil {
		switch root {
		case "rigidbody3d_scene":
			sc, err := scene.LoadRigidBody3D(arg)
			if err != nil {
				return nil, "", 0, usageError{err}
			}
			printWarnings(warn, sc.Warnings)
			r, err := scenario.NewRigid3D(sc, opts)
			if err != nil {
				return nil, "", 0, usageError{err}
			}
			return runner.Rigid3D(r), fileStem(arg), sc.EndTime, nil
		case "rigidbody2d_scene":
			sc, err := scene.LoadRigidBody2D(arg)
			if err != nil {
				return nil, "", 0, usageError{err}
			}
			printWarnings(warn, sc.Warnings)
			r, err := scenario.NewRigid2D(sc, opts)
			if err != nil {
				return nil, "", 0, usageError{err}
			}
			return runner.Rigid2D(r), fileStem(arg), sc.EndTime, nil
		}
	}
	sc, name, err := loadScene(arg)
	if err != nil {
		return nil, "", 0, err
	}
	printWarnings(warn, sc.Warnings)
	r, err := scenario.NewBall2D(sc, opts)
	if err != nil {
		return nil, "", 0, usageError{err}
	}
	return runner.Ball2D(r), name, sc.EndTime, nil
}

func printWarnings(w io.Writer, warnings []string) {
	for _, l := range warnings {
		fmt.Fprintf(w, "impactsim: warning: %s\n", l)
	}
}

func fileStem(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// checkCorrectionFlags checks --position-correction, --correction-tol,
// --correction-passes and --correction-sweeps of command cmd.
func checkCorrectionFlags(cmd string, c scenario.CorrectionOptions) error {
	switch {
	case c.Mode != "" && c.Mode != "on" && c.Mode != "off" && c.Mode != "ngs":
		return badInput("%s: --position-correction: expected on, ngs or off, got %q", cmd, c.Mode)
	case !(c.Tol >= 0) || math.IsInf(c.Tol, 0):
		return badInput("%s: --correction-tol: expected a finite length > 0, got %v", cmd, c.Tol)
	case c.MaxPasses < 0:
		return badInput("%s: --correction-passes: expected at least 1, got %d", cmd, c.MaxPasses)
	case c.MaxSweeps < 0:
		return badInput("%s: --correction-sweeps: expected at least 1, got %d", cmd, c.MaxSweeps)
	case c.Redetect != "" && c.Redetect != "on" && c.Redetect != "off":
		return badInput("%s: --redetect: expected on or off, got %q", cmd, c.Redetect)
	case c.MirrorOrder != "" && c.MirrorOrder != "on" && c.MirrorOrder != "off":
		return badInput("%s: --mirror-order: expected on or off, got %q", cmd, c.MirrorOrder)
	}
	return nil
}

// redetectFlags defines --redetect and --redetect-rounds (the closed
// active set, sim.Closure) and --mirror-order (ball2d's mirror-invariant
// contact order) into c; def is --redetect's and --mirror-order's default.
func redetectFlags(fs *flag.FlagSet, c *scenario.CorrectionOptions, def string) {
	fs.StringVar(&c.Redetect, "redetect", def, "on or off: close every step's active set under the law's velocity — detect again on the motion v⁺ gives and solve the step again on the larger set until nothing joins (ball2d; off: Alg. 4's active set, found on the free-flight prediction, as SCISim)")
	fs.StringVar(&c.MirrorOrder, "mirror-order", def, "on or off: list every step's contacts in a mirror-invariant order (by the sum of the balls' heights, then the distance of their horizontal sum from the mirror axis) instead of the detection's ball-index order, so a mirror-symmetric pile stays exactly symmetric (ball2d; run's default: on for impactsim's built-in scenes with gravity, where the position correction is on by default, with or without it, and off, SCISim's order, for SCISim's files; on costs a few % of the 10K drop)")
	countVar(fs, &c.RedetectRounds, "redetect-rounds", 0, 0, 1000, "closed active set: re-solves per step at most (0: the scene's, else 16); a step still growing at the cap goes on and is recorded (--strict: an error)")
}

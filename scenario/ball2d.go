package scenario

import (
	"fmt"
	"io"
	"math"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/par"
	"impactsim/scene"
	"impactsim/script"
	"impactsim/sim"
)

// Options override parts of a scene. Zero values mean "as in the scene".
type Options struct {
	Operator string   // impact operator name (impact.Names())
	CoR      *float64 // restitution for every contact
	Mu       *float64 // friction coefficient for every contact
	Solver   string   // QP solver: auto, dense, sparse
	VTol     float64  // GR/pairwise approach tolerance
	MaxIter  int      // operator iteration cap
	// Workers is the number of goroutines of the step loop (0 or 1: the
	// calling goroutine only; negative: GOMAXPROCS). Ball states do not
	// depend on it.
	Workers int
	// WarmStart starts GR's and LCP's island solves from the contacts'
	// impulses at the previous steps (impact.Config.WarmStart).
	WarmStart bool
	// RestitutionV0, when positive, makes restitution velocity dependent
	// (impact.VelocityRestitution with this v₀, the contacts'
	// coefficients as e₀), after any script has set them.
	RestitutionV0 float64
	// NBGS selects and configures Preclik et al.'s impulse-velocity time
	// stepping with non-linear block Gauss–Seidel (3D only); nil: the
	// scene's law.
	NBGS *NBGSOptions
	// Setup receives progress bars of the scene's set-up that takes
	// seconds (meshes' signed distance fields); nil: none.
	Setup io.Writer
	// Correction sets the position correction (sim.Correction) after every
	// step; zero values: the scene's <position_correction> or the default.
	Correction CorrectionOptions
}

// NBGSOptions are the command line's settings of the NBGS law (--law
// nbgs-maxdiss|nbgs-coulomb, --epsilon, --tol, --domains, --relax; the
// sweep cap is Options.MaxIter). Zero values keep the scene's setting, or
// the default when the scene has none.
type NBGSOptions struct {
	// Select (--law) makes the run use the NBGS law whatever the scene
	// says; without it the settings apply to a scene's
	// <nbgs_friction_solver> only.
	Select  bool
	Block   string   // maxdiss or coulomb
	Epsilon *float64 // error reduction ε ∈ [0, 1)
	Tol     float64  // > 0
	Domains int      // ≥ 1
	Relax   float64  // in (0, 1]
}

// override validates the --cor and --mu options and, when set, writes them
// over a system's restitution and friction coefficients.
func (opt Options) override(cor, mu *float64) error {
	if opt.CoR != nil {
		if c := *opt.CoR; !(c >= 0 && c <= 1) {
			return fmt.Errorf("option --cor: expected a restitution coefficient in [0, 1], got %v", c)
		}
		*cor = *opt.CoR
	}
	if opt.Mu != nil {
		if m := *opt.Mu; !(m >= 0) || math.IsInf(m, 0) {
			return fmt.Errorf("option --mu: expected a finite friction coefficient ≥ 0, got %v", m)
		}
		*mu = *opt.Mu
	}
	return nil
}

// Ball2D is a runnable 2D ball scene.
type Ball2D struct {
	Scene   *scene.Ball2DScene
	Sys     *ball2d.System
	Law     sim.ContactLaw
	Stepper *sim.Stepper
	// Pool runs the step loop's parallel parts (nil when serial).
	Pool *par.Pool
	// Mapping says in words how the scene's configuration was mapped onto
	// impactsim's operators (for summaries).
	Mapping string
	// Warnings are the law's warnings (qce with restitution below 1),
	// one line each, for the command to print.
	Warnings []string
}

// solverFor maps a SCISim solver name onto an impactsim QP solver name.
func solverFor(opt Options) string {
	if opt.Solver != "" {
		return opt.Solver
	}
	return "auto"
}

func impactConfig(c *scene.ImpactOperatorConfig, opt Options) *impact.Config {
	if c == nil {
		return nil
	}
	cfg := &impact.Config{Name: c.Type, VTol: c.VTol, Solver: solverFor(opt), MaxIter: opt.MaxIter, WarmStart: opt.WarmStart}
	if opt.VTol > 0 {
		cfg.VTol = opt.VTol
	}
	cfg.Elastic = impactConfig(c.Elastic, opt)
	cfg.Inelastic = impactConfig(c.Inelastic, opt)
	return cfg
}

// NewBall2D builds the system, law and stepper for sc with options opt.
// Every error is a bad-input error (scene or option), reported before any
// output is produced.
func NewBall2D(sc *scene.Ball2DScene, opt Options) (*Ball2D, error) {
	sys, err := ball2d.FromScene(sc)
	if err != nil {
		return nil, err
	}
	if err := opt.override(&sys.CoR, &sys.Mu); err != nil {
		return nil, err
	}
	r := &Ball2D{Scene: sc, Sys: sys}
	cs := correctionScene{source: sc.Source, elem: sc.Correction, own: ownScene(sc.Source),
		gravity: sys.Gravity != [2]float64{}, scale: ball2dScale(sys), redetect: sc.Redetect}
	mirror, why, err := cs.mirrorOrder(sc.MirrorOrderLine, opt.Correction.MirrorOrder)
	if err != nil {
		return nil, err
	}
	sys.MirrorOrder = mirror
	if opt.Operator != "" {
		sys.NoFrictionBasis = !(sys.Mu > 0) // impact only: nothing reads D
	}
	law, st, err := lawStepper(sys, sceneLaw{source: sc.Source, impact: &sc.ImpactOperator, friction: &sc.Friction,
		dt: sc.Integrator.Dt, dtLine: sc.Integrator.Line, corr: cs}, sys.Q, sys.V, sys.Mu, sys.CoR, opt, &r.Mapping, &r.Warnings)
	if err != nil {
		return nil, err
	}
	r.Law = law
	r.Stepper = st
	if sys.MirrorOrder {
		r.Mapping += ", contacts in the mirror-invariant order (" + why + ")"
	}
	if err := driveScene(st, sc.Source, func() error { return ball2dMotions(sc, sys, st) }, sc.Script,
		func(path string) (*script.Program, error) { return script.Balls2D(path, sys) }, opt); err != nil {
		return nil, err
	}
	if opt.Workers < 0 || opt.Workers > 1 {
		r.Pool = par.New(max(opt.Workers, 0))
		st.SetPool(r.Pool)
	}
	return r, nil
}

func firstPositive(xs ...float64) float64 {
	for _, x := range xs {
		if x > 0 {
			return x
		}
	}
	return 0
}

// Close stops the worker goroutines (if any). The scene must not be stepped
// afterwards.
func (r *Ball2D) Close() {
	if r.Pool != nil {
		r.Stepper.SetPool(nil)
		r.Pool.Close()
		r.Pool = nil
	}
}

// ball2dScale returns the smallest radius of the movable balls (0: none).
func ball2dScale(sys *ball2d.System) float64 {
	r := math.Inf(1)
	for i, ri := range sys.R {
		if !sys.Fixed[i] {
			r = math.Min(r, ri)
		}
	}
	if math.IsInf(r, 1) {
		return 0
	}
	return r
}

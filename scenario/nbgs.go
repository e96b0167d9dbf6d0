package scenario

import (
	"fmt"

	"impactsim/friction"
	"impactsim/rigid3d"
	"impactsim/scene"
	"impactsim/sim"
)

// nbgsStepper builds Preclik et al.'s impulse-velocity time stepping with
// the NBGS law for sys from the scene's <nbgs_friction_solver> (cfg, nil
// when the scene has none) and the command line (opt.NBGS, opt.MaxIter,
// opt.Mu, opt.CoR), and appends the mapping. The law is purely inelastic:
// restitution other than 0 is an error.
func nbgsStepper(sys *rigid3d.System, cfg *scene.FrictionConfig, dt float64, opt Options, mapping *string) (*friction.NBGS, *sim.Stepper, error) {
	law := &friction.NBGS{}
	eps := 0.0
	from := "command line or built-in"
	if cfg != nil {
		b, err := friction.ParseBlockLaw(cfg.Block)
		if err != nil {
			return nil, nil, err
		}
		law.Block, law.Tol, law.MaxIter, law.Domains, law.Relax = b, cfg.Tol, cfg.MaxIters, cfg.Domains, cfg.Relax
		eps = cfg.Epsilon
		sys.Mu, sys.CoR = cfg.Mu, cfg.CoR
		from = "scene"
	}
	if o := opt.NBGS; o != nil {
		if o.Block != "" {
			b, err := friction.ParseBlockLaw(o.Block)
			if err != nil {
				return nil, nil, fmt.Errorf("option --law: %w", err)
			}
			law.Block = b
		}
		if o.Epsilon != nil {
			if e := *o.Epsilon; !(e >= 0 && e < 1) {
				return nil, nil, fmt.Errorf("option --epsilon: expected an error reduction in [0, 1), got %v", e)
			}
			eps = *o.Epsilon
		}
		if o.Tol != 0 {
			if !(o.Tol > 0) {
				return nil, nil, fmt.Errorf("option --tol: expected a tolerance > 0, got %v", o.Tol)
			}
			law.Tol = o.Tol
		}
		if o.Domains != 0 {
			if o.Domains < 1 {
				return nil, nil, fmt.Errorf("option --domains: expected at least 1, got %d", o.Domains)
			}
			law.Domains = o.Domains
		}
		if o.Relax != 0 {
			if !(o.Relax > 0 && o.Relax <= 1) {
				return nil, nil, fmt.Errorf("option --relax: expected a relaxation in (0, 1], got %v", o.Relax)
			}
			law.Relax = o.Relax
		}
	}
	if opt.MaxIter > 0 {
		law.MaxIter = opt.MaxIter
	}
	if err := opt.override(&sys.CoR, &sys.Mu); err != nil {
		return nil, nil, err
	}
	switch {
	case opt.CoR != nil && *opt.CoR != 0:
		return nil, nil, fmt.Errorf("option --cor: the nbgs law is purely inelastic: expected 0, got %g", *opt.CoR)
	case sys.CoR != 0:
		return nil, nil, fmt.Errorf("option --law: the nbgs law is purely inelastic, but the scene's restitution is %g (pass --cor 0)", sys.CoR)
	}
	if err := law.Check(); err != nil {
		return nil, nil, err
	}
	if err := sys.Validate(); err != nil {
		return nil, nil, err
	}
	// the scheme's own semi-implicit Euler (Kick, Drift) replaces the
	// system's free flight; say so in the run's summary
	sys.Integrator = rigid3d.SymplecticEuler
	st, err := sim.NewImpulseVelocityStepper(sys, law, dt, eps, sys.Q, sys.V)
	if err != nil {
		return nil, nil, err
	}
	tol, maxIter, domains, relax := law.Params()
	*mapping = fmt.Sprintf("%s nbgs law (Preclik et al.: impulse-velocity time stepping, semi-implicit Euler, error reduction ε = %g), %s blocks, μ = %g, tol %g, at most %d sweeps, %d domains (relaxation %g)",
		from, eps, law.Block, sys.Mu, tol, maxIter, domains, relax)
	return law, st, nil
}

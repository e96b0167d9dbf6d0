package scenario

import (
	"fmt"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/scene"
	"impactsim/sim"
)

// sceneLaw is what every system's scene says about its contact law.
type sceneLaw struct {
	source   string
	impact   *scene.ImpactOperatorConfig // Type "" if absent
	friction *scene.FrictionConfig       // Kind "" if absent
	dt       float64
	dtLine   int
	// fallback is the law of a scene with neither an impact operator nor
	// a friction solver (nil: gr), and its mapping text.
	fallback        sim.ContactLaw
	fallbackMapping string
	// corr is what the scene says about the position correction.
	corr correctionScene
}

// lawStepper maps a scene's contact-law settings and the options onto a
// law and builds the stepper for sys, the same way for every system:
//
//   - --operator: that impact operator, then maximal-dissipation friction
//     (Alg. 3) when μ > 0;
//   - the scene's impact_operator: the same, with its settings;
//   - the scene's SCISim friction solver: the coupled Coulomb law
//     (friction.Coulomb with its tol, max_iters and eval_every) and the
//     solver's staggering;
//   - none: the fallback (gr unless the system says otherwise).
//
// mu and cor are the system's coefficients after the options; mapping
// receives the sentence that says what was chosen, warnings the law's
// warnings (impact.RestitutionWarning: qce with c < 1), one line each.
func lawStepper(sys sim.System, sl sceneLaw, q, v []float64, mu, cor float64, opt Options, mapping *string, warnings *[]string) (sim.ContactLaw, *sim.Stepper, error) {
	solver := solverFor(opt)
	var law sim.ContactLaw
	var err error
	switch {
	case opt.Operator != "":
		op, err := impact.New(impact.Config{Name: opt.Operator, VTol: firstPositive(opt.VTol, sl.impact.VTol), Solver: solver, MaxIter: opt.MaxIter, WarmStart: opt.WarmStart})
		if err != nil {
			return nil, nil, fmt.Errorf("option --operator: %w", err)
		}
		*mapping = fmt.Sprintf("operator %s (command line), QP solver %s", op.Name(), solver)
		if w := impact.RestitutionWarning(op.Name(), cor, opt.RestitutionV0 > 0); w != "" {
			*warnings = append(*warnings, w)
		}
		law, err = withFriction(op, mu, solver, mapping)
		if err != nil {
			return nil, nil, err
		}
	case sl.impact.Type != "":
		op, err := impact.New(*impactConfig(sl.impact, opt))
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: impact_operator: %w", sl.source, sl.impact.Line, err)
		}
		*mapping = fmt.Sprintf("scene operator %s (SCISim solver %q → impactsim QP solver %s)", op.Name(), sl.impact.Solver, solver)
		law, err = withFriction(op, mu, solver, mapping)
		if err != nil {
			return nil, nil, err
		}
	case sl.friction.Kind != "":
		f := sl.friction
		law = &friction.Coulomb{Tol: f.Tol, MaxIter: f.MaxIters, EvalEvery: f.EvalEvery}
		*mapping = fmt.Sprintf("scene %s friction solver → impactsim coupled Coulomb law (coulomb), μ = %g, c = %g, tol %g", f.Kind, mu, cor, f.Tol)
	case sl.fallback != nil:
		law, *mapping = sl.fallback, sl.fallbackMapping
	default:
		op, _ := impact.New(impact.Config{Name: "gr", Solver: solver, MaxIter: opt.MaxIter, WarmStart: opt.WarmStart})
		*mapping = "no operator in the scene: gr"
		if law, err = withFriction(op, mu, solver, mapping); err != nil {
			return nil, nil, err
		}
	}
	st, err := sim.NewStepper(sys, law, sl.dt, q, v)
	if err != nil {
		return nil, nil, fmt.Errorf("%s:%d: integrator: %w", sl.source, sl.dtLine, err)
	}
	if opt.Operator == "" && sl.impact.Type == "" && sl.friction.Kind != "" {
		if err := setStaggering(st, sl.friction, cor, sl.source); err != nil {
			return nil, nil, err
		}
		*mapping += ", staggering " + st.Staggering().String()
	}
	if err := setCorrection(st, sl.corr, opt.correction(), mapping); err != nil {
		return nil, nil, err
	}
	return law, st, nil
}

// withFriction returns the law "impact operator op, then maximal-dissipation
// friction (Alg. 3) when μ > 0", appending the friction to mapping.
func withFriction(op impact.Operator, mu float64, solver string, mapping *string) (sim.ContactLaw, error) {
	st := &sim.Staggered{Impact: op}
	if mu > 0 {
		fr, err := friction.NewMaxDissipation(solver)
		if err != nil {
			return nil, fmt.Errorf("option --solver: %w", err)
		}
		st.Friction = fr
		*mapping += fmt.Sprintf(", maximal-dissipation friction (Alg. 3) with μ = %g", mu)
	}
	return st, nil
}

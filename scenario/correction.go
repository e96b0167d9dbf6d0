package scenario

import (
	"fmt"
	"impactsim/ball2d"
	"strings"

	"impactsim/scene"
	"impactsim/sim"
)

// CorrectionOptions are the command line's settings of the position
// correction (--position-correction on|off, --correction-tol,
// --correction-passes). Zero values keep the scene's setting or the
// default.
type CorrectionOptions struct {
	// Mode is "on", "ngs", "off" or "" (the scene's
	// <position_correction>, else the default: on for impactsim's own
	// scenes with gravity). "on" is the scene's method, else the
	// projection (sim.MethodProjection); "ngs" is sim.MethodNGS.
	Mode string
	// Tol is the overlap tolerance, a length (> 0); 0: the scene's, else
	// DefaultCorrectionTol times the smallest body's radius.
	Tol float64
	// MaxPasses caps the projection passes per step (≥ 1); 0: the
	// scene's, else sim.DefaultCorrectionPasses.
	MaxPasses int
	// MaxSweeps caps the ngs sweeps per step (≥ 1); 0: the scene's, else
	// sim.DefaultCorrectionSweeps.
	MaxSweeps int
	// Redetect is "on", "off" or "" (the scene's <redetect>, else off):
	// close every step's active set under the law's velocity
	// (sim.Closure; ball2d only).
	Redetect string
	// RedetectRounds caps the re-solves per step (≥ 1); 0: the scene's,
	// else sim.DefaultClosureRounds.
	RedetectRounds int
	// MirrorOrder is "on", "off" or "" (the scene's <mirror_order/>, else
	// the default: on where the correction is on by default, impactsim's
	// own scenes with gravity, whatever Mode says): list every step's
	// contacts in ball2d's mirror-invariant order
	// (ball2d.System.MirrorOrder; ball2d only).
	MirrorOrder string
	// solver is the run's QP solver (Options.Solver), used for the
	// projection's islands too.
	solver string
}

// DefaultCorrectionTol is the default overlap tolerance of the position
// correction relative to the smallest radius (bounding radius for rigid
// bodies) of the scene's movable bodies. It is above the overlap SCISim's
// scenes build in to make neighbours touch (radius 0.500001 at unit
// spacing: 4·10⁻⁶ of the radius), which the correction leaves alone.
const DefaultCorrectionTol = 1e-5

// DefaultCorrectionSearch is the default search distance of the position
// correction (sim.Correction.Search) relative to the smallest radius: a
// contact the step missed between bodies that moved less than it overlaps
// by less than 0.5 % of the radius (plus the tolerance).
const DefaultCorrectionSearch = 2.5e-3

// correctionScene is what a scene says about the position correction.
type correctionScene struct {
	source string
	// elem is the scene's <position_correction> (nil: none).
	elem *scene.CorrectionConfig
	// own is true for impactsim's built-in scenes (not SCISim's files,
	// which keep SCISim's semantics by default).
	own     bool
	gravity bool
	// scale is the smallest radius of the movable bodies (0: none).
	scale float64
	// redetect is the scene's <redetect> (nil: none; ball2d scenes).
	redetect *scene.RedetectConfig
}

// ownScene reports whether source names one of impactsim's built-in
// scenes (builtin:NAME, as the command line names them). Scenes straight
// from the generators ("generated:…", the tests' and Table 2's) keep the
// paper's Alg. 4 unless asked.
func ownScene(source string) bool {
	return strings.HasPrefix(source, "builtin:")
}

// mirrorOrder decides ball2d's mirror-invariant contact order
// (ball2d.System.MirrorOrder) from --mirror-order (opt: "on", "off" or
// ""), the scene's <mirror_order/> (line > 0) and the default, and says
// why:
//
//   - --mirror-order on|off decides; otherwise
//   - a <mirror_order/> element turns it on; otherwise
//   - it is on exactly where the position correction is on by default
//     (impactsim's own scenes with gravity), in their corrected and
//     uncorrected runs alike: the correction changes no velocity bit
//     against the same run without it, and the mirror-symmetric pile
//     stays exactly symmetric at least as long with the correction as
//     without (issue 18). SCISim's scene files and the generated scenes
//     (Table 2's bench) keep the detection's order, SCISim's, so their
//     parity rows and published numbers are unchanged.
func (cs correctionScene) mirrorOrder(line int, opt string) (on bool, why string, err error) {
	set, on, err := onOffOption("mirror-order", opt)
	switch {
	case err != nil:
		return false, "", err
	case set:
		return on, "command line", nil
	case line > 0:
		return true, "scene", nil
	case cs.own && cs.gravity:
		return true, "default for impactsim's scenes with gravity", nil
	}
	return false, "", nil
}

// setCorrection installs the position correction on st as the options, the
// scene and the default say, and appends what was chosen to mapping:
//
//   - --position-correction on|off decides; otherwise
//   - a <position_correction> element turns it on with its settings;
//     otherwise
//   - it is on for impactsim's own scenes with gravity (the drop of Table
//     2, box_drop, …) and off for SCISim's scene files, which keep SCISim's
//     semantics (its parity rows).
//
// The tolerance is --correction-tol, else the element's tol, else
// DefaultCorrectionTol times the smallest radius.
func setCorrection(st *sim.Stepper, cs correctionScene, opt CorrectionOptions, mapping *string) error {
	if err := setRedetect(st, cs, opt, mapping); err != nil {
		return err
	}
	if _, ok := st.Sys.(*ball2d.System); !ok && opt.MirrorOrder == "on" {
		return fmt.Errorf("option --mirror-order: only ball2d scenes have the mirror-invariant contact order (not %T)", st.Sys)
	}
	mode, method := opt.Mode, ""
	if mode == sim.MethodNGS {
		mode, method = "on", mode
	}
	set, on, err := onOffOption("position-correction", mode)
	if err != nil {
		return err
	}
	why := ""
	switch {
	case set:
		why = "command line"
	case cs.elem != nil:
		on, why = true, "scene"
	case cs.own && cs.gravity:
		on, why = true, "default for impactsim's scenes with gravity"
	}
	if !on {
		if why != "" {
			*mapping += ", position correction off (" + why + ")"
		}
		// A run that measures each step's deepest overlap
		// (Stepper.MeasureOverlap) searches for missed contacts as the
		// correction would.
		st.SetOverlapSearch(DefaultCorrectionSearch * cs.scale)
		return nil
	}
	c := sim.Correction{Project: true, Tol: opt.Tol, MaxPasses: opt.MaxPasses, MaxSweeps: opt.MaxSweeps, Method: method}
	if cs.elem != nil {
		if c.Tol == 0 {
			c.Tol = cs.elem.Tol
		}
		if c.MaxPasses == 0 {
			c.MaxPasses = cs.elem.MaxPasses
		}
		if c.MaxSweeps == 0 {
			c.MaxSweeps = cs.elem.MaxSweeps
		}
		if c.Method == "" {
			c.Method = cs.elem.Method
		}
	}
	if c.Tol == 0 {
		if !(cs.scale > 0) {
			// nothing moves: nothing to correct
			*mapping += ", position correction off (no movable body)"
			return nil
		}
		c.Tol = DefaultCorrectionTol * cs.scale
	}
	c.Search = DefaultCorrectionSearch * cs.scale
	c.Solver = solverFor(Options{Solver: opt.solver})
	if err := st.SetCorrection(&c); err != nil {
		if cs.elem != nil && opt.Mode == "" {
			return fmt.Errorf("%s:%d: position_correction: %w", cs.source, cs.elem.Line, err)
		}
		return fmt.Errorf("option --position-correction: %w", err)
	}
	c = st.Correction().Config()
	if c.Method == sim.MethodNGS {
		*mapping += fmt.Sprintf(", position correction (%s): ngs, tol %.3g, ≤ %d sweeps", why, c.Tol, c.MaxSweeps)
		return nil
	}
	*mapping += fmt.Sprintf(", position correction (%s): tol %.3g, ≤ %d passes", why, c.Tol, c.MaxPasses)
	return nil
}

// correction returns the correction options with the run's QP solver.
func (opt Options) correction() CorrectionOptions {
	c := opt.Correction
	c.solver = opt.Solver
	return c
}

// setRedetect closes every step's active set (sim.Closure) when
// --redetect on, or the scene's <redetect> without --redetect off, says so
// (off by default: Alg. 4's active set, SCISim's), and appends the choice
// to mapping.
func setRedetect(st *sim.Stepper, cs correctionScene, opt CorrectionOptions, mapping *string) error {
	set, on, err := onOffOption("redetect", opt.Redetect)
	if err != nil {
		return err
	}
	why := "command line"
	if !set {
		on, why = cs.redetect != nil, "scene"
	}
	if !on {
		return nil
	}
	fail := func(err error) error {
		if cs.redetect != nil && opt.Redetect == "" {
			return fmt.Errorf("%s:%d: redetect: %w", cs.source, cs.redetect.Line, err)
		}
		return fmt.Errorf("option --redetect: %w", err)
	}
	if _, ok := st.Sys.(sim.ActiveSetCloser); !ok {
		return fail(fmt.Errorf("only ball2d scenes can close the active set (not %T)", st.Sys))
	}
	c := sim.Closure{MaxRounds: opt.RedetectRounds}
	if c.MaxRounds == 0 && cs.redetect != nil {
		c.MaxRounds = cs.redetect.MaxRounds
	}
	if err := st.SetClosure(&c); err != nil {
		return fail(err)
	}
	*mapping += fmt.Sprintf(", active set closed under v⁺ (%s): ≤ %d re-solves", why, st.ClosureConfig().MaxRounds)
	return nil
}

// onOffOption reads an on|off command-line option: set reports whether it
// was given ("" leaves the choice to the scene or the default).
func onOffOption(flag, v string) (set, on bool, err error) {
	switch v {
	case "on", "off":
		return true, v == "on", nil
	case "":
		return false, false, nil
	}
	return false, false, fmt.Errorf("option --%s: expected on or off, got %q", flag, v)
}

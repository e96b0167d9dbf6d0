package scenario

import (
	"fmt"

	"impactsim/scene"
	"impactsim/sim"
)

// setStaggering gives st the staggering of the scene's friction solver f
// (geometric, stabilized or symplectic_euler with its stabilization and
// penetration threshold; sim.Stepper.SetStaggering). cor is the
// restitution the run uses (the scene's, or --cor): the symplectic_euler
// staggering needs 0, as SCISim.
func setStaggering(st *sim.Stepper, f *scene.FrictionConfig, cor float64, source string) error {
	g, err := sim.ParseStaggering(f.Staggering)
	if err != nil {
		return fmt.Errorf("%s:%d: %s: %w", source, f.Line, frictionElement(f), err)
	}
	if g == sim.SymplecticEuler && cor != 0 {
		return fmt.Errorf("option --cor: expected 0 with the scene's staggering=\"symplectic_euler\" (SCISim refuses other values), got %v", cor)
	}
	if err := st.SetStaggering(g, f.Stabilization && g == sim.SymplecticEuler, f.PenetrationThreshold); err != nil {
		return fmt.Errorf("%s:%d: %s: %w", source, f.Line, frictionElement(f), err)
	}
	return nil
}

func frictionElement(f *scene.FrictionConfig) string {
	if f.Kind == "staggered_projections" {
		return "staggered_projections_friction_solver"
	}
	return "sobogus_friction_solver"
}

package main

import "impactsim/rigid3d"

// Built-in scenes of Preclik et al.; their law is the impulse-velocity time
// stepping with NBGS ("nbgs": maximum-dissipation blocks unless --law
// says otherwise).
func init() {
	builtins3D["six_mass_drop"] = struct {
		desc string
		op   string
		make func() (*rigid3d.System, float64, error)
	}{"Preclik et al. Table 1's six-mass body (octahedral hull) dropped tilted and spinning onto a floor, μ = 0.5 (nbgs)", "nbgs",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.SixMassDrop()
			return s, rigid3d.SixMassDropDt, err
		}}
	builtins3D["painleve_rod"] = struct {
		desc string
		op   string
		make func() (*rigid3d.System, float64, error)
	}{"Preclik et al. sec. 4.2: the Painlevé rod sliding on its tip at θ = 1.2, μ = 2 ≥ μ* (nbgs; --mu 1 slides)", "nbgs",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.PainleveRod()
			return s, rigid3d.PainleveRodDt, err
		}}
}

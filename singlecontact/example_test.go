package singlecontact_test

import (
	"fmt"

	"impactsim/singlecontact"
)

// The academic example of Preclik et al. (Table 1): the maximum-
// dissipation impulse and the three solutions of the Coulomb-like model.
func Example() {
	p := &singlecontact.Problem{
		A: [3][3]float64{
			{0.8619907008, 0.0672837873, 0.2141862246},
			{0.0672837873, 0.7204236485, 0.0168033126},
			{0.2141862246, 0.0168033126, 0.0575660139},
		},
		B:  [3]float64{0.0599370991, -0.7120527367, -0.0450314340},
		Mu: 3.7,
	}
	x, c := singlecontact.MaxDissipation(p)
	fmt.Printf("MD (%v): x = (%.4f, %.4f, %.4f), f = %.4f\n", c, x[0], x[1], x[2], p.Objective(x))
	for _, s := range singlecontact.Coulomb(p, nil) {
		fmt.Printf("Coulomb (%v): x = (%.4f, %.4f, %.4f), f = %.4f\n", s.Mode, s.X[0], s.X[1], s.X[2], p.Objective(s.X))
	}
	// Unordered output:
	// MD (sliding): x = (1.6031, -1.0819, -5.8320), f = -0.6340
	// Coulomb (slide): x = (0.1199, -0.4390, -0.0650), f = -0.2517
	// Coulomb (slide): x = (0.2920, -0.8871, -0.6165), f = -0.3926
	// Coulomb (slide): x = (1.5581, -0.9929, -5.6789), f = -0.6310
}

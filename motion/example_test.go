package motion_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/motion"
)

// A floor shaken vertically at f = 10 Hz with Γ = 2: its height and
// velocity a quarter period in, and the phase at which a resting grain
// takes off (the floor's acceleration reaches −g).
func Example() {
	const g, f, gamma = 9.81, 10.0, 2.0
	a := motion.AmplitudeFromGamma(gamma, f, g)
	floor := motion.Motion{Terms: []motion.Term{
		{Kind: motion.Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: a, Frequency: f},
	}}
	s := floor.At(0.025)
	fmt.Printf("A = %.4f mm, height %.4f mm, velocity %.3f m/s\n", 1e3*a, 1e3*s.Point(r3.Vec{}).Y, s.DV.Y)
	fmt.Printf("take-off phase %.4f rad\n", math.Asin(1/gamma))
	// Output:
	// A = 4.9698 mm, height 4.9698 mm, velocity 0.000 m/s
	// take-off phase 0.5236 rad
}

package channelflow_test

import (
	"fmt"
	"math"

	"impactsim/channelflow"
)

// The paper's channel: a layer of 65 × 20 spheres every time the inflow
// plane has moved a diameter gives the inflow rate of about 1.4·10⁶
// spheres per second the paper quotes, and the free volume for the solid
// fraction.
func Example() {
	c := channelflow.Paper()
	perLayer := int(c.Width/c.Spacing+1e-9) * int(c.Height/c.Spacing+1e-9)
	layers := c.Speed / (2 * c.Radius)
	free := c.Length*c.Width*c.Height - c.Obstacle.Volume(c.Height)
	fmt.Printf("%d spheres per layer, %.1f layers/s, %.3g spheres/s\n", perLayer, layers, float64(perLayer)*layers)
	fmt.Printf("free volume %.2f cm³; 57.2 %% solid fraction ↔ %.3g spheres\n", free*1e6, 0.572*free/(4.0/3*math.Pi*math.Pow(c.Radius, 3)))
	// Output:
	// 1300 spheres per layer, 1063.8 layers/s, 1.38e+06 spheres/s
	// free volume 187.86 cm³; 57.2 % solid fraction ↔ 2.47e+05 spheres
}

package channelflow_test

import (
	"fmt"
	"math"

	"impactsim/channelflow"
	"impactsim/domain"
	"impactsim/mpi"
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

// The tiny channel across 2 ranks (goroutine ranks here; processes under
// mpirun): each rank keeps the spheres of its half, spawns its part of
// each inflow layer and deletes its own spheres at the outflow; the census
// after each step gives the whole flow's count on every rank.
func ExampleFlow_Distribute() {
	err := mpi.RunLocal(2, func(c mpi.Comm) error {
		f, err := channelflow.New(channelflow.Tiny())
		if err != nil {
			return err
		}
		if err := f.Distribute(c, channelflow.RanksConfig{Mode: domain.Colours}); err != nil {
			return err
		}
		n0 := f.N()
		for range 150 {
			if st := f.Step(); st.Err != nil {
				return st.Err
			}
		}
		if c.Rank() == 0 {
			fmt.Printf("%d ranks (%v subdomains, colour blocks %v): %d spheres at the start, %d after 150 steps\n",
				c.Size(), f.Dims(), f.RanksConfig().Blocks, n0, f.N())
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 2 ranks ([2 1 1] subdomains, colour blocks [8 4 1]): 744 spheres at the start, 734 after 150 steps
}

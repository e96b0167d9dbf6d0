package eigen_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/fem"
	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

// The first bending frequencies of a steel-like bar, 10×10×100 mm, free at
// both ends, on a mesh of linear tetrahedra two cells thick: too stiff in
// bending (Euler–Bernoulli gives 6,082 Hz twice; refinement converges from
// above), and the Kuhn split breaks the square section's symmetry.
func ExampleSolve() {
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 0.05, Y: 0.005, Z: 0.005})
	mesh, _, err := tetmesh.FromSurface(vs, fs, tetmesh.Options{Cells: 20}, "bar")
	if err != nil {
		panic(err)
	}
	md, err := fem.Assemble(mesh, fem.Material{Density: 2000, Young: 7e10, Poisson: 0.3})
	if err != nil {
		panic(err)
	}
	_, com, _ := md.MassProperties()
	res, err := eigen.Solve(&md.Pencil, eigen.Options{Modes: 2, Deflate: md.RigidModes(com)})
	if err != nil {
		panic(err)
	}
	for _, l := range res.Values {
		fmt.Printf("%.0f Hz\n", math.Sqrt(l)/(2*math.Pi))
	}
	// Output:
	// 7591 Hz
	// 8992 Hz
}

package fem_test

import (
	"math"
	"os"
	"sort"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/fem"
	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

// barModes returns the frequencies (Hz) of the 10×10×400 mm bar's lowest
// modes meshed with `cells` cells along its length, split into the
// bending pairs (x-fraction of the kinetic energy below 0.5, sorted) and
// the axial modes (above 0.9).
func barModes(t *testing.T, cells, modes int) (bending, axial []float64, dof int) {
	t.Helper()
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 0.2, Y: 0.005, Z: 0.005})
	m, _, err := tetmesh.FromSurface(vs, fs, tetmesh.Options{Cells: cells}, "bar")
	if err != nil {
		t.Fatal(err)
	}
	md, err := fem.Assemble(m, fem.Material{Density: 2000, Young: 7e10, Poisson: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	_, com, _ := md.MassProperties()
	pool := par.New(0)
	defer pool.Close()
	// The relative residual ‖Kφ − λMφ‖/(λ‖Mφ‖) cannot go below about
	// ε·λ_max/λ₁, rounding in Kφ itself: 1.5·10⁷ on the finest bar (h =
	// 1.25 mm on 400 mm), where 2e-8 is what double precision leaves.
	maxRes := 1e-8
	if cells >= 320 {
		maxRes = 1e-7
	}
	res, err := eigen.Solve(&md.Pencil, eigen.Options{Modes: modes, Deflate: md.RigidModes(com), Pool: pool, MaxResidual: maxRes})
	if err != nil {
		t.Fatal(err)
	}
	mx := make([]float64, md.N)
	for i, phi := range res.Vectors {
		md.MulM(mx, phi)
		var ex float64
		for k := 0; k < md.N; k += 3 {
			ex += phi[k] * mx[k]
		}
		f := math.Sqrt(res.Values[i]) / (2 * math.Pi)
		switch {
		case ex < 0.5:
			bending = append(bending, f)
		case ex > 0.9:
			axial = append(axial, f)
		}
	}
	sort.Float64s(bending)
	return bending, axial, md.N
}

// TestBarFrequencies: the free–free 10×10×400 mm bar (E = 7e10, ρ = 2000,
// ν = 0.3) against Euler–Bernoulli (380.1, 1047.7 Hz, each twice) and the
// axial 7395.1 Hz: linear tetrahedra are too stiff in bending and converge
// from above, monotonically, as the mesh is refined; at the finest mesh
// the bending frequencies are within 5% and the axial within 1%. The
// suite refines 80 → 160 cells along the bar (2 and 4 cells across);
// IMPACTSIM_LONG=1 goes on to 240 and 320 (6 and 8 across, 78,000
// degrees of freedom).
func TestBarFrequencies(t *testing.T) {
	eb := []float64{380.1, 380.1, 1047.7, 1047.7}
	const axialEB = 7395.1
	levels := []int{80, 160}
	if os.Getenv("IMPACTSIM_LONG") != "" {
		levels = append(levels, 240, 320)
	}
	var prev []float64
	var prevAxial float64
	for _, cells := range levels {
		bending, axial, dof := barModes(t, cells, 16)
		if len(bending) < 4 || len(axial) < 1 {
			t.Fatalf("%d cells: bending %v, axial %v", cells, bending, axial)
		}
		t.Logf("%d cells (%d dof): bending %.1f %.1f %.1f %.1f Hz (EB 380.1 ×2, 1047.7 ×2), axial %.1f Hz (7395.1)",
			cells, dof, bending[0], bending[1], bending[2], bending[3], axial[0])
		for k := 0; k < 4; k++ {
			if bending[k] < eb[k] {
				t.Errorf("%d cells: bending %d at %.1f Hz is below Euler–Bernoulli %.1f (linear tetrahedra should be stiff)", cells, k, bending[k], eb[k])
			}
			if prev != nil && !(bending[k] < prev[k]) {
				t.Errorf("%d cells: bending %d %.2f Hz did not decrease from %.2f", cells, k, bending[k], prev[k])
			}
		}
		if prevAxial != 0 && !(axial[0] <= prevAxial) {
			t.Errorf("%d cells: axial %.2f Hz did not decrease from %.2f", cells, axial[0], prevAxial)
		}
		prev, prevAxial = bending, axial[0]
	}
	for k := 0; k < 4; k++ {
		if rel := prev[k]/eb[k] - 1; rel > 0.05 && os.Getenv("IMPACTSIM_LONG") != "" {
			t.Errorf("finest mesh: bending %d off Euler–Bernoulli by %.1f%%", k, 100*rel)
		}
	}
	if rel := math.Abs(prevAxial/axialEB - 1); rel > 0.01 {
		t.Errorf("finest mesh: axial %.1f Hz off %.1f by %.2f%%", prevAxial, axialEB, 100*rel)
	}
}

package parity_test

import (
	"fmt"

	"impactsim/parity"
)

// Compare measures impactsim's state against a SCISim reference relative to
// the largest entry (absolute below one).
func ExampleCompare() {
	ref := &parity.State{Q: []float64{-10, 0, 0}, V: []float64{0, 2}}
	got := &parity.State{Q: []float64{-10, 0, 5e-12}, V: []float64{0, 2 + 4e-12}}
	d := parity.Compare(ref, got)
	fmt.Printf("q %.1e, v %.1e, agree to 1e-9: %v\n", d.Q, d.V, d.Max() <= 1e-9)
	// Output: q 5.0e-13, v 2.0e-12, agree to 1e-9: true
}

package parity

import (
	"fmt"
	"math"
)

// Diff is the difference of two states in SCISim's layout.
type Diff struct {
	Q, V        float64 // relative errors e of q and v (package documentation)
	IQ, IV      int     // index of the largest difference in q and in v
	DQ, DV      float64 // that largest absolute difference
	LenMismatch string  // non-empty if the layouts differ
}

// Max returns the larger of the q and v errors (+Inf on a layout mismatch).
func (d Diff) Max() float64 {
	if d.LenMismatch != "" {
		return math.Inf(1)
	}
	return math.Max(d.Q, d.V)
}

func (d Diff) String() string {
	if d.LenMismatch != "" {
		return d.LenMismatch
	}
	return fmt.Sprintf("q: %.3g (largest |Δ| %.3g at %d), v: %.3g (largest |Δ| %.3g at %d)", d.Q, d.DQ, d.IQ, d.V, d.DV, d.IV)
}

// Compare returns the difference of got from the reference ref.
func Compare(ref, got *State) Diff {
	var d Diff
	if len(ref.Q) != len(got.Q) || len(ref.V) != len(got.V) {
		d.LenMismatch = fmt.Sprintf("layout differs: reference has %d positions and %d velocities, got %d and %d", len(ref.Q), len(ref.V), len(got.Q), len(got.V))
		return d
	}
	d.Q, d.IQ, d.DQ = relErr(ref.Q, got.Q)
	d.V, d.IV, d.DV = relErr(ref.V, got.V)
	return d
}

func relErr(ref, got []float64) (e float64, at int, dmax float64) {
	scale := 1.0
	for _, x := range ref {
		scale = math.Max(scale, math.Abs(x))
	}
	at = -1
	for i := range ref {
		dx := math.Abs(got[i] - ref[i])
		if !(dx <= dmax) { // NaN counts as the largest
			dmax, at = dx, i
			if math.IsNaN(dx) {
				return math.Inf(1), i, dx
			}
		}
	}
	return dmax / scale, at, dmax
}

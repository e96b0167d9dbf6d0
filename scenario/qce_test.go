package scenario

import (
	"math"
	"testing"

	"impactsim/scene"
)

// TestPoolBreakSymmetryQCE: the 16-ball pool break under qce and qce_lcp
// stays mirror-symmetric about the x axis (SYM).
func TestPoolBreakSymmetryQCE(t *testing.T) {
	sc := scene.PoolBreak()
	for _, op := range []string{"qce", "qce_lcp"} {
		r, err := NewBall2D(sc, Options{Operator: op})
		if err != nil {
			t.Fatal(err)
		}
		runFor(t, r, 10)
		// The break happened: some rack ball moved by more than a radius.
		var moved float64
		for i, b := range sc.Balls[1:] {
			moved = math.Max(moved, math.Hypot(r.Stepper.Q[2*(i+1)]-b.X, r.Stepper.Q[2*(i+1)+1]-b.Y))
		}
		if moved < 0.5 {
			t.Errorf("%s: rack balls moved at most %.3g; no break", op, moved)
		}
		a := mirrorAsymmetry(sc, r.Stepper.Q)
		t.Logf("%s: mirror asymmetry after 10 s = %.3g", op, a)
		if a > 1e-9 {
			t.Errorf("%s: asymmetry %.3g > 1e-9", op, a)
		}
	}
}

package friction

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFBErrorZeroAtSolutions: so-bogus's error vanishes on exact solutions
// of the local Coulomb problem (take-off, stick, slip from localDisk) and
// is positive off them.
func TestFBErrorZeroAtSolutions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	kinds := map[string]int{}
	for trial := 0; trial < 2000; trial++ {
		// random SPD 3×3 block and free velocity
		var a [9]float64
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		var w [9]float64
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				for k := 0; k < 3; k++ {
					w[3*i+j] += a[3*i+k] * a[3*j+k]
				}
			}
			w[4*i] += 0.1
		}
		r := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		mu := 0.05 + 2*rng.Float64()
		x := localDisk(w[:], r, mu)
		var u [3]float64
		for i := 0; i < 3; i++ {
			u[i] = r[i] + w[3*i]*x[0] + w[3*i+1]*x[1] + w[3*i+2]*x[2]
		}
		switch {
		case x[0] == 0:
			kinds["take-off"]++
		case math.Hypot(x[1], x[2]) < mu*x[0]*(1-1e-9):
			kinds["stick"]++
		default:
			kinds["slip"]++
		}
		scale := 1 + math.Abs(x[0]) + math.Hypot(u[1], u[2])
		if e := fbError(x[:], u[:], mu); e > 1e-20*scale*scale {
			t.Fatalf("trial %d: error %.3g at the local solution x = %v, u = %v (μ = %v)", trial, e, x, u, mu)
		}
		// a wrong impulse has a positive error
		y := [3]float64{x[0] + 0.1, x[1], x[2]}
		for i := 0; i < 3; i++ {
			u[i] = r[i] + w[3*i]*y[0] + w[3*i+1]*y[1] + w[3*i+2]*y[2]
		}
		if e := fbError(y[:], u[:], mu); !(e > 1e-8) {
			t.Fatalf("trial %d: error %.3g off the solution", trial, e)
		}
	}
	if kinds["take-off"] == 0 || kinds["stick"] == 0 || kinds["slip"] == 0 {
		t.Fatalf("cases %v", kinds)
	}
	// frictionless and 2D forms
	if e := fbError([]float64{0.5, 0}, []float64{0, 0}, 0); e != 0 {
		t.Errorf("μ = 0, λ = 0.5, u = 0: %v", e)
	}
	if e := fbError([]float64{0.5, 0.1}, []float64{0, 0}, 0); math.Abs(e-0.01) > 1e-15 {
		t.Errorf("μ = 0 with a tangential impulse 0.1: %v, want 0.01", e)
	}
	if e := fbError([]float64{1, -0.5}, []float64{0, 2}, 0.5); e > 1e-30 {
		t.Errorf("2D slip: %v", e)
	}
}

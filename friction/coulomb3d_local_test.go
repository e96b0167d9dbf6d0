package friction

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLocalDiskRandom: for the contact blocks of random rigid bodies
// against the ground, W = I/m + Cᵀ diag(1/I) C with C = [r×] in the
// contact frame (random mass, moments, lever arm), random free velocities
// and μ ∈ [0, 1.5], the local solution satisfies the contact conditions.
func TestLocalDiskRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	bad := 0
	for trial := 0; trial < 20000; trial++ {
		m := 0.1 + rng.Float64()*10
		inv := [3]float64{1 / (0.01 + rng.Float64()), 1 / (0.01 + rng.Float64()), 1 / (0.01 + rng.Float64())}
		rv := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		// columns of the contact frame (n, t1, t2) = identity; rotational
		// parts r × e_a (body axes = contact axes up to the random moments)
		var c [3][3]float64 // c[a] = r × e_a
		for a := 0; a < 3; a++ {
			var e [3]float64
			e[a] = 1
			c[a] = [3]float64{rv[1]*e[2] - rv[2]*e[1], rv[2]*e[0] - rv[0]*e[2], rv[0]*e[1] - rv[1]*e[0]}
		}
		w := make([]float64, 9)
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				var s float64
				for k := 0; k < 3; k++ {
					s += c[a][k] * inv[k] * c[b][k]
				}
				if a == b {
					s += 1 / m
				}
				w[3*a+b] = s
			}
		}
		r := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		mu := rng.Float64() * 1.5
		x := localDisk(w, r, mu)
		var u [3]float64
		for i := 0; i < 3; i++ {
			u[i] = w[3*i]*x[0] + w[3*i+1]*x[1] + w[3*i+2]*x[2] + r[i]
		}
		scale := 1 + math.Abs(r[0]) + math.Hypot(r[1], r[2])
		tol := 1e-9 * scale
		bn := math.Hypot(x[1], x[2])
		ut := math.Hypot(u[1], u[2])
		ok := x[0] >= 0 && u[0] >= -tol && math.Abs(x[0]*u[0]) <= tol*scale && bn <= mu*x[0]*(1+1e-9)+1e-300
		if ut > tol {
			// sliding: β = −μλ u_t/|u_t|
			ok = ok && math.Abs(bn-mu*x[0]) <= 1e-9*(1+mu*x[0]) &&
				math.Abs(x[1]*u[1]+x[2]*u[2]+bn*ut) <= 1e-8*(1+bn*ut)
		}
		if !ok {
			bad++
			if bad < 5 {
				t.Errorf("W = %v, r = %v, μ = %v: x = %v, u = %v", w, r, mu, x, u)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 20000 local solves violate the conditions", bad)
	}
}

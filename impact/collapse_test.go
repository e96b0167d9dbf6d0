package impact_test

import (
	"math/big"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
)

// exactGaussSeidelSweeps runs pairwise Gauss–Seidel on the three-ball chain
// (unit masses, v = (2, 0, 0)) in exact rational arithmetic and returns the
// number of sweeps that applied an impulse, or −1 if it still had not
// terminated after max sweeps.
func exactGaussSeidelSweeps(c *big.Rat, max int) int {
	v := []*big.Rat{big.NewRat(2, 1), new(big.Rat), new(big.Rat)}
	onePlusCHalf := new(big.Rat).Add(big.NewRat(1, 1), c)
	onePlusCHalf.Mul(onePlusCHalf, big.NewRat(1, 2))
	for s := 0; s < max; s++ {
		changed := false
		for k := 0; k < 2; k++ {
			if v[k].Cmp(v[k+1]) > 0 {
				imp := new(big.Rat).Sub(v[k], v[k+1])
				imp.Mul(imp, onePlusCHalf)
				v[k] = new(big.Rat).Sub(v[k], imp)
				v[k+1] = new(big.Rat).Add(v[k+1], imp)
				changed = true
			}
		}
		if !changed {
			return s
		}
	}
	return -1
}

// TestInelasticCollapse checks Fig. 4 of Smith et al. 2012: pairwise
// propagation on the three-ball chain needs unboundedly many iterations in
// exact arithmetic iff c < 7 − 4√3 ≈ 0.07180.
//
// One sweep that applies both contacts maps the relative velocities
// u = (v₀−v₁, v₁−v₂) by T = T₂T₁ with a = (1+c)/2,
//
//	T₁ = [−c 0; a 1],  T₂ = [1 a; 0 −c],  T = [a²−c a; −ca −c],
//
// whose discriminant is (a² − 4c)a². Real eigenvalues (a² ≥ 4c ⇔
// c² − 14c + 1 ≥ 0 ⇔ c ≤ 7 − 4√3) leave an invariant positive cone: the
// iteration never ends. Complex ones rotate u out of it: it ends.
func TestInelasticCollapse(t *testing.T) {
	realEigen := func(c *big.Rat) bool {
		a := new(big.Rat).Add(big.NewRat(1, 1), c)
		a.Mul(a, big.NewRat(1, 2))
		a2 := new(big.Rat).Mul(a, a)
		return a2.Cmp(new(big.Rat).Mul(big.NewRat(4, 1), c)) >= 0
	}
	// 7 − 4√3 = 0.0717967…: the sign change brackets it to 1e-7.
	if !realEigen(big.NewRat(717967, 10000000)) || realEigen(big.NewRat(717968, 10000000)) {
		t.Errorf("the collapse threshold is not in (0.0717967, 0.0717968)")
	}
	// Below the threshold: exact Gauss–Seidel does not terminate.
	for _, c := range []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 20), big.NewRat(7179, 100000)} {
		if !realEigen(c) {
			t.Errorf("c = %s: complex eigenvalues below the threshold", c.FloatString(5))
		}
		if n := exactGaussSeidelSweeps(c, 400); n != -1 {
			t.Errorf("c = %s: exact Gauss–Seidel terminated after %d sweeps, want collapse", c.FloatString(5), n)
		}
	}
	// Above it: finite, and growing without bound as c approaches it.
	prev := 0
	for _, c := range []*big.Rat{big.NewRat(1, 1), big.NewRat(1, 2), big.NewRat(1, 10), big.NewRat(8, 100), big.NewRat(72, 1000), big.NewRat(718, 10000)} {
		n := exactGaussSeidelSweeps(c, 400)
		if n < 0 {
			t.Fatalf("c = %s: no termination in 400 sweeps", c.FloatString(4))
		}
		if realEigen(c) {
			t.Errorf("c = %s: real eigenvalues above the threshold", c.FloatString(4))
		}
		if n < prev {
			t.Errorf("c = %s: %d sweeps, fewer than %d at a larger c", c.FloatString(4), n, prev)
		}
		prev = n
	}
	if prev < 100 {
		t.Errorf("c = 0.0718 needed only %d sweeps; expected the count to blow up near 7 − 4√3", prev)
	}
	// The float64 operator agrees with exact arithmetic away from the
	// threshold.
	for _, c := range []struct {
		num, den int64
	}{{1, 1}, {1, 2}, {1, 10}, {8, 100}} {
		want := exactGaussSeidelSweeps(big.NewRat(c.num, c.den), 100)
		op := mustOp(t, impact.Config{Name: "gauss_seidel", VTol: 1e-300})
		o := post(t, op, desiderata.NewtonsCradle(3, 2, float64(c.num)/float64(c.den)))
		if o.Stats.Iterations != want {
			t.Errorf("c = %d/%d: float Gauss–Seidel took %d sweeps, exact %d", c.num, c.den, o.Stats.Iterations, want)
		}
	}
}

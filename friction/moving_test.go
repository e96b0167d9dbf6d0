package friction

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

// movingLaws are the friction laws of this package as contact laws: Alg. 3
// after gr and after lcp, the boxed LCP around lcp and gr, and Coulomb.
func movingLaws(t *testing.T) map[string]func(p *mech.Problem, l, b []float64) (mech.Stats, error) {
	laws := map[string]func(p *mech.Problem, l, b []float64) (mech.Stats, error){}
	for _, name := range []string{"gr", "lcp"} {
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		md, err := NewMaxDissipation("auto")
		if err != nil {
			t.Fatal(err)
		}
		laws[name+"+alg3"] = func(p *mech.Problem, l, b []float64) (mech.Stats, error) {
			st, err := op.Resolve(p, l)
			if err != nil {
				return st, err
			}
			return md.Resolve(p, l, b)
		}
		op2, _ := impact.New(impact.Config{Name: name})
		laws[name+"+blcp"] = NewBoxedLCP(op2).Solve
	}
	laws["coulomb"] = (&Coulomb{Tol: 1e-28, MaxIter: 100000}).Solve
	return laws
}

// TestConveyorBelt: a ball of mass 1 falls at speed 1 onto a floor that
// slides at w = 2 along x. Every law acts on the relative velocity: with
// μ = 10 friction takes the ball to the belt's speed (v⁺_x = 2), with
// μ = 0.1 it slides and friction adds μ(1 + c) towards the belt's motion.
func TestConveyorBelt(t *testing.T) {
	for name, solve := range movingLaws(t) {
		for _, c := range []float64{0, 0.5} {
			for _, mu := range []float64{10, 0.1} {
				p := ballOnFloor(1, 0, -1, c, mu)
				p.NRel, p.DRel = []float64{0}, []float64{-2}
				l, b := make([]float64, 1), make([]float64, 1)
				if _, err := solve(p, l, b); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				v := post(p, l, b)
				want := 2.0
				if mu < 1 {
					want = mu * (1 + c)
				}
				if math.Abs(v[0]-want) > 1e-10 || math.Abs(v[1]-c) > 1e-10 {
					t.Errorf("%s c=%g μ=%g: v⁺ = %v, want (%g, %g)", name, c, mu, v, want, c)
				}
			}
		}
	}
}

// TestFrictionGalilean: a random pile with friction on a floor, seen from
// a moving frame (desiderata.Boost), gets the same impulses from every
// law, to 1e-9 of the largest (Coulomb's own tolerance is far below).
func TestFrictionGalilean(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 3; trial++ {
		p := desiderata.FloorPile(rng, 0.5, 0.3)
		q := desiderata.Boost(p, []float64{rng.NormFloat64(), rng.NormFloat64()})
		m, nd := p.NContacts(), p.D.NCols()
		for name, solve := range movingLaws(t) {
			l0, b0 := make([]float64, m), make([]float64, nd)
			l1, b1 := make([]float64, m), make([]float64, nd)
			if _, err := solve(p, l0, b0); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, err := solve(q, l1, b1); err != nil {
				t.Fatalf("%s boosted: %v", name, err)
			}
			x0, x1 := append(l0, b0...), append(l1, b1...)
			scale := 0.0
			for _, x := range x0 {
				scale = math.Max(scale, math.Abs(x))
			}
			for i := range x0 {
				if math.Abs(x0[i]-x1[i]) > 1e-9*scale {
					t.Errorf("trial %d %s: impulse %d = %.17g at rest, %.17g boosted", trial, name, i, x0[i], x1[i])
					break
				}
			}
		}
	}
}

package impact_test

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

// randomCluster is a hexagonal patch of touching balls of random masses,
// hit by three incoming balls, with random velocities on top (so contacts
// approach, separate and rest at once).
func randomCluster(rng *rand.Rand) *mech.Problem {
	var b []desiderata.Ball
	b = append(b, desiderata.Ball{M: 0.5 + rng.Float64(), R: 0.5})
	for k := 0; k < 6; k++ {
		a := float64(k) * math.Pi / 3
		b = append(b, desiderata.Ball{X: math.Cos(a), Y: math.Sin(a), M: 0.5 + rng.Float64(), R: 0.5,
			VX: 0.3 * rng.NormFloat64(), VY: 0.3 * rng.NormFloat64()})
	}
	for _, k := range []int{0, 2, 4} {
		a := float64(k) * math.Pi / 3
		b = append(b, desiderata.Ball{X: 2 * math.Cos(a), Y: 2 * math.Sin(a), M: 0.5 + 2*rng.Float64(), R: 0.5,
			VX: -math.Cos(a) * (0.5 + rng.Float64()), VY: -math.Sin(a) * (0.5 + rng.Float64())})
	}
	return desiderata.Balls2D(b, 0, 0)
}

// randomPile is trial k of a family of 2D ball piles: a hexagonal patch
// of 25 sites each occupied with probability 0.6, masses e^N(0,1), random
// velocities (seeded by k, so a trial can be rebuilt alone), with
// per-contact restitution at the corners of [0, 1]^m.
func randomPile(k int) *mech.Problem {
	rng := rand.New(rand.NewSource(int64(k)))
	var b []desiderata.Ball
	for q := -2; q <= 2; q++ {
		for r := -2; r <= 2; r++ {
			if rng.Float64() < 0.4 {
				continue
			}
			x, y := float64(q)+0.5*float64(r), float64(r)*math.Sqrt(3)/2
			b = append(b, desiderata.Ball{X: x, Y: y, R: 0.5, M: math.Exp(rng.NormFloat64()), VX: rng.NormFloat64(), VY: rng.NormFloat64()})
		}
	}
	p := desiderata.Balls2D(b, 0, 0)
	for i := range p.CoR {
		p.CoR[i] = math.Round(rng.Float64())
	}
	return p
}

// TestGRRVectorShrink: the per-contact mix can gain energy — in 15 of the
// first 20,000 random piles (a search run once) the projected mix had
// more kinetic energy than v⁻, by up to 2.9% — and then the restitution
// part is shrunk: these five trials take that path (gains 2.6e-5 to 0.029)
// and end with T⁺ ≤ T⁻(1 + 1e-12), nothing approaching and compressive
// impulses.
func TestGRRVectorShrink(t *testing.T) {
	op := mustOp(t, impact.Config{Name: "grr"})
	grr := op.(*impact.GRR)
	for _, k := range []int{1946, 5750, 9066, 18539, 19427} {
		p := randomPile(k)
		before := grr.Shrunk
		o := post(t, op, p)
		if grr.Shrunk != before+1 || !(grr.Gain > 1e-6) {
			t.Errorf("pile %d: the energy shrink did not run (gain %v)", k, grr.Gain)
		}
		t0, t1 := p.KineticEnergy(p.V), p.KineticEnergy(o.V)
		u := make([]float64, p.NContacts())
		p.NormalVelocities(u, o.V)
		worst := 0.0
		for _, x := range u {
			worst = math.Min(worst, x)
		}
		for i, l := range o.Lambda {
			if l < -1e-12 {
				t.Errorf("pile %d: impulse %d = %v", k, i, l)
			}
		}
		t.Logf("pile %d (%d contacts): T %.9f → %.9f (the mix had gained %.2g), worst normal velocity %.2g", k, p.NContacts(), t0, t1, grr.Gain, worst)
		grr.Gain = 0
		if t1 > t0*(1+1e-12) || worst < -1e-9 {
			t.Errorf("pile %d: energy %v → %v, worst normal velocity %v", k, t0, t1, worst)
		}
	}
}

// TestGRRVector: generalized restitution with per-contact coefficients
// (the model in the package documentation) on 300 random clusters with
// random cᵢ ∈ [0, 1) and 300 random piles with cᵢ ∈ {0, 1}: energy never grows (T⁺ ≤ T⁻(1 + 1e-12)), nothing
// approaches afterwards (Gᵀv⁺ ≥ −1e-9), momentum is kept to 1e-12 and
// every impulse is compressive; with all cᵢ = c it is grr at c, bit for
// bit, and cᵢ = c + δᵢ moves the answer by O(δ) (no jump between the
// uniform and the per-contact rule); at cᵢ = 1 energy is kept (KIN) to
// 1e-12.
func TestGRRVector(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	op := mustOp(t, impact.Config{Name: "grr"})
	grr := op.(*impact.GRR)
	lcp := mustOp(t, impact.Config{Name: "lcp"})
	gr := mustOp(t, impact.Config{Name: "gr"})
	for k := 0; k < 600; k++ {
		p := randomCluster(rng)
		if k%2 == 1 {
			p = randomPile(100000 + k) // restitution at the corners of [0, 1]^m
		}
		m := p.NContacts()
		if k%2 == 0 {
			for i := range p.CoR {
				p.CoR[i] = rng.Float64()
			}
		}
		o := post(t, op, p)
		t0, t1 := p.KineticEnergy(p.V), p.KineticEnergy(o.V)
		if t1 > t0*(1+1e-12) {
			t.Errorf("cluster %d: energy %v → %v", k, t0, t1)
		}
		u := make([]float64, m)
		p.NormalVelocities(u, o.V)
		for i, x := range u {
			if x < -1e-9 {
				t.Errorf("cluster %d: contact %d approaches at %v", k, i, x)
			}
		}
		for i, l := range o.Lambda {
			if l < -1e-12 {
				t.Errorf("cluster %d: impulse %d = %v", k, i, l)
			}
		}
		var p0, p1 [2]float64
		p.LinearMomentum(p0[:], p.V)
		p.LinearMomentum(p1[:], o.V)
		if d := math.Hypot(p1[0]-p0[0], p1[1]-p0[1]); d > 1e-12*math.Hypot(p0[0], p0[1])+1e-14 {
			t.Errorf("cluster %d: momentum changed by %v", k, d)
		}
		// Uniform c against grr's uniform rule, and a small per-contact
		// perturbation of it.
		c := rng.Float64()
		for i := range p.CoR {
			p.CoR[i] = c
		}
		ou := post(t, op, p)
		for i := range p.CoR {
			p.CoR[i] = 0
		}
		l0 := post(t, lcp, p).Lambda
		for i := range p.CoR {
			p.CoR[i] = 1
		}
		l1 := post(t, gr, p).Lambda
		for i := range l0 {
			if want := (1-c)*l0[i] + c*l1[i]; ou.Lambda[i] != want {
				t.Fatalf("cluster %d, uniform c = %v: λ%d = %v, (1−c)λ₀ + cλ₁ = %v", k, c, i, ou.Lambda[i], want)
			}
		}
		for i := range p.CoR {
			p.CoR[i] = c + 1e-7*rng.Float64()
		}
		od := post(t, op, p)
		var dv, vn float64
		for i := range ou.V {
			dv = math.Max(dv, math.Abs(od.V[i]-ou.V[i]))
			vn = math.Max(vn, math.Abs(ou.V[i]))
		}
		if dv > 1e-5*vn {
			t.Errorf("cluster %d: cᵢ = c + O(1e-7) moves v⁺ by %v (|v| %v)", k, dv, vn)
		}
		for i := range p.CoR {
			p.CoR[i] = 1
		}
		o1 := post(t, op, p)
		if e := p.KineticEnergy(o1.V); math.Abs(e-t0) > 1e-12*t0 {
			t.Errorf("cluster %d: c = 1 energy %v → %v", k, t0, e)
		}
	}
	t.Logf("600 problems: %d per-contact resolutions needed the projection, %d the energy shrink", grr.Projected, grr.Shrunk)
}

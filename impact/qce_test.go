package impact_test

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"impactsim/compliant"
	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

// chainDev is max_b |v_b⁺ − ref_b| for a chain outcome.
func chainDev(v []float64, ref [3]float64) float64 {
	var d float64
	for b := 0; b < 3; b++ {
		d = math.Max(d, math.Abs(v[2*b]-ref[b]))
	}
	return d
}

func TestQCEThreeBallChain(t *testing.T) {
	qce := mustOp(t, impact.Config{Name: "qce"})
	// v_a = 0: Newton's cradle, C stops, B stays, A leaves with C's velocity.
	o := post(t, qce, desiderata.ThreeBallChain(0, 1, 1))
	near(t, "qce v_a = 0", xs(o.V), []float64{-1, 0, 0}, 1e-12)
	// v_a = v0: the symmetric answer.
	o = post(t, qce, desiderata.ThreeBallChain(1, 1, 1))
	near(t, "qce v_a = v0", xs(o.V), []float64{-1, 0, 1}, 1e-12)
	// v_a = 0.5 by hand: F = (1/2, 1), AF = (0, 3/2); contact BC leaves at
	// s = 4/3 (P = 4/3), then AB's energy 2/3 − T²/2 + T/2 (T = s − 4/3)
	// returns to zero at T = (1 + √(19/3))/2.
	T := (1 + math.Sqrt(19.0/3)) / 2
	pab, pbc := 0.5*(4.0/3+T), 4.0/3
	o = post(t, qce, desiderata.ThreeBallChain(0.5, 1, 1))
	near(t, "qce v_a = 0.5", xs(o.V), []float64{0.5 - pab, pab - pbc, -1 + pbc}, 1e-12)
	// BRK: the elastic cradle of Smith et al. §3 separates.
	o = post(t, qce, desiderata.NewtonsCradle(3, 2, 1))
	near(t, "qce cradle", xs(o.V), []float64{0, 0, 2}, 1e-12)
}

// TestChainAgainstHertz compares qce, gr and lcp with the Hertz chain over
// v_a ∈ (0, 1). Measured finding (see the log): qce is closer to the Hertz
// reference than gr and lcp for v_a ≤ 0.6 but not above about 0.65, where
// the Hertz chain's exact exchange (−v0, 0, v_a) is better approximated by
// the symmetric LCP reflection. The test asserts both halves so a change in
// either operator or the reference shows up.
func TestChainAgainstHertz(t *testing.T) {
	ops := map[string]impact.Operator{}
	for _, n := range []string{"qce", "gr", "lcp"} {
		ops[n] = mustOp(t, impact.Config{Name: n})
	}
	t.Logf("  v_a   | Hertz v⁺ (A, B, C)         | max|Δv|: qce    gr     lcp")
	for k := 1; k < 20; k++ {
		va := 0.05 * float64(k)
		ref, err := desiderata.ChainReference(va, 1, compliant.Hertz)
		if err != nil {
			t.Fatal(err)
		}
		dev := map[string]float64{}
		var gr, lcp []float64
		for n, op := range ops {
			o := post(t, op, desiderata.ThreeBallChain(va, 1, 1))
			dev[n] = chainDev(o.V, ref)
			switch n {
			case "gr":
				gr = o.V
			case "lcp":
				lcp = o.V
			}
		}
		t.Logf("  %.2f  | (%+.4f, %+.4f, %+.4f) |          %.4f %.4f %.4f", va, ref[0], ref[1], ref[2], dev["qce"], dev["gr"], dev["lcp"])
		near(t, "gr vs lcp", gr, lcp, 1e-12)
		closer := dev["qce"] < dev["gr"] && dev["qce"] < dev["lcp"]
		if va <= 0.6+1e-9 && !closer {
			t.Errorf("v_a = %.2f: qce deviation %.4f not below gr %.4f / lcp %.4f", va, dev["qce"], dev["gr"], dev["lcp"])
		}
		if va >= 0.7-1e-9 && closer {
			t.Errorf("v_a = %.2f: qce now closer than gr (%.4f < %.4f); update the documented crossover", va, dev["qce"], dev["gr"])
		}
	}
}

// TestQCEConservation checks KIN (≤ 1e-12 relative), MOM, ONE and
// feasibility on elastic multi-impacts, and that qce is symmetric on
// Bernoulli's problem.
func TestQCEConservation(t *testing.T) {
	problems := []*mech.Problem{
		desiderata.NewtonsCradle(3, 2, 1),
		desiderata.NewtonsCradle(7, 1.5, 1),
		desiderata.Bernoulli(1),
		desiderata.ThreeBallChain(0.3, 1, 1),
		hexCluster(1),
	}
	op := mustOp(t, impact.Config{Name: "qce"})
	for pi, p := range problems {
		o := post(t, op, p)
		e0, e1 := p.KineticEnergy(p.V), p.KineticEnergy(o.V)
		if rel := math.Abs(e1-e0) / e0; rel > 1e-12 {
			t.Errorf("problem %d: relative energy change %.3g > 1e-12", pi, rel)
		}
		var p0, p1 [2]float64
		p.LinearMomentum(p0[:], p.V)
		p.LinearMomentum(p1[:], o.V)
		if d := math.Hypot(p1[0]-p0[0], p1[1]-p0[1]) / math.Hypot(p0[0], p0[1]); d > 1e-12 {
			t.Errorf("problem %d: relative momentum change %.3g", pi, d)
		}
		u := make([]float64, p.NContacts())
		p.NormalVelocities(u, o.V)
		for k := range u {
			if o.Lambda[k] < 0 {
				t.Errorf("problem %d: impulse %d = %.3g < 0", pi, k, o.Lambda[k])
			}
			if u[k] < -impact.DefaultVTol {
				t.Errorf("problem %d: contact %d still approaches at %.3g", pi, k, u[k])
			}
		}
		t.Logf("problem %d: %d sweeps, energy change %.2g", pi, o.Stats.Iterations, math.Abs(e1-e0)/e0)
	}
	s := 0.4 * math.Sqrt(3)
	o := post(t, op, desiderata.Bernoulli(1))
	near(t, "qce Bernoulli", o.V, []float64{-0.4, 0, 1.2, s, 1.2, -s}, 1e-12)
}

// TestQCEKINRandom: ≤ 1e-10 relative energy change per elastic qce impact
// on random clusters of touching balls with random masses.
func TestQCEKINRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	op := mustOp(t, impact.Config{Name: "qce"})
	worstRel := 0.0
	for trial := 0; trial < 200; trial++ {
		// A random 4×3 triangular patch with random velocities.
		var b []desiderata.Ball
		for i := 0; i < 4; i++ {
			for j := 0; j < 3; j++ {
				b = append(b, desiderata.Ball{X: float64(i) + 0.5*float64(j%2), Y: float64(j) * math.Sqrt(0.75),
					VX: rng.NormFloat64(), VY: rng.NormFloat64(), M: 0.5 + rng.Float64(), R: 0.5})
			}
		}
		p := desiderata.Balls2D(b, 1, 0)
		o := post(t, op, p)
		e0, e1 := p.KineticEnergy(p.V), p.KineticEnergy(o.V)
		worstRel = math.Max(worstRel, math.Abs(e1-e0)/e0)
	}
	t.Logf("worst relative energy change over 200 random patches: %.3g", worstRel)
	if worstRel > 1e-10 {
		t.Errorf("relative energy change %.3g > 1e-10", worstRel)
	}
}

// TestCradleDisturbance is Fig. 12: Newton's cradle (ball 0 at v0 = 1)
// with random disturbances of size ε·v0 on the relative velocities. Measured
// finding: with 3 balls qce's spread shrinks like ε and gr's stays O(1), as
// the paper says; with 5 balls qce's spread does not shrink either (0.14 for
// every ε over these 20 samples, 0.57 over the 50 of the cradle-disturb
// command, against 0.67 for gr), because QCE's ratio vector F is
// scale-free: once contact 0 has left, the three disturbed contacts share
// impulse in the random ratios of their disturbances, whatever ε is. The
// test asserts both.
func TestCradleDisturbance(t *testing.T) {
	spread := func(name string, n int, eps float64) float64 {
		op := mustOp(t, impact.Config{Name: name})
		rng := rand.New(rand.NewSource(11))
		var worst float64
		for s := 0; s < 20; s++ {
			o := post(t, op, desiderata.DisturbedCradle(n, 1, eps, rng))
			for b := 0; b < n; b++ {
				ideal := 0.0
				if b == n-1 {
					ideal = 1
				}
				worst = math.Max(worst, math.Abs(o.V[2*b]-ideal))
			}
		}
		return worst
	}
	for _, n := range []int{3, 5} {
		for _, eps := range []float64{1e-2, 1e-4, 1e-6, 1e-8} {
			q, g := spread("qce", n, eps), spread("gr", n, eps)
			t.Logf("%d balls, ε = %.0e: spread qce %.3g, gr %.3g", n, eps, q, g)
			if n == 3 && q > 2*eps {
				t.Errorf("%d balls, ε = %.0e: qce spread %.3g > 2ε", n, eps, q)
			}
			if n == 5 && !(q > 0.05 && q < g) {
				t.Errorf("%d balls, ε = %.0e: qce spread %.3g outside the measured band (0.05, gr = %.3g)", n, eps, q, g)
			}
			if g < 0.1 {
				t.Errorf("%d balls, ε = %.0e: gr spread %.3g, expected O(1) sensitivity", n, eps, g)
			}
		}
	}
}

// TestQCELCP checks eq. (19): c = 0 is the inelastic LCP, c = 1 is QCE,
// and for random uniform c the energy obeys the appendix bound
// K ≤ (1−c)K_l + cK_c. The appendix also claims λ_r = (1−c)λ_l + cλ_c;
// that needs the cross terms λ_lᵀw_c and λ_cᵀw_l of the two
// complementarity problems to vanish, which holds on the chains and
// Bernoulli's problem (both solutions push on every contact) but not on the
// hexagonal cluster, so the convex combination is asserted only there
// (convex: true) — on the cluster qce_lcp differs from it by up to 0.14.
func TestQCELCP(t *testing.T) {
	problems := []struct {
		mk     func(c float64) *mech.Problem
		convex bool
	}{
		{func(c float64) *mech.Problem { return desiderata.NewtonsCradle(3, 2, c) }, true},
		{func(c float64) *mech.Problem { return desiderata.ThreeBallChain(0.4, 1, c) }, true},
		{desiderata.Bernoulli, true},
		{hexCluster, false},
	}
	qcl := mustOp(t, impact.Config{Name: "qce_lcp"})
	for pi, pr := range problems {
		mk := pr.mk
		// c = 0: the inelastic LCP.
		a := post(t, qcl, mk(0))
		b := post(t, mustOp(t, impact.Config{Name: "lcp"}), mk(0))
		near(t, "qce_lcp c=0 vs lcp", a.V, b.V, 1e-12)
		// c = 1: QCE.
		a = post(t, qcl, mk(1))
		b = post(t, mustOp(t, impact.Config{Name: "qce"}), mk(1))
		near(t, "qce_lcp c=1 vs qce", a.V, b.V, 1e-10)
		// Random c: the velocity is the convex combination and the energy
		// obeys the appendix bound.
		rng := rand.New(rand.NewSource(int64(pi)))
		for trial := 0; trial < 10; trial++ {
			c := rng.Float64()
			p := mk(c)
			r := post(t, qcl, p)
			l := post(t, mustOp(t, impact.Config{Name: "lcp"}), mk(0))
			q := post(t, mustOp(t, impact.Config{Name: "qce"}), mk(1))
			want := make([]float64, len(r.V))
			for i := range want {
				want[i] = (1-c)*l.V[i] + c*q.V[i]
			}
			if pr.convex {
				near(t, "qce_lcp convex combination", r.V, want, 1e-10)
			}
			k, kl, kc := p.KineticEnergy(r.V), p.KineticEnergy(l.V), p.KineticEnergy(q.V)
			if bound := (1-c)*kl + c*kc; k > bound*(1+1e-12) {
				t.Errorf("problem %d, c = %.3f: K = %.15g above the bound %.15g", pi, c, k, bound)
			}
			if k0 := p.KineticEnergy(p.V); k > k0*(1+1e-12) {
				t.Errorf("problem %d, c = %.3f: K = %.15g above K⁻ = %.15g", pi, c, k, k0)
			}
		}
	}
}

func TestQCEBadInput(t *testing.T) {
	for _, name := range []string{"qce", "qce_lcp"} {
		op := mustOp(t, impact.Config{Name: name})
		// No contact approaches: v⁻ unchanged, λ = 0.
		p := desiderata.ThreeBallChain(-1, -1, 1) // A moves left, C right: separating
		o := post(t, op, p)
		near(t, name+" separating", o.V, p.V, 0)
		near(t, name+" separating λ", o.Lambda, []float64{0, 0}, 0)
		// All at rest: F = 0 everywhere, no division by zero.
		p = desiderata.ThreeBallChain(0, 0, 1)
		o = post(t, op, p)
		near(t, name+" resting", o.V, p.V, 0)
		// One resting contact (F = 0) next to an approaching one.
		p = desiderata.NewtonsCradle(4, 1, 1)
		o = post(t, op, p)
		for _, x := range o.V {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%s: non-finite result %v", name, o.V)
			}
		}
		// Non-finite input is an error.
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			p = desiderata.NewtonsCradle(3, 1, 1)
			p.V[2] = bad
			if _, err := op.Resolve(p, make([]float64, p.NContacts())); err == nil {
				t.Errorf("%s: no error for velocity %v", name, bad)
			}
		}
	}
	// The iteration cap is an error: the cradle of 5 needs 4 sweeps.
	op := mustOp(t, impact.Config{Name: "qce", MaxIter: 2})
	_, err := desiderata.Run(op, desiderata.NewtonsCradle(5, 1, 1))
	var nc *impact.NotConvergedError
	if !errors.As(err, &nc) || nc.Operator != "qce" || nc.Iterations != 2 {
		t.Fatalf("got %v, want *NotConvergedError after 2 iterations", err)
	}
}

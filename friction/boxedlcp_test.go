package friction_test

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
)

func normalOp(t *testing.T, name string) impact.Operator {
	t.Helper()
	op, err := impact.New(impact.Config{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func solveBLCP(t *testing.T, law *friction.BoxedLCP, p *mech.Problem) (lam, beta, v []float64) {
	t.Helper()
	lam = make([]float64, p.NContacts())
	beta = make([]float64, p.D.NCols())
	if _, err := law.Solve(p, lam, beta); err != nil {
		t.Fatalf("%s: %v", law.Name(), err)
	}
	v = make([]float64, p.NDof())
	p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
	return lam, beta, v
}

// TestBoxedLCPTwoBalls: two unit balls, one contact along x, A moving at
// (1, w) into B at rest. A_nn = A_tt = 2 and A_nt = 0, so with the
// inelastic LCP λ = 1/2 and β = clamp(−w_rel/2, ±μ/2) where w_rel is the
// tangential relative velocity.
func TestBoxedLCPTwoBalls(t *testing.T) {
	for _, c := range []struct{ w, mu float64 }{{0.3, 1}, {0.3, 0.2}, {-0.8, 0.5}, {0.3, 0}} {
		p := desiderata.Balls2D([]desiderata.Ball{{X: 0, VX: 1, VY: c.w, M: 1, R: 0.5}, {X: 1, M: 1, R: 0.5}}, 0, c.mu)
		lam, beta, _ := solveBLCP(t, friction.NewBoxedLCP(normalOp(t, "lcp")), p)
		u := make([]float64, 1)
		p.D.MulTVec(u, p.V)
		wantB := math.Max(-c.mu*0.5, math.Min(c.mu*0.5, -u[0]/2))
		if math.Abs(lam[0]-0.5) > 1e-12 || math.Abs(beta[0]-wantB) > 1e-12 {
			t.Errorf("w = %v, μ = %v: λ = %.15g, β = %.15g; want 0.5, %.15g", c.w, c.mu, lam[0], beta[0], wantB)
		}
	}
}

// TestBoxedLCPConditions checks the complementarity conditions, the
// pyramid, momentum and energy at the solution on coupled multi-contact
// problems, for several normal operators.
func TestBoxedLCPConditions(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	gain := map[string]float64{}
	defer func() { t.Logf("largest relative kinetic-energy change per normal operator: %v", gain) }()
	for _, name := range []string{"lcp", "gr", "qce", "qce_lcp"} {
		for trial := 0; trial < 20; trial++ {
			mu := 0.1 + rng.Float64()
			cor := 0.0
			if name != "lcp" {
				cor = rng.Float64()
			}
			p := blcpPatch(rng, cor, mu)
			law := friction.NewBoxedLCP(normalOp(t, name))
			lam, beta, v := solveBLCP(t, law, p)
			// Target: the frictionless answer's normal velocities where it pushes.
			lam0 := make([]float64, p.NContacts())
			if _, err := normalOp(t, name).Resolve(p, lam0); err != nil {
				t.Fatal(err)
			}
			v0 := make([]float64, p.NDof())
			p.ApplyImpulses(v0, p.V, lam0, nil, make([]float64, p.NDof()))
			un := make([]float64, p.NContacts())
			u0 := make([]float64, p.NContacts())
			p.NormalVelocities(un, v)
			p.NormalVelocities(u0, v0)
			scale := 0.0
			for _, x := range lam {
				scale = math.Max(scale, x)
			}
			tol := 1e-9 * math.Max(scale, 1)
			for i := range lam {
				ti := 0.0
				if lam0[i] > 0 {
					ti = u0[i]
				}
				w := un[i] - ti
				if lam[i] < 0 || w < -tol || (lam[i] > tol && math.Abs(w) > tol) {
					t.Errorf("%s trial %d contact %d: λ = %.3g, w = %.3g violates 0 ≤ λ ⊥ w ≥ 0", name, trial, i, lam[i], w)
				}
			}
			ut := make([]float64, p.D.NCols())
			p.D.MulTVec(ut, v)
			for j := range beta {
				hi := p.Mu[p.DContact[j]] * lam[p.DContact[j]]
				switch {
				case math.Abs(beta[j]) > hi*(1+1e-12):
					t.Errorf("%s trial %d column %d: |β| = %.3g > μλ = %.3g", name, trial, j, math.Abs(beta[j]), hi)
				case beta[j] > -hi+tol && beta[j] < hi-tol && math.Abs(ut[j]) > tol:
					t.Errorf("%s trial %d column %d: interior β but tangential velocity %.3g", name, trial, j, ut[j])
				case beta[j] >= hi-tol && hi > tol && ut[j] > tol:
					t.Errorf("%s trial %d column %d: β at +μλ but sliding at %.3g (friction must oppose)", name, trial, j, ut[j])
				case beta[j] <= -hi+tol && hi > tol && ut[j] < -tol:
					t.Errorf("%s trial %d column %d: β at −μλ but sliding at %.3g", name, trial, j, ut[j])
				}
			}
			var p0, p1 [2]float64
			p.LinearMomentum(p0[:], p.V)
			p.LinearMomentum(p1[:], v)
			if d := math.Hypot(p1[0]-p0[0], p1[1]-p0[1]); d > 1e-12*(1+math.Hypot(p0[0], p0[1])) {
				t.Errorf("%s trial %d: momentum change %.3g", name, trial, d)
			}
			// KIN holds when the targets vanish (the inelastic LCP); with
			// positive restitution targets it can fail (see the doc comment).
			k0, k1 := p.KineticEnergy(p.V), p.KineticEnergy(v)
			if name == "lcp" && k1 > k0*(1+1e-12) {
				t.Errorf("%s trial %d: kinetic energy grew %.15g → %.15g", name, trial, k0, k1)
			}
			gain[name] = math.Max(gain[name], (k1-k0)/k0)
		}
	}
}

// TestBoxedLCPFrictionless: μ = 0 returns the normal operator's answer
// exactly.
func TestBoxedLCPFrictionless(t *testing.T) {
	for _, name := range []string{"gr", "qce"} {
		p := desiderata.Bernoulli(1)
		_, beta, v := solveBLCP(t, friction.NewBoxedLCP(normalOp(t, name)), p)
		lam0 := make([]float64, p.NContacts())
		if _, err := normalOp(t, name).Resolve(p, lam0); err != nil {
			t.Fatal(err)
		}
		v0 := make([]float64, p.NDof())
		p.ApplyImpulses(v0, p.V, lam0, nil, make([]float64, p.NDof()))
		for i := range v {
			if v[i] != v0[i] {
				t.Errorf("%s: v[%d] = %.17g, want %.17g", name, i, v[i], v0[i])
			}
		}
		for _, b := range beta {
			if b != 0 {
				t.Errorf("%s: β = %v, want 0", name, beta)
			}
		}
	}
}

// TestBoxedLCPCap: the cap is recorded (Stats.Capped, the relative change
// left above the tolerance), not an error.
func TestBoxedLCPCap(t *testing.T) {
	p := desiderata.Bernoulli(0)
	for i := range p.Mu {
		p.Mu[i] = 0.5
	}
	p.V[1] = 0.7 // oblique: friction couples the contacts
	law := &friction.BoxedLCP{Normal: normalOp(t, "lcp"), MaxIter: 1, Tol: 1e-300}
	lam := make([]float64, p.NContacts())
	beta := make([]float64, p.D.NCols())
	st, err := law.Solve(p, lam, beta)
	if err != nil || st.Capped != 1 || st.CappedIterations != 1 || !(st.CappedResidual > st.CappedTol) {
		t.Errorf("a cap of one sweep: %v, stats %+v", err, st)
	}
}

// blcpPatch is a 3×3 patch of touching balls with random velocities (the
// problem of TestBoxedLCPConditions).
func blcpPatch(rng *rand.Rand, cor, mu float64) *mech.Problem {
	var b []desiderata.Ball
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			b = append(b, desiderata.Ball{X: float64(i) + 0.5*float64(j%2), Y: float64(j) * math.Sqrt(0.75),
				VX: rng.NormFloat64(), VY: rng.NormFloat64(), M: 0.5 + rng.Float64(), R: 0.5})
		}
	}
	return desiderata.Balls2D(b, cor, mu)
}

// TestBoxedLCPDoesNotAllocate: once its workspaces have grown, a solve
// allocates nothing (the sweeps run on islands of 10⁴–10⁵ contacts every
// step), and a law reused across problems returns, bit for bit, what a
// fresh law returns.
func TestBoxedLCPDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"lcp", "qce"} {
		rng := rand.New(rand.NewSource(11))
		p := blcpPatch(rng, 0.5, 0.7)
		law := friction.NewBoxedLCP(normalOp(t, name))
		lam := make([]float64, p.NContacts())
		beta := make([]float64, p.D.NCols())
		if _, err := law.Solve(p, lam, beta); err != nil {
			t.Fatal(err)
		}
		lam1, beta1 := append([]float64(nil), lam...), append([]float64(nil), beta...)
		if n := testing.AllocsPerRun(20, func() {
			if _, err := law.Solve(p, lam, beta); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per solve in steady state, want 0", name, n)
		}
		other := blcpPatch(rand.New(rand.NewSource(12)), 0.5, 0.7)
		if _, err := law.Solve(other, make([]float64, other.NContacts()), make([]float64, other.D.NCols())); err != nil {
			t.Fatal(err)
		}
		lam2, beta2, _ := solveBLCP(t, law, p)
		for i := range lam1 {
			if lam1[i] != lam2[i] {
				t.Errorf("%s: λ[%d] = %.17g after reuse, %.17g fresh", name, i, lam2[i], lam1[i])
			}
		}
		for j := range beta1 {
			if beta1[j] != beta2[j] {
				t.Errorf("%s: β[%d] = %.17g after reuse, %.17g fresh", name, j, beta2[j], beta1[j])
			}
		}
	}
}

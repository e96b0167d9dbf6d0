package impact_test

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

// projectionPile is a hexagonal patch of touching balls (rings around a
// centre ball, masses in [0.5, 2.5]) with gaps for its contacts: most
// slightly open (0 … 0.02), a few deep (−0.3), so that pushing the deep
// ones apart closes open ones around them.
func projectionPile(rings int, seed int64) (*mech.Problem, []float64) {
	rng := rand.New(rand.NewSource(seed))
	var b []desiderata.Ball
	for q := -rings; q <= rings; q++ {
		for r := -rings; r <= rings; r++ {
			if s := -q - r; s < -rings || s > rings {
				continue
			}
			b = append(b, desiderata.Ball{X: float64(q) + 0.5*float64(r), Y: float64(r) * math.Sqrt(3) / 2, R: 0.5, M: 0.5 + 2*rng.Float64()})
		}
	}
	p := desiderata.Balls2D(b, 0, 0)
	gap := make([]float64, p.NContacts())
	for j := range gap {
		gap[j] = 0.02 * rng.Float64()
		if rng.Float64() < 0.03 {
			gap[j] = -0.3
		}
	}
	return p, gap
}

// projectionDq returns Δq = M⁻¹Gμ.
func projectionDq(p *mech.Problem, mu []float64) []float64 {
	r := make([]float64, p.MInv.N())
	p.G.AddMulVec(r, mu)
	dq := make([]float64, len(r))
	p.MInv.MulVec(dq, r)
	return dq
}

// TestProjectionWorkingSet: the projection started from the penetrating
// contacts alone (Margin 0), which must grow its working set over several
// rounds, gives the displacement of the projection on every contact at
// once (Margin +Inf) to 1e-12 (156 contacts, 5–7 rounds; every island
// through the exact dense active set), and that displacement satisfies (P2): μ ≥ 0,
// every linearized gap ≥ 0, complementarity, all to 1e-12.
func TestProjectionWorkingSet(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		p, gap := projectionPile(4, seed)
		m := p.NContacts()
		var dqs [2][]float64
		for k, margin := range []float64{0, math.Inf(1)} {
			pr, err := impact.NewProjection("")
			if err != nil {
				t.Fatal(err)
			}
			pr.Margin = margin
			mu := make([]float64, m)
			st, err := pr.Solve(p, gap, mu)
			if err != nil {
				t.Fatal(err)
			}
			if margin == 0 && st.Iterations < 2 {
				t.Errorf("seed %d: %d round(s) of the working set, want it to grow", seed, st.Iterations)
			}
			dq := projectionDq(p, mu)
			for j := 0; j < m; j++ {
				w := gap[j] + p.G.ColDot(j, dq)
				if mu[j] < 0 || w < -1e-12 || math.Abs(mu[j]*w) > 1e-12 {
					t.Errorf("seed %d, margin %g, contact %d: μ = %g, linearized gap %g", seed, margin, j, mu[j], w)
				}
			}
			dqs[k] = dq
			if k == 0 {
				t.Logf("seed %d: %d contacts, %d rounds, largest island %d", seed, m, st.Iterations, st.Largest)
			}
		}
		for i := range dqs[0] {
			if d := math.Abs(dqs[0][i] - dqs[1][i]); d > 1e-12 {
				t.Fatalf("seed %d, coordinate %d: Δq %g with the working set, %g on every contact", seed, i, dqs[0][i], dqs[1][i])
			}
		}
	}
}

// TestProjectionAllocs: once its workspaces have grown, a projection whose
// working set grows does not allocate.
func TestProjectionAllocs(t *testing.T) {
	p, gap := projectionPile(4, 1)
	pr, err := impact.NewProjection("")
	if err != nil {
		t.Fatal(err)
	}
	mu := make([]float64, p.NContacts())
	if _, err := pr.Solve(p, gap, mu); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() {
		if _, err := pr.Solve(p, gap, mu); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%g allocations per projection", a)
	}
}

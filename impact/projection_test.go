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
	return projectionPileDeep(rings, seed, 0.03)
}

// projectionPileDeep is projectionPile with a fraction deep of deep gaps.
func projectionPileDeep(rings int, seed int64, deep float64) (*mech.Problem, []float64) {
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
		if rng.Float64() < deep {
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
		st, _ := checkWorkingSet(t, p, gap, 1e-12)
		if st.Iterations < 2 {
			t.Errorf("seed %d: %d round(s) of the working set, want it to grow", seed, st.Iterations)
		}
	}
}

// checkWorkingSet solves the projection of p with gaps gap from the
// penetrating contacts alone (Margin 0; intermediate rounds to the default
// RoundTol, and to full tolerance with RoundTol 0) and on every contact at
// once (Margin +Inf), checks that all three satisfy (P2) to tol in gap
// units (μ ≥ 0, linearized gaps ≥ −tol, within tol of 0 where μ > tol) and
// give the same displacement to tol, and returns the Stats of the working
// set with and without RoundTol.
func checkWorkingSet(t *testing.T, p *mech.Problem, gap []float64, tol float64) (loose, exact mech.Stats) {
	t.Helper()
	m := p.NContacts()
	var dqs [3][]float64
	var sts [3]mech.Stats
	for k, margin := range []float64{0, 0, math.Inf(1)} {
		pr, err := impact.NewProjection("")
		if err != nil {
			t.Fatal(err)
		}
		pr.Margin = margin
		if k == 1 {
			pr.RoundTol = 0
		}
		mu := make([]float64, m)
		st, err := pr.Solve(p, gap, mu)
		if err != nil {
			t.Fatal(err)
		}
		dq := projectionDq(p, mu)
		for j := 0; j < m; j++ {
			w := gap[j] + p.G.ColDot(j, dq)
			if mu[j] < 0 || w < -tol || mu[j] > tol && math.Abs(w) > tol {
				t.Errorf("solve %d (margin %g), contact %d: μ = %g, linearized gap %g", k, margin, j, mu[j], w)
			}
		}
		dqs[k], sts[k] = dq, st
		if k < 2 {
			t.Logf("%d contacts, RoundTol %g: %d rounds, largest island %d (%s), %d solver iterations", m, pr.RoundTol, st.Iterations, st.Largest, st.Method, st.SolverIterations)
		}
	}
	for k := 0; k < 2; k++ {
		for i := range dqs[k] {
			if d := math.Abs(dqs[k][i] - dqs[2][i]); d > tol {
				t.Fatalf("solve %d, coordinate %d: Δq %g with the working set, %g in one solve", k, i, dqs[k][i], dqs[2][i])
			}
		}
	}
	return sts[0], sts[1]
}

// TestProjectionWarmLargeIslands: on a patch of 469 balls whose
// working set grows over rounds into islands of more than
// qp.DefaultDenseMax contacts, which the automatic choice then re-solves
// with MPRGP from the previous round's multipliers (the interior-point
// method cannot use them), the displacement is that of one cold solve on
// every contact (Margin +Inf: the interior-point method) to 1e-9, and
// satisfies (P2) to 1e-9 in gap units (the multipliers reach 50) — also
// with the intermediate rounds solved to RoundTol only, which then takes
// one more round (the loose islands solved again to full tolerance).
func TestProjectionWarmLargeIslands(t *testing.T) {
	for seed := int64(1); seed <= 2; seed++ {
		p, gap := projectionPileDeep(12, seed, 0.12)
		loose, exact := checkWorkingSet(t, p, gap, 1e-9)
		if exact.Largest <= 300 || exact.Iterations < 3 {
			t.Fatalf("seed %d: largest island %d after %d rounds: the test does not reach the warm large solves", seed, exact.Largest, exact.Iterations)
		}
		if loose.Iterations <= exact.Iterations {
			t.Errorf("seed %d: %d rounds with RoundTol, %d without: no island was solved loosely and again", seed, loose.Iterations, exact.Iterations)
		}
	}
}

// TestProjectionLooseRoundsAllocs: the working set's loose and full
// re-solves of large islands allocate nothing once the workspaces have
// grown.
func TestProjectionLooseRoundsAllocs(t *testing.T) {
	p, gap := projectionPileDeep(12, 1, 0.12)
	checkProjectionAllocs(t, p, gap, 2)
}

func TestProjectionAllocs(t *testing.T) {
	p, gap := projectionPile(4, 1)
	checkProjectionAllocs(t, p, gap, 20)
}

// checkProjectionAllocs solves the projection of p once, then checks that
// runs more solves allocate nothing.
func checkProjectionAllocs(t *testing.T, p *mech.Problem, gap []float64, runs int) {
	t.Helper()
	pr, err := impact.NewProjection("")
	if err != nil {
		t.Fatal(err)
	}
	mu := make([]float64, p.NContacts())
	if _, err := pr.Solve(p, gap, mu); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(runs, func() {
		if _, err := pr.Solve(p, gap, mu); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%g allocations per projection", a)
	}
}

// TestProjectionOrder: with Keys set (here random, with ties) the working
// set and its islands list their columns in the keys' order; the answer
// is (P2)'s, the displacement of the index order within 1e-12 with the
// same working-set rounds; keys of another length are an error.
func TestProjectionOrder(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		p, gap := projectionPile(4, seed)
		m := p.NContacts()
		var dqs [2][]float64
		var rounds [2]int
		for k := range 2 {
			pr, err := impact.NewProjection("")
			if err != nil {
				t.Fatal(err)
			}
			if k == 1 {
				rng := rand.New(rand.NewSource(seed))
				pr.Keys = make([][2]float64, m)
				for j := range pr.Keys {
					pr.Keys[j] = [2]float64{float64(rng.Intn(4)), rng.Float64()}
				}
			}
			mu := make([]float64, m)
			st, err := pr.Solve(p, gap, mu)
			if err != nil {
				t.Fatal(err)
			}
			dqs[k], rounds[k] = projectionDq(p, mu), st.Iterations
		}
		for i := range dqs[0] {
			if d := math.Abs(dqs[0][i] - dqs[1][i]); d > 1e-12 {
				t.Fatalf("seed %d: Δq[%d] %g in index order, %g in key order", seed, i, dqs[0][i], dqs[1][i])
			}
		}
		if rounds[0] != rounds[1] {
			t.Errorf("seed %d: %d rounds in index order, %d in key order", seed, rounds[0], rounds[1])
		}
		pr, _ := impact.NewProjection("")
		pr.Keys = make([][2]float64, m-1)
		if _, err := pr.Solve(p, gap, make([]float64, m)); err == nil {
			t.Error("m−1 keys: no error")
		}
	}
}

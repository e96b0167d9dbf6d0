package scenario

import (
	"math"
	"testing"

	"impactsim/impact"
	"impactsim/scene"
)

// TestGRInteriorMatchesDense takes the impact problems of a 10K drum drop
// as its pile forms (2,000–3,000 contacts, islands of up to ~30) and solves
// each with GR on the exact dense active set and on the interior-point
// solver: the post-impact velocities agree to 1e-9 and both conserve the
// kinetic energy to 1e-10 relative (c = 1).
func TestGRInteriorMatchesDense(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s")
	}
	r, err := NewBall2D(scene.DrumGrid(10000, "drop", 1), Options{Operator: "gr", Workers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := r.Stepper
	dense, err := impact.New(impact.Config{Name: "gr", Solver: "dense"})
	if err != nil {
		t.Fatal(err)
	}
	interior, err := impact.New(impact.Config{Name: "gr", Solver: "interior"})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for s := 1; s <= 320; s++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if s < 300 {
			continue
		}
		p := &st.Problem
		m, n := p.NContacts(), p.NDof()
		var post [2][]float64
		for k, op := range []impact.Operator{dense, interior} {
			lam := make([]float64, m)
			stats, err := op.Resolve(p, lam)
			if err != nil {
				t.Fatalf("step %d: %v", s, err)
			}
			if k == 1 && stats.Largest > 1 && stats.Method != "interior" {
				t.Fatalf("step %d: largest island solved by %q", s, stats.Method)
			}
			post[k] = make([]float64, n)
			p.ApplyImpulses(post[k], p.V, lam, nil, make([]float64, n))
			e0, e1 := p.KineticEnergy(p.V), p.KineticEnergy(post[k])
			if d := math.Abs(e1-e0) / e0; d > 1e-10 {
				t.Errorf("step %d, solver %d: relative kinetic energy change %.3g", s, k, d)
			}
		}
		var vmax, dmax float64
		for i := range post[0] {
			vmax = math.Max(vmax, math.Abs(post[0][i]))
			dmax = math.Max(dmax, math.Abs(post[0][i]-post[1][i]))
		}
		if dmax > 1e-9*vmax {
			t.Errorf("step %d (%d contacts): dense and interior velocities differ by %.3g (max |v| %.3g)", s, m, dmax, vmax)
		}
		checked++
	}
	t.Logf("%d steps compared", checked)
}

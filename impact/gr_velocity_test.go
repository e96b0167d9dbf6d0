package impact

import (
	"fmt"
	"math"
	"testing"

	"impactsim/par"
)

// TestGRVelocityIsApplyImpulses: GR's final ṽ (GR.Velocity), serial and
// with Gλ scattered on pools of 1–3 workers, is bit for bit v⁻ + M⁻¹Gλ as
// mech.Problem.ApplyImpulses computes it from GR's λ, so Alg. 3 can take
// it instead of computing it; with no reflection (every contact
// separating) it is nil, because the copy of v⁻ keeps −0 entries that
// ApplyImpulses turns into +0.
func TestGRVelocityIsApplyImpulses(t *testing.T) {
	p := grPoolProblem(14, 3)
	m, n := p.NContacts(), p.NDof()
	want := make([]float64, n)
	for _, nw := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprint(nw), func(t *testing.T) {
			o, err := NewGR(0, "")
			if err != nil {
				t.Fatal(err)
			}
			if nw > 0 {
				pool := par.New(nw)
				defer pool.Close()
				o.SetPool(pool)
				o.scatterAt = 1
			}
			lambda := make([]float64, m)
			st, err := o.Resolve(p, lambda)
			if err != nil {
				t.Fatal(err)
			}
			if st.Iterations < 2 {
				t.Fatalf("only %d GR iterations", st.Iterations)
			}
			p.ApplyImpulses(want, p.V, lambda, nil, nil)
			got := o.Velocity()
			if len(got) != n {
				t.Fatalf("Velocity has %d entries, want %d", len(got), n)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("ṽ[%d] = %v, ApplyImpulses %v", i, got[i], want[i])
				}
			}
		})
	}

	// Every contact separating, one velocity −0: no reflection, no ṽ.
	sep := ballsProblem([]float64{0, 1}, []float64{0, 0}, []float64{-1, 1}, []float64{math.Copysign(0, -1), 0}, []float64{1, 2})
	if sep.NContacts() == 0 {
		t.Fatal("the separating pair has no contact")
	}
	o, _ := NewGR(0, "")
	lambda := make([]float64, sep.NContacts())
	if _, err := o.Resolve(sep, lambda); err != nil {
		t.Fatal(err)
	}
	if v := o.Velocity(); v != nil {
		t.Fatalf("Velocity after no reflection = %v, want nil", v)
	}
	v := make([]float64, sep.NDof())
	sep.ApplyImpulses(v, sep.V, lambda, nil, nil)
	if !math.Signbit(sep.V[1]) || math.Signbit(v[1]) {
		t.Fatalf("v⁻[1] = %v, v⁻ + M⁻¹G·0 = %v: the −0 case is not exercised", sep.V[1], v[1])
	}

	// A failed Resolve leaves no ṽ either.
	o.cfg.MaxIter = 1
	lambda = make([]float64, m)
	if _, err := o.Resolve(p, lambda); err == nil {
		t.Fatal("GR capped at one iteration converged: the failure case is not exercised")
	}
	if o.Velocity() != nil {
		t.Fatal("Velocity after a failed Resolve is not nil")
	}
}

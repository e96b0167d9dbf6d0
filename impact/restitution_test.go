package impact_test

import (
	"math"
	"strings"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
)

// TestVelocityRestitution: e(v) is 1 at rest, e₀ from v₀ on, continuous
// and decreasing in between (the 3/4 law at one point: v = v₀/16 gives
// 1 − (1 − e₀)/8); Apply uses each contact's relative approach speed, the
// wall's velocity included, and a ball meeting a moving wall at 0.3 with
// e₀ = 0.6, v₀ = 1 leaves at e(0.3)·0.3 relative to it.
func TestVelocityRestitution(t *testing.T) {
	r := &impact.VelocityRestitution{V0: 2}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.E(0.7, 0) != 1 || r.E(0.7, 2) != 0.7 || r.E(0.7, 5) != 0.7 || r.E(0.7, -1) != 1 {
		t.Errorf("e at rest, at v₀, above: %g %g %g", r.E(0.7, 0), r.E(0.7, 2), r.E(0.7, 5))
	}
	if got, want := r.E(0.7, 2.0/16), 1-0.3/8; math.Abs(got-want) > 1e-15 {
		t.Errorf("e(v₀/16) = %.17g, want %.17g", got, want)
	}
	prev := 1.0
	for v := 0.01; v < 2; v += 0.01 {
		if e := r.E(0.7, v); !(e < prev) || e < 0.7 {
			t.Fatalf("e(%g) = %g after %g", v, e, prev)
		}
		prev = r.E(0.7, v)
	}
	if math.Abs(r.E(0.7, 2-1e-12)-0.7) > 1e-12 {
		t.Errorf("not continuous at v₀: %g", r.E(0.7, 2-1e-12))
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if (&impact.VelocityRestitution{V0: bad}).Check() == nil {
			t.Errorf("v₀ = %g accepted", bad)
		}
	}
	// A ball (v = −0.2) against a floor rising at 0.1: approach speed 0.3.
	p := wallProblem([2]float64{0, -0.2}, [2]float64{0, 0.1}, [2]float64{0, 1}, 0.6)
	vr := &impact.VelocityRestitution{V0: 1}
	vr.Apply(p)
	e := 1 - 0.4*math.Pow(0.3, 0.75)
	if math.Abs(p.CoR[0]-e) > 1e-15 {
		t.Fatalf("coefficient %g, want %g", p.CoR[0], e)
	}
	lambda := make([]float64, 1)
	if _, err := mustOp(t, impact.Config{Name: "gr"}).Resolve(p, lambda); err != nil {
		t.Fatal(err)
	}
	if got := p.V[1] + lambda[0]/2 - 0.1; math.Abs(got-e*0.3) > 1e-15 {
		t.Errorf("leaves at %g relative to the floor, want %g", got, e*0.3)
	}
}

// TestPropagation: in Newton's cradle of five balls GR's reflections,
// QCE's sweeps (also QCE-LCP's) and the Jacobi sweeps reach contact k in
// iteration k + 1 — the impact travels down the chain — while one
// Gauss–Seidel sweep in contact order pushes all four.
func TestPropagation(t *testing.T) {
	want := map[string][]int32{"gr": {1, 2, 3, 4}, "qce": {1, 2, 3, 4}, "qce_lcp": {1, 2, 3, 4}, "jacobi": {1, 2, 3, 4}, "gauss_seidel": {1, 1, 1, 1}}
	for name, w := range want {
		op := mustOp(t, impact.Config{Name: name})
		p := desiderata.NewtonsCradle(5, 1, 1)
		if _, err := op.Resolve(p, make([]float64, p.NContacts())); err != nil {
			t.Fatal(err)
		}
		got := op.(impact.Propagation).FirstPush()
		if len(got) != len(w) {
			t.Fatalf("%s: %v", name, got)
		}
		for k := range w {
			if got[k] != w[k] {
				t.Errorf("%s: first pushes %v, want %v", name, got, w)
				break
			}
		}
	}
}

func TestRestitutionWarning(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    float64
		ev   bool
		want string // substring; "" for no warning
	}{
		{"qce", 0.7, false, "c = 0.7 is ignored"},
		{"qce", 0.7, true, "e(v) with e₀ = 0.7 is ignored"},
		{"qce", 0, false, "qce_lcp (eq. 19) applies it"},
		{"qce", 1, false, ""},
		{"qce", 1, true, ""},
		{"qce_lcp", 0.7, true, ""},
		{"gr", 0.5, false, ""},
	} {
		w := impact.RestitutionWarning(tc.name, tc.c, tc.ev)
		if (tc.want == "") != (w == "") || !strings.Contains(w, tc.want) {
			t.Errorf("RestitutionWarning(%q, %v, %v) = %q, want it to contain %q", tc.name, tc.c, tc.ev, w, tc.want)
		}
	}
}

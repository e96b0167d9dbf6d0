package impact_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

func mustOp(t *testing.T, c impact.Config) impact.Operator {
	t.Helper()
	op, err := impact.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func post(t *testing.T, op impact.Operator, p *mech.Problem) desiderata.Outcome {
	t.Helper()
	o, err := desiderata.Run(op, p)
	if err != nil {
		t.Fatalf("%s: %v", op.Name(), err)
	}
	return o
}

// xs returns the x velocities of the balls.
func xs(v []float64) []float64 {
	out := make([]float64, len(v)/2)
	for i := range out {
		out[i] = v[2*i]
	}
	return out
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s: component %d = %.17g, want %.17g (|Δ| = %.3g > %.0e)", what, i, got[i], want[i], math.Abs(got[i]-want[i]), tol)
		}
	}
}

func TestNewtonsCradle(t *testing.T) {
	cases := []struct {
		op   string
		cor  float64
		want []float64
	}{
		{"gr", 1, []float64{0, 0, 2}},
		{"gauss_seidel", 1, []float64{0, 0, 2}},
		{"lcp", 1, []float64{-2.0 / 3, 4.0 / 3, 4.0 / 3}}, // the sticking failure
		{"lcp", 0, []float64{2.0 / 3, 2.0 / 3, 2.0 / 3}},
	}
	for _, c := range cases {
		p := desiderata.NewtonsCradle(3, 2, c.cor)
		o := post(t, mustOp(t, impact.Config{Name: c.op}), p)
		near(t, c.op, xs(o.V), c.want, 1e-12)
		// The stats name the largest inner solve: GR reflects one contact
		// at a time (two scalar solves), LCP solves both contacts at once.
		want := map[string]struct {
			solves, largest int
			method          string
		}{"gr": {2, 1, "scalar"}, "lcp": {1, 2, "dense"}}
		if w, ok := want[c.op]; ok {
			if st := o.Stats; st.Solves != w.solves || st.Largest != w.largest || st.Method != w.method {
				t.Errorf("%s: stats %d solves, largest %d by %q; want %d, %d, %q", c.op, st.Solves, st.Largest, st.Method, w.solves, w.largest, w.method)
			}
		}
	}
	for _, c := range []float64{0, 0.1, 0.25, 0.5, 0.9, 1} {
		p := desiderata.NewtonsCradle(3, 2, c)
		o := post(t, mustOp(t, impact.Config{Name: "grr"}), p)
		want := []float64{(1 - c) * 2 / 3, (1 - c) * 2 / 3, (1-c)*2/3 + 2*c}
		near(t, "grr", xs(o.V), want, 1e-12)
	}
}

func TestBernoulli(t *testing.T) {
	s := 0.4 * math.Sqrt(3) // 0.69282…
	want := []float64{-0.4, 0, 1.2, s, 1.2, -s}
	for _, name := range []string{"gr", "lcp", "grr"} {
		o := post(t, mustOp(t, impact.Config{Name: name}), desiderata.Bernoulli(1))
		near(t, name, o.V, want, 1e-12)
	}
	gs := post(t, mustOp(t, impact.Config{Name: "gauss_seidel"}), desiderata.Bernoulli(1))
	if asym := math.Abs(gs.V[3] + gs.V[5]); asym < 1e-3 {
		t.Errorf("gauss_seidel on Bernoulli's problem: asymmetry %.3g, expected a visible symmetry failure", asym)
	}
	p := desiderata.Bernoulli(1)
	ja := post(t, mustOp(t, impact.Config{Name: "jacobi"}), p)
	if asym := math.Abs(ja.V[3]+ja.V[5]) + math.Abs(ja.V[1]); asym > 1e-12 {
		t.Errorf("jacobi asymmetry %.3g, want symmetric", asym)
	}
	if e0, e1 := p.KineticEnergy(p.V), p.KineticEnergy(ja.V); math.Abs(e0-2) > 1e-15 || math.Abs(e1-3.5) > 1e-12 {
		t.Errorf("jacobi kinetic energy %v → %v, want 2 → 3.5", e0, e1)
	}
}

// TestConservation checks KIN, MOM and ONE to 1e-12 on random elastic
// multi-impacts of touching balls.
func TestConservation(t *testing.T) {
	problems := []*mech.Problem{
		desiderata.NewtonsCradle(3, 2, 1),
		desiderata.NewtonsCradle(7, 1.5, 1),
		desiderata.Bernoulli(1),
		hexCluster(1),
	}
	for _, name := range []string{"gr", "lcp", "gauss_seidel"} {
		op := mustOp(t, impact.Config{Name: name})
		for pi, p := range problems {
			o := post(t, op, p)
			e0, e1 := p.KineticEnergy(p.V), p.KineticEnergy(o.V)
			if rel := math.Abs(e1-e0) / e0; rel > 1e-12 {
				t.Errorf("%s problem %d: relative energy change %.3g > 1e-12", name, pi, rel)
			}
			var p0, p1 [2]float64
			p.LinearMomentum(p0[:], p.V)
			p.LinearMomentum(p1[:], o.V)
			if d := math.Hypot(p1[0]-p0[0], p1[1]-p0[1]) / math.Hypot(p0[0], p0[1]); d > 1e-12 {
				t.Errorf("%s problem %d: relative momentum change %.3g > 1e-12", name, pi, d)
			}
			for k, l := range o.Lambda {
				if l < -1e-12 {
					t.Errorf("%s problem %d: impulse %d = %.3g < 0", name, pi, k, l)
				}
			}
			// Feasibility: nothing approaches afterwards.
			u := make([]float64, p.NContacts())
			p.NormalVelocities(u, o.V)
			for k, x := range u {
				if x < -1e-9 {
					t.Errorf("%s problem %d: contact %d still approaches at %.3g", name, pi, k, x)
				}
			}
		}
	}
}

// hexCluster is a hexagonal patch of 7 touching unit balls (12 contacts on 14
// degrees of freedom, so G is rank deficient) hit by 3 incoming balls.
func hexCluster(cor float64) *mech.Problem {
	var b []desiderata.Ball
	b = append(b, desiderata.Ball{M: 1, R: 0.5})
	for k := 0; k < 6; k++ {
		a := float64(k) * math.Pi / 3
		b = append(b, desiderata.Ball{X: math.Cos(a), Y: math.Sin(a), M: 1, R: 0.5})
	}
	// Incoming balls touching the outer ring, moving towards the centre.
	for _, k := range []int{0, 2, 4} {
		a := float64(k) * math.Pi / 3
		b = append(b, desiderata.Ball{X: 2 * math.Cos(a), Y: 2 * math.Sin(a), VX: -math.Cos(a) * (1 + 0.1*float64(k)), VY: -math.Sin(a) * (1 + 0.1*float64(k)), M: 1 + 0.5*float64(k), R: 0.5})
	}
	return desiderata.Balls2D(b, cor, 0)
}

func TestGRRTerminatesForEveryRestitution(t *testing.T) {
	for c := 0.0; c <= 1.0; c += 0.01 {
		op := mustOp(t, impact.Config{Name: "grr"})
		o := post(t, op, desiderata.NewtonsCradle(3, 2, c))
		// One inelastic LCP solve plus at most two GR reflections.
		if o.Stats.Solves > 3 {
			t.Errorf("c = %.2f: grr needed %d solves, want ≤ 3", c, o.Stats.Solves)
		}
	}
}

func TestIterationCapIsAnError(t *testing.T) {
	// Pairwise Gauss–Seidel on the inelastic cradle collapses (Zeno): with a
	// cap of 10 sweeps it must report an error, not an infeasible velocity.
	op := mustOp(t, impact.Config{Name: "gauss_seidel", MaxIter: 10, VTol: 1e-300})
	_, err := desiderata.Run(op, desiderata.NewtonsCradle(3, 2, 0))
	var nc *impact.NotConvergedError
	if !errors.As(err, &nc) {
		t.Fatalf("got %v, want *NotConvergedError", err)
	}
	if nc.Iterations != 10 || nc.WorstViolation >= 0 {
		t.Errorf("error reports %d iterations, violation %v", nc.Iterations, nc.WorstViolation)
	}
}

func TestUnknownOperator(t *testing.T) {
	if _, err := impact.New(impact.Config{Name: "nope"}); err == nil {
		t.Fatal("no error for an unknown operator")
	}
}

// TestSlowGRHint: the hint speaks for GR (alone or with friction) at
// c < 1 from impact.SlowGRIterations reflections on, and not otherwise.
func TestSlowGRHint(t *testing.T) {
	p := &mech.Problem{CoR: []float64{1, 0.5, 1}}
	one := &mech.Problem{CoR: []float64{1, 1}}
	for _, c := range []struct {
		law  string
		it   int
		p    *mech.Problem
		hint bool
	}{
		{"gr", impact.SlowGRIterations, p, true},
		{"gr+maxdiss", 5600, p, true},
		{"gr", impact.SlowGRIterations - 1, p, false},
		{"gr", 5600, one, false},
		{"grr", 5600, p, false},
		{"lcp", 5600, p, false},
	} {
		h := impact.SlowGRHint(c.law, c.it, c.p)
		if (h != "") != c.hint || c.hint && !strings.Contains(h, "c = 0.5 < 1") {
			t.Errorf("%s, %d iterations: %q", c.law, c.it, h)
		}
	}
}

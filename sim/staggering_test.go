package sim

import (
	"math"
	"strings"
	"testing"

	"impactsim/mech"
)

// floorParticle is fall with what the stabilized and symplectic_euler
// staggerings need.
type floorParticle struct{ fall }

func (f floorParticle) UpdateConfiguration(q0, v []float64, h float64, q1 []float64) {
	q1[0], q1[1] = q0[0]+h*v[0], q0[1]+h*v[1]
}
func (f floorParticle) ForceKick(q0, v0 []float64, h float64, dv []float64) {
	dv[0], dv[1] = 0, -h*f.g
}
func (f floorParticle) Gaps(q, dst []float64) []float64 { return append(dst, q[1]) }

// stop is the inelastic frictionless one-contact law on u_n + NRel.
type stop struct{}

func (stop) Name() string { return "stop" }
func (stop) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	u := p.G.ColDot(0, p.V)
	if len(p.NRel) > 0 {
		u += p.NRel[0]
	}
	lambda[0] = math.Max(0, -u/p.DelassusDiag(0))
	return mech.Stats{Iterations: 1}, nil
}

// TestStaggerings: a particle resting on the floor sinks by g h² per step
// under Alg. 4 (the free flight after the impulse lets gravity act) but
// stays exactly at rest under the stabilized and symplectic_euler
// staggerings; symplectic_euler with stabilization pushes a penetration
// deeper than the threshold out in one step and leaves a shallower one;
// without contacts it is the kick-then-drift Euler step.
func TestStaggerings(t *testing.T) {
	const g, h = 10.0, 0.01
	run := func(stag Staggering, stab bool, thr, y0, vy0 float64) ([]float64, []float64) {
		t.Helper()
		st, err := NewStepper(floorParticle{fall{g: g}}, stop{}, h, []float64{0, y0}, []float64{0, vy0})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SetStaggering(stag, stab, thr); err != nil {
			t.Fatal(err)
		}
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		return st.Q, st.V
	}
	if q, v := run(Geometric, false, 0, 0, 0); q[1] != -g*h*h || v[1] != -g*h {
		t.Errorf("geometric: y = %v, v = %v, want the sunk −g h² = %v", q[1], v[1], -g*h*h)
	}
	for _, stag := range []Staggering{Stabilized, SymplecticEuler} {
		if q, v := run(stag, false, 0, 0, 0); q[1] != 0 || v[1] != 0 {
			t.Errorf("%v: y = %v, v = %v, want rest", stag, q[1], v[1])
		}
	}
	if q, v := run(SymplecticEuler, true, 1e-3, -0.01, 0); math.Abs(q[1]) > 1e-17 || math.Abs(v[1]-0.01/h) > 1e-14 {
		t.Errorf("stabilized symplectic_euler, depth 0.01: y = %v, v = %v, want 0 and %v", q[1], v[1], 0.01/h)
	}
	if q, v := run(SymplecticEuler, true, 1e-1, -0.01, 0); q[1] != -0.01 || v[1] != 0 {
		t.Errorf("depth below the threshold: y = %v, v = %v, want −0.01 and 0", q[1], v[1])
	}
	if q, v := run(SymplecticEuler, false, 0, 1, 0.5); q[1] != 1+h*(0.5-g*h) || v[1] != 0.5-g*h {
		t.Errorf("free symplectic_euler: y = %v, v = %v", q[1], v[1])
	}
	// what each staggering needs from the system
	st, _ := NewStepper(fall{g: g}, stop{}, h, []float64{0, 1}, []float64{0, 0})
	for _, c := range []struct {
		g    Staggering
		stab bool
		want string
	}{
		{Stabilized, false, "updates its configuration"},
		{SymplecticEuler, false, "updates its configuration"},
	} {
		if err := st.SetStaggering(c.g, c.stab, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v on fall: %v, want %q", c.g, err, c.want)
		}
	}
	st, _ = NewStepper(floorParticle{fall{g: g}}, stop{}, h, []float64{0, 1}, []float64{0, 0})
	if err := st.SetStaggering(Stabilized, true, 0); err == nil || !strings.Contains(err.Error(), "option of the symplectic_euler staggering") {
		t.Errorf("stabilization with stabilized: %v", err)
	}
	if g, err := ParseStaggering("verlet"); err == nil {
		t.Errorf("ParseStaggering(verlet) = %v", g)
	}
}

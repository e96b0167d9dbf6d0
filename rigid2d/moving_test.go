package rigid2d_test

import (
	"math"
	"testing"

	"impactsim/impact"
	"impactsim/rigid2d"
	"impactsim/sim"
)

// flatBox steps a box falling flat at speed u onto a floor rising at w
// (geom2d.Plane.V, moved by a hook) for 10 steps with operator name and
// restitution c, and returns the box's velocity relative to the floor
// and its angular velocity.
func flatBox(t *testing.T, name string, c, u, w float64) (float64, float64) {
	t.Helper()
	s := &rigid2d.System{CoR: c, Planes: []rigid2d.Plane{{P: [2]float64{0, 0}, N: [2]float64{0, 1}, V: [2]float64{0, w}}}}
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.5, 0.25}}, 1, [2]float64{0, 0.26}, 0, [2]float64{0, -u}, 0, false)
	op, err := impact.New(impact.Config{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: op}, 1e-3, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	st.AddHook(sim.Hook{Name: "floor", Begin: func(st *sim.Stepper) error {
		s.Planes[0].P[1] = w * (st.T + st.H)
		return nil
	}})
	for k := 0; k < 10; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return st.V[1] - w, st.V[2]
}

// TestMovingPlane2D: a box falling flat at 1 onto a floor that rises at 2
// moves relative to the floor as a box falling at 3 onto a static floor,
// under every operator (1e-12); the laws that treat the box's two
// simultaneous corner contacts together (gr, grr, lcp, qce, qce_lcp)
// send it back at c times 3 without spin. (The pairwise sweeps
// gauss_seidel and jacobi give their own answer for two contacts at once,
// the same against the moving floor as against the static one.)
func TestMovingPlane2D(t *testing.T) {
	exact := map[string]bool{"gr": true, "grr": true, "lcp": true, "qce": true, "qce_lcp": true}
	for _, name := range impact.Names() {
		for _, c := range []float64{1, 0.5} {
			if name == "qce" && c != 1 {
				continue
			}
			vm, wm := flatBox(t, name, c, 1, 2)
			vs, ws := flatBox(t, name, c, 3, 0)
			if math.Abs(vm-vs) > 1e-12 || math.Abs(wm-ws) > 1e-12 {
				t.Errorf("%s c = %g: relative to the moving floor (%.15g, ω %g), to the static floor (%.15g, ω %g)", name, c, vm, wm, vs, ws)
			}
			if exact[name] && (math.Abs(vm-3*c) > 1e-12 || math.Abs(wm) > 1e-12) {
				t.Errorf("%s c = %g: leaves at %.15g relative to the floor (ω %g), want %g", name, c, vm, wm, 3*c)
			}
		}
	}
}

package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/sim"
)

// boxStack returns three boxes of half heights 0.25, narrowing upwards
// (half widths 0.5, 0.4, 0.3 and 0.4, 0.3, 0.2: every corner of a box lies
// inside the face beneath it), stacked on the plane y = 0, touching, at
// rest under gravity, c = 0.
func boxStack() *System {
	s := &System{Gravity: r3.Vec{Y: -9.81}, Integrator: DMV}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	for k := 0; k < 3; k++ {
		w := 0.1 * float64(k)
		s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5 - w, Y: 0.25, Z: 0.4 - w}}, 1, r3.Vec{Y: 0.25 + 0.5*float64(k)}, Identity, r3.Vec{}, r3.Vec{}, false)
	}
	return s
}

// stackOverlap is the deepest overlap of the stacked boxes at q, from their
// positions and orientations: every corner of a box below the plane or
// inside the box beneath it.
func (s *System) stackOverlap(q []float64) float64 {
	w := 0.0
	for i := range s.Mass {
		x, o := Pose(q, i)
		r := o.Matrix()
		for c := 0; c < 8; c++ {
			p := r3.Add(x, r.MulVec(corner(s.Shapes[i].Half, c)))
			w = math.Max(w, -p.Y)
			if i > 0 {
				w = math.Max(w, -s.bodySDF(q, i-1, p))
			}
		}
	}
	return w
}

// A stack of three boxes resting on a plane (c = 0, steps of 0.01: 2000
// under lcp, 300 under gr, whose resting steps at c = 0 take 15 times
// longer): with the position correction (tolerance
// 10⁻⁶) no corner sinks deeper than 10⁻⁶; without it the stack sinks into
// the plane. Vertex contacts follow their body to the corrected positions
// (Contact.Loc).
func TestCorrectionBoxStack(t *testing.T) {
	run := func(op string, steps int, corr *sim.Correction) (worst, final float64, st *sim.Stepper) {
		s := boxStack()
		st = stepper(t, s, op, 0.01)
		if err := st.SetCorrection(corr); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < steps; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			worst = math.Max(worst, s.stackOverlap(st.Q))
		}
		return worst, s.stackOverlap(st.Q), st
	}
	for _, tc := range []struct {
		op    string
		steps int
	}{{"lcp", 2000}, {"gr", 300}} {
		op, steps := tc.op, tc.steps
		worst, _, st := run(op, steps, &sim.Correction{Project: true, Tol: 1e-6})
		t.Logf("%s with correction: worst overlap %.3g, last step %d passes", op, worst, st.Last.Correction.Passes)
		if worst > 1e-6 {
			t.Errorf("%s with correction: worst overlap %.3g, want ≤ 1e-6", op, worst)
		}
		_, final, _ := run(op, steps, nil)
		t.Logf("%s without: overlap %.3g after %d steps", op, final, steps)
		if final < 0.1 {
			t.Errorf("%s without correction: overlap %.3g, want the stack to sink (≈ ½ g h² per step)", op, final)
		}
	}
}

package compliant_test

import (
	"math"
	"testing"

	"impactsim/compliant"
)

func chain(va, vb, vc float64) []compliant.Ball {
	return []compliant.Ball{
		{X: 0, VX: va, M: 1, R: 0.5},
		{X: 1, VX: vb, M: 1, R: 0.5},
		{X: 2, VX: vc, M: 1, R: 0.5},
	}
}

func TestTwoBallExchange(t *testing.T) {
	for _, law := range []compliant.Law{compliant.Hertz, compliant.Linear} {
		in := []compliant.Ball{{X: 0, VX: 1, M: 1, R: 0.5}, {X: 1, M: 1, R: 0.5}}
		r, err := compliant.Resolve(in, compliant.Options{Law: law})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: v⁺ = (%.15g, %.15g), %d steps, %d rejected, duration %.3g", law, r.Balls[0].VX, r.Balls[1].VX, r.Steps, r.Rejected, r.Duration)
		if math.Abs(r.Balls[0].VX) > 1e-9 || math.Abs(r.Balls[1].VX-1) > 1e-9 {
			t.Errorf("%v: v⁺ = (%.15g, %.15g), want (0, 1)", law, r.Balls[0].VX, r.Balls[1].VX)
		}
	}
}

func TestConservation(t *testing.T) {
	cases := [][]compliant.Ball{
		chain(0.5, 0, -1),
		chain(0, 0, -1),
		{ // Bernoulli-like 2D cluster with unequal masses
			{X: -math.Sqrt(0.75), Y: 0, VX: 2, M: 1, R: 0.5},
			{X: 0, Y: 0.5, M: 2, R: 0.5},
			{X: 0, Y: -0.5, M: 1.5, R: 0.5},
		},
	}
	for ci, in := range cases {
		for _, law := range []compliant.Law{compliant.Hertz, compliant.Linear} {
			r, err := compliant.Resolve(in, compliant.Options{Law: law})
			if err != nil {
				t.Fatal(err)
			}
			e0, e1 := compliant.Energy(in), compliant.Energy(r.Balls)
			px0, py0 := compliant.Momentum(in)
			px1, py1 := compliant.Momentum(r.Balls)
			t.Logf("case %d %v: %d steps, energy %.3g, momentum %.3g", ci, law, r.Steps, math.Abs(e1-e0)/e0, math.Hypot(px1-px0, py1-py0))
			if math.Abs(e1-e0)/e0 > 1e-9 {
				t.Errorf("case %d %v: relative energy change %.3g", ci, law, math.Abs(e1-e0)/e0)
			}
			if math.Hypot(px1-px0, py1-py0) > 1e-9 {
				t.Errorf("case %d %v: momentum change %.3g", ci, law, math.Hypot(px1-px0, py1-py0))
			}
		}
	}
}

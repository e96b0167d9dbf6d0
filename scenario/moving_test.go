package scenario

import (
	"math"
	"testing"

	"impactsim/scene"
)

// TestLeesEdwardsEnergyBalance: the impact operators now read the sheared
// images' relative velocities, so SCISim's Lees–Edwards scene runs with gr;
// at c = 1 GR dissipates nothing and every step's change of the total
// energy is the work the sheared images did through the impulses
// (StepStats.WallWork), to rounding. A ball crossing a sheared plane
// gains the shear velocity in AfterStep, outside the impulses: those steps
// are left out of the balance.
func TestLeesEdwardsEnergyBalance(t *testing.T) {
	sc, err := scene.LoadBall2D("../parity/testdata/ball2d/lees_edwards/portal_lots_of_collisions.xml")
	if err != nil {
		t.Fatal(err)
	}
	one, zero := 1.0, 0.0
	r, err := NewBall2D(sc, Options{Operator: "gr", CoR: &one, Mu: &zero})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stepper
	e0 := r.Sys.Energy(st.Q, st.V)
	var work, worst, scale float64
	crossings := 0
	q := append([]float64(nil), st.Q...)
	for i := 0; i < 3000; i++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		e := r.Sys.Energy(st.Q, st.V)
		crossed := false
		for k := range q {
			crossed = crossed || math.Abs(st.Q[k]-q[k]) > 1
		}
		copy(q, st.Q)
		if crossed {
			crossings++
			e0, work = e, 0
			continue
		}
		work += st.Last.WallWork
		worst = math.Max(worst, math.Abs(e-e0-work))
		scale = math.Max(scale, math.Abs(work))
	}
	if scale < 0.1 || worst > 1e-13*scale || crossings > 1000 {
		t.Errorf("work of the sheared images up to %.6g between crossings (%d), largest |ΔE − W| %.3g", scale, crossings, worst)
	}
}

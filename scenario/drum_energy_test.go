package scenario

import (
	"math"
	"testing"

	"impactsim/scene"
)

// kinetic returns ½ Σ mᵢ|vᵢ|² with Neumaier-compensated summation.
func kinetic(m, v []float64) float64 {
	var s, c float64
	for i, mi := range m {
		t := 0.5 * mi * (v[2*i]*v[2*i] + v[2*i+1]*v[2*i+1])
		u := s + t
		if math.Abs(s) >= math.Abs(t) {
			c += (s - u) + t
		} else {
			c += (t - u) + s
		}
		s = u
	}
	return s + c
}

// TestDrumGasEnergy: the Table 2 gas scene with 100,000 balls (no gravity,
// c_r = 1, gr, exact QP solves) keeps its kinetic energy to 1e-9 relative
// over 100 steps: only impacts change it, and elastic generalized
// reflections conserve it.
func TestDrumGasEnergy(t *testing.T) {
	if testing.Short() {
		t.Skip("3 s")
	}
	r, err := NewBall2D(scene.DrumGrid(100000, "gas", 1), Options{Operator: "gr", Workers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := r.Stepper
	e0 := kinetic(r.Sys.M, st.V)
	var worst float64
	contacts := 0
	for s := 1; s <= 100; s++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		contacts += st.Last.Contacts
		worst = max(worst, math.Abs(kinetic(r.Sys.M, st.V)-e0)/e0)
	}
	t.Logf("100 steps, %d contacts in all: largest relative kinetic energy drift %.3g", contacts, worst)
	if contacts < 100000 {
		t.Fatalf("only %d contacts: the test is too easy", contacts)
	}
	if worst > 1e-9 {
		t.Errorf("relative kinetic energy drift %.3g > 1e-9", worst)
	}
}

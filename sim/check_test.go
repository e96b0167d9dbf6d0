package sim

import (
	"errors"
	"math"
	"testing"
)

// TestCheckFiniteStopsAtFirstNaN: a fall with g = 1e308 leaves the range
// of float64 at the second step; Check refuses it, the state is the first step's, and the
// error names the step and the coordinate.
func TestCheckFiniteStopsAtFirstNaN(t *testing.T) {
	st, err := NewStepper(fall{g: 1e308}, reflect{}, 1, []float64{0, 1e300}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	st.Check = CheckFinite
	var phases []string
	st.OnPhase = func(p string) { phases = append(phases, p) }
	if err := st.Step(); err != nil {
		t.Fatalf("step 1: %v", err)
	}
	q1, v1 := append([]float64(nil), st.Q...), append([]float64(nil), st.V...)
	err = st.Step()
	var ce *CheckError
	var nf *NonFiniteError
	if !errors.As(err, &ce) || !errors.As(err, &nf) || ce.Step != 2 || !math.IsNaN(nf.Value) && !math.IsInf(nf.Value, 0) {
		t.Fatalf("step 2: %v (%+v)", err, nf)
	}
	if st.N != 1 || st.T != 1 || st.Q[0] != q1[0] || st.Q[1] != q1[1] || st.V[0] != v1[0] || st.V[1] != v1[1] {
		t.Errorf("state after the refused step: n %d t %v q %v v %v, want the first step's %v %v", st.N, st.T, st.Q, st.V, q1, v1)
	}
	if len(phases) < 4 || phases[0] != "free flight" || phases[1] != "contact detection" {
		t.Errorf("phases %v", phases)
	}
	if err := CheckFinite([]float64{1, 2}, []float64{3, math.NaN()}); err == nil || err.Error() != "v[1] is NaN" {
		t.Errorf("CheckFinite: %v", err)
	}
}

// TestCheckedStepAllocFree: checking costs no allocation per step.
func TestCheckedStepAllocFree(t *testing.T) {
	st, _ := NewStepper(fall{g: 10}, reflect{}, 0.01, []float64{0, 1}, []float64{1, 0})
	st.Check = CheckFinite
	st.Step()
	if a := testing.AllocsPerRun(100, func() { st.Step() }); a != 0 {
		t.Errorf("%v allocations per checked step", a)
	}
}

package sim

import (
	"errors"
	"testing"

	"impactsim/mech"
)

// fall is one particle in 1D-in-2D free fall above a floor at y = 0.
type fall struct{ g float64 }

func (f fall) NDof() int { return 2 }
func (f fall) FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64) {
	v1[0], v1[1] = v0[0], v0[1]-f.g*h
	q1[0], q1[1] = q0[0]+h*v0[0], q0[1]+h*v1[1]
}
func (f fall) BuildProblem(q0, q1, v0 []float64, p *mech.Problem) {
	p.Reset(2, 2)
	p.M.AppendScalarBlock(2, 1)
	p.MInv.AppendScalarBlock(2, 1)
	copy(p.V, v0)
	if q1[1] < 0 {
		p.G.Append(1, 1)
		p.G.EndCol()
		p.CoR = append(p.CoR, 1)
		p.Mu = append(p.Mu, 0)
		p.Bodies = append(p.Bodies, 0, -1)
	}
}
func (f fall) AfterStep(q, v []float64) {}

// reflect is an elastic one-contact law.
type reflect struct{ fail bool }

func (r reflect) Name() string { return "reflect" }
func (r reflect) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	if r.fail {
		return mech.Stats{Iterations: 7}, errors.New("boom")
	}
	lambda[0] = -2 * p.G.ColDot(0, p.V) / p.DelassusDiag(0)
	return mech.Stats{Iterations: 1}, nil
}

func TestStepperAlg4(t *testing.T) {
	st, err := NewStepper(fall{g: 10}, reflect{}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Step(); err != nil {
		t.Fatal(err)
	}
	// The prediction crosses the floor, so the velocity at qᵗ is reflected
	// (v_y: −1 → +1) and free flight restarts from qᵗ: y = 0.05 + 0.1·(1 − 1).
	if st.Last.Contacts != 1 || st.V[1] != 0 || st.Q[1] != 0.05 || st.Q[0] != 0.1 {
		t.Errorf("after the impact step: q = %v, v = %v, contacts %d", st.Q, st.V, st.Last.Contacts)
	}
	if st.T != 0.1 || st.N != 1 {
		t.Errorf("t = %v, n = %d", st.T, st.N)
	}
}

func TestStepperErrorKeepsState(t *testing.T) {
	st, _ := NewStepper(fall{g: 10}, reflect{fail: true}, 0.1, []float64{0, 0.05}, []float64{1, -1})
	err := st.Step()
	if err == nil {
		t.Fatal("no error")
	}
	if st.Q[0] != 0 || st.Q[1] != 0.05 || st.V[0] != 1 || st.V[1] != -1 || st.N != 0 {
		t.Errorf("state changed after a failed step: q = %v, v = %v", st.Q, st.V)
	}
	if _, err := NewStepper(fall{}, reflect{}, 0, []float64{0, 0}, []float64{0, 0}); err == nil {
		t.Error("h = 0 accepted")
	}
}

// sized is fall with a 3-entry position vector (one unused coordinate).
type sized struct{ fall }

func (sized) NQ() int { return 3 }
func (s sized) FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64) {
	s.fall.FreeFlight(q0, v0, h, q1, v1)
	q1[2] = q0[2] + 1
}

func TestStepperPositionSizer(t *testing.T) {
	st, err := NewStepper(sized{fall{g: 10}}, reflect{}, 0.1, []float64{0, 1, 0}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Step(); err != nil || len(st.Q) != 3 || st.Q[2] != 1 {
		t.Errorf("q = %v, err %v", st.Q, err)
	}
	if _, err := NewStepper(sized{fall{}}, reflect{}, 0.1, []float64{0, 0}, []float64{0, 0}); err == nil {
		t.Error("2 positions accepted for NQ = 3")
	}
}

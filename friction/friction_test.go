package friction

import (
	"math"
	"testing"

	"impactsim/mech"
)

// ballOnFloor is one ball of mass m against the floor y = 0: normal +y,
// tangent +x, velocity (vx, vy).
func ballOnFloor(m, vx, vy, cor, mu float64) *mech.Problem {
	p := &mech.Problem{}
	p.Reset(2, 2)
	p.M.AppendScalarBlock(2, m)
	p.MInv.AppendScalarBlock(2, 1/m)
	p.V[0], p.V[1] = vx, vy
	p.G.Append(1, 1)
	p.G.EndCol()
	p.D.Append(0, 1)
	p.D.EndCol()
	p.DContact = []int{0}
	p.CoR, p.Mu, p.Bodies = []float64{cor}, []float64{mu}, []int{0, -1}
	return p
}

func post(p *mech.Problem, lambda, beta []float64) []float64 {
	v := make([]float64, p.NDof())
	p.ApplyImpulses(v, p.V, lambda, beta, make([]float64, p.NDof()))
	return v
}

func TestMaxDissipationSlipAndStick(t *testing.T) {
	// "interior" names an LCP-only solver; the friction boxes go to auto.
	for _, solver := range []string{"", "interior"} {
		testSlipAndStick(t, solver)
	}
}

func testSlipAndStick(t *testing.T, solver string) {
	md, err := NewMaxDissipation(solver)
	if err != nil {
		t.Fatal(err)
	}
	// Normal impulse of an elastic bounce: λ = 2 m |v_y|.
	for _, c := range []struct {
		vx, mu, wantVx float64
	}{
		{3, 0.5, 3 - 0.5*2*1},   // slips: Δv_x = μλ/m = 1
		{-3, 0.5, -3 + 0.5*2*1}, // opposite direction
		{0.5, 0.5, 0},           // μλ/m = 1 > 0.5: sticks exactly
		{3, 0, 3},               // frictionless
	} {
		p := ballOnFloor(2, c.vx, -1, 1, c.mu)
		lambda := []float64{2 * 2 * 1}
		beta := make([]float64, 1)
		if _, err := md.Resolve(p, lambda, beta); err != nil {
			t.Fatal(err)
		}
		v := post(p, lambda, beta)
		if math.Abs(v[0]-c.wantVx) > 1e-14 || math.Abs(v[1]-1) > 1e-14 {
			t.Errorf("vx = %v, μ = %v: v⁺ = %v, want (%v, 1)", c.vx, c.mu, v, c.wantVx)
		}
		if math.Abs(beta[0]) > c.mu*lambda[0]*(1+1e-15) {
			t.Errorf("|β| = %v exceeds μλ = %v", math.Abs(beta[0]), c.mu*lambda[0])
		}
		if p.KineticEnergy(v) > p.KineticEnergy(p.V)*(1+1e-15) {
			t.Errorf("friction added energy")
		}
	}
}

func TestCoulombOblique(t *testing.T) {
	law := &Coulomb{}
	for _, c := range []struct {
		vx, vy, cor, mu float64
		wantVx, wantVy  float64
	}{
		{2, -1, 0.5, 0.2, 2 - 0.2*1.5, 0.5}, // slides: Δv_x = μ(1+c)|v_y|
		{0.1, -1, 0.5, 0.2, 0, 0.5},         // sticks
		{2, -1, 0, 0.3, 2 - 0.3, 0},         // inelastic slide
		{2, 1, 0.5, 0.3, 2, 1},              // separating: nothing
	} {
		p := ballOnFloor(3, c.vx, c.vy, c.cor, c.mu)
		lambda, beta := make([]float64, 1), make([]float64, 1)
		if _, err := law.Solve(p, lambda, beta); err != nil {
			t.Fatal(err)
		}
		v := post(p, lambda, beta)
		if math.Abs(v[0]-c.wantVx) > 1e-14 || math.Abs(v[1]-c.wantVy) > 1e-14 {
			t.Errorf("%+v: v⁺ = %v", c, v)
		}
	}
}

// TestCoulombJammedWedge: a ball pressed into a 90° wedge with friction
// admits a line of impulses; the solver must converge on the (unique)
// velocity and stop rather than chase the impulses.
func TestCoulombJammedWedge(t *testing.T) {
	p := &mech.Problem{}
	p.Reset(2, 2)
	p.M.AppendScalarBlock(2, 1)
	p.MInv.AppendScalarBlock(2, 1)
	p.V[0], p.V[1] = 0, -1
	s := math.Sqrt(0.5)
	for _, n := range [][2]float64{{s, s}, {-s, s}} {
		p.G.Append(0, n[0])
		p.G.Append(1, n[1])
		p.G.EndCol()
		p.D.Append(0, -n[1])
		p.D.Append(1, n[0])
		p.D.EndCol()
		p.DContact = append(p.DContact, len(p.DContact))
		p.CoR = append(p.CoR, 0)
		p.Mu = append(p.Mu, 2) // μ > 1: the wedge locks
		p.Bodies = append(p.Bodies, 0, -1)
	}
	law := &Coulomb{Tol: 1e-12, MaxIter: 1000}
	lambda, beta := make([]float64, 2), make([]float64, 2)
	st, err := law.Solve(p, lambda, beta)
	if err != nil {
		t.Fatal(err)
	}
	v := post(p, lambda, beta)
	if math.Hypot(v[0], v[1]) > 1e-12 {
		t.Errorf("wedged ball still moves: v⁺ = %v (after %d sweeps)", v, st.Iterations)
	}
	for k := range lambda {
		if lambda[k] < 0 || math.Abs(beta[k]) > p.Mu[k]*lambda[k]*(1+1e-12) {
			t.Errorf("contact %d: λ = %v, β = %v outside the cone", k, lambda[k], beta[k])
		}
	}
}

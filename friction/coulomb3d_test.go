package friction

import (
	"math"
	"testing"

	"impactsim/mech"
)

// particle3D is one particle of mass m hitting the floor z = 0 with
// velocity v: one contact, normal ẑ, tangents x̂ and ŷ.
func particle3D(m float64, v [3]float64, mu, cor float64) *mech.Problem {
	var p mech.Problem
	p.Reset(3, 3)
	p.M.AppendScalarBlock(3, m)
	p.MInv.AppendScalarBlock(3, 1/m)
	copy(p.V, v[:])
	p.G.Append(2, 1)
	p.G.EndCol()
	p.D.Append(0, 1)
	p.D.EndCol()
	p.D.Append(1, 1)
	p.D.EndCol()
	p.DContact = append(p.DContact, 0, 0)
	p.CoR = append(p.CoR, cor)
	p.Mu = append(p.Mu, mu)
	p.Bodies = append(p.Bodies, 0, -1)
	return &p
}

func TestCoulomb3DParticle(t *testing.T) {
	for _, c := range []struct {
		v        [3]float64
		mu, cor  float64
		wantVOut [3]float64
	}{
		// slides: Δv_t = μ·Δv_n = 0.5·2 = 1 against (3, 1)
		{[3]float64{3, 1, -2}, 0.5, 0, [3]float64{3 * (1 - 1/math.Sqrt(10)), 1 - 1/math.Sqrt(10), 0}},
		// sticks: |u_t| = √0.1 < 1
		{[3]float64{0.3, 0.1, -2}, 0.5, 0, [3]float64{0, 0, 0}},
		// restitution 0.5: Δv_n = 3, slides by μ·3 = 0.6 along −x̂
		{[3]float64{2, 0, -2}, 0.2, 0.5, [3]float64{1.4, 0, 1}},
	} {
		p := particle3D(2, c.v, c.mu, c.cor)
		var o Coulomb
		lambda, beta := make([]float64, 1), make([]float64, 2)
		if _, err := o.Solve(p, lambda, beta); err != nil {
			t.Fatal(err)
		}
		v := make([]float64, 3)
		p.ApplyImpulses(v, p.V, lambda, beta, make([]float64, 3))
		for a := 0; a < 3; a++ {
			if math.Abs(v[a]-c.wantVOut[a]) > 1e-12 {
				t.Errorf("v⁻ = %v, μ = %v: v⁺ = %v, want %v", c.v, c.mu, v, c.wantVOut)
				break
			}
		}
		if math.Hypot(beta[0], beta[1]) > c.mu*lambda[0]*(1+1e-12) {
			t.Errorf("|β| = %v > μλ = %v", math.Hypot(beta[0], beta[1]), c.mu*lambda[0])
		}
	}
}

// TestCoulomb3DMatchesCoulomb2D: with motion in one tangent direction the
// 3D law agrees with the 2D one.
func TestCoulomb3DMatchesCoulomb2D(t *testing.T) {
	p := particle3D(1.5, [3]float64{1.2, 0, -1}, 0.3, 0.4)
	var o3 Coulomb
	l3, b3 := make([]float64, 1), make([]float64, 2)
	if _, err := o3.Solve(p, l3, b3); err != nil {
		t.Fatal(err)
	}
	q := ballOnFloor(1.5, 1.2, -1, 0.4, 0.3)
	var o2 Coulomb
	l2, b2 := make([]float64, 1), make([]float64, 1)
	if _, err := o2.Solve(q, l2, b2); err != nil {
		t.Fatal(err)
	}
	if math.Abs(l3[0]-l2[0]) > 1e-12 || math.Abs(b3[0]-b2[0]) > 1e-12 || b3[1] != 0 && math.Abs(b3[1]) > 1e-12 {
		t.Errorf("3D (λ, β) = (%v, %v), 2D (%v, %v)", l3[0], b3, l2[0], b2[0])
	}
}

// TestCoulombMixedContacts: one problem holding a 3D particle on the floor
// (two tangent columns, not adjacent in D) and a 2D one (one column, in
// between) gives each the answer it gets alone.
func TestCoulombMixedContacts(t *testing.T) {
	p3 := particle3D(2, [3]float64{3, 1, -2}, 0.5, 0.3)
	var p mech.Problem
	p.Reset(5, 5)
	p.M.AppendScalarBlock(3, 2)
	p.M.AppendScalarBlock(2, 1.5)
	p.MInv.AppendScalarBlock(3, 0.5)
	p.MInv.AppendScalarBlock(2, 1/1.5)
	copy(p.V, []float64{3, 1, -2, 1.2, -1})
	p.G.Append(2, 1) // contact 0: the 3D particle, normal ẑ
	p.G.EndCol()
	p.G.Append(4, 1) // contact 1: the 2D particle, normal ŷ
	p.G.EndCol()
	p.D.Append(0, 1) // t₁ of contact 0
	p.D.EndCol()
	p.D.Append(3, 1) // t of contact 1
	p.D.EndCol()
	p.D.Append(1, 1) // t₂ of contact 0
	p.D.EndCol()
	p.DContact = append(p.DContact, 0, 1, 0)
	p.CoR = append(p.CoR, 0.3, 0.4)
	p.Mu = append(p.Mu, 0.5, 0.3)
	p.Bodies = append(p.Bodies, 0, -1, 1, -1)
	var o Coulomb
	lambda, beta := make([]float64, 2), make([]float64, 3)
	if _, err := o.Solve(&p, lambda, beta); err != nil {
		t.Fatal(err)
	}
	l3, b3 := make([]float64, 1), make([]float64, 2)
	if _, err := o.Solve(p3, l3, b3); err != nil {
		t.Fatal(err)
	}
	q := ballOnFloor(1.5, 1.2, -1, 0.4, 0.3)
	l2, b2 := make([]float64, 1), make([]float64, 1)
	if _, err := o.Solve(q, l2, b2); err != nil {
		t.Fatal(err)
	}
	got := []float64{lambda[0], beta[0], beta[2], lambda[1], beta[1]}
	want := []float64{l3[0], b3[0], b3[1], l2[0], b2[0]}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("mixed (λ₀, β₀₁, β₀₂, λ₁, β₁) = %v, separately %v", got, want)
		}
	}
}

// TestCoulombTooManyTangents: three tangent columns on one contact are an
// error, not a silent misreading.
func TestCoulombTooManyTangents(t *testing.T) {
	p := particle3D(1, [3]float64{1, 0, -1}, 0.5, 0)
	p.D.Append(0, 1)
	p.D.EndCol()
	p.DContact = append(p.DContact, 0)
	var o Coulomb
	if _, err := o.Solve(p, make([]float64, 1), make([]float64, 3)); err == nil {
		t.Error("no error for a contact with three tangent columns")
	}
}

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
		var o Coulomb3D
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
	var o3 Coulomb3D
	l3, b3 := make([]float64, 1), make([]float64, 2)
	if _, err := o3.Solve(p, l3, b3); err != nil {
		t.Fatal(err)
	}
	var q mech.Problem
	q.Reset(2, 2)
	q.M.AppendScalarBlock(2, 1.5)
	q.MInv.AppendScalarBlock(2, 1/1.5)
	q.V[0], q.V[1] = 1.2, -1
	q.G.Append(1, 1)
	q.G.EndCol()
	q.D.Append(0, 1)
	q.D.EndCol()
	q.DContact = append(q.DContact, 0)
	q.CoR = append(q.CoR, 0.4)
	q.Mu = append(q.Mu, 0.3)
	q.Bodies = append(q.Bodies, 0, -1)
	var o2 Coulomb
	l2, b2 := make([]float64, 1), make([]float64, 1)
	if _, err := o2.Solve(&q, l2, b2); err != nil {
		t.Fatal(err)
	}
	if math.Abs(l3[0]-l2[0]) > 1e-12 || math.Abs(b3[0]-b2[0]) > 1e-12 || b3[1] != 0 && math.Abs(b3[1]) > 1e-12 {
		t.Errorf("3D (λ, β) = (%v, %v), 2D (%v, %v)", l3[0], b3, l2[0], b2[0])
	}
}

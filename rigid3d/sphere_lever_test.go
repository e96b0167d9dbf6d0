package rigid3d

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/mech"
)

// twoSphereImpact is the referee for frictional sphere–sphere impacts: the
// impulsive collision of two free spheres with Newton restitution c and
// Coulomb friction μ at the point where they touch, which lies at each
// sphere's radius from its centre. With N the unit normal from B to A,
// r_A = −r_a N, r_B = r_b N, the contact velocity
// v_c = (u_A + ω_A × r_A) − (u_B + ω_B × r_B) has normal part u_n = N·v_c
// and tangential part v_t; spheres decouple the two:
//
//	λ = −(1 + c) u_n / (1/m_A + 1/m_B),
//	K_t = 1/m_A + 1/m_B + r_a²/I_A + r_b²/I_B,
//	β = −v_t/K_t if ‖v_t‖/K_t ≤ μλ (stick), else −μλ v_t/‖v_t‖ (slip),
//
// and the impulse λN + β acts on A at r_A, its opposite on B at r_B.
func twoSphereImpact(s *System, q, v []float64, c, mu float64) []float64 {
	xa, _ := Pose(q, 0)
	xb, _ := Pose(q, 1)
	ua, wa := Vel(v, 0)
	ub, wb := Vel(v, 1)
	ra, rb := s.Shapes[0].R, s.Shapes[1].R
	ma, mb := s.Mass[0], s.Mass[1]
	ia, ib := s.Inertia[0].X, s.Inertia[1].X
	n := r3.Unit(r3.Sub(xa, xb))
	la, lb := r3.Scale(-ra, n), r3.Scale(rb, n)
	vc := r3.Sub(r3.Add(ua, r3.Cross(wa, la)), r3.Add(ub, r3.Cross(wb, lb)))
	un := r3.Dot(n, vc)
	vt := r3.Sub(vc, r3.Scale(un, n))
	lambda := -(1 + c) * un / (1/ma + 1/mb)
	kt := 1/ma + 1/mb + ra*ra/ia + rb*rb/ib
	beta := r3.Scale(-1/kt, vt)
	if r3.Norm(beta) > mu*lambda {
		beta = r3.Scale(-mu*lambda/r3.Norm(vt), vt)
	}
	p := r3.Add(r3.Scale(lambda, n), beta)
	out := make([]float64, 12)
	setVel(out, 0, r3.Add(ua, r3.Scale(1/ma, p)), r3.Add(wa, r3.Scale(1/ia, r3.Cross(la, p))))
	setVel(out, 1, r3.Sub(ub, r3.Scale(1/mb, p)), r3.Sub(wb, r3.Scale(1/ib, r3.Cross(lb, p))))
	return out
}

// TestSphereSphereFrictionalImpact: the coupled Coulomb law on rigid3d's
// sphere–sphere contact reproduces the analytic two-sphere impact to
// rounding for equal and unequal radii, sticking and slipping, with the
// spheres touching at qᵗ and with a contact predicted across a gap (the
// free flight overlaps them): the lever arm is each sphere's radius, not
// half the centre distance at qᵗ.
func TestSphereSphereFrictionalImpact(t *testing.T) {
	for _, radii := range [][2]float64{{1, 1}, {0.5, 1.5}} {
		for _, gap := range []float64{0, 0.3} {
			for _, mu := range []float64{0.1, 5} {
				for _, c := range []float64{0, 1} {
					name := fmt.Sprintf("r=%v/gap=%v/mu=%v/c=%v", radii, gap, mu, c)
					s := &System{CoR: c, Mu: mu}
					d := radii[0] + radii[1] + gap
					// A left of B along a tilted line, approaching, both spinning
					dir := r3.Unit(r3.Vec{X: 1, Y: 0.2, Z: -0.1})
					s.AddBody(Shape{Kind: Sphere, R: radii[0]}, 1, r3.Vec{}, Identity, r3.Vec{X: 3, Y: 0.4, Z: 0.5}, r3.Vec{Y: 4, Z: -2}, false)
					s.AddBody(Shape{Kind: Sphere, R: radii[1]}, 2, r3.Scale(d, dir), Identity, r3.Vec{X: -1, Y: 0.2}, r3.Vec{X: 1, Z: 3}, false)
					q1 := append([]float64(nil), s.Q...)
					h := 0.2 // the free flight closes the gap and overlaps
					for i := 0; i < 2; i++ {
						x, o := Pose(s.Q, i)
						u, _ := Vel(s.V, i)
						setPose(q1, i, r3.Add(x, r3.Scale(h, u)), o)
					}
					var p mech.Problem
					s.BuildProblem(s.Q, q1, s.V, &p)
					if p.NContacts() != 1 {
						t.Fatalf("%s: %d contacts, want 1", name, p.NContacts())
					}
					lambda, beta := make([]float64, 1), make([]float64, 2)
					law := &friction.Coulomb{}
					if _, err := law.Solve(&p, lambda, beta); err != nil {
						t.Fatal(err)
					}
					got := make([]float64, 12)
					p.ApplyImpulses(got, p.V, lambda, beta, make([]float64, 12))
					want := twoSphereImpact(s, s.Q, s.V, c, mu)
					for k := range want {
						if math.Abs(got[k]-want[k]) > 1e-12*math.Max(1, math.Abs(want[k])) {
							t.Errorf("%s: v⁺[%d] = %.16g, analytic %.16g", name, k, got[k], want[k])
						}
					}
				}
			}
		}
	}
}

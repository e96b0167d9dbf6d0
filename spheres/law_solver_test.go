package spheres

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/qp"
)

// TestQCELCPSolvesBigIslandsByMPRGP: on the sphere path, QCE-LCP's LCP
// stage solves an island above the dense size (a 10×10×4 pile landing on
// a rising floor: one island of about 600 contacts) by MPRGP, not the
// interior point that the automatic solver picks elsewhere; both answers
// satisfy the LCP of eq. (19) (λ ≥ 0, w = Aλ + b ≥ 0, λᵢwᵢ = 0, with b
// from the same QCE stage) to 1e-9 of the problem's scale, and their
// velocities agree to 1e-8 of |v⁻|.
func TestQCELCPSolvesBigIslandsByMPRGP(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	const d = 1e-3
	s := &System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.5}
	s.Planes = []Plane{{N: [3]float64{0, 0, 1}, V: [3]float64{0, 0, 0.3}}}
	for k := 0; k < 400; k++ {
		x, y, z := k%10, (k/10)%10, k/100
		p := [3]float64{0.999 * d * float64(x), 0.999 * d * float64(y), 0.4995*d + 0.999*d*float64(z)}
		v := [3]float64{0.05 * rng.NormFloat64(), 0.05 * rng.NormFloat64(), -0.5 + 0.05*rng.NormFloat64()}
		s.Add(p, v, [3]float64{}, d/2, 2500)
	}
	if _, err := s.DetectImpact(2e-4); err != nil {
		t.Fatal(err)
	}
	var p mech.Problem
	s.ExportProblem(&p)
	for i := range p.CoR {
		p.CoR[i] = 0.7
	}
	m, n := p.NContacts(), p.NDof()
	if m <= qp.DefaultDenseMax {
		t.Fatalf("%d contacts: want an island above the dense size %d", m, qp.DefaultDenseMax)
	}
	law := Law{Operator: "qce_lcp", Friction: "blcp", CoR: 0.7}
	var vs [2][]float64
	for k, cfg := range []impact.Config{law.operatorConfig(), {Name: "qce_lcp"}} {
		op, err := impact.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		lam := make([]float64, m)
		st, err := op.Resolve(&p, lam)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{qp.MethodSparse, qp.MethodInterior}[k]
		if st.Method != want || st.Largest <= qp.DefaultDenseMax {
			t.Fatalf("config %d: the largest island (%d contacts of %d) solved by %q, want %q", k, st.Largest, m, st.Method, want)
		}
		// the LCP of eq. (19): b = Gᵀv⁻ − c (Gᵀv_c⁺), v_c⁺ from QCE's λ_c
		lc := make([]float64, m)
		if _, err := impact.NewQCE(0, 0).Resolve(&p, lc); err != nil {
			t.Fatal(err)
		}
		vc, u, uc := make([]float64, n), make([]float64, m), make([]float64, m)
		p.ApplyImpulses(vc, p.V, lc, nil, make([]float64, n))
		p.RelNormalVelocities(u, p.V)
		p.RelNormalVelocities(uc, vc)
		v, w := make([]float64, n), make([]float64, m)
		p.ApplyImpulses(v, p.V, lam, nil, make([]float64, n))
		p.RelNormalVelocities(w, v)
		scale := 0.0
		for i := range w {
			w[i] -= p.CoR[i] * uc[i]
			scale = math.Max(scale, math.Abs(u[i]))
		}
		for i := range w {
			a := mech.ColMInvNorm(&p.G, i, &p.MInv)
			if lam[i] < 0 || w[i] < -1e-9*scale || math.Min(lam[i]*a, w[i]) > 1e-9*scale {
				t.Fatalf("config %d: contact %d: λ = %g, w = %g (scale %g)", k, i, lam[i], w[i], scale)
			}
		}
		vs[k] = v
	}
	dv, vmax := 0.0, 0.0
	for i := range vs[0] {
		dv = math.Max(dv, math.Abs(vs[0][i]-vs[1][i]))
		vmax = math.Max(vmax, math.Abs(p.V[i]))
	}
	t.Logf("%d contacts: MPRGP and the interior point's velocities differ by %.3g (|v⁻| ≤ %.3g)", m, dv, vmax)
	if dv > 1e-8*vmax {
		t.Errorf("MPRGP and the interior point differ by %.3g in the velocities", dv)
	}
}

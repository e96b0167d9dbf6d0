package spheres

import (
	"math"
	"testing"

	"impactsim/impact"
)

// TestImpactVelocityRestitutionPerContact: two spheres meet a fixed floor
// in the same step at 0.2 and 1.0 m/s (no gravity, one island each);
// with e(v), e₀ = 0.7, v₀ = 0.5, each leaves at its own e(v)·v under
// qce_lcp (with and without the boxed LCP: no tangential velocity, so
// β = 0) and gr, to 1e-12; qce, which ignores restitution, returns both
// at v (elastic).
func TestImpactVelocityRestitutionPerContact(t *testing.T) {
	speeds := [2]float64{0.2, 1.0}
	const r, h, e0, v0 = 0.01, 1e-3, 0.7, 0.5
	vr := impact.VelocityRestitution{V0: v0}
	for _, l := range []Law{
		{Operator: "qce_lcp", Friction: "none", CoR: e0, V0: v0},
		{Operator: "qce_lcp", Friction: "blcp", CoR: e0, V0: v0, BoxedTol: 1e-14},
		{Operator: "gr", Friction: "alg3", CoR: e0, V0: v0},
		{Operator: "qce", Friction: "blcp", CoR: e0, V0: v0, BoxedTol: 1e-14},
	} {
		s := &System{Mu: 0.5}
		s.Planes = []Plane{{N: [3]float64{0, 0, 1}}}
		for k, v := range speeds {
			// the gap closes within the step: an Alg. 4 contact
			s.Add([3]float64{0.1 * float64(k), 0, r + 0.5*v*h}, [3]float64{0, 0, -v}, [3]float64{}, r, 1000)
		}
		if _, err := s.StepImpact(&ImpactConfig{H: h, Law: l}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.N(); i++ {
			v := speeds[s.ID[i]]
			want := vr.E(e0, v) * v
			if l.Operator == "qce" {
				want = v
			}
			got := s.VW[6*i+2]
			if math.Abs(got-want) > 1e-12 || math.Abs(s.VW[6*i])+math.Abs(s.VW[6*i+1]) > 1e-12 {
				t.Errorf("%s: sphere at %v m/s leaves at (%g, %g, %.15g), want (0, 0, %.15g) (e = %.6f)", l.Name(), v, s.VW[6*i], s.VW[6*i+1], got, want, want/v)
			}
		}
	}
}

// TestImpactTangentialRestitution: a sphere meets a fixed floor at 1 m/s
// (no gravity, e = 0.7, μ = 0.5, no spin) with a tangential velocity v_t.
// Alg. 3 stops a slow contact point (v_t = 0.5 m/s: sticking, the impulse
// (2m/7)·v_t is inside μ(1 + e)m·1); with Beta0 = 0.35 (Walton's β₀,
// friction.TangentialRestitution) it leaves at −0.35 v_t, to 1e-12. A fast
// one (v_t = 5 m/s) slides: the impulse is μ(1 + e)m either way, the
// contact point leaves at v_t − 3.5·0.85 = 2.025 m/s with or without
// β₀. The kinetic energy (translation + rotation) never grows.
func TestImpactTangentialRestitution(t *testing.T) {
	const r, h, e, mu, vn = 0.01, 1e-3, 0.7, 0.5, 1.0
	for _, tc := range []struct{ vt, beta0, want float64 }{
		{0.5, 0, 0}, {0.5, 0.35, -0.35 * 0.5}, {5, 0, 5 - 3.5*mu*(1+e)*vn}, {5, 0.35, 5 - 3.5*mu*(1+e)*vn},
	} {
		s := &System{Mu: mu}
		s.Planes = []Plane{{N: [3]float64{0, 0, 1}}}
		s.Add([3]float64{0, 0, r + 0.5*vn*h}, [3]float64{tc.vt, 0, -vn}, [3]float64{}, r, 1000)
		energy := func() float64 {
			m, in := 1/s.InvM[0], 1/s.InvI[0]
			v, w := s.VW[0:3], s.VW[3:6]
			return 0.5*m*(v[0]*v[0]+v[1]*v[1]+v[2]*v[2]) + 0.5*in*(w[0]*w[0]+w[1]*w[1]+w[2]*w[2])
		}
		before := energy()
		l := Law{Operator: "gr", Friction: "alg3", CoR: e, Beta0: tc.beta0}
		if _, err := s.StepImpact(&ImpactConfig{H: h, Law: l}); err != nil {
			t.Fatal(err)
		}
		// contact point velocity v + ω × (−r ẑ)
		v, w := s.VW[0:3], s.VW[3:6]
		cpx, cpy := v[0]-r*w[1], v[1]+r*w[0]
		t.Logf("%s, v_t = %g: contact point leaves at (%.15g, %.3g), normal %.15g; energy %.6g → %.6g", l.Name(), tc.vt, cpx, cpy, v[2], before, energy())
		if math.Abs(cpx-tc.want) > 1e-12 || math.Abs(cpy) > 1e-12 || math.Abs(v[2]-e*vn) > 1e-12 {
			t.Errorf("%s, v_t = %g: contact point leaves at (%.15g, %g, %.15g), want (%.15g, 0, %g)", l.Name(), tc.vt, cpx, cpy, v[2], tc.want, e*vn)
		}
		if energy() > before {
			t.Errorf("%s, v_t = %g: kinetic energy grew, %.15g → %.15g", l.Name(), tc.vt, before, energy())
		}
	}
	bad := Law{Operator: "gr", Friction: "blcp", CoR: e, Beta0: 0.35}
	if err := bad.Check(); err == nil {
		t.Errorf("β₀ with the boxed LCP: no error, want one (β₀ needs alg3)")
	}
}

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

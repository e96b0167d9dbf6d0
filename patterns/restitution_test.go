package patterns

import (
	"math"
	"testing"

	"impactsim/spheres"
)

// TestConstantRestitution: the layer's law gives a sphere meeting the
// floor at 0.3√(gσ) Bizon et al.'s e(v) = 1 − 0.3·0.3^{3/4} by default
// and e₀ = 0.7 with ConstantCoR (--constant-restitution), to 1e-12.
func TestConstantRestitution(t *testing.T) {
	for _, constant := range []bool{false, true} {
		c := DefaultConfig(Fig12[0])
		c.ConstantCoR = constant
		r, vn := c.Sigma/2, 0.3*math.Sqrt(c.G*c.Sigma)
		s := &spheres.System{Mu: c.Mu}
		s.Planes = []spheres.Plane{{N: [3]float64{0, 0, 1}}}
		s.Add([3]float64{0, 0, r + 0.5*vn*c.H}, [3]float64{0, 0, -vn}, [3]float64{}, r, c.Rho)
		if _, err := s.StepImpact(&spheres.ImpactConfig{H: c.H, Law: c.Law()}); err != nil {
			t.Fatal(err)
		}
		want := 1 - (1-c.CoR)*math.Pow(0.3, 0.75)
		if constant {
			want = c.CoR
		}
		got := s.VW[2] / vn
		t.Logf("constant %v: e = %.15g, want %.15g", constant, got, want)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("constant %v: the sphere leaves at e = %.15g, want %.15g", constant, got, want)
		}
	}
}

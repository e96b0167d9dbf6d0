package friction

import (
	"strings"
	"testing"

	"impactsim/impact"
	"impactsim/mech"
)

// TestFrictionRejectsRel: Alg. 3 and the boxed LCP solve with ∇gᵢᵀv and
// Dₖᵀv only and refuse known relative velocities (NRel, DRel).
func TestFrictionRejectsRel(t *testing.T) {
	md, err := NewMaxDissipation("auto")
	if err != nil {
		t.Fatal(err)
	}
	lcp, err := impact.New(impact.Config{Name: "lcp"})
	if err != nil {
		t.Fatal(err)
	}
	laws := map[string]func(p *mech.Problem, l, b []float64) (mech.Stats, error){
		"alg3":      md.Resolve,
		"boxed_lcp": (&BoxedLCP{Normal: lcp}).Solve,
	}
	for name, solve := range laws {
		for _, field := range []string{"NRel", "DRel"} {
			p := ballOnFloor(1, 1, -1, 0, 0.3)
			p.NRel, p.DRel = []float64{0}, []float64{0}
			l, b := []float64{1}, make([]float64, 1)
			if _, err := solve(p, l, b); err != nil {
				t.Errorf("%s with zero %s: %v", name, field, err)
			}
			if field == "NRel" {
				p.NRel[0] = -0.5
			} else {
				p.DRel[0] = 0.5
			}
			if _, err := solve(p, l, b); err == nil || !strings.Contains(err.Error(), "does not read the known relative velocities") {
				t.Errorf("%s with %s: error %v, want a refusal", name, field, err)
			}
		}
	}
}

package impact_test

import (
	"strings"
	"testing"

	"impactsim/impact"
)

// TestOperatorsRejectRel: no impact operator reads the known relative
// velocities NRel/DRel (moving geometry, gap corrections), so each refuses
// a problem that has them instead of ignoring them, and solves it as
// before when they are zero.
func TestOperatorsRejectRel(t *testing.T) {
	for _, name := range impact.Names() {
		op := mustOp(t, impact.Config{Name: name})
		p := hexCluster(0.5)
		m := p.NContacts()
		p.NRel = make([]float64, m)
		lambda := make([]float64, m)
		if _, err := op.Resolve(p, lambda); err != nil {
			t.Errorf("%s with zero NRel: %v", name, err)
		}
		p.NRel[m-1] = 0.25
		_, err := op.Resolve(p, lambda)
		if err == nil || !strings.Contains(err.Error(), "does not read the known relative velocities") {
			t.Errorf("%s with NRel: error %v, want a refusal", name, err)
		}
	}
}

package channelflow

import (
	"math"
	"os"
	"testing"

	"impactsim/friction"
	"impactsim/par"
)

// TestHalfChannelLong (IMPACTSIM_LONG=1; 2·10⁴ steps per law: at the
// measured 0.052 CPU seconds per step about 35 CPU minutes for the two
// laws, some 20 minutes on 2 idle cores) runs the half channel (the paper's channel with
// every length halved, 7.5 × 3.25 × 1 cm, ≈ 2.4·10⁴ spheres) for 0.2 s
// (about two transits; statistics over the last 0.15 s) with both block
// laws: the two laws agree statistically (particles, contacts, solid
// fraction within 3 %, peak cell speeds within 0.1 m/s), the largest
// penetration is a small fraction of the radius, and the RDF near the
// outflow peaks at r = d. (The narrow preset, 15 × 2 × 0.5 cm, jams at its
// inflow — 159 % of r at 0.08 s — and is no validation: BENCHMARKS.md.)
func TestHalfChannelLong(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("set IMPACTSIM_LONG=1")
	}
	pool := par.New(0)
	defer pool.Close()
	var tabs [2]Table2
	for k, block := range []friction.BlockLaw{friction.CoulombBlock, friction.MaxDissipationBlock} {
		cfg := Half()
		cfg.Law.Block = block
		f, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f.Sys.SetPool(pool)
		steps := int(math.Round(0.2 / cfg.H))
		for i := 0; i < steps; i++ {
			f.Step()
		}
		tabs[k] = f.Table2(int(math.Round(0.05 / cfg.H)))
		r, g := f.RDF(5, 50)
		peak, rp := 0.0, 0.0
		for b := range g {
			if g[b] > peak {
				peak, rp = g[b], r[b]
			}
		}
		t.Logf("%v: %+v; RDF peak %.2f at %.3f d", block, tabs[k], peak, rp)
		if math.Abs(rp-1) > 0.05 {
			t.Errorf("%v: RDF peak at %.3f d", block, rp)
		}
		if tabs[k].MaxPenetrationRel > 0.25 {
			t.Errorf("%v: penetration %.1f %% of r", block, 100*tabs[k].MaxPenetrationRel)
		}
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b)) }
	c, m := tabs[0], tabs[1]
	if rel(c.AvgParticles, m.AvgParticles) > 0.03 || rel(c.AvgContacts, m.AvgContacts) > 0.03 || rel(c.SolidFraction, m.SolidFraction) > 0.03 || math.Abs(c.PeakCellSpeed-m.PeakCellSpeed) > 0.1 {
		t.Errorf("Coulomb %+v and maximum dissipation %+v differ", c, m)
	}
}

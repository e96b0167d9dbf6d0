package channelflow

import (
	"math"
	"testing"

	"impactsim/friction"
	"impactsim/par"
)

// TestTinyChannel runs the tiny channel for 2000 steps (20 ms) with both
// block laws: spheres flow in and out, the penetration stays a small
// fraction of the radius, the RDF's main peak is at r = d, and the two
// laws agree statistically.
func TestTinyChannel(t *testing.T) {
	pool := par.New(2)
	defer pool.Close()
	var tabs [2]Table2
	for k, block := range []friction.BlockLaw{friction.MaxDissipationBlock, friction.CoulombBlock} {
		cfg := Tiny()
		cfg.Law.Block = block
		f, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f.Sys.SetPool(pool)
		n0 := f.Sys.N()
		for i := 0; i < 2000; i++ {
			f.Step()
		}
		tab := f.Table2(500)
		tabs[k] = tab
		r, g := f.RDF(3, 20)
		peak, rp := 0.0, 0.0
		for b := range g {
			if g[b] > peak {
				peak, rp = g[b], r[b]
			}
		}
		t.Logf("%v: %d → %d spheres, %+v, RDF peak %.2f at r = %.3f d", block, n0, f.Sys.N(), tab, peak, rp)
		if tab.MaxPenetrationRel > 0.2 || tab.AvgParticles < 100 || tab.AvgContacts < tab.AvgParticles/2 {
			t.Errorf("%v: implausible statistics %+v", block, tab)
		}
		if math.Abs(rp-1) > 0.1 || peak < 2 {
			t.Errorf("%v: RDF peak %.2f at %.3f d, want at 1 d", block, peak, rp)
		}
		if tab.PeakCellSpeed < 0.5 || tab.PeakCellSpeed > 3 {
			t.Errorf("%v: peak cell speed %v", block, tab.PeakCellSpeed)
		}
	}
	if r := tabs[1].AvgParticles / tabs[0].AvgParticles; math.Abs(r-1) > 0.05 {
		t.Errorf("Coulomb and maximum dissipation differ: %v vs %v particles", tabs[1].AvgParticles, tabs[0].AvgParticles)
	}
}

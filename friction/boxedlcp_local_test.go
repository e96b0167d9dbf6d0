package friction_test

import (
	"math"
	"testing"

	"impactsim/friction"
	"impactsim/mech"
)

// TestBoxedLCPLocal: the coloured compact sweep with local sweeps (the
// default) and without (LocalSweeps −1, the plain compact sweep) both
// satisfy the boxed LCP's conditions on sphere piles, their velocities
// agree to 1e-9 of |v⁻|, the local sweeps run and cut the full sweeps
// (and their updates are in Stats.LocalUpdates, 0 without them),
// the answer is bitwise the same without a pool and on 1, 2, 3 workers,
// and a solve on 2 workers allocates nothing (colouredSolveLocal).
func TestBoxedLCPLocal(t *testing.T) {
	for _, c := range []struct {
		nx, ny, nz int
		name       string
	}{{6, 6, 4, "lcp"}, {6, 6, 4, "qce_lcp"}, {10, 10, 4, "qce_lcp"}} {
		p := scaledPile(c.nx, c.ny, c.nz, 3)
		scale := 0.0
		for _, x := range p.V {
			scale = math.Max(scale, math.Abs(x))
		}
		solve := func(local, nw int) (*friction.BoxedLCP, []float64, []float64, mech.Stats) {
			law, lam, beta, st := colouredSolveLocal(t, c.name, p, nw, local)
			if !friction.Compact(law) || st.Capped != 0 {
				t.Fatalf("%s: compact %v, capped after %d sweeps", c.name, friction.Compact(law), st.Sweeps)
			}
			return law, lam, beta, st
		}
		velocities := func(lam, beta []float64) []float64 {
			v := make([]float64, p.NDof())
			p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
			return v
		}
		_, lamP, betaP, stP := solve(-1, 2)
		law, lam, beta, st := solve(0, 2)
		label := c.name
		blcpConditions(t, label+" plain compact", c.name, p, lamP, betaP, velocities(lamP, betaP))
		blcpConditions(t, label+" local sweeps", c.name, p, lam, beta, velocities(lam, beta))
		vP, v := velocities(lamP, betaP), velocities(lam, beta)
		dv := 0.0
		for i := range v {
			dv = math.Max(dv, math.Abs(v[i]-vP[i]))
		}
		t.Logf("%dx%dx%d %s, %d contacts: %d full sweeps and %d local contact updates (%.1f sweeps' worth) against %d plain sweeps; velocities differ by %.3g (|v⁻| ≤ %.3g)",
			c.nx, c.ny, c.nz, c.name, p.NContacts(), st.Sweeps, friction.LocalUpdates(law), float64(friction.LocalUpdates(law))/float64(p.NContacts()), stP.Sweeps, dv, scale)
		if st.LocalUpdates != friction.LocalUpdates(law) || stP.LocalUpdates != 0 {
			t.Errorf("%s: Stats.LocalUpdates %d (plain %d), the solve counted %d", label, st.LocalUpdates, stP.LocalUpdates, friction.LocalUpdates(law))
		}
		if friction.LocalUpdates(law) == 0 || st.Sweeps >= stP.Sweeps {
			t.Errorf("%s: the local sweeps did not run or did not cut the full sweeps (%d updates; %d against %d)", label, friction.LocalUpdates(law), st.Sweeps, stP.Sweeps)
		}
		if dv > 1e-9*scale {
			t.Errorf("%s: local and plain sweeps differ by %.3g in the velocities", label, dv)
		}
		for _, nw := range []int{0, 1, 3} {
			_, lamW, betaW, _ := solve(0, nw)
			if i := friction.BitDiff(lamW, lam); i >= 0 {
				t.Fatalf("%s, %d workers: λ[%d] = %.17g, on 2 workers %.17g", label, nw, i, lamW[i], lam[i])
			}
			if j := friction.BitDiff(betaW, beta); j >= 0 {
				t.Fatalf("%s, %d workers: β[%d] = %.17g, on 2 workers %.17g", label, nw, j, betaW[j], beta[j])
			}
		}
	}
}

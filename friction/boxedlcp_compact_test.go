package friction_test

import (
	"math"
	"testing"

	"impactsim/friction"
	"impactsim/mech"
)

// TestBoxedLCPCompact: a 6×6×4 sphere pile in the sphere path's
// coordinates (scaledPile: scalar M⁻¹ blocks, contacts (x, aᵢ | −x, aⱼ))
// is swept in the compact form, contact by contact and by colours. Its
// answer satisfies the boxed LCP's conditions; its velocities equal the
// packed sweep's (the same Gauss–Seidel steps, other rounding) to 1e-9 of
// |v⁻|; its colours (from the contacts' bodies) share no row of the
// columns or their images; the coloured solves are bitwise the same
// without a pool and on 1, 2, 3 workers; a solve allocates nothing. A problem whose friction
// columns are not M⁻¹-orthogonal to the normal, whose tangent's moment is
// not the form (t, −kᵢo | −t, −kⱼo) the record keeps, or whose column is
// not ±x on the two bodies, is packed; a record takes 168 bytes.
func TestBoxedLCPCompact(t *testing.T) {
	if friction.CompactBytes != 168 {
		t.Errorf("a compact contact takes %d bytes, want 168", friction.CompactBytes)
	}
	p := scaledPile(6, 6, 4, 3)
	scale := 0.0
	for _, x := range p.V {
		scale = math.Max(scale, math.Abs(x))
	}
	velocities := func(lam, beta []float64) []float64 {
		v := make([]float64, p.NDof())
		p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
		return v
	}
	for _, name := range []string{"lcp", "qce_lcp"} {
		packed := friction.NewBoxedLCP(normalOp(t, name))
		friction.SetPacked(packed, true)
		lamP, betaP, stP := solveBLCPStats(t, packed, p)
		if friction.Compact(packed) {
			t.Fatalf("%s: SetPacked solve swept compact", name)
		}
		vP := velocities(lamP, betaP)
		law := friction.NewBoxedLCP(normalOp(t, name))
		lam, beta, st := solveBLCPStats(t, law, p)
		if !friction.Compact(law) {
			t.Fatalf("%s: the scaled pile was not swept compact", name)
		}
		if st.Capped != 0 {
			t.Fatalf("%s: capped after %d sweeps", name, st.Sweeps)
		}
		v := velocities(lam, beta)
		blcpConditions(t, name+" compact pile", name, p, lam, beta, v)
		dv := 0.0
		for i := range v {
			dv = math.Max(dv, math.Abs(v[i]-vP[i]))
		}
		t.Logf("%s: %d contacts, compact %d sweeps, packed %d; largest velocity difference %.3g (|v⁻| ≤ %.3g)", name, p.NContacts(), st.Sweeps, stP.Sweeps, dv, scale)
		if dv > 1e-9*scale {
			t.Errorf("%s: compact and packed sweeps differ by %.3g in the velocities", name, dv)
		}
		if n := testing.AllocsPerRun(5, func() {
			if _, err := law.Solve(p, lam, beta); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per compact solve, want 0", name, n)
		}
		var lam0, beta0 []float64
		for _, nw := range []int{0, 1, 2, 3} {
			law, lam, beta, _ := colouredSolve(t, name, p, nw)
			if !friction.Compact(law) {
				t.Fatalf("%s, %d workers: the coloured solve was not compact", name, nw)
			}
			if lam0 == nil {
				lam0, beta0 = lam, beta
				order, start, blocks, _ := friction.ColourGroups(law) // coloured by bodies, checked by rows
				checkColours(t, p, order, start, blocks)
				blcpConditions(t, name+" coloured compact pile", name, p, lam, beta, velocities(lam, beta))
				continue
			}
			if i := friction.BitDiff(lam, lam0); i >= 0 {
				t.Fatalf("%s, %d workers: λ[%d] = %.17g, without a pool %.17g", name, nw, i, lam[i], lam0[i])
			}
			if j := friction.BitDiff(beta, beta0); j >= 0 {
				t.Fatalf("%s, %d workers: β[%d] = %.17g, without a pool %.17g", name, nw, j, beta[j], beta0[j])
			}
		}
	}
	for _, c := range []struct {
		name  string
		spoil func(p *mech.Problem)
	}{
		{"a tangent tilted by 1e-6 of the normal (not M⁻¹-orthogonal)", func(p *mech.Problem) {
			// t + δn on both spheres keeps the column (x, aᵢ | −x, aⱼ)
			k := twoSphereContact(t, p)
			j := 0
			for p.DContact[j] != k {
				j++
			}
			for a := p.D.Ptr[j]; a < p.D.Ptr[j+1]; a++ {
				for b := p.G.Ptr[k]; b < p.G.Ptr[k+1]; b++ {
					if p.G.Row[b] == p.D.Row[a] {
						p.D.Val[a] += 1e-6 * p.G.Val[b]
					}
				}
			}
		}},
		{"a tangent whose moment on the first sphere is not kᵢ times o's (arm 1e-10 longer)", func(p *mech.Problem) {
			k := twoSphereContact(t, p)
			j := 0
			for p.DContact[j] != k {
				j++
			}
			bi := p.Bodies[2*k]
			for a := p.D.Ptr[j]; a < p.D.Ptr[j+1]; a++ {
				if r := int(p.D.Row[a]); r >= 6*bi+3 && r < 6*bi+6 {
					p.D.Val[a] *= 1 + 1e-10
				}
			}
		}},
		{"a normal that is not −x on the second sphere", func(p *mech.Problem) {
			k := twoSphereContact(t, p)
			for b := p.G.Ptr[k+1] - 1; b >= p.G.Ptr[k]; b-- {
				if p.G.Val[b] != 0 {
					p.G.Val[b] *= 1 + 1e-15
					return
				}
			}
		}},
	} {
		q := scaledPile(6, 6, 4, 3)
		c.spoil(q)
		for _, nw := range []int{-1, 2} { // contact order; coloured on 2 workers
			var law *friction.BoxedLCP
			var lam, beta []float64
			if nw < 0 {
				law = friction.NewBoxedLCP(normalOp(t, "lcp"))
				lam, beta, _ = solveBLCPStats(t, law, q)
			} else {
				law, lam, beta, _ = colouredSolve(t, "lcp", q, nw)
				order, start, blocks, _ := friction.ColourGroups(law)
				checkColours(t, q, order, start, blocks)
			}
			if friction.Compact(law) {
				t.Errorf("%s: swept compact", c.name)
			}
			v := make([]float64, q.NDof())
			q.ApplyImpulses(v, q.V, lam, beta, make([]float64, q.NDof()))
			blcpConditions(t, c.name, "lcp", q, lam, beta, v)
		}
	}
}

// twoSphereContact returns the first contact of p between two spheres.
func twoSphereContact(t *testing.T, p *mech.Problem) int {
	for k := 0; k < p.NContacts(); k++ {
		if p.Bodies[2*k+1] >= 0 {
			return k
		}
	}
	t.Fatal("no two-sphere contact")
	return -1
}

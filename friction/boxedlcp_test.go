package friction_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"impactsim/desiderata"
	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
)

func normalOp(t testing.TB, name string) impact.Operator {
	t.Helper()
	op, err := impact.New(impact.Config{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func solveBLCP(t *testing.T, law *friction.BoxedLCP, p *mech.Problem) (lam, beta, v []float64) {
	t.Helper()
	lam = make([]float64, p.NContacts())
	beta = make([]float64, p.D.NCols())
	if _, err := law.Solve(p, lam, beta); err != nil {
		t.Fatalf("%s: %v", law.Name(), err)
	}
	v = make([]float64, p.NDof())
	p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
	return lam, beta, v
}

// TestBoxedLCPTwoBalls: two unit balls, one contact along x, A moving at
// (1, w) into B at rest. A_nn = A_tt = 2 and A_nt = 0, so with the
// inelastic LCP λ = 1/2 and β = clamp(−w_rel/2, ±μ/2) where w_rel is the
// tangential relative velocity.
func TestBoxedLCPTwoBalls(t *testing.T) {
	for _, c := range []struct{ w, mu float64 }{{0.3, 1}, {0.3, 0.2}, {-0.8, 0.5}, {0.3, 0}} {
		p := desiderata.Balls2D([]desiderata.Ball{{X: 0, VX: 1, VY: c.w, M: 1, R: 0.5}, {X: 1, M: 1, R: 0.5}}, 0, c.mu)
		lam, beta, _ := solveBLCP(t, friction.NewBoxedLCP(normalOp(t, "lcp")), p)
		u := make([]float64, 1)
		p.D.MulTVec(u, p.V)
		wantB := math.Max(-c.mu*0.5, math.Min(c.mu*0.5, -u[0]/2))
		if math.Abs(lam[0]-0.5) > 1e-12 || math.Abs(beta[0]-wantB) > 1e-12 {
			t.Errorf("w = %v, μ = %v: λ = %.15g, β = %.15g; want 0.5, %.15g", c.w, c.mu, lam[0], beta[0], wantB)
		}
	}
}

// TestBoxedLCPConditions checks the complementarity conditions, the
// pyramid, momentum and energy at the solution on coupled multi-contact
// problems, for several normal operators.
func TestBoxedLCPConditions(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	gain := map[string]float64{}
	defer func() { t.Logf("largest relative kinetic-energy change per normal operator: %v", gain) }()
	for _, name := range []string{"lcp", "gr", "qce", "qce_lcp"} {
		for trial := 0; trial < 20; trial++ {
			mu := 0.1 + rng.Float64()
			cor := 0.0
			if name != "lcp" {
				cor = rng.Float64()
			}
			p := blcpPatch(rng, cor, mu)
			law := friction.NewBoxedLCP(normalOp(t, name))
			lam, beta, v := solveBLCP(t, law, p)
			blcpConditions(t, fmt.Sprintf("%s trial %d", name, trial), name, p, lam, beta, v)
			var p0, p1 [2]float64
			p.LinearMomentum(p0[:], p.V)
			p.LinearMomentum(p1[:], v)
			if d := math.Hypot(p1[0]-p0[0], p1[1]-p0[1]); d > 1e-12*(1+math.Hypot(p0[0], p0[1])) {
				t.Errorf("%s trial %d: momentum change %.3g", name, trial, d)
			}
			// KIN holds when the targets vanish (the inelastic LCP); with
			// positive restitution targets it can fail (see the doc comment).
			k0, k1 := p.KineticEnergy(p.V), p.KineticEnergy(v)
			if name == "lcp" && k1 > k0*(1+1e-12) {
				t.Errorf("%s trial %d: kinetic energy grew %.15g → %.15g", name, trial, k0, k1)
			}
			gain[name] = math.Max(gain[name], (k1-k0)/k0)
		}
	}
}

// blcpConditions checks, to 1e-9 of the largest impulse, the boxed LCP's
// conditions at (λ, β, v = v⁻ + M⁻¹(Gλ + Dβ)) for the normal operator
// name: 0 ≤ λ ⊥ Gᵀv − t ≥ 0 with the targets t of the frictionless
// answer, the pyramid |βⱼ| ≤ μλ, and friction opposing sliding (zero
// tangential velocity strictly inside the box).
func blcpConditions(t *testing.T, label, name string, p *mech.Problem, lam, beta, v []float64) {
	t.Helper()
	// Target: the frictionless answer's normal velocities where it pushes.
	lam0 := make([]float64, p.NContacts())
	if _, err := normalOp(t, name).Resolve(p, lam0); err != nil {
		t.Fatal(err)
	}
	v0 := make([]float64, p.NDof())
	p.ApplyImpulses(v0, p.V, lam0, nil, make([]float64, p.NDof()))
	un := make([]float64, p.NContacts())
	u0 := make([]float64, p.NContacts())
	p.RelNormalVelocities(un, v)
	p.RelNormalVelocities(u0, v0)
	scale := 0.0
	for _, x := range lam {
		scale = math.Max(scale, x)
	}
	tol := 1e-9 * math.Max(scale, 1)
	for i := range lam {
		ti := 0.0
		if lam0[i] > 0 {
			ti = u0[i]
		}
		w := un[i] - ti
		if lam[i] < 0 || w < -tol || (lam[i] > tol && math.Abs(w) > tol) {
			t.Errorf("%s contact %d: λ = %.3g, w = %.3g violates 0 ≤ λ ⊥ w ≥ 0", label, i, lam[i], w)
		}
	}
	ut := make([]float64, p.D.NCols())
	p.D.MulTVec(ut, v)
	for j := range beta {
		ut[j] += p.DRelAt(j)
		hi := p.Mu[p.DContact[j]] * lam[p.DContact[j]]
		switch {
		case math.Abs(beta[j]) > hi*(1+1e-12):
			t.Errorf("%s column %d: |β| = %.3g > μλ = %.3g", label, j, math.Abs(beta[j]), hi)
		case beta[j] > -hi+tol && beta[j] < hi-tol && math.Abs(ut[j]) > tol:
			t.Errorf("%s column %d: interior β but tangential velocity %.3g", label, j, ut[j])
		case beta[j] >= hi-tol && hi > tol && ut[j] > tol:
			t.Errorf("%s column %d: β at +μλ but sliding at %.3g (friction must oppose)", label, j, ut[j])
		case beta[j] <= -hi+tol && hi > tol && ut[j] < -tol:
			t.Errorf("%s column %d: β at −μλ but sliding at %.3g", label, j, ut[j])
		}
	}
}

// TestBoxedLCPFrictionless: μ = 0 returns the normal operator's answer
// exactly.
func TestBoxedLCPFrictionless(t *testing.T) {
	for _, name := range []string{"gr", "qce"} {
		p := desiderata.Bernoulli(1)
		_, beta, v := solveBLCP(t, friction.NewBoxedLCP(normalOp(t, name)), p)
		lam0 := make([]float64, p.NContacts())
		if _, err := normalOp(t, name).Resolve(p, lam0); err != nil {
			t.Fatal(err)
		}
		v0 := make([]float64, p.NDof())
		p.ApplyImpulses(v0, p.V, lam0, nil, make([]float64, p.NDof()))
		for i := range v {
			if v[i] != v0[i] {
				t.Errorf("%s: v[%d] = %.17g, want %.17g", name, i, v[i], v0[i])
			}
		}
		for _, b := range beta {
			if b != 0 {
				t.Errorf("%s: β = %v, want 0", name, beta)
			}
		}
	}
}

// TestBoxedLCPCap: the cap is recorded (Stats.Capped, the relative change
// left above the tolerance), not an error.
func TestBoxedLCPCap(t *testing.T) {
	p := desiderata.Bernoulli(0)
	for i := range p.Mu {
		p.Mu[i] = 0.5
	}
	p.V[1] = 0.7 // oblique: friction couples the contacts
	law := &friction.BoxedLCP{Normal: normalOp(t, "lcp"), MaxIter: 1, Tol: 1e-300}
	lam := make([]float64, p.NContacts())
	beta := make([]float64, p.D.NCols())
	st, err := law.Solve(p, lam, beta)
	if err != nil || st.Capped != 1 || st.CappedIterations != 1 || !(st.CappedResidual > st.CappedTol) {
		t.Errorf("a cap of one sweep: %v, stats %+v", err, st)
	}
}

// blcpPatch is a 3×3 patch of touching balls with random velocities (the
// problem of TestBoxedLCPConditions).
func blcpPatch(rng *rand.Rand, cor, mu float64) *mech.Problem {
	var b []desiderata.Ball
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			b = append(b, desiderata.Ball{X: float64(i) + 0.5*float64(j%2), Y: float64(j) * math.Sqrt(0.75),
				VX: rng.NormFloat64(), VY: rng.NormFloat64(), M: 0.5 + rng.Float64(), R: 0.5})
		}
	}
	return desiderata.Balls2D(b, cor, mu)
}

// TestBoxedLCPDoesNotAllocate: once its workspaces have grown, a solve
// allocates nothing (the sweeps run on islands of 10⁴–10⁵ contacts every
// step), and a law reused across problems returns, bit for bit, what a
// fresh law returns.
func TestBoxedLCPDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"lcp", "qce"} {
		rng := rand.New(rand.NewSource(11))
		p := blcpPatch(rng, 0.5, 0.7)
		law := friction.NewBoxedLCP(normalOp(t, name))
		lam := make([]float64, p.NContacts())
		beta := make([]float64, p.D.NCols())
		if _, err := law.Solve(p, lam, beta); err != nil {
			t.Fatal(err)
		}
		lam1, beta1 := append([]float64(nil), lam...), append([]float64(nil), beta...)
		if n := testing.AllocsPerRun(20, func() {
			if _, err := law.Solve(p, lam, beta); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per solve in steady state, want 0", name, n)
		}
		other := blcpPatch(rand.New(rand.NewSource(12)), 0.5, 0.7)
		if _, err := law.Solve(other, make([]float64, other.NContacts()), make([]float64, other.D.NCols())); err != nil {
			t.Fatal(err)
		}
		lam2, beta2, _ := solveBLCP(t, law, p)
		for i := range lam1 {
			if lam1[i] != lam2[i] {
				t.Errorf("%s: λ[%d] = %.17g after reuse, %.17g fresh", name, i, lam2[i], lam1[i])
			}
		}
		for j := range beta1 {
			if beta1[j] != beta2[j] {
				t.Errorf("%s: β[%d] = %.17g after reuse, %.17g fresh", name, j, beta2[j], beta1[j])
			}
		}
	}
}

// TestBoxedLCPPile: on a 3D pile of spheres (one island where every
// contact couples to its neighbours, three columns per contact with
// rotation in the friction columns), the contact-by-contact sweeps reach
// the default tolerance and satisfy the conditions to 1e-9; and they
// reach the answer of the paper's order of sweeps (a whole normal sweep,
// then a whole friction sweep: alternatingBLCP) to within the tolerance.
func TestBoxedLCPPile(t *testing.T) {
	p := spherePile(5, 5, 3, 2)
	for _, name := range []string{"lcp", "qce"} {
		law := friction.NewBoxedLCP(normalOp(t, name))
		lam := make([]float64, p.NContacts())
		beta := make([]float64, p.D.NCols())
		st, err := law.Solve(p, lam, beta)
		if err != nil || st.Capped != 0 {
			t.Fatalf("%s: %v, %+v", name, err, st)
		}
		v := make([]float64, p.NDof())
		p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
		blcpConditions(t, name+" pile", name, p, lam, beta, v)
		var slide, stick int
		for j := range beta {
			if hi := p.Mu[p.DContact[j]] * lam[p.DContact[j]]; hi > 0 && math.Abs(beta[j]) >= hi*(1-1e-12) {
				slide++
			} else if hi > 0 {
				stick++
			}
		}
		if slide == 0 || stick == 0 {
			t.Errorf("%s: %d columns at the bound, %d inside: want both kinds", name, slide, stick)
		}
		ref, sweeps := alternatingBLCP(t, p, name)
		scale := 0.0
		for i := range v {
			scale = math.Max(scale, math.Abs(p.V[i]))
		}
		dv := 0.0
		for i := range v {
			dv = math.Max(dv, math.Abs(v[i]-ref[i]))
		}
		t.Logf("%s: %d contacts, %d sweeps contact by contact, %d alternating; %d columns at the bound, %d inside; largest velocity difference %.3g (|v⁻| ≤ %.3g)",
			name, p.NContacts(), st.Sweeps, sweeps, slide, stick, dv, scale)
		if dv > 1e-9*scale {
			t.Errorf("%s: the two orders differ by %.3g in the velocities", name, dv)
		}
	}
}

// alternatingBLCP is the reference for TestBoxedLCPPile: Zhang et al.'s
// order of sweeps ("one PGS iteration on the first equation, followed by
// another PGS iteration on the second"), the order friction.BoxedLCP used
// before it swept contact by contact, from the same start (the normal
// operator's λ⁰, β = 0), run to a relative change of 1e-14. It returns v.
func alternatingBLCP(t *testing.T, p *mech.Problem, name string) ([]float64, int) {
	m, n, nd := p.NContacts(), p.NDof(), p.D.NCols()
	lam, beta := make([]float64, m), make([]float64, nd)
	if _, err := normalOp(t, name).Resolve(p, lam); err != nil {
		t.Fatal(err)
	}
	v, tgt := make([]float64, n), make([]float64, m)
	p.ApplyImpulses(v, p.V, lam, nil, make([]float64, n))
	p.RelNormalVelocities(tgt, v)
	for i := range tgt {
		if lam[i] <= 0 {
			tgt[i] = 0
		}
	}
	var mg, md mech.Cols
	mech.MulMInvCols(&mg, &p.G, &p.MInv)
	mech.MulMInvCols(&md, &p.D, &p.MInv)
	for sweep := 1; sweep <= 100000; sweep++ {
		change, scale := 0.0, 0.0
		for i := 0; i < m; i++ {
			a := mech.ColMInvNorm(&p.G, i, &p.MInv)
			l := math.Max(0, lam[i]-(p.G.ColDot(i, v)+p.NRelAt(i)-tgt[i])/a)
			mg.AddScaledCol(v, i, l-lam[i])
			change, scale = math.Max(change, math.Abs(l-lam[i])), math.Max(scale, l)
			lam[i] = l
		}
		for j := 0; j < nd; j++ {
			hi := p.Mu[p.DContact[j]] * lam[p.DContact[j]]
			a := mech.ColMInvNorm(&p.D, j, &p.MInv)
			b := math.Max(-hi, math.Min(hi, beta[j]-(p.D.ColDot(j, v)+p.DRelAt(j))/a))
			md.AddScaledCol(v, j, b-beta[j])
			change, scale = math.Max(change, math.Abs(b-beta[j])), math.Max(scale, math.Abs(b))
			beta[j] = b
		}
		if change <= 1e-14*scale {
			return v, sweep
		}
	}
	t.Fatal("alternatingBLCP: no convergence in 100,000 sweeps")
	return nil, 0
}

// TestBoxedLCPColoured: swept colour by colour (ColourFrom), the boxed LCP
// on a 3D pile gives bitwise the same impulses with no pool and with
// pools of 1, 2 and 3 workers (split down to single contacts); the colours
// are a valid colouring (no two contacts of a colour share a row of v, and
// every contact is in one group); the answer satisfies the conditions to
// 1e-9 and its velocities are those of the contact-order sweep to the
// tolerance; and a steady solve on the pool allocates nothing.
func TestBoxedLCPColoured(t *testing.T) {
	p := spherePile(6, 6, 4, 3)
	m := p.NContacts()
	for _, name := range []string{"lcp", "qce_lcp"} {
		seq := friction.NewBoxedLCP(normalOp(t, name))
		lamS, betaS, stS := solveBLCPStats(t, seq, p)
		var lam0, beta0 []float64
		for _, nw := range []int{0, 1, 2, 3} {
			law, lam, beta, st := colouredSolve(t, name, p, nw)
			if st.Capped != 0 {
				t.Fatalf("%s, %d workers: capped after %d sweeps", name, nw, st.Sweeps)
			}
			if lam0 == nil {
				lam0, beta0 = lam, beta
				order, start, blocks, tail := friction.ColourGroups(law)
				checkColours(t, p, order, start, blocks)
				v := make([]float64, p.NDof())
				p.ApplyImpulses(v, p.V, lam, beta, make([]float64, p.NDof()))
				blcpConditions(t, name+" coloured pile", name, p, lam, beta, v)
				vs := make([]float64, p.NDof())
				p.ApplyImpulses(vs, p.V, lamS, betaS, make([]float64, p.NDof()))
				scale, dv := 0.0, 0.0
				for i := range v {
					scale = math.Max(scale, math.Abs(p.V[i]))
					dv = math.Max(dv, math.Abs(v[i]-vs[i]))
				}
				t.Logf("%s: %d contacts: %d in the interiors of %d blocks, the rest in %d colours (uncoloured rest: %v); %d sweeps by groups, %d in contact order; largest velocity difference %.3g (|v⁻| ≤ %.3g)",
					name, m, start[blocks], blocks, len(start)-1-blocks, tail, st.Sweeps, stS.Sweeps, dv, scale)
				if blocks < 10 || start[blocks] == 0 || len(start)-1-blocks < 2 || tail {
					t.Errorf("%s: %d blocks holding %d contacts, %d groups after them (rest %v): want blocks with interiors, several colours and no rest", name, blocks, start[blocks], len(start)-1-blocks, tail)
				}
				if dv > 1e-9*scale {
					t.Errorf("%s: coloured and contact-order sweeps differ by %.3g in the velocities", name, dv)
				}
				continue
			}
			for i := range lam {
				if lam[i] != lam0[i] {
					t.Fatalf("%s, %d workers: λ[%d] = %.17g, without a pool %.17g", name, nw, i, lam[i], lam0[i])
				}
			}
			for j := range beta {
				if beta[j] != beta0[j] {
					t.Fatalf("%s, %d workers: β[%d] = %.17g, without a pool %.17g", name, nw, j, beta[j], beta0[j])
				}
			}
		}
	}
}

// checkColours fails unless order is a permutation of the contacts, no
// two contacts of one colour group (g ≥ blocks) touch a common row of v
// (through their normal and friction columns and those columns' M⁻¹
// images), and no two contacts of different block groups (g < blocks) do.
func checkColours(t *testing.T, p *mech.Problem, order, start []int32, blocks int) {
	t.Helper()
	m := p.NContacts()
	if len(order) != m || int(start[len(start)-1]) != m {
		t.Fatalf("colour order of %d contacts (groups end at %d), want %d", len(order), start[len(start)-1], m)
	}
	var mg, md mech.Cols
	mech.MulMInvCols(&mg, &p.G, &p.MInv)
	mech.MulMInvCols(&md, &p.D, &p.MInv)
	seen := make([]bool, m)
	owner := make([]int, p.NDof()) // contact, or block, that touched the row
	clearOwner := func() {
		for r := range owner {
			owner[r] = -1
		}
	}
	clearOwner()
	for g := 0; g+1 < len(start); g++ {
		if g >= blocks {
			clearOwner()
		}
		for _, i := range order[start[g]:start[g+1]] {
			if seen[i] {
				t.Fatalf("contact %d twice in the colour order", i)
			}
			seen[i] = true
			rows := map[int32]bool{}
			add := func(c *mech.Cols, j int) {
				for a := c.Ptr[j]; a < c.Ptr[j+1]; a++ {
					rows[c.Row[a]] = true
				}
			}
			add(&p.G, int(i))
			add(&mg, int(i))
			for j, c := range p.DContact {
				if c == int(i) {
					add(&p.D, j)
					add(&md, j)
				}
			}
			id := int(i) // colours: no row twice in the group
			if g < blocks {
				id = g // blocks: no row in two blocks
			}
			for r := range rows {
				if owner[r] >= 0 && (g >= blocks || owner[r] != id) {
					t.Fatalf("group %d: contact %d shares row %d with %d", g, i, r, owner[r])
				}
				owner[r] = id
			}
		}
	}
}

// solveBLCPStats solves p with law and returns λ, β and the statistics.
func solveBLCPStats(t *testing.T, law *friction.BoxedLCP, p *mech.Problem) (lam, beta []float64, st mech.Stats) {
	t.Helper()
	lam = make([]float64, p.NContacts())
	beta = make([]float64, p.D.NCols())
	st, err := law.Solve(p, lam, beta)
	if err != nil {
		t.Fatalf("%s: %v", law.Name(), err)
	}
	return lam, beta, st
}

// colouredSolve solves p with a boxed LCP around operator name that sweeps
// colour by colour (ColourFrom 1, blocks of 16, grain 1) on a pool of nw
// workers (none for 0); on 2 workers it also checks that a solve
// allocates nothing.
func colouredSolve(t *testing.T, name string, p *mech.Problem, nw int) (law *friction.BoxedLCP, lam, beta []float64, st mech.Stats) {
	t.Helper()
	return colouredSolveLocal(t, name, p, nw, 0)
}

// colouredSolveLocal is colouredSolve with BoxedLCP.LocalSweeps = local.
func colouredSolveLocal(t *testing.T, name string, p *mech.Problem, nw, local int) (law *friction.BoxedLCP, lam, beta []float64, st mech.Stats) {
	t.Helper()
	law = friction.NewBoxedLCP(normalOp(t, name))
	law.ColourFrom, law.LocalSweeps = 1, local
	friction.SetColourGrain(law, 1)
	friction.SetColourBlock(law, 16)
	if nw > 0 {
		pool := par.New(nw)
		defer pool.Close()
		law.SetPool(pool)
	}
	lam, beta, st = solveBLCPStats(t, law, p)
	if nw == 2 {
		if n := testing.AllocsPerRun(5, func() {
			if _, err := law.Solve(p, lam, beta); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per coloured solve on 2 workers, want 0", name, n)
		}
	}
	return law, lam, beta, st
}

package spheres

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/sim"
)

// crate is n spheres of radii 0.04–0.06 (density 1000) on a jittered
// lattice in the box [0, 0.7]² × [0, ∞) of five planes, the floor rising
// at 0.2 m/s, random velocities and spins, gravity −z, μ = 0.5.
func crate(n int, seed uint64) *System {
	rng := rand.New(rand.NewPCG(seed, 5))
	s := &System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.5}
	s.Planes = []Plane{
		{P: [3]float64{0, 0, 0}, N: [3]float64{0, 0, 1}, V: [3]float64{0, 0, 0.2}},
		{P: [3]float64{0, 0, 0}, N: [3]float64{1, 0, 0}},
		{P: [3]float64{0.7, 0, 0}, N: [3]float64{-1, 0, 0}},
		{P: [3]float64{0, 0, 0}, N: [3]float64{0, 1, 0}},
		{P: [3]float64{0, 0.7, 0}, N: [3]float64{0, -1, 0}},
	}
	for k := 0; k < n; k++ {
		x, y, z := k%6, (k/6)%6, k/36
		p := [3]float64{0.07 + 0.112*float64(x) + 0.004*rng.Float64(), 0.07 + 0.112*float64(y) + 0.004*rng.Float64(), 0.062 + 0.115*float64(z)}
		v := [3]float64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
		w := [3]float64{10 * (rng.Float64() - 0.5), 10 * (rng.Float64() - 0.5), 10 * (rng.Float64() - 0.5)}
		s.Add(p, v, w, 0.04+0.02*rng.Float64(), 1000)
	}
	return s
}

// general builds the same scene for rigid3d (DMV) and its Alg. 4 stepper
// with the law l, the floor placed at the end of every step by a hook and
// e(v) applied in the Coefficients hook.
func general(t *testing.T, s *System, l Law, h float64) (*rigid3d.System, *sim.Stepper) {
	g := &rigid3d.System{CoR: l.CoR, Mu: s.Mu, Integrator: rigid3d.DMV, Gravity: r3.Vec{X: s.Gravity[0], Y: s.Gravity[1], Z: s.Gravity[2]}}
	vec := func(a []float64) r3.Vec { return r3.Vec{X: a[0], Y: a[1], Z: a[2]} }
	for _, p := range s.Planes {
		g.Planes = append(g.Planes, rigid3d.Plane{P: vec(p.P[:]), N: vec(p.N[:]), V: vec(p.V[:])})
	}
	for i := 0; i < s.N(); i++ {
		rho := 1 / s.InvM[i] / (4.0 / 3 * math.Pi * s.R[i] * s.R[i] * s.R[i])
		g.AddBody(rigid3d.Shape{Kind: rigid3d.Sphere, R: s.R[i]}, rho, vec(s.X[3*i:]), rigid3d.Quat{W: 1}, vec(s.VW[6*i:]), vec(s.VW[6*i+3:]), false)
	}
	op, err := impact.New(impact.Config{Name: l.Operator, Solver: l.Solver})
	if err != nil {
		t.Fatal(err)
	}
	var law sim.ContactLaw
	switch l.friction() {
	case "alg3":
		fr, err := friction.NewMaxDissipation(l.Solver)
		if err != nil {
			t.Fatal(err)
		}
		law = &sim.Staggered{Impact: op, Friction: fr}
	case "blcp":
		law = &friction.BoxedLCP{Normal: op, Tol: l.BoxedTol, MaxIter: l.BoxedMaxIter}
	default:
		law = &sim.Staggered{Impact: op}
	}
	st, err := sim.NewStepper(g, law, h, g.Q, g.V)
	if err != nil {
		t.Fatal(err)
	}
	p0 := append([]rigid3d.Plane(nil), g.Planes...)
	st.AddHook(sim.Hook{Name: "floor", Begin: func(st *sim.Stepper) error {
		for k := range g.Planes {
			g.Planes[k].P = r3.Add(p0[k].P, r3.Scale(st.T+st.H, p0[k].V))
		}
		return nil
	}})
	if l.V0 > 0 {
		vr := impact.VelocityRestitution{V0: l.V0}
		st.AddHook(sim.Hook{Name: "e(v)", Coefficients: func(_ *sim.Stepper, p *mech.Problem) error { vr.Apply(p); return nil }})
	}
	return g, st
}

// maxDiff returns the largest difference of positions, orientations and
// velocities between the sphere path and the general path, by ID.
func maxDiff(s *System, q, v []float64) float64 {
	d := 0.0
	for i := 0; i < s.N(); i++ {
		b := int(s.ID[i])
		for k := 0; k < 3; k++ {
			d = math.Max(d, math.Abs(s.X[3*i+k]-q[7*b+k]))
		}
		sg := 1.0
		if s.Q[4*i]*q[7*b+3] < 0 {
			sg = -1
		}
		for k := 0; k < 4; k++ {
			d = math.Max(d, math.Abs(s.Q[4*i+k]-sg*q[7*b+3+k]))
		}
		for k := 0; k < 6; k++ {
			d = math.Max(d, math.Abs(s.VW[6*i+k]-v[6*b+k]))
		}
	}
	return d
}

// TestImpactMatchesRigid3d: the fast path and the general rigid3d path
// (sim.Stepper, Alg. 4, DMV) give the same trajectories over 100 steps of a
// 200-sphere crate with friction, a rising floor and e(v), for GR + Alg. 3
// and the other operators.
func TestImpactMatchesRigid3d(t *testing.T) {
	laws := []Law{
		{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5},
		{Operator: "grr", Friction: "alg3", CoR: 0.7},
		{Operator: "lcp", Friction: "alg3", CoR: 0.7},
		{Operator: "qce", Friction: "alg3", CoR: 0.7, V0: 0.5},
		{Operator: "qce_lcp", Friction: "none", CoR: 0.7},
		// the boxed LCP stops on a relative change of its impulses, over
		// the island here and over the whole problem there: a tighter
		// tolerance than the default 1e-12 keeps the two within 1e-10
		{Operator: "qce", Friction: "blcp", CoR: 0.7, V0: 0.5, BoxedTol: 1e-14},
	}
	if testing.Short() {
		laws = laws[:1]
	}
	const h, steps = 1e-3, 100
	for _, l := range laws {
		s := crate(200, 1)
		_, gen := general(t, s, l, h)
		pool := par.New(2)
		s.SetPool(pool)
		cfg := &ImpactConfig{H: h, Law: l}
		worst, contacts, pairs, iters := 0.0, 0, 0, 0
		for k := 0; k < steps; k++ {
			st, err := s.StepImpact(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := gen.Step(); err != nil {
				t.Fatal(err)
			}
			if gen.Last.Contacts != st.Contacts {
				t.Fatalf("%s step %d: %d contacts, general path %d", l.Name(), k+1, st.Contacts, gen.Last.Contacts)
			}
			contacts += st.Contacts
			pairs += st.PairContacts
			iters = max(iters, st.MaxIslandIterations)
			worst = math.Max(worst, maxDiff(s, gen.Q, gen.V))
		}
		pool.Close()
		t.Logf("%s: %d contacts (%d pairs) in %d steps, up to %d iterations per island; largest difference %.3g", l.Name(), contacts, pairs, steps, iters, worst)
		if pairs < 100 || contacts-pairs < 100 {
			t.Errorf("%s: want many pair and wall contacts, got %d and %d", l.Name(), pairs, contacts-pairs)
		}
		if !(worst <= 1e-10) {
			t.Errorf("%s: largest difference from rigid3d %.3g, want ≤ 1e-10", l.Name(), worst)
		}
	}
}

// TestImpactDeterministicAcrossWorkers: the state after 40 steps of GR +
// Alg. 3 (its QP's matrix assembled, and matrix-free on every island:
// Law.MatrixFreeFrom) and of QCE + boxed LCP is bitwise the same for 1, 2
// and 3 workers, and with 2 workers when every island is solved (and
// built) as a large one, by the law on the pool.
func TestImpactDeterministicAcrossWorkers(t *testing.T) {
	for _, l := range []Law{{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}, {Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5, MatrixFreeFrom: 1}, {Operator: "qce", Friction: "blcp", CoR: 0.7, V0: 0.5}} {
		acrossWorkers(t, l.Name(), func(s *System) {
			impactSteps(t, s, l, 40)
			if fr, ok := s.work.iw[0].law.fr.(*friction.MaxDissipation); ok && fr.MatrixFreeFrom != l.MatrixFreeFrom {
				t.Fatalf("the law's Alg. 3 has MatrixFreeFrom %d, want %d", fr.MatrixFreeFrom, l.MatrixFreeFrom)
			}
		})
	}
}

// acrossWorkers runs run on the crate (150 spheres, seed 2) with 1, 2 and
// 3 workers and with every island solved on a pool of 2, and fails unless
// the four end in bitwise the same state.
func acrossWorkers(t *testing.T, what string, run func(s *System)) {
	t.Helper()
	var ref *System
	for _, nw := range []int{1, 2, 3, -2} {
		s := crate(150, 2)
		if nw < 0 {
			nw, s.work.bigAt = -nw, 1
		}
		done := onWorkers(s, nw)
		run(s)
		done()
		if ref == nil {
			ref = s
			continue
		}
		sameState(t, fmt.Sprintf("%s, %d workers (pooled islands: %v)", what, nw, s.work.bigAt > 0), s, ref)
	}
}

// impactSteps takes n steps of law l at h = 1e-3 (cells sorted every 7).
func impactSteps(t *testing.T, s *System, l Law, n int) {
	t.Helper()
	cfg := &ImpactConfig{H: 1e-3, Law: l, SortEvery: 7}
	for k := 0; k < n; k++ {
		if _, err := s.StepImpact(cfg); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImpactColouredAcrossWorkers: with every island's boxed LCP swept
// colour by colour (as islands of ≥ friction.DefaultColourFrom contacts
// are), the state after 40 steps of QCE-LCP + boxed LCP is bitwise the
// same for 1, 2 and 3 workers and with every island solved on the pool
// (each colour split over 2 workers), a steady step allocates nothing on
// the pool, and the coloured run equals the contact-order one bit for
// bit: the crate's islands are smaller than one block of the coloured
// sweep, so its order is contact order, and the islands' boxed LCP is
// swept in the compact form (friction.blcpCompact), whose arithmetic is
// the same in both (a packed sweep's coloured arithmetic, split sums and
// reciprocals, would differ by rounding: this catches a fall-back to it).
func TestImpactColouredAcrossWorkers(t *testing.T) {
	l := Law{Operator: "qce_lcp", Friction: "blcp", CoR: 0.7, V0: 0.5, BoxedTol: 1e-9}
	cfg := &ImpactConfig{H: 1e-3, Law: l, SortEvery: 7}
	run := func(nw int, colour, allocs bool) *System {
		s := crate(150, 2)
		if nw < 0 {
			nw, s.work.bigAt = -nw, 1
		}
		if colour {
			s.work.colourAt = 1
		}
		done := onWorkers(s, nw)
		defer done()
		impactSteps(t, s, l, 40)
		if allocs {
			if a := testing.AllocsPerRun(3, func() {
				if _, err := s.StepImpact(cfg); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("coloured, pooled: %v allocations per step, want 0", a)
			}
		}
		return s
	}
	run(-2, true, true)
	plain := run(1, false, false)
	sameState(t, "contact order, pooled", run(-2, false, false), plain)
	ref := run(1, true, false)
	for _, nw := range []int{2, 3, -2} {
		sameState(t, fmt.Sprintf("coloured, %d workers (pooled islands: %v)", nw, nw < 0), run(nw, true, false), ref)
	}
	d := 0.0
	for k := range ref.VW {
		d = math.Max(d, math.Abs(ref.VW[k]-plain.VW[k]))
	}
	for k := range ref.X {
		d = math.Max(d, math.Abs(ref.X[k]-plain.X[k]))
	}
	if d != 0 {
		t.Errorf("coloured against contact-order sweeps after 40 steps: largest difference %.3g, want 0 (compact sweeps in contact order)", d)
	}
}

// onWorkers gives s a pool of nw workers (none for 1) and returns the
// function that closes it.
func onWorkers(s *System, nw int) (done func()) {
	if nw < 2 {
		return func() {}
	}
	pool := par.New(nw)
	s.SetPool(pool)
	return pool.Close
}

// sameState fails unless s and ref have bitwise the same centres and
// velocities.
func sameState(t *testing.T, what string, s, ref *System) {
	t.Helper()
	for k := range s.X {
		if s.X[k] != ref.X[k] {
			t.Fatalf("%s: X[%d] = %v, 1 worker %v", what, k, s.X[k], ref.X[k])
		}
	}
	for k := range s.VW {
		if s.VW[k] != ref.VW[k] {
			t.Fatalf("%s: VW[%d] = %v, 1 worker %v", what, k, s.VW[k], ref.VW[k])
		}
	}
}

// TestImpactStepAllocs: a steady StepImpact allocates nothing, on one
// goroutine and on 2 workers with every island solved (and built) as a
// large one, on the pool.
func TestImpactStepAllocs(t *testing.T) {
	gr := Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}
	for _, c := range []struct {
		l      Law
		pooled bool
	}{{gr, false}, {Law{Operator: "qce", Friction: "blcp", CoR: 0.7}, false}, {gr, true}} {
		l := c.l
		s := crate(150, 3)
		if c.pooled {
			s.work.bigAt = 1
			defer onWorkers(s, 2)()
		}
		cfg := &ImpactConfig{H: 1e-3, Law: l, SortEvery: 1000}
		for k := 0; k < 30; k++ {
			if _, err := s.StepImpact(cfg); err != nil {
				t.Fatal(err)
			}
		}
		a := testing.AllocsPerRun(5, func() {
			if _, err := s.StepImpact(cfg); err != nil {
				t.Fatal(err)
			}
		})
		if a != 0 {
			t.Errorf("%s (pooled islands: %v): %v allocations per step, want 0", l.Name(), c.pooled, a)
		}
	}
}

// TestMatrixFreeTangentsAreExact: the islands' friction basis given
// matrix-free (tanBasis, mech.Basis) is the stored D bit for bit — every
// column's entries and D β — and 40 steps of GR + Alg. 3 on it give the
// state of the stored columns bit for bit (Alg. 3's generic QP on both:
// MatrixFreeFrom 1), on one goroutine and with every island built and
// solved on a pool of 2; with the default compact assembly of the QP
// (friction.SphereBasis), which rounds differently, the state stays within
// 1e-12 of the stored columns'.
// TestVelocityLentToFriction: GR's ṽ lent to Alg. 3's QP solve as MPRGP's
// scratch (GR.TakeVelocity, MaxDissipation.Lend; both on MPRGP, the
// solver that takes lent storage) gives the states of a run that does not
// lend it, bit for bit, serial and with the islands on the pool.
func TestVelocityLentToFriction(t *testing.T) {
	l := Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5, Solver: "sparse"}
	storedMatchesFree(t, "ṽ lent to Alg. 3", l, func(s *System, keep bool) { s.work.keepV = keep })
}

func TestMatrixFreeTangentsAreExact(t *testing.T) {
	l := Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5, MatrixFreeFrom: 1}
	storedMatchesFree(t, "matrix-free D", l, func(s *System, stored bool) { s.work.storedD = stored })
	l.MatrixFreeFrom = 0
	var st [2]*System
	for k, stored := range []bool{true, false} {
		st[k] = crate(150, 2)
		st[k].work.storedD = stored
		impactSteps(t, st[k], l, 40)
	}
	var dx, dv, sx, sv float64
	for k := range st[0].X {
		dx, sx = math.Max(dx, math.Abs(st[1].X[k]-st[0].X[k])), math.Max(sx, math.Abs(st[0].X[k]))
	}
	for k := range st[0].VW {
		dv, sv = math.Max(dv, math.Abs(st[1].VW[k]-st[0].VW[k])), math.Max(sv, math.Abs(st[0].VW[k]))
	}
	if dx > 1e-12*sx || dv > 1e-12*sv || dv == 0 {
		t.Errorf("compact assembly: |ΔX| %g of %g, |ΔVW| %g of %g after 40 steps (want ≤ 1e-12 relative, and not 0: it rounds differently)", dx, sx, dv, sv)
	}
	t.Logf("compact assembly against the stored columns after 40 steps: |ΔX| %.2g of %.3g, |ΔVW| %.2g of %.3g", dx, sx, dv, sv)

	// the columns themselves: every contact of a step, as one problem
	_, cols, pf, ps := stepIslands(t, l, func(s *System, stored bool) { s.work.storedD = stored })
	if pf.DBasis == nil || ps.DBasis != nil || pf.D.NCols() != 0 {
		t.Fatalf("DBasis %v / %v, stored columns %d", pf.DBasis != nil, ps.DBasis != nil, pf.D.NCols())
	}
	nd := ps.D.NCols()
	if pf.NTangents() != nd || nd != 2*len(cols) {
		t.Fatalf("%d matrix-free columns, %d stored, %d contacts", pf.NTangents(), nd, len(cols))
	}
	var rows []int32
	var vals []float64
	y := make([]float64, nd)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < nd; k++ {
		if pf.TangentContact(k) != ps.DContact[k] {
			t.Fatalf("column %d: contact %d, stored %d", k, pf.TangentContact(k), ps.DContact[k])
		}
		rows, vals = pf.TangentCol(k, rows, vals)
		a, b := ps.D.Ptr[k], ps.D.Ptr[k+1]
		if len(rows) != b-a {
			t.Fatalf("column %d: %d entries, stored %d", k, len(rows), b-a)
		}
		for e := range rows {
			if rows[e] != ps.D.Row[a+e] || math.Float64bits(vals[e]) != math.Float64bits(ps.D.Val[a+e]) {
				t.Fatalf("column %d entry %d: (%d, %v), stored (%d, %v)", k, e, rows[e], vals[e], ps.D.Row[a+e], ps.D.Val[a+e])
			}
		}
		if k%3 != 0 {
			y[k] = rng.NormFloat64()
		}
	}
	// a contact's two columns at once (mech.ContactBasis, TangentCols)
	if _, ok := pf.DBasis.(mech.ContactBasis); !ok {
		t.Fatal("tanBasis does not write a contact's columns together")
	}
	var ends []int
	for k := 0; k < nd; k += 2 {
		var fr, sr []int32
		var fv, sv []float64
		var fe, se []int
		fr, fv, fe = pf.TangentCols(k, k+2, rows, vals, ends)
		rows, vals, ends = fr, fv, fe
		sr, sv, se = ps.TangentCols(k, k+2, nil, nil, nil)
		if len(fe) != 2 || len(se) != 2 || fe[0] != se[0] || fe[1] != se[1] || len(fr) != fe[1] || len(sr) != se[1] {
			t.Fatalf("contact %d: column ends %v (%d entries), stored %v (%d)", k/2, fe, len(fr), se, len(sr))
		}
		a := ps.D.Ptr[k]
		for e := range fr {
			if fr[e] != ps.D.Row[a+e] || math.Float64bits(fv[e]) != math.Float64bits(ps.D.Val[a+e]) || sr[e] != fr[e] || sv[e] != fv[e] {
				t.Fatalf("contact %d entry %d: (%d, %v), stored (%d, %v)", k/2, e, fr[e], fv[e], ps.D.Row[a+e], ps.D.Val[a+e])
			}
		}
	}
	df, ds := make([]float64, pf.NDof()), make([]float64, ps.NDof())
	pf.DBasis.AddMulVec(df, y)
	ps.D.AddMulVec(ds, y)
	for r := range df {
		if math.Float64bits(df[r]) != math.Float64bits(ds[r]) {
			t.Fatalf("(D y)[%d] = %v, stored %v", r, df[r], ds[r])
		}
	}
}

// storedMatchesFree fails unless 40 steps of l on a crate give bitwise the
// same state with the islands' columns stored (store(s, true)) and given
// matrix-free, on one goroutine and with every island built and solved on
// a pool of 2.
func storedMatchesFree(t *testing.T, what string, l Law, store func(s *System, stored bool)) {
	t.Helper()
	for _, pooled := range []bool{false, true} {
		var ref *System
		for _, stored := range []bool{true, false} {
			s := crate(150, 2)
			store(s, stored)
			done := func() {}
			if pooled {
				s.work.bigAt = 1
				done = onWorkers(s, 2)
			}
			impactSteps(t, s, l, 40)
			done()
			if ref == nil {
				ref = s
				continue
			}
			sameState(t, fmt.Sprintf("%s, %s (pooled islands: %v)", l.Name(), what, pooled), s, ref)
		}
	}
}

// stepIslands returns a crate after 20 steps of l, the step's contacts
// (at least 10 sphere pairs and a wall contact) and their problem built as
// one island with the columns given matrix-free and stored
// (store(s, true)).
func stepIslands(t *testing.T, l Law, store func(s *System, stored bool)) (s *System, cols []int32, free, stored *mech.Problem) {
	t.Helper()
	s = crate(150, 2)
	impactSteps(t, s, l, 20)
	cols = s.work.isl.order[:len(s.work.con)]
	if np := s.work.npair; np < 10 || len(cols)-np < 1 {
		t.Fatalf("%d pair contacts, %d wall contacts", np, len(cols)-np)
	}
	var fw, sw islandWork
	store(s, false)
	s.buildIsland(&fw, -1, cols, false)
	store(s, true)
	s.buildIsland(&sw, -2, cols, false)
	return s, cols, &fw.p, &sw.p
}

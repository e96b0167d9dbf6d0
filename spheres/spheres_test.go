package spheres

import (
	"math"
	"math/rand/v2"
	"testing"

	"impactsim/friction"
	"impactsim/mech"
	"impactsim/par"
)

// boxOfSpheres is n spheres of radii 0.04–0.06 on a jittered lattice in
// the box [0, 1]³ (five planes, an open top), with a solid box and a solid
// cylinder inside and the wall x = 0 moving inwards at 0.2, random
// velocities, μ = 0.4, gravity −z.
func boxOfSpheres(n int, seed uint64) *System {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.4}
	s.Planes = []Plane{
		{P: [3]float64{0, 0, 0}, N: [3]float64{1, 0, 0}, V: [3]float64{0.2, 0, 0}},
		{P: [3]float64{1, 0, 0}, N: [3]float64{-1, 0, 0}},
		{P: [3]float64{0, 0, 0}, N: [3]float64{0, 1, 0}},
		{P: [3]float64{0, 1, 0}, N: [3]float64{0, -1, 0}},
		{P: [3]float64{0, 0, 0}, N: [3]float64{0, 0, 1}},
	}
	s.Boxes = []Box{{C: [3]float64{0.7, 0.5, 0.1}, Half: [3]float64{0.05, 0.2, 0.1}}}
	s.Cylinders = []Cylinder{{P: [3]float64{0.3, 0.3, 0}, A: [3]float64{0, 0, 1}, R: 0.08}}
	k := 0
	for z := 0; k < n; z++ {
		for y := 0; y < 8 && k < n; y++ {
			for x := 0; x < 8 && k < n; x++ {
				p := [3]float64{0.07 + 0.12*float64(x) + 0.01*rng.Float64(), 0.07 + 0.12*float64(y) + 0.01*rng.Float64(), 0.06 + 0.12*float64(z)}
				if d, _ := s.Boxes[0].distance(p[:]); d < 0.07 {
					continue
				}
				if d, _ := s.Cylinders[0].distance(p[:]); d < 0.07 {
					continue
				}
				v := [3]float64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
				s.Add(p, v, [3]float64{}, 0.04+0.02*rng.Float64(), 1000)
				k++
			}
		}
	}
	return s
}

// TestKernelMatchesGeneralNBGS: the sphere kernel and friction.NBGS on the
// same contacts, exported as a general problem, give the same impulses
// and velocities (300 sweeps each; plain Gauss–Seidel and four domains).
func TestKernelMatchesGeneralNBGS(t *testing.T) {
	for _, domains := range []int{1, 4} {
		testKernelMatchesGeneral(t, domains)
	}
}

func testKernelMatchesGeneral(t *testing.T, domains int) {
	s := boxOfSpheres(300, 1)
	warm := &Config{H: 1e-3, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-6, MaxIter: 50}}
	for k := 0; k < 200; k++ {
		s.Step(warm)
	}
	// a fixed number of sweeps: both run the same Gauss–Seidel map
	cfg := &Config{H: 1e-3, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-300, MaxIter: 300, Domains: domains}}
	for _, block := range []friction.BlockLaw{friction.MaxDissipationBlock, friction.CoulombBlock} {
		cfg.Law.Block = block
		c := *s
		c.X, c.Q, c.VW = append([]float64(nil), s.X...), append([]float64(nil), s.Q...), append([]float64(nil), s.VW...)
		c.work = workspace{}
		c.pool.For(c.N(), 4096, c.kickChunk(cfg.H))
		c.detect(cfg.H, cfg.Epsilon)
		var p mech.Problem
		c.ExportProblem(&p)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		m := p.NContacts()
		lam, beta := make([]float64, m), make([]float64, 2*m)
		law := cfg.Law
		st, err := law.Solve(&p, lam, beta)
		if err != nil || st.Iterations != 300 {
			t.Fatalf("general NBGS: %v, %+v", err, st)
		}
		ks := c.solve(&cfg.Law)
		vp := make([]float64, p.NDof())
		p.ApplyImpulses(vp, p.V, lam, beta, make([]float64, p.NDof()))
		scale := 0.0
		for _, x := range vp {
			scale = math.Max(scale, math.Abs(x))
		}
		worst, worstX := 0.0, 0.0
		for i := range vp {
			worst = math.Max(worst, math.Abs(vp[i]-c.VW[i]))
		}
		xs := 0.0
		for k := range c.work.con {
			x := c.work.nb.rec[k].x
			worstX = math.Max(worstX, math.Max(math.Abs(x[0]-lam[k]), math.Max(math.Abs(x[1]-beta[2*k]), math.Abs(x[2]-beta[2*k+1]))))
			xs = math.Max(xs, math.Abs(x[0]))
		}
		t.Logf("%d domains, %v: %d contacts (%d pairs), sweeps %d / %d, |Δv| %.2g of %.2g, |Δλ| %.2g of %.2g", domains, block, m, c.work.npair, ks.Iterations, st.Iterations, worst, scale, worstX, xs)
		if worst > 1e-10*scale || worstX > 1e-10*xs {
			t.Errorf("%v: kernel and general NBGS differ: velocity %g, impulse %g", block, worst, worstX)
		}
		if c.work.npair == 0 || m == c.work.npair {
			t.Errorf("want sphere pairs and wall contacts, got %d of %d", c.work.npair, m)
		}
	}
}

// TestDeterministicAcrossWorkers: with several domains the state after
// 100 steps is bitwise the same for 1, 2 and 3 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	run := func(workers int) *System {
		s := boxOfSpheres(300, 2)
		if workers > 1 {
			pool := par.New(workers)
			defer pool.Close()
			s.SetPool(pool)
		}
		cfg := &Config{H: 1e-3, Epsilon: 0.7, Law: friction.NBGS{Tol: 1e-9, MaxIter: 20, Domains: 4}, SortEvery: 7}
		for k := 0; k < 100; k++ {
			s.Step(cfg)
		}
		return s
	}
	a := run(1)
	for _, w := range []int{2, 3} {
		b := run(w)
		for i := range a.X {
			if a.X[i] != b.X[i] {
				t.Fatalf("%d workers: x[%d] = %v, 1 worker %v", w, i, b.X[i], a.X[i])
			}
		}
		for i := range a.VW {
			if a.VW[i] != b.VW[i] {
				t.Fatalf("%d workers: vw[%d] differs", w, i)
			}
		}
		for i := range a.ID {
			if a.ID[i] != b.ID[i] {
				t.Fatalf("%d workers: order differs", w)
			}
		}
	}
}

// TestStepAllocs: a steady step allocates nothing.
func TestStepAllocs(t *testing.T) {
	s := boxOfSpheres(200, 3)
	pool := par.New(2)
	defer pool.Close()
	s.SetPool(pool)
	cfg := &Config{H: 1e-3, Epsilon: 0.7, Law: friction.NBGS{Tol: 1e-9, MaxIter: 10, Domains: 4}}
	for k := 0; k < 50; k++ {
		s.Step(cfg)
	}
	if n := testing.AllocsPerRun(20, func() { s.Step(cfg) }); n != 0 {
		t.Errorf("%v allocations per step", n)
	}
}

// TestMomentumAndRemove: without walls and gravity, a cloud of colliding
// spheres keeps its linear momentum (to rounding) whether or not the sweeps
// converge, and Remove keeps the order of the others.
func TestMomentumAndRemove(t *testing.T) {
	s := boxOfSpheres(150, 4)
	s.Planes, s.Boxes, s.Cylinders, s.Gravity = nil, nil, nil, [3]float64{}
	p0 := s.LinearMomentum()
	// three domains: the relaxed increments across domains conserve
	// momentum too
	cfg := &Config{H: 1e-3, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-12, MaxIter: 200, Domains: 3}}
	contacts := 0
	for k := 0; k < 100; k++ {
		contacts += s.Step(cfg).PairContacts
	}
	p1 := s.LinearMomentum()
	for d := 0; d < 3; d++ {
		if math.Abs(p1[d]-p0[d]) > 1e-12 {
			t.Errorf("momentum %v → %v", p0, p1)
		}
	}
	if contacts == 0 {
		t.Error("no collisions")
	}
	ids := append([]int64(nil), s.ID...)
	removed := s.Remove(func(i int) bool { return i%3 == 0 })
	if removed != (len(ids)+2)/3 || s.N() != len(ids)-removed {
		t.Fatalf("removed %d of %d", removed, len(ids))
	}
	for k, id := range s.ID {
		if want := ids[k+k/2+1]; id != want {
			t.Fatalf("after removal slot %d holds %d, want %d", k, id, want)
		}
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestContactRegions: the broad phase's ranges write into regions of the
// contact list (conRegions) and fall back to storage of their own when a
// region is too small; either way the step's contacts are the same, in
// the same order, and so is the state. Every fifth step the second system
// forgets its ranges' counts, so that its regions (64 contacts) overflow.
func TestContactRegions(t *testing.T) {
	pool := par.New(3)
	defer pool.Close()
	a, b := restingLayer(12, 3), restingLayer(12, 3)
	a.SetPool(pool)
	b.SetPool(pool)
	cfg := &Config{H: 1e-3, Epsilon: 0.7, Law: friction.NBGS{Tol: 1e-9, MaxIter: 20, Domains: 4}, SortEvery: 7}
	overflowed := 0
	for k := 0; k < 40; k++ {
		if k%5 == 4 {
			b.work.chunkMax = [2][]int{}
			b.work.con = nil
		}
		a.Step(cfg)
		b.Step(cfg)
		if len(a.work.con) != len(b.work.con) || a.work.npair != b.work.npair {
			t.Fatalf("step %d: %d contacts (%d pairs), with overflowing regions %d (%d)", k, len(a.work.con), a.work.npair, len(b.work.con), b.work.npair)
		}
		for c := range a.work.con {
			if a.work.con[c] != b.work.con[c] {
				t.Fatalf("step %d: contact %d differs", k, c)
			}
		}
		if k%5 == 4 {
			for _, mx := range b.work.chunkMax {
				for _, n := range mx {
					if n > regionSize(0) {
						overflowed++
					}
				}
			}
		}
	}
	if overflowed < 8 {
		t.Fatalf("%d regions overflowed: the test needs more contacts", overflowed)
	}
	t.Logf("%d regions overflowed; %d contacts in the last step", overflowed, len(a.work.con))
	sameState(t, "overflowing regions", b, a)
}

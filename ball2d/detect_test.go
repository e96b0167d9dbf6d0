package ball2d

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"impactsim/mech"
	"impactsim/par"
)

// step1 predicts q̃ with FreeFlight and builds the problem at (q, q̃).
func step1(s *System, p *mech.Problem) (q1 []float64) {
	q1 = make([]float64, len(s.Q))
	v1 := make([]float64, len(s.V))
	s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
	s.BuildProblem(s.Q, q1, s.V, p)
	return q1
}

func near(a, b [2]float64, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol
}

// column returns the nonzeros of column j as row → value.
func column(c *mech.Cols, j int) map[int]float64 {
	m := map[int]float64{}
	for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
		m[int(c.Row[k])] = c.Val[k]
	}
	return m
}

func TestCCDCatchesTunnelling(t *testing.T) {
	// Ball 0 moves 10 units in one step, straight through ball 1: the
	// prediction q̃ has them far apart, only CCD sees the collision.
	s := &System{Dt: 0.1, CoR: 1}
	s.AddBall(-5, 0, 100, 0, 1, 0.5, false)
	s.AddBall(0, 0, 0, 0, 1, 0.5, false)
	var p mech.Problem
	q1 := step1(s, &p)
	if d := math.Hypot(q1[0]-q1[2], q1[1]-q1[3]); d <= 1 {
		t.Fatalf("test setup: balls overlap at the prediction (%v)", d)
	}
	if p.NContacts() != 1 {
		t.Fatalf("%d contacts, want 1", p.NContacts())
	}
	c := s.Contacts()[0]
	if c.Kind != BallBall || c.I != 0 || c.J != 1 || c.N != [2]float64{-1, 0} {
		t.Errorf("contact %+v", c)
	}
	// Moving apart fast, or passing at a distance: no contact.
	for _, v := range [][2]float64{{-100, 0}, {100, 0}} {
		s.V[0], s.V[1] = v[0], v[1]
		s.Q[1] = 1.5 // passes 1.5 > 1 above ball 1 when moving +x
		if v[0] < 0 {
			s.Q[1] = 0
		}
		step1(s, &p)
		if p.NContacts() != 0 {
			t.Errorf("v=%v y=%v: %d contacts, want 0", v, s.Q[1], p.NContacts())
		}
	}
}

func TestCCDRoots(t *testing.T) {
	z := [2]float64{}
	for _, c := range []struct {
		name       string
		a0, a1, b1 [2]float64
		want       bool
	}{
		{"static apart", [2]float64{3, 0}, [2]float64{3, 0}, z, false},
		{"static touching", [2]float64{1, 0}, [2]float64{1, 0}, z, true},
		{"static overlapping", [2]float64{0.5, 0}, [2]float64{0.5, 0}, z, true},
		{"arrives exactly", [2]float64{3, 0}, [2]float64{1, 0}, z, true},
		{"stops short", [2]float64{3, 0}, [2]float64{1.01, 0}, z, false},
		{"passes through", [2]float64{-5, 0}, [2]float64{5, 0}, z, true},
		{"grazes", [2]float64{-5, 1}, [2]float64{5, 1}, z, true},
		{"misses", [2]float64{-5, 1.001}, [2]float64{5, 1.001}, z, false},
		{"leaves overlap", [2]float64{0.5, 0}, [2]float64{3, 0}, z, true},
		{"other moves in", [2]float64{3, 0}, [2]float64{3, 0}, [2]float64{2.5, 0}, true},
	} {
		if got := ccd(c.a0, c.a1, 0.5, z, c.b1, 0.5); got != c.want {
			t.Errorf("%s: ccd = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPlaneContact(t *testing.T) {
	s := &System{Dt: 0.01, CoR: 0.5, Mu: 0.3, Gravity: [2]float64{0, -10}}
	nx, ny := 0.6, 0.8
	s.Planes = []Plane{NewPlane([2]float64{0, 0}, [2]float64{3, 4})}
	s.AddBall(0.6*0.5, 0.8*0.5, 0, -1, 2, 0.5, false) // touching, moving in
	s.AddBall(6, 8, 0, 0, 1, 0.5, false)              // far away
	var p mech.Problem
	step1(s, &p)
	if p.NContacts() != 1 {
		t.Fatalf("%d contacts", p.NContacts())
	}
	c := s.Contacts()[0]
	if c.Kind != BallPlane || c.I != 0 || c.J != -1 || c.Obj != 0 {
		t.Errorf("contact %+v", c)
	}
	if g := column(&p.G, 0); len(g) != 2 || g[0] != nx || g[1] != ny {
		t.Errorf("G column %v", g)
	}
	if d := column(&p.D, 0); len(d) != 2 || d[0] != -ny || d[1] != nx {
		t.Errorf("D column %v", d)
	}
	if p.CoR[0] != 0.5 || p.Mu[0] != 0.3 || p.Bodies[0] != 0 || p.Bodies[1] != -1 || p.DContact[0] != 0 {
		t.Errorf("CoR %v Mu %v Bodies %v DContact %v", p.CoR, p.Mu, p.Bodies, p.DContact)
	}
	if nv := p.G.ColDot(0, p.V); math.Abs(nv+0.8) > 1e-15 {
		t.Errorf("normal velocity %v, want -0.8", nv)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	if p.M.At(0, 0) != 2 || p.MInv.At(1, 1) != 0.5 || p.M.At(0, 1) != 0 {
		t.Errorf("mass blocks wrong")
	}
}

func TestDrumContact(t *testing.T) {
	s := &System{Dt: 0.01, CoR: 1}
	s.Drums = []Drum{{C: [2]float64{1, 2}, R: 5}}
	s.AddBall(1+3, 2+4-0.6, 0, 1, 1, 1, false) // |x − c| ≈ 4.93 > R − r − v h
	s.AddBall(1, 2, 0, 0, 1, 1, false)         // at the centre
	var p mech.Problem
	step1(s, &p)
	if p.NContacts() != 1 {
		t.Fatalf("%d contacts", p.NContacts())
	}
	c := s.Contacts()[0]
	want, _ := unit(-3, -(4 - 0.6)) // −(x − c)/|x − c| at q0
	if c.Kind != BallDrum || c.I != 0 || c.Obj != 0 || !near(c.N, want, 1e-15) {
		t.Errorf("contact %+v, want normal %v", c, want)
	}
	// The gradient of g = (R − r) − |x − c| opposes an outward velocity.
	if nv := p.G.ColDot(0, p.V); nv >= 0 {
		t.Errorf("outward-moving ball has normal velocity %v ≥ 0", nv)
	}
}

func TestNormalsAtQ0(t *testing.T) {
	// Ball 0 moves diagonally onto ball 1: the normal is the direction at
	// q0, not at the prediction.
	s := &System{Dt: 1, CoR: 1}
	s.AddBall(-1.2, 0, 0.4, 0.3, 1, 0.5, false)
	s.AddBall(0, 0, 0, 0, 3, 0.5, false)
	var p mech.Problem
	q1 := step1(s, &p)
	if p.NContacts() != 1 {
		t.Fatalf("%d contacts", p.NContacts())
	}
	n := s.Contacts()[0].N
	if n != [2]float64{-1, 0} {
		t.Errorf("normal %v, want (-1, 0) (direction at q0)", n)
	}
	at1, _ := unit(q1[0]-q1[2], q1[1]-q1[3])
	if near(n, at1, 1e-3) {
		t.Fatalf("test setup: normals at q0 and q1 coincide")
	}
	g := column(&p.G, 0)
	if g[0] != -1 || g[1] != 0 || g[2] != 1 || g[3] != 0 {
		t.Errorf("G column %v", g)
	}
	if p.Bodies[0] != 0 || p.Bodies[1] != 1 {
		t.Errorf("bodies %v", p.Bodies)
	}
}

// randomSystem scatters n balls of random radii in a box with random
// velocities (overlaps allowed), with a drum and two planes.
func randomSystem(n int, seed uint64) *System {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &System{Dt: 0.05, CoR: 1, Mu: 0.2, Gravity: [2]float64{0, -9.81}}
	side := math.Sqrt(float64(n)) * 1.3
	for i := 0; i < n; i++ {
		s.AddBall(side*rng.Float64(), side*rng.Float64(), 4*rng.NormFloat64(), 4*rng.NormFloat64(),
			0.5+rng.Float64(), 0.2+0.4*rng.Float64(), rng.IntN(50) == 0)
	}
	s.Drums = []Drum{{C: [2]float64{side / 2, side / 2}, R: side * 0.6}}
	s.Planes = []Plane{{P: [2]float64{0, 0.3}, N: [2]float64{0, 1}}, {P: [2]float64{side, 0}, N: [2]float64{-1, 0}}}
	return s
}

func TestGridMatchesBruteForce(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		s := randomSystem(1000, seed)
		b := randomSystem(1000, seed)
		b.det.bruteForce = true
		var p, pb mech.Problem
		step1(s, &p)
		step1(b, &pb)
		if len(s.Contacts()) < 500 {
			t.Fatalf("only %d contacts: the test is too easy", len(s.Contacts()))
		}
		if !reflect.DeepEqual(s.Contacts(), b.Contacts()) {
			t.Fatalf("seed %d: grid and brute force differ: %d vs %d contacts", seed, len(s.Contacts()), len(b.Contacts()))
		}
		if !reflect.DeepEqual(p, pb) {
			t.Fatalf("seed %d: problems differ", seed)
		}
	}
	// The raw pair lists too, for boxes of very different sizes.
	rng := rand.New(rand.NewPCG(9, 9))
	boxes := make([]aabb, 1000)
	for i := range boxes {
		x, y := 100*rng.Float64(), 100*rng.Float64()
		w, h := rng.ExpFloat64(), rng.ExpFloat64()
		boxes[i] = aabb{x, y, x + w, y + h}
	}
	boxes[17] = aabb{math.NaN(), 0, 1, 1}
	var g grid
	got := append([]pair(nil), g.find(boxes)...)
	want := bruteForcePairs(boxes, nil)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("grid found %d pairs, brute force %d", len(got), len(want))
	}
}

// TestGridMatchesBruteForceSparse: a dilute system, whose few ball pairs
// are ordered by a comparison sort rather than the counting sort over the
// balls (sortHits), on several workers and small chunks, against brute
// force.
func TestGridMatchesBruteForceSparse(t *testing.T) {
	old := parGrain
	parGrain = 64
	defer func() { parGrain = old }()
	for _, w := range []int{1, 2, 3} {
		pool := par.New(w)
		mk := func() *System {
			rng := rand.New(rand.NewPCG(11, 2))
			s := &System{Dt: 0.05, CoR: 1}
			const n = 4000
			side := math.Sqrt(n) * 10
			for i := 0; i < n; i++ {
				s.AddBall(side*rng.Float64(), side*rng.Float64(), 4*rng.NormFloat64(), 4*rng.NormFloat64(),
					1, 0.2+0.4*rng.Float64(), rng.IntN(50) == 0)
			}
			return s
		}
		s, b := mk(), mk()
		s.SetPool(pool)
		b.det.bruteForce = true
		var p, pb mech.Problem
		step1(s, &p)
		step1(b, &pb)
		if m := len(s.Contacts()); m < 20 || m >= s.N()/32 {
			t.Fatalf("%d contacts for %d balls: not the sparse case", m, s.N())
		}
		if !reflect.DeepEqual(s.Contacts(), b.Contacts()) || !reflect.DeepEqual(p, pb) {
			t.Errorf("%d workers: grid and brute force differ: %d vs %d contacts", w, len(s.Contacts()), len(b.Contacts()))
		}
		pool.Close()
	}
}

func TestGridMatchesBruteForceWithPortals(t *testing.T) {
	mk := func() *System {
		s := randomSystem(600, 5)
		s.Planes = nil
		s.Drums = nil
		side := math.Sqrt(600) * 1.3
		s.Portals = []Portal{{
			A: Plane{P: [2]float64{0, side}, N: [2]float64{0, -1}},
			B: Plane{P: [2]float64{0, 0}, N: [2]float64{0, 1}},
		}}
		return s
	}
	s, b := mk(), mk()
	b.det.bruteForce = true
	var p, pb mech.Problem
	step1(s, &p)
	step1(b, &pb)
	tele := 0
	for _, c := range s.Contacts() {
		if c.Kind == TeleportedBallBall {
			tele++
		}
	}
	if tele == 0 {
		t.Fatal("no teleported contacts: the test is too easy")
	}
	if !reflect.DeepEqual(s.Contacts(), b.Contacts()) || !reflect.DeepEqual(p, pb) {
		t.Fatalf("grid and brute force differ: %d vs %d contacts", len(s.Contacts()), len(b.Contacts()))
	}
	checkProblem(t, s, &p)
}

// checkProblem checks shapes, ordering, unit normals and tangents orthogonal
// to normals.
func checkProblem(t *testing.T, s *System, p *mech.Problem) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	n := s.N()
	if p.Dim != 2 || p.NDof() != 2*n || p.M.NumBlocks() != n || p.MInv.NumBlocks() != n {
		t.Fatalf("shape: dim %d dofs %d blocks %d/%d for %d balls", p.Dim, p.NDof(), p.M.NumBlocks(), p.MInv.NumBlocks(), n)
	}
	cs := s.Contacts()
	if p.NContacts() != len(cs) || p.D.NCols() != len(cs) {
		t.Fatalf("%d G columns, %d D columns, %d contacts", p.NContacts(), p.D.NCols(), len(cs))
	}
	for k, c := range cs {
		if k > 0 {
			prev := cs[k-1]
			if c.Kind < prev.Kind || (c.Kind == prev.Kind && c.Kind <= TeleportedBallBall && (c.I < prev.I || (c.I == prev.I && c.J <= prev.J))) {
				t.Fatalf("contacts %d, %d out of order: %+v %+v", k-1, k, prev, c)
			}
		}
		if c.J >= 0 && c.I >= c.J {
			t.Fatalf("contact %d: I=%d ≥ J=%d", k, c.I, c.J)
		}
		if s.Fixed[c.I] && (c.J < 0 || s.Fixed[c.J]) {
			t.Fatalf("contact %d between immovable bodies", k)
		}
		if math.Abs(math.Hypot(c.N[0], c.N[1])-1) > 1e-14 {
			t.Fatalf("contact %d: normal %v not unit", k, c.N)
		}
		var gg, dd, gd float64
		for a := p.G.Ptr[k]; a < p.G.Ptr[k+1]; a++ {
			gg += p.G.Val[a] * p.G.Val[a]
			for b := p.D.Ptr[k]; b < p.D.Ptr[k+1]; b++ {
				if p.D.Row[b] == p.G.Row[a] {
					gd += p.G.Val[a] * p.D.Val[b]
				}
			}
		}
		for b := p.D.Ptr[k]; b < p.D.Ptr[k+1]; b++ {
			dd += p.D.Val[b] * p.D.Val[b]
		}
		bodies := 1.0
		if c.J >= 0 {
			bodies = 2
		}
		if math.Abs(gg-bodies) > 1e-14 || math.Abs(dd-bodies) > 1e-14 || math.Abs(gd) > 1e-15 {
			t.Fatalf("contact %d: |g|²=%v |d|²=%v g·d=%v", k, gg, dd, gd)
		}
		wantI, wantJ := int(c.I), int(c.J)
		if s.Fixed[wantI] {
			wantI = -1
		}
		if wantJ >= 0 && s.Fixed[wantJ] {
			wantJ = -1
		}
		if p.Bodies[2*k] != wantI || p.Bodies[2*k+1] != wantJ || p.DContact[k] != k {
			t.Fatalf("contact %d: bodies %v, DContact %d", k, p.Bodies[2*k:2*k+2], p.DContact[k])
		}
	}
}

func TestTangentsAndOrder(t *testing.T) {
	s := randomSystem(1000, 11)
	var p mech.Problem
	step1(s, &p)
	checkProblem(t, s, &p)
	kinds := map[ContactKind]int{}
	for _, c := range s.Contacts() {
		kinds[c.Kind]++
	}
	if kinds[BallBall] == 0 || kinds[BallDrum] == 0 || kinds[BallPlane] == 0 {
		t.Errorf("contact kinds %v: want all of ball, drum and plane contacts", kinds)
	}
}

func TestDeterminism(t *testing.T) {
	var ps [3]mech.Problem
	var cs [3][]Contact
	for k := range ps {
		s := randomSystem(800, 21)
		if k == 2 { // a warmed-up system gives the same answer again
			step1(s, &ps[k])
		}
		step1(s, &ps[k])
		cs[k] = append([]Contact(nil), s.Contacts()...)
	}
	for k := 1; k < 3; k++ {
		if !reflect.DeepEqual(ps[0], ps[k]) || !reflect.DeepEqual(cs[0], cs[k]) {
			t.Fatalf("run %d differs from run 0", k)
		}
	}
}

func TestFixedBalls(t *testing.T) {
	s := &System{Dt: 0.1, CoR: 1, Gravity: [2]float64{0, -10}}
	s.Planes = []Plane{{N: [2]float64{0, 1}}}
	s.AddBall(0, 0.4, 1, 1, 1, 0.5, true)   // fixed, on the plane, "moving"
	s.AddBall(1, 0.4, 0, 0, 1, 0.5, true)   // fixed, touching ball 0
	s.AddBall(0, 1.4, 0, -1, 2, 0.5, false) // free, falling onto ball 0
	q1 := make([]float64, 6)
	v1 := make([]float64, 6)
	s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
	if q1[0] != 0 || q1[1] != 0.4 || v1[0] != 0 || v1[1] != 0 {
		t.Errorf("fixed ball moved: q %v v %v", q1[:2], v1[:2])
	}
	var p mech.Problem
	s.BuildProblem(s.Q, q1, s.V, &p)
	if p.M.At(0, 0) != 0 || p.MInv.At(3, 3) != 0 || p.M.At(4, 4) != 2 {
		t.Errorf("mass blocks: %v %v %v", p.M.At(0, 0), p.MInv.At(3, 3), p.M.At(4, 4))
	}
	cs := s.Contacts()
	if len(cs) != 1 || cs[0].I != 0 || cs[0].J != 2 {
		t.Errorf("contacts %+v: want only ball 0 – ball 2", cs)
	}
	if ke := s.KineticEnergy(s.V); ke != 1 {
		t.Errorf("kinetic energy %v counts fixed balls", ke)
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
	checkProblem(t, s, &p)
}

func TestBuildProblemDoesNotAllocate(t *testing.T) {
	for _, portals := range []bool{false, true} {
		s := randomSystem(2000, 3)
		if portals {
			side := math.Sqrt(2000) * 1.3
			s.Portals = []Portal{{
				A: Plane{P: [2]float64{side, 0}, N: [2]float64{-1, 0}},
				B: Plane{P: [2]float64{0, 0}, N: [2]float64{1, 0}},
			}}
		}
		var p mech.Problem
		q1 := make([]float64, len(s.Q))
		v1 := make([]float64, len(s.V))
		s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
		s.BuildProblem(s.Q, q1, s.V, &p) // warm up
		allocs := testing.AllocsPerRun(5, func() {
			s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
			s.BuildProblem(s.Q, q1, s.V, &p)
		})
		if allocs != 0 {
			t.Errorf("portals=%v: %v allocations per FreeFlight+BuildProblem", portals, allocs)
		}
	}
}

func TestPortalTeleportAndImages(t *testing.T) {
	s := &System{Dt: 0.01, CoR: 1}
	s.Portals = []Portal{{
		A: Plane{P: [2]float64{0, 8}, N: [2]float64{0, -1}},
		B: Plane{P: [2]float64{0, -8}, N: [2]float64{0, 1}},
	}}
	s.AddBall(1, 7.8, 0, 1, 1, 0.5, false)  // 0.2 below A
	s.AddBall(1, -7.6, 0, 0, 1, 0.5, false) // 0.4 above B: 0.6 from 0's image
	s.AddBall(5, 0, 0, 0, 1, 0.5, false)
	var p mech.Problem
	step1(s, &p)
	cs := s.Contacts()
	if len(cs) != 1 {
		t.Fatalf("contacts %+v", cs)
	}
	c := cs[0]
	// Both (ball 0, image of 1 through B) and (image of 0 through A, ball 1)
	// collide; as in SCISim the first in box order is kept: ball 0 real,
	// ball 1 imaged to (1, 8.4) through plane B.
	if c.Kind != TeleportedBallBall || c.I != 0 || c.J != 1 || c.PortalI != -1 || c.PortalJ != 0 || c.PlaneJ != 1 {
		t.Errorf("contact %+v", c)
	}
	// The image is above ball 0: the normal pushes ball 0 down (back into
	// the domain) and ball 1 up.
	if !near(c.N, [2]float64{0, -1}, 1e-15) {
		t.Errorf("normal %v, want (0, -1)", c.N)
	}
	checkProblem(t, s, &p)

	// A ball whose centre crossed A re-enters behind B, same x, same
	// velocity.
	q := []float64{1, 8.1, 2, -8.05, 3, 0}
	v := []float64{0, 1, 0, -1, 0, 0}
	s.AfterStep(q, v)
	want := []float64{1, 8.1 - 16, 2, -8.05 + 16, 3, 0}
	for i := range q {
		if math.Abs(q[i]-want[i]) > 1e-14 {
			t.Fatalf("after teleport q = %v, want %v", q, want)
		}
	}
	if v[1] != 1 || v[3] != -1 {
		t.Errorf("velocities changed: %v", v)
	}
}

func BenchmarkBuildProblem(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := randomSystem(n, 7)
			var p mech.Problem
			q1 := make([]float64, len(s.Q))
			v1 := make([]float64, len(s.V))
			s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
			s.BuildProblem(s.Q, q1, s.V, &p) // grow the workspaces
			b.ReportAllocs()
			for b.Loop() {
				s.BuildProblem(s.Q, q1, s.V, &p)
			}
			b.ReportMetric(float64(p.NContacts()), "contacts")
		})
	}
}

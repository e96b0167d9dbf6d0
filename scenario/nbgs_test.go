package scenario

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/mech"
	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/sim"
	"impactsim/singlecontact"
)

// boxStack is three unit-density boxes stacked on the floor y = 0, each
// resting exactly on the one below.
func boxStack(mu float64) *rigid3d.System {
	s := &rigid3d.System{Gravity: r3.Vec{Y: -9.81}, Mu: mu, Integrator: rigid3d.SymplecticEuler}
	s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	y := 0.0
	for k, h := range []r3.Vec{{X: 0.5, Y: 0.2, Z: 0.4}, {X: 0.4, Y: 0.15, Z: 0.3}, {X: 0.3, Y: 0.1, Z: 0.25}} {
		y += h.Y
		s.AddBody(rigid3d.Shape{Kind: rigid3d.Box, Half: h}, 1, r3.Vec{X: 0.02 * float64(k), Y: y}, rigid3d.Identity, r3.Vec{}, r3.Vec{}, false)
		y += h.Y
	}
	return s
}

// spherePile is a square pyramid of n layers of unit-density spheres of
// radius 0.1 (n², (n−1)², …, 1), each sphere resting on the four below,
// on the floor y = 0.
func spherePile(n int, mu float64) *rigid3d.System {
	s := &rigid3d.System{Gravity: r3.Vec{Y: -9.81}, Mu: mu, Integrator: rigid3d.SymplecticEuler}
	s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	const r = 0.1
	for l := 0; l < n; l++ {
		k := n - l
		y := r + float64(l)*r*math.Sqrt2
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				x := (float64(a) - float64(k-1)/2) * 2 * r
				z := (float64(b) - float64(k-1)/2) * 2 * r
				s.AddBody(rigid3d.Shape{Kind: rigid3d.Sphere, R: r}, 1, r3.Vec{X: x, Y: y, Z: z}, rigid3d.Identity, r3.Vec{}, r3.Vec{}, false)
			}
		}
	}
	return s
}

// eq5Residual returns max_j ‖A_jj(solve_j(λ) − λ_j)‖∞ over the contacts of
// the stepper's last problem: how far the impulses are from satisfying
// eq. (5) of Preclik et al. for every block.
func eq5Residual(t *testing.T, st *sim.Stepper) float64 {
	t.Helper()
	p := &st.Problem
	m, n := p.NContacts(), p.NDof()
	v := make([]float64, n)
	scr := make([]float64, n)
	p.ApplyImpulses(v, p.V, st.Lambda, st.Beta, scr)
	tc := make([][]int, m)
	for k, j := range p.DContact {
		tc[j] = append(tc[j], k)
	}
	res := 0.0
	for j := 0; j < m; j++ {
		cols := []struct {
			c *mech.Cols
			k int
		}{{&p.G, j}, {&p.D, tc[j][0]}, {&p.D, tc[j][1]}}
		var pr singlecontact.Problem
		pr.Mu = p.Mu[j]
		x := [3]float64{st.Lambda[j], st.Beta[tc[j][0]], st.Beta[tc[j][1]]}
		for a := 0; a < 3; a++ {
			// W_aᵀ v and the Delassus entries
			col := make([]float64, n)
			cols[a].c.AddScaledCol(col, cols[a].k, 1)
			mc := make([]float64, n)
			p.MInv.MulVec(mc, col)
			var u float64
			for i := range v {
				u += col[i] * v[i]
			}
			if a == 0 && len(p.NRel) > 0 {
				u += p.NRel[j]
			}
			for b := 0; b < 3; b++ {
				colb := make([]float64, n)
				cols[b].c.AddScaledCol(colb, cols[b].k, 1)
				var s float64
				for i := range colb {
					s += colb[i] * mc[i]
				}
				pr.A[a][b] = s
			}
			pr.B[a] = -u
		}
		for a := 0; a < 3; a++ {
			pr.B[a] += pr.A[a][0]*x[0] + pr.A[a][1]*x[1] + pr.A[a][2]*x[2]
		}
		y, _ := singlecontact.MaxDissipation(&pr)
		for a := 0; a < 3; a++ {
			d := pr.A[a][0]*(y[0]-x[0]) + pr.A[a][1]*(y[1]-x[1]) + pr.A[a][2]*(y[2]-x[2])
			res = math.Max(res, math.Abs(d))
		}
	}
	return res
}

func TestNBGSBoxStackRests(t *testing.T) {
	s := boxStack(0.5)
	law := &friction.NBGS{Tol: 1e-10, MaxIter: 2000}
	st, err := sim.NewImpulseVelocityStepper(s, law, 1e-3, 0.7, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	worstEq5 := 0.0
	for k := 0; k < 300; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Law.Capped > 0 || st.Last.Law.Residual > 1e-10 {
			t.Fatalf("step %d: NBGS residual %g after %d sweeps (capped %d)", k+1, st.Last.Law.Residual, st.Last.Law.Iterations, st.Last.Law.Capped)
		}
		if k%50 == 49 {
			worstEq5 = math.Max(worstEq5, eq5Residual(t, st))
		}
	}
	if worstEq5 > 1e-9 {
		t.Errorf("eq. (5) residual %g at convergence", worstEq5)
	}
	// at rest: no velocity left, the stack where it was
	for i := 0; i < 3; i++ {
		u, w := rigid3d.Vel(st.V, i)
		x, _ := rigid3d.Pose(st.Q, i)
		x0, _ := rigid3d.Pose(s.Q, i)
		if r3.Norm(u) > 1e-6 || r3.Norm(w) > 1e-6 || r3.Norm(r3.Sub(x, x0)) > 1e-4 {
			t.Errorf("box %d: u = %v, ω = %v, moved %v", i, u, w, r3.Sub(x, x0))
		}
	}
	t.Logf("contacts %d, sweeps %d, eq. (5) residual %.2g", st.Last.Contacts, st.Last.Law.Iterations, worstEq5)
}

// runPile steps a four-layer pyramid of 30 spheres with the NBGS law on the
// given number of domains and workers and returns the stepper and the
// largest eq. (5) residual of the last step.
func runPile(t *testing.T, steps, domains, workers, maxIter int, eps float64) (*sim.Stepper, float64) {
	t.Helper()
	s := spherePile(4, 0.5)
	law := &friction.NBGS{Tol: 1e-9, MaxIter: maxIter, Domains: domains}
	st, err := sim.NewImpulseVelocityStepper(s, law, 2e-3, eps, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	if workers > 1 {
		pool := par.New(workers)
		defer pool.Close()
		st.SetPool(pool)
	}
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if domains == 1 && st.Last.Law.Capped > 0 {
			t.Fatalf("step %d: capped at %d sweeps, residual %g", k+1, st.Last.Law.Iterations, st.Last.Law.Residual)
		}
	}
	return st, eq5Residual(t, st)
}

// TestNBGSSpherePile: a pyramid of 30 spheres on a frictional floor
// (μ = 0.5, its bottom layer rolls apart) with 40–50 contacts a step: NBGS
// reaches the tolerance 10⁻⁹ every step within 2·10⁴ sweeps, and the blocks
// satisfy eq. (5). Error reduction ε = 0 here: with ε > 0 a sphere wedged
// between two sticking contacts can be asked to move out of one of them in
// a direction the other's friction forbids, and Gauss–Seidel then stalls
// (see friction.NBGS).
func TestNBGSSpherePile(t *testing.T) {
	st, eq5 := runPile(t, 150, 1, 1, 20000, 0)
	if eq5 > 1e-8 {
		t.Errorf("eq. (5) residual %g", eq5)
	}
	// the spheres stay out of the floor (penetration below 1 % of the
	// radius) and the pile lost energy
	s0 := spherePile(4, 0.5)
	for i := 0; i < s0.N(); i++ {
		if x, _ := rigid3d.Pose(st.Q, i); x.Y < 0.1-0.001 {
			t.Errorf("sphere %d at height %v (radius 0.1)", i, x.Y)
		}
	}
	e0, e1 := s0.Energy(s0.Q, s0.V), s0.Energy(st.Q, st.V)
	if !(e1 < e0) {
		t.Errorf("energy %v → %v", e0, e1)
	}
	t.Logf("contacts %d, sweeps %d, energy %.4g → %.4g, eq. (5) residual %.2g", st.Last.Contacts, st.Last.Law.Iterations, e0, e1, eq5)
}

// TestNBGSDomainsDeterministic: with several domains the sweeps blend
// Gauss–Seidel and weighted Jacobi; the result depends on the number of
// domains but not, bit for bit, on the number of workers.
func TestNBGSDomainsDeterministic(t *testing.T) {
	a, _ := runPile(t, 100, 4, 1, 50, 0.7)
	b, _ := runPile(t, 100, 4, 2, 50, 0.7)
	for i := range a.Q {
		if a.Q[i] != b.Q[i] {
			t.Fatalf("q[%d]: %v with 1 worker, %v with 2", i, a.Q[i], b.Q[i])
		}
	}
	for i := range a.V {
		if a.V[i] != b.V[i] {
			t.Fatalf("v[%d]: %v with 1 worker, %v with 2", i, a.V[i], b.V[i])
		}
	}
}

// rodMesh is a thin bipyramid along x from −L to L with a ring of radius w:
// its lowest vertex is a single tip.
func rodMesh(t *testing.T, L, w float64) (*rigid3d.Mesh, r3.Vec, rigid3d.Quat) {
	t.Helper()
	vs := []r3.Vec{{X: L}, {X: -L}, {Y: w}, {Z: w}, {Y: -w}, {Z: -w}}
	var fs [][3]int
	for k := 0; k < 4; k++ {
		a, b := 2+k, 2+(k+1)%4
		fs = append(fs, [3]int{0, a, b}, [3]int{1, b, a})
	}
	m, com, frame, err := rigid3d.NewMesh(vs, fs, 16, "rod")
	if err != nil {
		t.Fatal(err)
	}
	return m, com, frame
}

// TestPainleveRodTimeStep: one impulse-velocity step of the Painlevé rod
// (Preclik et al. sec. 4.2) with its lower tip on the floor, sliding at
// v₀ = 1 with μ = 1, θ = 1.2, m = l = 1, g = 9.81: the tip keeps sliding
// and the normal impulse is the contact force times δt,
// λ_n/δt = g m/(1 + 3cosθ(cosθ − μ sinθ)) (= 25.7673), with λ_t = μλ_n.
// The rod is a thin bipyramid mesh (a single lowest vertex) given the
// inertia of a uniform rod, ml²/12 (its axial part does not enter: the
// lever arm is along the axis).
func TestPainleveRodTimeStep(t *testing.T) {
	const th, g, mu, l, v0 = 1.2, 9.81, 1.0, 1.0, 1.0
	want := g / (1 + 3*math.Cos(th)*(math.Cos(th)-mu*math.Sin(th)))
	for _, dt := range []float64{1e-3, 1e-4, 1e-5} {
		mesh, com, frame := rodMesh(t, l/2, 1e-3)
		s := &rigid3d.System{Gravity: r3.Vec{Y: -g}, Mu: mu, Integrator: rigid3d.SymplecticEuler}
		s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
		o := rigid3d.AxisAngle(r3.Vec{Z: 1}, th)
		x := r3.Vec{X: l / 2 * math.Cos(th), Y: l / 2 * math.Sin(th)}
		s.AddBody(rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: mesh}, 1, r3.Add(x, o.Rotate(com)), o.Mul(frame), r3.Vec{X: -v0}, r3.Vec{}, false)
		s.Mass[0] = 1
		s.Inertia[0] = r3.Vec{X: l * l / 12, Y: l * l / 12, Z: l * l / 12}
		st, err := sim.NewImpulseVelocityStepper(s, &friction.NBGS{Tol: 1e-14}, dt, 0.7, s.Q, s.V)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Contacts != 1 {
			t.Fatalf("δt = %v: %d contacts, want the tip only", dt, st.Last.Contacts)
		}
		ln := st.Lambda[0] / dt
		bt := math.Hypot(st.Beta[0], st.Beta[1])
		if math.Abs(ln-want) > 1e-10*want || math.Abs(bt-mu*st.Lambda[0]) > 1e-12*st.Lambda[0] {
			t.Errorf("δt = %v: λ_n/δt = %.10g, want %.10g; |β| = %.6g, μλ_n = %.6g", dt, ln, want, bt, mu*st.Lambda[0])
		}
	}
}

// TestNBGSEveryShape: spheres, boxes and a torus mesh dropped into a static
// cylinder on a floor, and two tori in a free hollow-box mesh, run with
// the NBGS law (both block laws): every step solves, no body leaves its
// container, and the system loses energy.
func TestNBGSEveryShape(t *testing.T) {
	for _, block := range []friction.BlockLaw{friction.MaxDissipationBlock, friction.CoulombBlock} {
		s := &rigid3d.System{Gravity: r3.Vec{Y: -9.81}, Mu: 0.5, Integrator: rigid3d.SymplecticEuler}
		s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
		s.Cyls = append(s.Cyls, rigid3d.Cylinder{P: r3.Vec{}, A: r3.Vec{Y: 1}, R: 0.6})
		tv, tf := rigid3d.TorusMesh(0.2, 0.06, 16, 8)
		tor, _, tq, err := rigid3d.NewMesh(tv, tf, 16, "torus")
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 6; k++ {
			a := float64(k)
			x := r3.Vec{X: 0.25 * math.Cos(a), Y: 0.15 + 0.3*float64(k), Z: 0.25 * math.Sin(a)}
			o := rigid3d.AxisAngle(r3.Unit(r3.Vec{X: 1, Y: a, Z: 0.3}), 0.4*a)
			switch k % 3 {
			case 0:
				s.AddBody(rigid3d.Shape{Kind: rigid3d.Sphere, R: 0.12}, 1, x, o, r3.Vec{X: 0.5}, r3.Vec{}, false)
			case 1:
				s.AddBody(rigid3d.Shape{Kind: rigid3d.Box, Half: r3.Vec{X: 0.1, Y: 0.08, Z: 0.12}}, 1, x, o, r3.Vec{Z: -0.5}, r3.Vec{Y: 2}, false)
			default:
				s.AddBody(rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: tor}, 1, x, o.Mul(tq), r3.Vec{}, r3.Vec{X: 1}, false)
			}
		}
		e0 := s.Energy(s.Q, s.V)
		st, err := sim.NewImpulseVelocityStepper(s, &friction.NBGS{Block: block, Tol: 1e-8, MaxIter: 200}, 2e-3, 0.3, s.Q, s.V)
		if err != nil {
			t.Fatal(err)
		}
		maxC := 0
		for k := 0; k < 400; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			maxC = max(maxC, st.Last.Contacts)
		}
		for i := 0; i < s.N(); i++ {
			x, _ := rigid3d.Pose(st.Q, i)
			if math.Hypot(x.X, x.Z) > 0.6 || x.Y < 0 {
				t.Errorf("%v: body %d (%v) left the cylinder: %v", block, i, s.Shapes[i].Kind, x)
			}
		}
		if e1 := s.Energy(st.Q, st.V); !(e1 < e0) {
			t.Errorf("%v: energy %v → %v", block, e0, e1)
		}
		t.Logf("%v: at most %d contacts, energy %.4g → %.4g", block, maxC, e0, s.Energy(st.Q, st.V))
	}
	// two tori in a free hollow box (mesh–mesh contacts), no gravity: the
	// law conserves linear momentum
	s, err := rigid3d.TwoMeshesInContainer(0, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	p0 := s.LinearMomentum(s.V)
	st, err := sim.NewImpulseVelocityStepper(s, &friction.NBGS{Tol: 1e-10, MaxIter: 2000}, 0.01, 0.5, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	contacts := 0
	for k := 0; k < 100; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		contacts += st.Last.Contacts
	}
	if p1 := s.LinearMomentum(st.V); r3.Norm(r3.Sub(p1, p0)) > 1e-10 || contacts == 0 {
		t.Errorf("tori: %d contacts, momentum %v → %v", contacts, p0, p1)
	}
}

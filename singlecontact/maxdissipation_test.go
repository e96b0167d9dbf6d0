package singlecontact

import (
	"math"
	"math/rand/v2"
	"testing"
)

func academic() *Problem { return Table1() }

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
			return
		}
	}
}

func TestTable1Problem(t *testing.T) {
	p := academic()
	near(t, "A row n", p.A[0][:], []float64{0.8619907008, 0.0672837873, 0.2141862246}, 1e-10)
	near(t, "A row t", p.A[1][:], []float64{0.0672837873, 0.7204236485, 0.0168033126}, 1e-10)
	near(t, "A row o", p.A[2][:], []float64{0.2141862246, 0.0168033126, 0.0575660139}, 1e-10)
	near(t, "b", p.B[:], []float64{0.0599370991, -0.7120527367, -0.0450314340}, 1e-10)
	c := newConic(&p.A, &p.B, p.Mu)
	if !c.ellipse() || math.Abs(c.mu*c.s-0.8306714) > 1e-7 || math.Abs(c.a0()-1.2664209) > 1e-7 {
		t.Errorf("conic: ellipse %v, μs = %.8g, α₀ = %.8g; want an ellipse, 0.8306714, 1.2664209", c.ellipse(), c.mu*c.s, c.a0())
	}
	x0, ok := p.Sticking()
	if ok {
		t.Error("P1 holds; Table 1 has no sticking solution")
	}
	near(t, "x₀", x0[:], []float64{3.5694463, -1.0005490, -13.7710616}, 1e-7)
	// Appendix A constants
	tr := mdStationarity(&p.A, &p.B, p.Mu)
	c1, p1 := math.Hypot(real(tr.k1), imag(tr.k1)), math.Atan2(imag(tr.k1), real(tr.k1))
	c2, p2 := math.Hypot(real(tr.k2), imag(tr.k2)), math.Atan2(imag(tr.k2), real(tr.k2))
	near(t, "c₀ c₁ c₂ φ₁ φ₂", []float64{tr.c0, c1, c2, p1, p2},
		[]float64{-0.7151291307, 0.9950050661, 0.2803514712, 1.7925580748, 0.4596600455}, 1e-9)
	// all four roots of eq. (8) lie on the unit circle
	var roots [4]unit
	n := tr.roots(&roots)
	want := []float64{-1.75421679, -2.39923976, -1.98481910, -1.06422976}
	if n != 4 {
		t.Fatalf("%d real roots of eq. (8), want 4", n)
	}
	for _, w := range want {
		found := false
		for _, r := range roots[:n] {
			if math.Abs(math.Atan2(r.s, r.c)-w) < 1e-7 {
				found = true
			}
		}
		if !found {
			t.Errorf("root α = %.8f of eq. (8) not found in %v", w, roots[:n])
		}
	}
}

func TestTable1MaxDissipation(t *testing.T) {
	p := academic()
	x, c := MaxDissipation(p)
	if c != Sliding {
		t.Fatalf("case %v, want sliding", c)
	}
	near(t, "x*", x[:], []float64{1.6030978, -1.0818614, -5.8319649}, 1e-6)
	v := p.Velocity(x)
	near(t, "Ax*−b", v[:], []float64{0, -0.0574796, 0.0344911}, 1e-6)
	if f := p.Objective(x); math.Abs(f-(-0.6340074)) > 1e-6 {
		t.Errorf("f(x*) = %.8f, want −0.6340074", f)
	}
	// the paper's two significant figures
	near(t, "x* (paper)", x[:], []float64{1.6, -1.1, -5.8}, 0.05)
	if f := p.Objective(x); math.Abs(f-(-0.634)) > 5e-4 {
		t.Errorf("f(x*) = %.4f, paper −0.634", f)
	}
}

func TestTable1Coulomb(t *testing.T) {
	p := academic()
	sols := Coulomb(p, nil)
	want := [][3]float64{
		{0.1199454, -0.4390163, -0.0649716},
		{0.2919728, -0.8870891, -0.6165383},
		{1.5581246, -0.9929111, -5.6789132},
	}
	wantF := []float64{-0.2517029, -0.3925678, -0.6309600}
	wantV := [][3]float64{{0, 0.4027537, 0.0596050}, {0, 0.0822579, 0.0571703}, {0, 0.0061481, 0.0351637}}
	if len(sols) != 3 {
		t.Fatalf("%d Coulomb solutions %v, want exactly 3", len(sols), sols)
	}
	xs, _ := MaxDissipation(p)
	fStar := p.Objective(xs)
	for i, w := range want {
		var got *Solution
		for k := range sols {
			if math.Abs(sols[k].X[0]-w[0]) < 1e-5 {
				got = &sols[k]
			}
		}
		if got == nil {
			t.Errorf("Coulomb solution x%d = %v not found in %v", i+1, w, sols)
			continue
		}
		if got.Mode != Slide {
			t.Errorf("x%d mode %v, want slide", i+1, got.Mode)
		}
		near(t, "Coulomb x", got.X[:], w[:], 1e-6)
		v := p.Velocity(got.X)
		near(t, "Coulomb Ax−b", v[:], wantV[i][:], 1e-6)
		if f := p.Objective(got.X); math.Abs(f-wantF[i]) > 1e-6 {
			t.Errorf("f(x%d) = %.8f, want %.7f", i+1, f, wantF[i])
		}
		// Coulomb: friction on the cone, opposing the slip
		if r := math.Hypot(got.X[1], got.X[2]) / (p.Mu * got.X[0]); math.Abs(r-1) > 1e-12 {
			t.Errorf("x%d: ‖x_to‖/(μx_n) = %v, want 1", i+1, r)
		}
		cosang := -(got.X[1]*v[1] + got.X[2]*v[2]) / (math.Hypot(got.X[1], got.X[2]) * math.Hypot(v[1], v[2]))
		if math.Abs(cosang-1) > 1e-12 {
			t.Errorf("x%d: friction is not opposite to the slip (cos = %v)", i+1, cosang)
		}
	}
	// f(x*) < f(x₃) < f(x₂) < f(x₁)
	if !(fStar < wantF[2] && wantF[2] < wantF[1] && wantF[1] < wantF[0]) {
		t.Error("ordering")
	}
	for _, s := range sols {
		if !(fStar < p.Objective(s.X)) {
			t.Errorf("MD objective %v not below Coulomb's %v", fStar, p.Objective(s.X))
		}
	}
	// x* is not a Coulomb solution: its friction is 69.54° away from
	// opposing the slip
	v := p.Velocity(xs)
	ang := math.Acos(-(xs[1]*v[1] + xs[2]*v[2]) / (math.Hypot(xs[1], xs[2]) * math.Hypot(v[1], v[2])))
	if math.Abs(ang*180/math.Pi-69.54) > 0.01 || math.Abs(math.Hypot(v[1], v[2])-0.067034) > 1e-6 {
		t.Errorf("MD friction is %.4f° from opposing slip %.7f; want 69.54°, 0.067034", ang*180/math.Pi, math.Hypot(v[1], v[2]))
	}
}

// TestEq9Regression is the checklist's case where eq. (9)'s side test picks
// the wrong ray.
func TestEq9Regression(t *testing.T) {
	p := &Problem{
		A:  [3][3]float64{{1.8252, -1.9155, -0.0672}, {-1.9155, 2.2018, 0.3685}, {-0.0672, 0.3685, 1.1515}},
		B:  [3]float64{0, -0.2182, -0.1471},
		Mu: 2,
	}
	x, c := MaxDissipation(p)
	if c != GrazingRay {
		t.Fatalf("case %v, want grazing-ray", c)
	}
	near(t, "x*", x[:], []float64{0.012649, 0.012818, -0.021810}, 1e-6)
	if f := p.Objective(x); math.Abs(f-(-2.0572e-4)) > 1e-8 {
		t.Errorf("f = %.6g, want −2.0572e−4", f)
	}
	o := oracle(p, false)
	near(t, "x* vs brute force", x[:], o[:], 1e-12)
}

// randomSPD returns a random SPD matrix with condition number up to ~10⁴.
func randomSPD(rng *rand.Rand) [3][3]float64 {
	var l [3][3]float64
	for i := range l {
		for j := range l[i] {
			l[i][j] = 2*rng.Float64() - 1
		}
	}
	var a [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				a[i][j] += l[i][k] * l[j][k]
			}
		}
		a[i][i] += 1e-3 + 0.2*rng.Float64()
	}
	return a
}

// randomProblem draws a problem of the given kind.
func randomProblem(rng *rand.Rand, kind int) *Problem {
	p := &Problem{A: randomSPD(rng)}
	p.B = [3]float64{0.05 + rng.Float64(), 2*rng.Float64() - 1, 2*rng.Float64() - 1}
	s := math.Hypot(p.A[0][1], p.A[0][2])
	switch kind {
	case 0: // any μ
		p.Mu = 3 * rng.Float64()
	case 1: // ellipse
		p.Mu = p.A[0][0] / s * rng.Float64()
	case 2: // hyperbola
		p.Mu = p.A[0][0] / s * (1 + 5*rng.Float64())
	case 3: // parabola
		p.Mu = p.A[0][0] / s
	case 4, 5, 6: // grazing, ellipse / hyperbola / parabola
		p.B[0] = 0
		p.Mu = p.A[0][0] / s * [...]float64{rng.Float64(), 1 + 5*rng.Float64(), 1}[kind-4]
	case 7: // tiny friction, small normal velocity
		p.Mu = 1e-3 * rng.Float64()
		p.B[0] = 1e-3 * rng.Float64()
	case 8: // friction over eight decades
		p.Mu = math.Pow(10, -8*rng.Float64()) * p.A[0][0] / s * 3 * rng.Float64()
	case 9: // hyperbola close to grazing (b_n from 10⁻⁵ to 10⁻³; below,
		// the quartic path and the oracle both lose the digits GrazingTol's
		// documentation quantifies)
		p.Mu = p.A[0][0] / s * (1 + 5*rng.Float64())
		p.B[0] = math.Pow(10, -3-2*rng.Float64())
	case 10: // just outside P1: x₀ a relative 10⁻⁹…10⁻³ beyond the cone
		x0 := solveSPD3(&p.A, p.B)
		if x0[0] < 0 {
			p.B[1], p.B[2] = -p.B[1], -p.B[2]
			p.B[0] = -p.B[0]
			x0 = solveSPD3(&p.A, p.B)
			p.B[0] = -p.B[0]
			x0 = solveSPD3(&p.A, p.B)
		}
		if x0[0] > 0 {
			p.Mu = math.Hypot(x0[1], x0[2]) / x0[0] * (1 - math.Pow(10, -3-6*rng.Float64()))
		} else {
			p.Mu = rng.Float64()
		}
	case 11: // ill-conditioned A (a nearly singular direction)
		v := [3]float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
		for i := range p.A {
			for j := range p.A[i] {
				p.A[i][j] = 1e-5*p.A[i][j] + v[i]*v[j]
			}
		}
		p.Mu = 3 * rng.Float64()
	}
	return p
}

// TestMaxDissipationMatchesBruteForce compares the structogram with the
// brute-force oracle on 10⁴ random SPD problems of every kind.
func TestMaxDissipationMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	count := map[Case]int{}
	kinds := [12]int{}
	var worstKind [12]float64
	worst := 0.0
	for trial := 0; trial < 10000; trial++ {
		kind := trial % 12
		p := randomProblem(rng, kind)
		x, c := MaxDissipation(p)
		count[c]++
		kinds[kind]++
		o := oracle(p, false)
		no := math.Sqrt(o[0]*o[0] + o[1]*o[1] + o[2]*o[2])
		d := math.Sqrt((x[0]-o[0])*(x[0]-o[0]) + (x[1]-o[1])*(x[1]-o[1]) + (x[2]-o[2])*(x[2]-o[2]))
		if no == 0 {
			if d != 0 {
				t.Errorf("trial %d (kind %d, %v): x = %v, brute force 0", trial, kind, c, x)
			}
			continue
		}
		if rel := d / no; rel > worst {
			worst = rel
		}
		if rel := d / no; rel > worstKind[kind] {
			worstKind[kind] = rel
		}
		if d > 1e-9*no {
			t.Errorf("trial %d (kind %d, %v): x = %.15g, brute force %.15g (rel %.2g); f %.15g vs %.15g; %+v",
				trial, kind, c, x, o, d/no, p.Objective(x), p.Objective(o), *p)
		}
		checkOutputs(t, p, x, c)
	}
	t.Logf("cases %v, worst relative difference %.2g; by kind %.1e", count, worst, worstKind)
	if count[SlidingFallback] != 0 {
		t.Errorf("%d fallbacks", count[SlidingFallback])
	}
	for _, c := range []Case{Sticking, GrazingAtRest, GrazingRay, Sliding} {
		if count[c] < 100 {
			t.Errorf("only %d %v cases", count[c], c)
		}
	}
}

// checkOutputs asserts the checklist's output conditions on x* = MD(p).
func checkOutputs(t *testing.T, p *Problem, x [3]float64, c Case) {
	t.Helper()
	v := p.Velocity(x)
	bn := p.B[0]
	an := math.Abs(p.A[0][0]) + math.Abs(p.A[0][1]) + math.Abs(p.A[0][2])
	nx := math.Abs(x[0]) + math.Abs(x[1]) + math.Abs(x[2])
	if bn > 0 && math.Abs(v[0]) > 1e-12*(an*nx+bn) {
		t.Errorf("(Ax*−b)_n = %g, want 0", v[0])
	}
	if math.Hypot(x[1], x[2]) > p.Mu*x[0]*(1+1e-12)+1e-300 {
		t.Errorf("outside the cone: ‖x_to‖ = %v, μx_n = %v", math.Hypot(x[1], x[2]), p.Mu*x[0])
	}
	f := p.Objective(x)
	switch {
	case bn > 0 && !(f <= -bn*bn/(2*p.A[0][0])*(1-1e-12)):
		t.Errorf("f(x*) = %v > −b_n²/(2A_nn) = %v", f, -bn*bn/(2*p.A[0][0]))
	case bn == 0 && f > 0:
		t.Errorf("f(x*) = %v > 0 at b_n = 0", f)
	}
	if c == Sliding {
		tr := mdStationarity(&p.A, &p.B, p.Mu)
		cn := newConic(&p.A, &p.B, p.Mu)
		g := math.Hypot(x[1], x[2])
		u := unit{x[1] / g, x[2] / g}
		if r, _ := tr.eval(u.c, u.s); math.Abs(r) > 1e-10*tr.scale() || !(cn.fr(u) > 0) {
			t.Errorf("eq. (8) residual %g (scale %g)", r, tr.scale())
		}
	}
	if c == Sticking && (math.Abs(v[0])+math.Abs(v[1])+math.Abs(v[2])) > 1e-12*(an*nx+math.Abs(bn)+1) {
		t.Errorf("sticking leaves δv⁺ = %v", v)
	}
}

func TestLaziness(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	for trial := 0; trial < 200; trial++ {
		p := randomProblem(rng, 0)
		p.B[0] = -p.B[0]
		if x, c := MaxDissipation(p); x != ([3]float64{}) || c != Separating {
			t.Fatalf("separating contact got %v (%v)", x, c)
		}
	}
}

// TestSphereProjection: with A_nt = A_no = 0, A_tt = A_oo and A_to = 0 (any
// sphere contact) the quartic collapses (k₂ = c₀ = 0) and the solution is the
// projection x_to = min(1, μb_nA_tt/(A_nn‖b_to‖))·b_to/A_tt, which is also
// the only Coulomb solution.
func TestSphereProjection(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	slid := 0
	for trial := 0; trial < 2000; trial++ {
		ann := 0.1 + rng.Float64()
		att := 0.1 + 3*rng.Float64()
		p := &Problem{A: [3][3]float64{{ann, 0, 0}, {0, att, 0}, {0, 0, att}},
			B: [3]float64{rng.Float64(), 2*rng.Float64() - 1, 2*rng.Float64() - 1}, Mu: rng.Float64()}
		x, c := MaxDissipation(p)
		xg, cg := general(&p.A, p.B, p.Mu, false)
		if c != cg {
			t.Fatalf("closed form case %v, structogram %v", c, cg)
		}
		bt := math.Hypot(p.B[1], p.B[2])
		k := math.Min(1, p.Mu*p.B[0]*att/(ann*bt))
		want := [3]float64{p.B[0] / ann, k * p.B[1] / att, k * p.B[2] / att}
		near(t, "sphere x*", x[:], want[:], 1e-14*(1+math.Abs(want[1])+math.Abs(want[2])+want[0]))
		near(t, "sphere x* by the quartic", xg[:], want[:], 1e-14*(1+math.Abs(want[1])+math.Abs(want[2])+want[0]))
		if c == Sliding {
			slid++
			if tr := mdStationarity(&p.A, &p.B, p.Mu); tr.k2 != 0 || tr.c0 != 0 {
				t.Fatalf("no collapse: %+v", tr)
			}
		}
		sols := Coulomb(p, nil)
		if len(sols) != 1 {
			t.Fatalf("%d Coulomb solutions for a sphere, want 1: %v", len(sols), sols)
		}
		near(t, "sphere Coulomb", sols[0].X[:], want[:], 1e-13*(1+math.Abs(want[1])+math.Abs(want[2])+want[0]))
	}
	if slid < 500 {
		t.Errorf("only %d sliding cases", slid)
	}
}

// TestMaxDissipationBelowCoulomb: on random problems the MD objective is
// no larger than every Coulomb solution's, and every Coulomb solution
// satisfies the model.
func TestMaxDissipationBelowCoulomb(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	multi := 0
	var buf [8]Solution
	for trial := 0; trial < 3000; trial++ {
		kind := trial % 12
		if kind == 6 {
			// grazing on a rounded parabola is a knife edge: MD follows
			// Fig. 3 exactly (A_nn > μs → 0) while Coulomb takes a conic
			// within 10⁻¹² of the parabola as the parabola, to show the
			// Painlevé continuum
			continue
		}
		p := randomProblem(rng, kind)
		x, _ := MaxDissipation(p)
		f := p.Objective(x)
		sols := Coulomb(p, buf[:0])
		if len(sols) == 0 {
			t.Fatalf("trial %d: no Coulomb solution for %+v", trial, *p)
		}
		if len(sols) > 1 {
			multi++
		}
		for _, s := range sols {
			if fs := p.Objective(s.X); f > fs+1e-12*math.Abs(fs) {
				t.Errorf("trial %d: f(x*) = %v > f(Coulomb %v) = %v", trial, f, s.Mode, fs)
			}
			checkCoulomb(t, p, s)
		}
	}
	t.Logf("%d of 3000 problems with several Coulomb solutions", multi)
}

func checkCoulomb(t *testing.T, p *Problem, s Solution) {
	t.Helper()
	x := s.X
	v := p.Velocity(x)
	scale := math.Abs(p.B[0]) + math.Hypot(p.B[1], p.B[2])
	switch s.Mode {
	case NoImpulse:
		if x != ([3]float64{}) || p.B[0] > 0 {
			t.Errorf("no-impulse solution %v with b_n = %v", x, p.B[0])
		}
	case Stick:
		if math.Abs(v[0])+math.Abs(v[1])+math.Abs(v[2]) > 1e-10*scale {
			t.Errorf("stick leaves velocity %v", v)
		}
	case Slide:
		if math.Abs(v[0]) > 1e-10*scale || x[0] <= 0 {
			t.Errorf("slide: normal velocity %v, x_n = %v", v[0], x[0])
		}
		if r := math.Hypot(x[1], x[2]) / (p.Mu * x[0]); math.Abs(r-1) > 1e-9 {
			t.Errorf("slide off the cone: ratio %v", r)
		}
		cosang := -(x[1]*v[1] + x[2]*v[2]) / (math.Hypot(x[1], x[2]) * math.Hypot(v[1], v[2]))
		if math.Abs(cosang-1) > 1e-7 {
			t.Errorf("slide: friction not opposite to slip, cos = %v (%+v, x = %v)", cosang, *p, x)
		}
	}
}

func TestMaxDissipationAllocs(t *testing.T) {
	p := academic()
	sp := &Problem{A: [3][3]float64{{1, 0, 0}, {0, 2, 0}, {0, 0, 2}}, B: [3]float64{1, 3, 1}, Mu: 0.3}
	var buf [8]Solution
	if n := testing.AllocsPerRun(100, func() {
		MaxDissipation(p)
		MaxDissipation(sp)
		Coulomb(p, buf[:0])
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

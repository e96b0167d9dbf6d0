package impact

import (
	"math"
	"math/rand"
	"testing"

	"impactsim/mech"
)

// ballsProblem builds a frictionless problem of unit-radius-0.5 2D balls
// touching where |xᵢ − xⱼ| ≤ 1 + 1e-9 (the desiderata package cannot be
// imported here: it imports impact).
func ballsProblem(x, y, vx, vy, m []float64) *mech.Problem {
	p := &mech.Problem{}
	nb := len(x)
	p.Reset(2, 2*nb)
	for i := 0; i < nb; i++ {
		p.M.AppendScalarBlock(2, m[i])
		p.MInv.AppendScalarBlock(2, 1/m[i])
		p.V[2*i], p.V[2*i+1] = vx[i], vy[i]
	}
	for i := 0; i < nb; i++ {
		for j := i + 1; j < nb; j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			d := math.Hypot(dx, dy)
			if d > 1+1e-9 {
				continue
			}
			nx, ny := dx/d, dy/d
			p.G.Append(2*i, nx)
			p.G.Append(2*i+1, ny)
			p.G.Append(2*j, -nx)
			p.G.Append(2*j+1, -ny)
			p.G.EndCol()
			p.CoR = append(p.CoR, 1)
			p.Mu = append(p.Mu, 0)
			p.Bodies = append(p.Bodies, i, j)
		}
	}
	return p
}

// odeSweep integrates the sweep's defining ODE directly: Pᵢ' = Fᵢ and
// eᵢ' = −uᵢ(P) = −(u⁰ + A P)ᵢ while contact i is in contact, with contact i
// leaving when eᵢ returns to zero. It uses RK4 with step h and locates each
// termination by bisecting the step that crosses it (RK4 is exact here
// because P is affine and e quadratic between terminations, so the events
// are found to round-off). It knows nothing of the closed-form update.
func odeSweep(A [][]float64, u0, f []float64, h float64) []float64 {
	m := len(u0)
	P := make([]float64, m)
	e := make([]float64, m)
	on := make([]bool, m)
	for i := range on {
		on[i] = f[i] > 0
	}
	deriv := func(P []float64, dP, de []float64) {
		for i := 0; i < m; i++ {
			dP[i], de[i] = 0, 0
			if !on[i] {
				continue
			}
			ui := u0[i]
			for j := 0; j < m; j++ {
				ui += A[i][j] * P[j]
			}
			dP[i] = f[i]
			de[i] = -ui
		}
	}
	rk4 := func(P, e []float64, h float64) ([]float64, []float64) {
		k := [4][2][]float64{}
		for s := range k {
			k[s] = [2][]float64{make([]float64, m), make([]float64, m)}
		}
		tp, te := make([]float64, m), make([]float64, m)
		deriv(P, k[0][0], k[0][1])
		for s, c := range []float64{0.5, 0.5, 1} {
			for i := range P {
				tp[i] = P[i] + c*h*k[s][0][i]
				te[i] = e[i] + c*h*k[s][1][i]
			}
			deriv(tp, k[s+1][0], k[s+1][1])
		}
		nP, ne := make([]float64, m), make([]float64, m)
		for i := range P {
			nP[i] = P[i] + h/6*(k[0][0][i]+2*k[1][0][i]+2*k[2][0][i]+k[3][0][i])
			ne[i] = e[i] + h/6*(k[0][1][i]+2*k[1][1][i]+2*k[2][1][i]+k[3][1][i])
		}
		return nP, ne
	}
	// crossed reports the first contact whose energy went negative.
	crossed := func(ne []float64) int {
		for i := range ne {
			if on[i] && ne[i] < 0 {
				return i
			}
		}
		return -1
	}
	for any := true; any; {
		nP, ne := rk4(P, e, h)
		if crossed(ne) < 0 {
			P, e = nP, ne
		} else {
			lo, hi := 0.0, h
			for it := 0; it < 200 && hi-lo > 1e-15*h; it++ {
				mid := 0.5 * (lo + hi)
				_, me := rk4(P, e, mid)
				if crossed(me) < 0 {
					lo = mid
				} else {
					hi = mid
				}
			}
			nP, ne = rk4(P, e, hi)
			k := crossed(ne)
			P, e = nP, ne
			on[k] = false
			e[k] = 0
		}
		any = false
		for _, o := range on {
			any = any || o
		}
	}
	return P
}

func TestQCESweepMatchesODE(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	type cs struct{ x, y, vx, vy, m []float64 }
	var cases []cs
	// Three-ball chains and a five-ball chain with random velocities and masses.
	for n := 3; n <= 5; n++ {
		for r := 0; r < 4; r++ {
			c := cs{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)}
			for i := 0; i < n; i++ {
				c.x[i] = float64(i)
				c.vx[i] = rng.Float64()*2 - 1
				c.m[i] = 0.5 + rng.Float64()
			}
			cases = append(cases, c)
		}
	}
	// A 2D hexagonal cluster with random velocities.
	hx := []float64{0, 1, 0.5, -0.5, -1, -0.5, 0.5}
	hy := []float64{0, 0, math.Sqrt(0.75), math.Sqrt(0.75), 0, -math.Sqrt(0.75), -math.Sqrt(0.75)}
	for r := 0; r < 3; r++ {
		c := cs{hx, hy, make([]float64, 7), make([]float64, 7), make([]float64, 7)}
		for i := range c.vx {
			c.vx[i], c.vy[i], c.m[i] = rng.NormFloat64(), rng.NormFloat64(), 0.5+rng.Float64()
		}
		cases = append(cases, c)
	}
	for ci, c := range cases {
		p := ballsProblem(c.x, c.y, c.vx, c.vy, c.m)
		m := p.NContacts()
		q := NewQCE(0, 0)
		q.del.Assemble(&p.G, &p.MInv)
		u := make([]float64, m)
		p.NormalVelocities(u, p.V)
		if err := q.solveSweep(u, DefaultVTol); err != nil {
			t.Fatalf("case %d: %v", ci, err)
		}
		A := make([][]float64, m)
		for i := range A {
			A[i] = make([]float64, m)
			for j := range A[i] {
				A[i][j] = q.del.At(i, j)
			}
		}
		ode := odeSweep(A, u, q.f, 0.01)
		scale := 0.0
		for _, x := range ode {
			scale = math.Max(scale, math.Abs(x))
		}
		worstD := 0.0
		for i := range ode {
			d := math.Abs(q.p[i] - ode[i])
			worstD = math.Max(worstD, d)
			if d > 1e-10*scale {
				t.Errorf("case %d contact %d: closed form P = %.15g, ODE P = %.15g (|Δ| = %.3g)", ci, i, q.p[i], ode[i], d)
			}
		}
		t.Logf("case %d: %d contacts, max |P| = %.3g, max |P_closed − P_ODE| = %.2g", ci, m, scale, worstD)
	}
}

func TestQCERoot(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct{ e0, d, alpha, want float64 }{
		{0, 2, -1, 2},        // fresh contact: e = 2t − t², leaves at 2
		{0, -1, -1, 0},       // already separating: leaves at once
		{1, 0, -1, 1},        // concave from a positive energy
		{3, -4, 1, 1},        // convex, decreasing: first root 1 (then 3)
		{1, -1, 1, inf},      // convex with a positive minimum
		{1, 1, 1, inf},       // convex, increasing
		{2, -1, 0, 2},        // linear decrease
		{2, 1, 0, inf},       // linear increase
		{0, 0, 0, 0},         // nothing pushes: zero energy stays zero
		{-1e-17, 1, -0.5, 2}, // round-off below zero is treated as zero
		{1e-300, 1e-150, -1, 1e-150 * (1 + math.Sqrt(5)) / 2}, // tiny numbers stay accurate
	}
	for _, c := range cases {
		got := qceRoot(c.e0, c.d, c.alpha)
		if !(got == c.want || math.Abs(got-c.want) <= 1e-14*math.Abs(c.want)) {
			t.Errorf("qceRoot(%v, %v, %v) = %v, want %v", c.e0, c.d, c.alpha, got, c.want)
		}
	}
}

// TestQCEDoesNotAllocate: once its workspaces have grown, QCE allocates
// nothing on an island of more than 256 contacts (its heap's pops used to
// box contact indices above 255).
func TestQCEDoesNotAllocate(t *testing.T) {
	p := hexPatch(10)
	if p.NContacts() <= 256 {
		t.Fatalf("%d contacts, want more than 256", p.NContacts())
	}
	o := NewQCE(0, 0)
	lambda := make([]float64, p.NContacts())
	if _, err := o.Resolve(p, lambda); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, func() { o.Resolve(p, lambda) }); a != 0 {
		t.Errorf("%v allocations per Resolve on %d contacts, want 0", a, p.NContacts())
	}
}

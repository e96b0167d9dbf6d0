package singlecontact

import (
	"math"
	"testing"
)

// rod is the Painlevé rod's problem built from eq. (2) with the rod's
// inertia (axial inverse 0), A = E/m − r× I⁻¹ r×, independently of
// PainleveRod's closed form.
func rod(m, theta, v0, bn, mu float64) *Problem {
	c, s := math.Cos(theta), math.Sin(theta)
	l := 1.0 // A does not depend on l
	r := [3]float64{-l / 2 * c, -l / 2 * s, 0}
	iinv := 12 / (m * l * l)
	// world A_ij = δ_ij/m − (r× I⁻¹ r×)_ij with I⁻¹ = iinv (E − eeᵀ), e the
	// rod's axis; r ∥ e so (r×)ᵀ I⁻¹ (r×) = iinv (r×)ᵀ(r×) = iinv(|r|²E − rrᵀ)
	rr := r[0]*r[0] + r[1]*r[1] + r[2]*r[2]
	var aw [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			d := 0.0
			if i == j {
				d = 1
			}
			aw[i][j] = d/m + iinv*(d*rr-r[i]*r[j])
		}
	}
	perm := [3]int{1, 0, 2} // (n, t, o) = (y, x, z)
	p := &Problem{Mu: mu}
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			p.A[a][b] = aw[perm[a]][perm[b]]
		}
	}
	p.B = [3]float64{bn, v0, 0}
	return p
}

func muStar(theta float64) float64 { return PainleveMuStar(theta) }

func lambda0(m, theta, v0 float64) [3]float64 { return PainleveLambda0(m, theta, v0) }

func TestPainleveDelassus(t *testing.T) {
	m, th := 2.0, 1.2
	p := rod(m, th, 1, 0, 1)
	q := PainleveRod(m, th, 1, 0, 1)
	for a := 0; a < 3; a++ {
		near(t, "PainleveRod A", q.A[a][:], p.A[a][:], 1e-15)
	}
	c, s := math.Cos(th), math.Sin(th)
	// A in world (x, y) order is m⁻¹[[1+3sin²θ, −3 sinθ cosθ], [·, 1+3cos²θ]]; A_zz = 4/m
	near(t, "A", []float64{p.A[1][1], p.A[0][1], p.A[0][0], p.A[2][2], p.A[0][2], p.A[1][2]},
		[]float64{(1 + 3*s*s) / m, -3 * s * c / m, (1 + 3*c*c) / m, 4 / m, 0, 0}, 1e-15)
	for _, tc := range []struct{ th, want float64 }{{0.4, 3.294561}, {1.2, 1.375757}, {1.3, 1.570855}} {
		if got := muStar(tc.th); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("μ*(%v) = %.7f, want %v", tc.th, got, tc.want)
		}
		// μ* is where the plane of maximum compression touches the cone:
		// A_nn = μ*‖(A_nt, A_no)‖ (the parabola)
		q := rod(1, tc.th, 1, 0, 1)
		if r := q.A[0][0] / math.Hypot(q.A[0][1], q.A[0][2]); math.Abs(r-muStar(tc.th)) > 1e-12*r {
			t.Errorf("θ = %v: A_nn/‖A_n,to‖ = %.15g, μ* = %.15g", tc.th, r, muStar(tc.th))
		}
	}
	// minimum μ* = 4/3 at θ = ½ acos(−3/5): golden-section search
	lo, hi := 0.1, 1.5
	g := (math.Sqrt(5) - 1) / 2
	for hi-lo > 1e-12 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if muStar(a) < muStar(b) {
			hi = b
		} else {
			lo = a
		}
	}
	th0 := 0.5 * math.Acos(-3.0/5)
	if math.Abs(0.5*(lo+hi)-th0) > 1e-6 || math.Abs(muStar(th0)-4.0/3) > 1e-15 || math.Abs(muStar(0.5*(lo+hi))-4.0/3) > 1e-12 {
		t.Errorf("min μ* = %.15g at θ = %.10f; want 4/3 at %.10f", muStar(0.5*(lo+hi)), 0.5*(lo+hi), th0)
	}
	if math.Abs(th0-math.Atan(2)) > 1e-15 {
		t.Errorf("½acos(−3/5) = %v ≠ atan 2", th0)
	}
	// Λ₀ example: m = 2, v₀ = 1.5, θ = 1.2 → (x, y) = (1.045432, 0.759896)
	l0 := lambda0(2, 1.2, 1.5)
	near(t, "Λ₀", []float64{l0[1], l0[0], l0[2]}, []float64{1.045432, 0.759896, 0}, 1e-6)
	// ‖Λ₀,to‖ = μ*(θ) Λ₀,n
	if r := l0[1] / l0[0]; math.Abs(r-muStar(1.2)) > 1e-14 {
		t.Errorf("‖Λ₀,to‖/Λ₀,n = %v, μ* = %v", r, muStar(1.2))
	}
}

// TestPainleveImpact: the grazing impact (b = (0, v₀, 0)) gives zero
// impulse below μ*(θ) and the sticking impulse Λ₀ (zero post-impulse
// velocity) at and above it, with margins of 10⁻⁹ around μ*.
func TestPainleveImpact(t *testing.T) {
	m, v0 := 2.0, 1.5
	for _, th := range []float64{0.4, 1.2, 1.3} {
		ms := muStar(th)
		l0 := lambda0(m, th, v0)
		for _, k := range []float64{0.5, 0.999, 1 - 1e-9} {
			p := rod(m, th, v0, 0, k*ms)
			if x, c := MaxDissipation(p); x != ([3]float64{}) || c != GrazingAtRest {
				t.Errorf("θ = %v, μ = %v μ*: x* = %v (%v), want 0 (grazing-at-rest)", th, k, x, c)
			}
			if s := Coulomb(p, nil); len(s) != 1 || s[0].Mode != NoImpulse {
				t.Errorf("θ = %v, μ = %v μ*: Coulomb solutions %v, want only 0", th, k, s)
			}
		}
		for _, k := range []float64{1 + 1e-9, 2} {
			p := rod(m, th, v0, 0, k*ms)
			x, c := MaxDissipation(p)
			if c != Sticking {
				t.Errorf("θ = %v, μ = %v μ*: case %v, want sticking", th, k, c)
			}
			near(t, "x* = Λ₀", x[:], l0[:], 1e-13)
			v := p.Velocity(x)
			near(t, "δv⁺", v[:], []float64{0, 0, 0}, 1e-14)
			// Coulomb: 0 and Λ₀
			s := Coulomb(p, nil)
			var zero, stick int
			for _, sol := range s {
				switch sol.Mode {
				case NoImpulse:
					zero++
				case Stick:
					stick++
					near(t, "Coulomb Λ₀", sol.X[:], l0[:], 1e-13)
				default:
					t.Errorf("θ = %v, μ = %v μ*: extra Coulomb solution %v", th, k, sol)
				}
			}
			if zero != 1 || stick != 1 {
				t.Errorf("θ = %v, μ = %v μ*: Coulomb solutions %v, want 0 and Λ₀", th, k, s)
			}
		}
		// μ = μ*: Coulomb has the continuum sΛ₀, s ∈ [0, 1]; MD one answer
		p := rod(m, th, v0, 0, ms)
		s := Coulomb(p, nil)
		seg := false
		for _, sol := range s {
			if sol.Mode == Segment {
				seg = true
				near(t, "segment end", sol.X[:], l0[:], 1e-12)
			}
		}
		if !seg {
			t.Errorf("θ = %v, μ = μ*: Coulomb solutions %v, want the segment [0, Λ₀]", th, s)
		}
		x, c := MaxDissipation(p)
		if !(x == [3]float64{} || math.Abs(x[0]-l0[0]) < 1e-12) {
			t.Errorf("θ = %v, μ = μ*: MD gives %v (%v), want 0 or Λ₀", th, x, c)
		}
	}
}

// TestPainleveTimeStep: a time step of the rod with gravity, b = (g δt,
// v₀, 0), m = l = 1, θ = 1.2. At μ = 1 the contact slides and x*_n/δt is
// the contact force g m/(1+3cosθ(cosθ−μ sinθ)) (= 25.7673), with x*_t =
// x*_n; at μ = 2 it sticks and x* → Λ₀.
func TestPainleveTimeStep(t *testing.T) {
	const g, th = 9.81, 1.2
	want := g / (1 + 3*math.Cos(th)*(math.Cos(th)-math.Sin(th)))
	if math.Abs(want-25.7673) > 1e-4 {
		t.Fatalf("formula gives %v", want)
	}
	for _, dt := range []float64{1e-2, 1e-3, 1e-4, 1e-5} {
		p := rod(1, th, 1, g*dt, 1)
		x, c := MaxDissipation(p)
		if c != Sliding {
			t.Errorf("δt = %v: case %v, want sliding", dt, c)
		}
		if math.Abs(x[0]/dt-want) > 1e-10*want || math.Abs(x[1]-x[0]) > 1e-14 || math.Abs(x[2]) > 1e-15 {
			t.Errorf("δt = %v: x* = %v, x_n/δt = %.10g, want %.10g and x_t = x_n", dt, x, x[0]/dt, want)
		}
	}
	l0 := lambda0(1, th, 1)
	near(t, "Λ₀", l0[:2], []float64{0.253299, 0.348477}, 1e-6)
	x, c := MaxDissipation(rod(1, th, 1, g*1e-5, 2))
	if c != Sticking {
		t.Errorf("μ = 2: case %v, want sticking", c)
	}
	near(t, "x* at δt = 10⁻⁵", x[:2], []float64{0.253387, 0.348502}, 1e-6)
}

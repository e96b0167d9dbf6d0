package ball2d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/desiderata"
	"impactsim/friction"
	"impactsim/impact"
	"impactsim/motion"
	"impactsim/sim"
)

// stepper returns an Alg. 4 stepper for s with the named operator.
func stepper(t *testing.T, s *System, op string) *sim.Stepper {
	t.Helper()
	o, err := impact.New(impact.Config{Name: op})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: o}, s.Dt, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// drivePlane makes plane i follow m from its pose ref, placed where it is
// at the end of every step with its velocity there.
func drivePlane(st *sim.Stepper, s *System, i int, m motion.Motion) {
	ref := s.Planes[i]
	st.AddHook(sim.Hook{Name: "plane", Begin: func(st *sim.Stepper) error {
		ms := m.At(st.T + st.H)
		s.Planes[i] = ref.Moved(&ms)
		return nil
	}})
}

// TestFloorTakeOff: a ball resting on a floor that oscillates vertically,
// y_f = A sin(2πf t), never leaves it when Γ = A(2πf)²/g < 1; with Γ > 1 it
// leaves when the floor's acceleration first reaches −g, at the phase
// arcsin(1/Γ). While it rests (c = 0) every step's impulse is
// m(w_f(t⁺) − w_f(t) + g h), the floor's acceleration at mid-step plus g;
// the take-off time is where its three-point extrapolation vanishes, and
// its phase agrees with the analytic one to 1e-6.
func TestFloorTakeOff(t *testing.T) {
	const g, f, h = 9.81, 5.0, 1e-4
	for _, gamma := range []float64{0.8, 2} {
		s := &System{Dt: h, Gravity: [2]float64{0, -g}, CoR: 0}
		s.Planes = []Plane{NewPlane([2]float64{0, 0}, [2]float64{0, 1})}
		s.AddBall(0, 0.5, 0, 0, 1, 0.5, false)
		st := stepper(t, s, "lcp")
		a := motion.AmplitudeFromGamma(gamma, f, g)
		drivePlane(st, s, 0, motion.Motion{Terms: []motion.Term{{Kind: motion.Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: a, Frequency: f}}})
		var force []float64 // λ/(m h) per step
		off := -1
		for n := 0; n < int(2/f/h); n++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			l := 0.0
			if st.Last.Contacts > 0 {
				l = st.Lambda[0]
			}
			if l <= 0 {
				off = n
				break
			}
			force = append(force, l/h)
		}
		if gamma < 1 {
			if off >= 0 {
				t.Errorf("Γ = %g: the ball left the floor at step %d", gamma, off)
			}
			continue
		}
		if off < 3 {
			t.Fatalf("Γ = %g: no take-off (%d)", gamma, off)
		}
		// Step n (from nh to (n+1)h) sets the ball to the floor's velocity
		// at (n+1)h from w_f(nh) − g h: its impulse samples the force at
		// t = (n + ½)h.
		y0, y1, y2 := force[off-3], force[off-2], force[off-1]
		// Quadratic through (−2, y0), (−1, y1), (0, y2), root ahead.
		c2 := (y0 - 2*y1 + y2) / 2
		c1 := (3*y2 - 4*y1 + y0) / 2
		x := -y2 / c1
		for k := 0; k < 20; k++ {
			x -= (c2*x*x + c1*x + y2) / (2*c2*x + c1)
		}
		tOff := (float64(off-1) + 0.5 + x) * h
		phase := 2 * math.Pi * f * tOff
		want := math.Asin(1 / gamma)
		t.Logf("Γ = %g: take-off at t = %.9f s, phase %.10f, arcsin(1/Γ) = %.10f (error %.2g)", gamma, tOff, phase, want, phase-want)
		if math.Abs(phase-want) > 1e-6 {
			t.Errorf("Γ = %g: take-off phase %.9f, want %.9f", gamma, phase, want)
		}
	}
}

// TestMovingPlaneRebound: a ball meets a plane moving at constant velocity
// w (no gravity): after the impact the normal relative velocity is
// reversed and scaled by c and the tangential one is unchanged, exactly,
// for every operator (qce is elastic: c = 1).
func TestMovingPlaneRebound(t *testing.T) {
	w := [2]float64{0.5, 0.4}
	n := [2]float64{0.6, 0.8}
	for _, op := range impact.Names() {
		for _, c := range []float64{1, 0.5, 0} {
			if op == "qce" && c != 1 {
				continue
			}
			s := &System{Dt: 1e-3, CoR: c}
			s.Planes = []Plane{NewPlane([2]float64{0, 0}, n)}
			s.AddBall(0.6*0.5+0.0006, 0.8*0.5+0.0008, 0.3, -1, 2, 0.5, false)
			st := stepper(t, s, op)
			drivePlane(st, s, 0, motion.Motion{Terms: []motion.Term{{Kind: motion.Linear, Velocity: r3.Vec{X: w[0], Y: w[1]}}}})
			un := func(v []float64) float64 { return n[0]*(v[0]-w[0]) + n[1]*(v[1]-w[1]) }
			ut := func(v []float64) float64 { return -n[1]*(v[0]-w[0]) + n[0]*(v[1]-w[1]) }
			u0, t0 := un(st.V), ut(st.V)
			hit := false
			for k := 0; k < 100 && !hit; k++ {
				if err := st.Step(); err != nil {
					t.Fatal(err)
				}
				hit = st.Last.Contacts > 0 && st.Lambda[0] > 0
			}
			if !hit {
				t.Fatalf("%s: no impact", op)
			}
			if got := un(st.V); math.Abs(got+c*u0) > 1e-14 {
				t.Errorf("%s c = %g: normal relative velocity %.17g, want %.17g", op, c, got, -c*u0)
			}
			if got := ut(st.V); math.Abs(got-t0) > 1e-14 {
				t.Errorf("%s c = %g: tangential relative velocity %.17g, want %.17g", op, c, got, t0)
			}
		}
	}
}

// boxScene is n balls on a lattice in the box |x|, |y| ≤ 3 with random
// velocities, gravity, restitution c and friction mu.
func boxScene(n int, c, mu float64, seed uint64) *System {
	s := &System{Dt: 1e-3, CoR: c, Mu: mu, Gravity: [2]float64{0, -9.81}}
	s.Planes = []Plane{
		NewPlane([2]float64{0, -3}, [2]float64{0, 1}), NewPlane([2]float64{0, 3}, [2]float64{0, -1}),
		NewPlane([2]float64{-3, 0}, [2]float64{1, 0}), NewPlane([2]float64{3, 0}, [2]float64{-1, 0}),
	}
	x := seed
	rnd := func() float64 { // xorshift, deterministic
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x>>11)/(1<<53)*2 - 1
	}
	for k := 0; k < n; k++ {
		s.AddBall(-2.4+float64(k%5)*1.2, -2.4+float64(k/5)*1.2, 3*rnd(), 3*rnd(), 1+0.5*rnd(), 0.45, false)
	}
	return s
}

// withFriction returns an Alg. 4 stepper for s with gr and, when μ > 0,
// Alg. 3 friction.
func withFriction(t *testing.T, s *System) *sim.Stepper {
	st := stepper(t, s, "gr")
	if s.Mu > 0 {
		fr, err := friction.NewMaxDissipation("auto")
		if err != nil {
			t.Fatal(err)
		}
		st.Law.(*sim.Staggered).Friction = fr
	}
	return st
}

// TestGalileanScene: a box of colliding balls, and the same scene moving
// at constant velocity W (balls boosted, the four walls driven at W), have
// the same relative motion: positions minus W t and velocities minus W
// agree to 1e-12 over 400 steps with collisions, under gravity without
// friction and with friction (Alg. 3) without gravity. (Alg. 3 takes its
// direction from the sliding velocity w/|w|, undefined at rest: a ball
// that gravity brings to rest on the floor has w = 0 exactly in one frame
// and w of the order of rounding in the other, so gravity and friction
// together are not a test of the frame.)
func TestGalileanScene(t *testing.T) {
	W := [2]float64{1.7, -0.9}
	for _, cfg := range []struct{ mu, g float64 }{{0, -9.81}, {0.3, 0}} {
		a, b := boxScene(20, 0.7, cfg.mu, 99), boxScene(20, 0.7, cfg.mu, 99)
		a.Gravity[1], b.Gravity[1] = cfg.g, cfg.g
		for i := range b.M {
			b.V[2*i] += W[0]
			b.V[2*i+1] += W[1]
		}
		sa, sb := withFriction(t, a), withFriction(t, b)
		for i := range b.Planes {
			drivePlane(sb, b, i, motion.Motion{Terms: []motion.Term{{Kind: motion.Linear, Velocity: r3.Vec{X: W[0], Y: W[1]}}}})
		}
		contacts := 0
		var worst float64
		for k := 0; k < 400; k++ {
			if err := sa.Step(); err != nil {
				t.Fatal(err)
			}
			if err := sb.Step(); err != nil {
				t.Fatal(err)
			}
			if sa.Last.Contacts != sb.Last.Contacts {
				t.Fatalf("μ = %g: step %d: %d contacts at rest, %d moving", cfg.mu, k+1, sa.Last.Contacts, sb.Last.Contacts)
			}
			contacts += sa.Last.Contacts
			for i := range sa.Q {
				d := i % 2
				worst = math.Max(worst, math.Abs(sb.Q[i]-W[d]*sb.T-sa.Q[i]))
				worst = math.Max(worst, math.Abs(sb.V[i]-W[d]-sa.V[i]))
			}
		}
		t.Logf("μ = %g, g = %g: %d contacts in 400 steps; largest difference of the relative motion %.3g", cfg.mu, cfg.g, contacts, worst)
		if contacts < 20 || worst > 1e-12 {
			t.Errorf("μ = %g, g = %g: %d contacts, relative motion differs by %.3g", cfg.mu, cfg.g, contacts, worst)
		}
	}
}

// TestDrivenEnergyBalance: balls in a box whose floor oscillates (Γ = 3):
// with gr at c = 1 every step's change of kinetic + potential energy is
// the work of the floor (StepStats.WallWork) to 1e-9 of the energy scale;
// at c = 0.6 with friction the difference is the energy the contacts
// dissipate, computed from the impulses and the relative velocities
// (−Σλᵢūᵢ − Σβₖw̄ₖ ≥ 0), to the same tolerance.
func TestDrivenEnergyBalance(t *testing.T) {
	for _, c := range []float64{1, 0.6} {
		mu := 0.0
		if c < 1 {
			mu = 0.4
		}
		s := boxScene(10, c, mu, 7)
		st := withFriction(t, s)
		f := 10.0
		drivePlane(st, s, 0, motion.Motion{Terms: []motion.Term{{Kind: motion.Oscillation, Axis: r3.Vec{Y: 1},
			Amplitude: motion.AmplitudeFromGamma(3, f, 9.81), Frequency: f}}})
		e0 := s.Energy(st.Q, st.V)
		var work, diss, worst, scale float64
		for k := 0; k < 3000; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			work += st.Last.WallWork
			if st.Last.Contacts > 0 {
				d := desiderata.Dissipation(&st.Problem, st.Lambda, st.Beta)
				if d < -1e-12 {
					t.Errorf("c = %g step %d: the contacts created energy %g", c, k+1, -d)
				}
				diss += d
			}
			e := s.Energy(st.Q, st.V)
			scale = math.Max(scale, math.Abs(e)+math.Abs(work))
			worst = math.Max(worst, math.Abs(e-e0-(work-diss)))
		}
		t.Logf("c = %g: floor work %.6g, dissipated %.6g, largest |ΔE − (W − D)| %.3g of %.3g", c, work, diss, worst, scale)
		if math.Abs(work) < 1 || worst > 1e-9*scale || (c == 1 && diss > 1e-9*scale) {
			t.Errorf("c = %g: work %g, dissipated %g, balance off by %.3g", c, work, diss, worst)
		}
	}
}

package rigid3d

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

func movingStepper(t *testing.T, s *System, h float64, op string) *sim.Stepper {
	t.Helper()
	o, err := impact.New(impact.Config{Name: op})
	if err != nil {
		t.Fatal(err)
	}
	law := &sim.Staggered{Impact: o}
	if s.Mu > 0 {
		if law.Friction, err = friction.NewMaxDissipation("auto"); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sim.NewStepper(s, law, h, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestGalilean3D: spheres and a box falling into a box of planes, and the
// same scene moving at constant velocity W (bodies boosted, planes driven
// at W), have the same relative motion: the difference is rounding, which
// the impacts of the tumbling box amplify (measured 1e-14 before the
// first contact, 1.8e-12 after 14 contacts at step 700, 7e-11 after 919
// at step 1500); the test holds it to 1e-10 over 1500 steps.
func TestGalilean3D(t *testing.T) {
	W := r3.Vec{X: 0.8, Y: -0.3, Z: 1.1}
	build := func(boost bool) *System {
		s := &System{Gravity: r3.Vec{Y: -9.81}, CoR: 0.5}
		s.Planes = []Plane{NewPlane(r3.Vec{}, r3.Vec{Y: 1}), NewPlane(r3.Vec{X: -2}, r3.Vec{X: 1}), NewPlane(r3.Vec{X: 2}, r3.Vec{X: -1}),
			NewPlane(r3.Vec{Z: -2}, r3.Vec{Z: 1}), NewPlane(r3.Vec{Z: 2}, r3.Vec{Z: -1})}
		var b r3.Vec
		if boost {
			b = W
		}
		s.AddBody(Shape{Kind: Sphere, R: 0.4}, 1, r3.Vec{X: -0.5, Y: 1}, Identity, r3.Add(b, r3.Vec{X: 1, Z: 0.3}), r3.Vec{}, false)
		s.AddBody(Shape{Kind: Sphere, R: 0.3}, 2, r3.Vec{X: 0.6, Y: 1.3, Z: 0.2}, Identity, r3.Add(b, r3.Vec{X: -1.2, Y: 0.5}), r3.Vec{X: 1}, false)
		s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.3, Y: 0.2, Z: 0.25}}, 1, r3.Vec{Y: 2, Z: -0.5}, FromRotationVector(r3.Vec{X: 0.3, Y: 0.2}), r3.Add(b, r3.Vec{Z: 0.7}), r3.Vec{Y: 2}, false)
		return s
	}
	a, b := build(false), build(true)
	const h = 1e-3
	sa, sb := movingStepper(t, a, h, "gr"), movingStepper(t, b, h, "gr")
	for i := range b.Planes {
		ref := b.Planes[i]
		m := motion.Motion{Terms: []motion.Term{{Kind: motion.Linear, Velocity: W}}}
		sb.AddHook(sim.Hook{Name: "walls", Begin: func(st *sim.Stepper) error {
			ms := m.At(st.T + st.H)
			b.Planes[i] = ref.Moved(&ms)
			return nil
		}})
	}
	contacts := 0
	var worst float64
	for k := 0; k < 1500; k++ {
		if err := sa.Step(); err != nil {
			t.Fatal(err)
		}
		if err := sb.Step(); err != nil {
			t.Fatal(err)
		}
		contacts += sa.Last.Contacts
		for i := 0; i < a.N(); i++ {
			xa, oa := Pose(sa.Q, i)
			xb, ob := Pose(sb.Q, i)
			ua, wa := Vel(sa.V, i)
			ub, wb := Vel(sb.V, i)
			d := []float64{r3.Norm(r3.Sub(r3.Sub(xb, r3.Scale(sb.T, W)), xa)), r3.Norm(r3.Sub(r3.Sub(ub, W), ua)), r3.Norm(r3.Sub(wb, wa)),
				math.Abs(ob.W - oa.W), math.Abs(ob.X - oa.X), math.Abs(ob.Y - oa.Y), math.Abs(ob.Z - oa.Z)}
			for _, x := range d {
				worst = math.Max(worst, x)
			}
		}
	}
	t.Logf("%d contacts in 1500 steps; relative motion differs by %.3g", contacts, worst)
	if contacts < 100 || worst > 1e-10 {
		t.Errorf("%d contacts; relative motion differs by %.3g", contacts, worst)
	}
}

// TestSpinningDrum3D: a sphere resting in a cylinder that spins about its
// own axis (SCISim's sphere_in_cylinder) is dragged along: with μ large
// the friction impulse of a step makes the sphere's contact point move
// with the wall (relative tangential velocity 1e-12), and a kinematic
// fixed box rising at constant speed under a sphere (a piston) throws it
// with the relative normal velocity reversed and scaled by c, as does a
// plane moving at constant velocity, with every operator.
func TestSpinningDrum3D(t *testing.T) {
	s := &System{Gravity: r3.Vec{Y: -9.81}, CoR: 0, Mu: 100}
	s.Cyls = []Cylinder{{P: r3.Vec{}, A: r3.Vec{Z: 1}, R: 2, W: r3.Vec{Z: 3}}}
	s.AddBody(Shape{Kind: Sphere, R: 0.3}, 1, r3.Vec{Y: -1.7}, Identity, r3.Vec{}, r3.Vec{}, false)
	st := movingStepper(t, s, 1e-3, "lcp")
	for k := 0; k < 5; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if st.Last.Contacts != 1 {
		t.Fatalf("%d contacts", st.Last.Contacts)
	}
	// v⁺ of the last step: the problem's velocity plus the impulses.
	p := &st.Problem
	vp := make([]float64, 6)
	p.ApplyImpulses(vp, p.V, st.Lambda, st.Beta[:p.D.NCols()], make([]float64, 6))
	c := s.Contacts()[0]
	u, w := Vel(vp, 0)
	body := pointVelocity(u, w, r3.Scale(-0.3, c.N)) // lever arm: the radius
	wall := pointVelocity(r3.Vec{}, r3.Vec{Z: 3}, r3.Scale(-2, c.N))
	rel := r3.Sub(body, wall)
	tang := r3.Sub(rel, r3.Scale(r3.Dot(rel, c.N), c.N))
	if r3.Norm(tang) > 1e-12 || math.Abs(r3.Norm(wall)-6) > 1e-12 {
		t.Errorf("sphere's contact point %v, wall %v: tangential slip %v", body, wall, tang)
	}

	// The piston: a fixed box moving up at 2 under a sphere falling at 1,
	// with every operator (qce is elastic).
	for _, op := range impact.Names() {
		for _, c := range []float64{1, 0.4} {
			if op == "qce" && c != 1 {
				continue
			}
			piston(t, op, c)
			planeRebound(t, op, c)
		}
	}
}

// planeRebound: a sphere meets a tilted plane moving at constant velocity
// w (no gravity, no friction): after the impact the normal relative
// velocity is reversed and scaled by c and the tangential one unchanged,
// to 1e-12, with operator op.
func planeRebound(t *testing.T, op string, c float64) {
	n := r3.Unit(r3.Vec{X: 0.3, Y: 1, Z: -0.2})
	w := r3.Vec{X: 0.4, Y: 0.7, Z: -0.3}
	s := &System{CoR: c}
	s.Planes = []Plane{NewPlane(r3.Vec{}, n)}
	s.AddBody(Shape{Kind: Sphere, R: 0.5}, 2, r3.Scale(0.501, n), Identity, r3.Vec{X: 0.2, Y: -1, Z: 0.1}, r3.Vec{}, false)
	st := movingStepper(t, s, 1e-3, op)
	ref := s.Planes[0]
	m := motion.Motion{Terms: []motion.Term{{Kind: motion.Linear, Velocity: w}}}
	st.AddHook(sim.Hook{Name: "plane", Begin: func(st *sim.Stepper) error {
		ms := m.At(st.T + st.H)
		s.Planes[0] = ref.Moved(&ms)
		return nil
	}})
	rel := func() r3.Vec { u, _ := Vel(st.V, 0); return r3.Sub(u, w) }
	u0 := rel()
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
	u1 := rel()
	tan := func(u r3.Vec) r3.Vec { return r3.Sub(u, r3.Scale(r3.Dot(u, n), n)) }
	if got, want := r3.Dot(u1, n), -c*r3.Dot(u0, n); math.Abs(got-want) > 1e-12 || r3.Norm(r3.Sub(tan(u1), tan(u0))) > 1e-12 {
		t.Errorf("%s c = %g: relative velocity %v after, %v before: normal %.15g, want %.15g", op, c, u1, u0, got, want)
	}
}

// piston throws a sphere falling at 1 with a fixed box rising at 2 under
// it (a hook sets its place and velocity), with operator op and
// restitution c: it leaves at −c times the relative speed (1e-12).
func piston(t *testing.T, op string, c float64) {
	s := &System{CoR: c}
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 1, Y: 0.5, Z: 1}}, 1, r3.Vec{Y: -0.5}, Identity, r3.Vec{}, r3.Vec{}, true)
	s.AddBody(Shape{Kind: Sphere, R: 0.5}, 1, r3.Vec{Y: 0.51}, Identity, r3.Vec{Y: -1}, r3.Vec{}, false)
	st := movingStepper(t, s, 1e-3, op)
	st.AddHook(sim.Hook{Name: "piston", Begin: func(st *sim.Stepper) error {
		st.Q[1] = -0.5 + 2*(st.T+st.H)
		st.V[1] = 2
		return nil
	}})
	for k := 0; k < 10; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := st.V[7]-2, -c*(-1-2.0); math.Abs(got-want) > 1e-12 {
		t.Errorf("%s c = %g: sphere leaves the piston at relative speed %.15g, want %.15g", op, c, got, want)
	}
}

// TestDrivenEnergyBalance3D: spheres and a box in a box of planes whose
// floor oscillates vertically (Γ = 3 at 5 Hz): with gr at c = 1 every
// step's change of kinetic + potential energy is the floor's work
// (StepStats.WallWork) to 1e-9 of the energy scale; at c = 0.6 with
// friction (Alg. 3) the difference is the energy the contacts dissipate
// (desiderata.Dissipation, ≥ 0), to the same tolerance (measured: off by
// 7.7e-14 and 4.0e-14 against energy scales of 22 and 16; 60 and 99
// contacts in 2,000 steps).
func TestDrivenEnergyBalance3D(t *testing.T) {
	for _, c := range []float64{1, 0.6} {
		s := &System{Gravity: r3.Vec{Y: -9.81}, CoR: c}
		if c < 1 {
			s.Mu = 0.4
		}
		s.Planes = []Plane{NewPlane(r3.Vec{}, r3.Vec{Y: 1}), NewPlane(r3.Vec{X: -1.5}, r3.Vec{X: 1}), NewPlane(r3.Vec{X: 1.5}, r3.Vec{X: -1}),
			NewPlane(r3.Vec{Z: -1.5}, r3.Vec{Z: 1}), NewPlane(r3.Vec{Z: 1.5}, r3.Vec{Z: -1})}
		for k := 0; k < 6; k++ {
			x := r3.Vec{X: -0.8 + 0.8*float64(k%3), Y: 0.31 + 0.7*float64(k/3), Z: 0.3 * float64(k%2)}
			s.AddBody(Shape{Kind: Sphere, R: 0.3}, 1+0.2*float64(k), x, Identity, r3.Vec{X: 0.5 - 0.2*float64(k), Z: 0.1 * float64(k)}, r3.Vec{Y: float64(k)}, false)
		}
		s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.3, Y: 0.2, Z: 0.25}}, 1, r3.Vec{Y: 2.4}, FromRotationVector(r3.Vec{X: 0.3, Z: 0.2}), r3.Vec{X: 0.4}, r3.Vec{Y: 1}, false)
		st := movingStepper(t, s, 1e-3, "gr")
		f := 5.0
		m := motion.Motion{Terms: []motion.Term{{Kind: motion.Oscillation, Axis: r3.Vec{Y: 1}, Amplitude: motion.AmplitudeFromGamma(3, f, 9.81), Frequency: f}}}
		floor := s.Planes[0]
		st.AddHook(sim.Hook{Name: "floor", Begin: func(st *sim.Stepper) error {
			ms := m.At(st.T + st.H)
			s.Planes[0] = floor.Moved(&ms)
			return nil
		}})
		e0 := s.Energy(st.Q, st.V)
		var work, diss, worst, scale float64
		contacts := 0
		for k := 0; k < 2000; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			work += st.Last.WallWork
			if st.Last.Contacts > 0 {
				contacts += st.Last.Contacts
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
		t.Logf("c = %g: %d contacts, floor work %.6g, dissipated %.6g, largest |ΔE − (W − D)| %.3g of %.3g", c, contacts, work, diss, worst, scale)
		if contacts < 50 || math.Abs(work) < 1 || worst > 1e-9*scale || (c == 1 && diss > 1e-9*scale) {
			t.Errorf("c = %g: %d contacts, work %g, dissipated %g, balance off by %.3g", c, contacts, work, diss, worst)
		}
	}
}

package rigid2d_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"impactsim/friction"
	"impactsim/geom2d"
	"impactsim/mech"
	"impactsim/rigid2d"
	"impactsim/sim"
)

// gas returns circles and boxes spread on a grid with random spins and
// velocities towards the middle, no gravity, no walls, restitution 1, no
// friction.
func gas(boxes bool, seed uint64) *rigid2d.System {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &rigid2d.System{CoR: 1}
	for i := 0; i < 16; i++ {
		x := [2]float64{float64(i%4) * 1.2, float64(i/4) * 1.2}
		v := [2]float64{1.8 - x[0] + rng.Float64() - 0.5, 1.8 - x[1] + rng.Float64() - 0.5}
		sh := rigid2d.Shape{Kind: rigid2d.Circle, R: 0.3 + 0.2*rng.Float64()}
		if boxes && i%2 == 1 {
			sh = rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.2 + 0.2*rng.Float64(), 0.2 + 0.2*rng.Float64()}}
		}
		s.AddBody(sh, 1+rng.Float64(), x, rng.Float64()*6, v, rng.Float64()*4-2, false)
	}
	return s
}

func run(t *testing.T, s *rigid2d.System, steps int, h float64) (*sim.Stepper, int) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &friction.Coulomb{Tol: 1e-30, MaxIter: 100000}, h, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Contacts > 0 {
			hits++
		}
	}
	return st, hits
}

// Impulses act at one point on both bodies with lever arms from the
// centres at the start of the step, so linear and angular momentum are
// conserved through every collision of circles and boxes.
func TestMomentumConserved(t *testing.T) {
	s := gas(true, 7)
	p0, l0 := s.LinearMomentum(s.V), s.AngularMomentum(s.Q, s.V)
	st, hits := run(t, s, 3000, 0.002)
	p1, l1 := s.LinearMomentum(st.V), s.AngularMomentum(st.Q, st.V)
	if hits < 20 {
		t.Fatalf("only %d steps with contacts", hits)
	}
	scale := math.Hypot(p0[0], p0[1]) + 1
	if math.Hypot(p1[0]-p0[0], p1[1]-p0[1]) > 1e-12*scale || math.Abs(l1-l0) > 1e-12*(math.Abs(l0)+1) {
		t.Errorf("p %v → %v, L %.17g → %.17g after %d steps with contacts", p0, p1, l0, l1, hits)
	}
}

// Elastic (c = 1) frictionless collisions of circles conserve the kinetic
// energy, spins included.
func TestCircleGasEnergy(t *testing.T) {
	s := gas(false, 3)
	e0 := s.KineticEnergy(s.V)
	st, hits := run(t, s, 3000, 0.002)
	if e1 := s.KineticEnergy(st.V); hits < 20 || math.Abs(e1-e0) > 1e-12*e0 {
		t.Errorf("kinetic energy %.17g → %.17g (%d steps with contacts)", e0, e1, hits)
	}
}

// A box resting on a frictional plane does not slide or spin.
func TestBoxRests(t *testing.T) {
	s := &rigid2d.System{Gravity: [2]float64{0, -10}, Mu: 0.5, Planes: []rigid2d.Plane{{N: [2]float64{0, 1}}}}
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.5, 0.25}}, 1, [2]float64{0, 0.25}, 0, [2]float64{}, 0, false)
	st, _ := run(t, s, 1000, 0.001)
	// It sinks by h²g/2 a step (the velocity after each impulse is zero,
	// gravity acts during the free flight that follows: the drift of the
	// geometric staggering), no more.
	if math.Abs(st.Q[0]) > 1e-15 || math.Abs(st.Q[2]) > 1e-15 || math.Abs(st.Q[1]-(0.25-1000*5e-6)) > 1e-12 {
		t.Errorf("state after 1 s: q %v v %v", st.Q, st.V)
	}
}

// A fixed (kinematic) circle keeps its velocity and pushes a free circle
// ahead of it.
func TestKinematicBody(t *testing.T) {
	s := &rigid2d.System{}
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Circle, R: 0.5}, 1, [2]float64{0, 0}, 0, [2]float64{1, 0}, 0, true)
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Circle, R: 0.5}, 1, [2]float64{1.5, 0}, 0, [2]float64{}, 0, false)
	st, hits := run(t, s, 1000, 0.001)
	if st.V[0] != 1 || math.Abs(st.Q[0]-1) > 1e-12 || hits == 0 || !(st.V[3] >= 1-1e-12) || !(st.Q[3]-st.Q[0] >= 1-1e-9) {
		t.Errorf("after 1 s (%d steps with contacts): q %v v %v", hits, st.Q, st.V)
	}
}

// A circle crossing plane A of a Lees–Edwards portal reappears behind B
// with the shear velocity −v t_A added.
func TestLeesEdwardsCrossing(t *testing.T) {
	po := geom2d.Portal{A: rigid2d.Plane{P: [2]float64{-2, 0}, N: [2]float64{1, 0}}, B: rigid2d.Plane{P: [2]float64{2, 0}, N: [2]float64{-1, 0}}, V: -1, Bounds: 3}
	s := &rigid2d.System{Portals: []rigid2d.Portal{po}}
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Circle, R: 0.1}, 1, [2]float64{-1.95, 0}, 0, [2]float64{-1, 0}, 0, false)
	st, _ := run(t, s, 100, 0.001)
	if st.V[0] != -1 || st.V[1] != 1 || !(st.Q[0] > 1.9 && st.Q[0] < 2) {
		t.Errorf("after crossing: q %v v %v", st.Q, st.V)
	}
}

func TestBuildProblemAllocs(t *testing.T) {
	s := gas(true, 11)
	var p mech.Problem
	q1 := append([]float64(nil), s.Q...)
	s.FreeFlight(s.Q, s.V, 0.1, q1, make([]float64, len(s.V)))
	s.BuildProblem(s.Q, q1, s.V, &p)
	if a := testing.AllocsPerRun(20, func() { s.BuildProblem(s.Q, q1, s.V, &p) }); a != 0 {
		t.Errorf("BuildProblem allocates %v times per call", a)
	}
}

// Two boxes sliding into each other on a frictionless floor exchange
// their velocities (equal masses, restitution 1).
func Example() {
	s := &rigid2d.System{CoR: 1, Planes: []rigid2d.Plane{{N: [2]float64{0, 1}}}, Gravity: [2]float64{0, -10}}
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.5, 0.5}}, 1, [2]float64{0, 0.5}, 0, [2]float64{1, 0}, 0, false)
	s.AddBody(rigid2d.Shape{Kind: rigid2d.Box, Half: [2]float64{0.5, 0.5}}, 1, [2]float64{2, 0.5}, 0, [2]float64{}, 0, false)
	st, _ := sim.NewStepper(s, &friction.Coulomb{Tol: 1e-30}, 0.01, s.Q, s.V)
	for st.N < 150 {
		st.Step()
	}
	fmt.Printf("v = (%.3f, %.3f), spins below 1e-12: %v\n", st.V[0], st.V[3], math.Abs(st.V[2]) < 1e-12 && math.Abs(st.V[5]) < 1e-12)
	// Output: v = (0.000, 1.000), spins below 1e-12: true
}

package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/impact"
	"impactsim/sim"
)

func stepper(t *testing.T, s *System, op string, h float64) *sim.Stepper {
	t.Helper()
	o, err := impact.New(impact.Config{Name: op})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(s, &sim.Staggered{Impact: o}, h, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBoxDropFig1: GR bounces the flat box straight up; Gauss–Seidel sets
// it spinning.
func TestBoxDropFig1(t *testing.T) {
	for _, op := range []string{"gr", "gauss_seidel"} {
		s := BoxDrop()
		st := stepper(t, s, op, BoxDropDt)
		hit := false
		for k := 0; k < 30 && !hit; k++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			if st.Last.Contacts > 0 {
				hit = true
				if st.Last.Contacts != 4 {
					t.Errorf("%s: %d contacts at the landing, want 4 corners", op, st.Last.Contacts)
				}
			}
		}
		if !hit {
			t.Fatalf("%s: the box never landed", op)
		}
		u, w := Vel(st.V, 0)
		t.Logf("%s: after the impact u = %v, ω = %v", op, u, w)
		if u.Y <= 0 {
			t.Errorf("%s: box still moving down, u = %v", op, u)
		}
		switch op {
		case "gr":
			if r3.Norm(w) > 1e-12 || math.Abs(u.X)+math.Abs(u.Z) > 1e-12 {
				t.Errorf("gr: post-impact ω = %v (|ω| = %.3g), horizontal velocity (%.3g, %.3g); want ≤ 1e-12", w, r3.Norm(w), u.X, u.Z)
			}
			e0 := s.Energy(s.Q, s.V)
			if e := s.Energy(st.Q, st.V); math.Abs(e-e0) > 1e-12*math.Abs(e0) {
				t.Errorf("gr: energy %.17g → %.17g", e0, e)
			}
		case "gauss_seidel":
			if r3.Norm(w) < 1e-3 {
				t.Errorf("gauss_seidel: |ω| = %.3g, expected the sequential sweep to spin the box", r3.Norm(w))
			}
		}
	}
}

// mirrorError compares the configuration with its mirror images about the
// three coordinate planes: cube c and cube c^bit must sit at mirrored
// positions.
func mirrorError(q []float64) float64 {
	var worst float64
	for c := 0; c < 8; c++ {
		x, _ := Pose(q, c)
		for bit, ax := range []int{1, 2, 4} {
			y, _ := Pose(q, c^ax)
			m := y
			switch bit {
			case 0:
				m.X = -m.X
			case 1:
				m.Y = -m.Y
			default:
				m.Z = -m.Z
			}
			worst = math.Max(worst, r3.Norm(r3.Sub(x, m)))
		}
	}
	return worst
}

// TestEightCubesFig8: GR + DMV keep the Hamiltonian to 1e-10 and the
// mirror symmetry to 1e-8 over 1,000 steps, with and without spin; Jacobi
// changes the energy (with spin it grows without bound: NaN counts as a
// change). Original summary:
// mirror symmetry to 1e-8 over 1,000 steps; Jacobi changes the energy.
func TestEightCubesFig8(t *testing.T) {
	for _, c := range []struct {
		op   string
		spin float64
	}{{"gr", 0}, {"gr", 1}, {"jacobi", 1}} {
		op := c.op
		s := EightCubes(c.spin)
		st := stepper(t, s, op, EightCubesDt)
		e0 := s.Energy(s.Q, s.V)
		var drift, asym float64
		impacts, contacts := 0, 0
		for k := 0; k < 1000; k++ {
			if err := st.Step(); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
			if st.Last.Contacts > 0 {
				impacts++
				contacts += st.Last.Contacts
			}
			drift = math.Max(drift, math.Abs(s.Energy(st.Q, st.V)-e0)/e0)
			asym = math.Max(asym, mirrorError(st.Q))
		}
		t.Logf("%s (spin %g): %d steps with contacts (%d contacts), max relative energy drift %.3g, max mirror asymmetry %.3g", op, c.spin, impacts, contacts, drift, asym)
		if impacts < 10 {
			t.Errorf("%s: only %d impact steps", op, impacts)
		}
		switch op {
		case "gr":
			if drift > 1e-10 || asym > 1e-8 {
				t.Errorf("gr: energy drift %.3g (want ≤ 1e-10), asymmetry %.3g (want ≤ 1e-8)", drift, asym)
			}
		case "jacobi":
			if !(drift >= 1e-3) && !math.IsNaN(drift) {
				t.Errorf("jacobi: energy drift only %.3g; expected a visible change", drift)
			}
		}
	}
}

// TestControlledDissipation (Fig. 9): 125 bodies in a closed box with grr;
// after 500 steps the kinetic energy is ordered by the restitution
// coefficient, and c = 1 keeps it.
func TestControlledDissipation(t *testing.T) {
	steps := 500
	if testing.Short() {
		steps = 150
	}
	var prev float64
	for k, c := range []float64{0, 0.3, 0.6, 0.9, 1} {
		s := Gas(125, c, 3)
		st := stepper(t, s, "grr", GasDt)
		e0 := s.Energy(s.Q, s.V)
		contacts := 0
		for i := 0; i < steps; i++ {
			if err := st.Step(); err != nil {
				t.Fatalf("c = %v: %v", c, err)
			}
			contacts += st.Last.Contacts
		}
		e := s.Energy(st.Q, st.V) / e0
		t.Logf("c = %.1f: E/E₀ = %.6f after %d steps (%d contacts)", c, e, steps, contacts)
		if k > 0 && !(e > prev) {
			t.Errorf("c = %v: E/E₀ = %.6g not above %.6g for the smaller c", c, e, prev)
		}
		if c == 1 && math.Abs(e-1) > 1e-10 {
			t.Errorf("c = 1: E/E₀ − 1 = %.3g", e-1)
		}
		prev = e
	}
}

// TestDeterminism: the same scene run twice gives bitwise-identical states.
func TestDeterminism(t *testing.T) {
	run := func() []float64 {
		s := Gas(64, 0.7, 9)
		st := stepper(t, s, "gr", GasDt)
		for i := 0; i < 200; i++ {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		return append(append([]float64(nil), st.Q...), st.V...)
	}
	a, b := run(), run()
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("entry %d differs: %v vs %v", i, a[i], b[i])
		}
	}
}

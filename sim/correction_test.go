package sim_test

import (
	"math"
	"testing"
	"time"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/sim"
)

// stack20 returns 20 unit balls (m = 1) stacked on the floor y = 0,
// touching, at rest under gravity (0, −10), with Verlet free flight and
// h = 10⁻³.
func stack20(cor float64) *ball2d.System {
	s := &ball2d.System{Gravity: [2]float64{0, -10}, Integrator: ball2d.Verlet, Dt: 1e-3, CoR: cor}
	s.Planes = append(s.Planes, ball2d.NewPlane([2]float64{0, 0}, [2]float64{0, 1}))
	for i := 0; i < 20; i++ {
		s.AddBall(0, 1+2*float64(i), 0, 0, 1, 1, false)
	}
	return s
}

func stackStepper(t testing.TB, sys *ball2d.System, op string, corr *sim.Correction) *sim.Stepper {
	t.Helper()
	o, err := impact.New(impact.Config{Name: op})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sim.NewStepper(sys, &sim.Staggered{Impact: o}, sys.Dt, sys.Q, sys.V)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetCorrection(corr); err != nil {
		t.Fatal(err)
	}
	return st
}

// stackOverlap returns the largest overlap of the stack at q: every pair
// of balls and every ball with the floor (not only the step's contacts).
func stackOverlap(sys *ball2d.System, q []float64) float64 {
	w := 0.0
	for i := range sys.M {
		w = math.Max(w, sys.R[i]-q[2*i+1])
		for j := i + 1; j < len(sys.M); j++ {
			d := math.Hypot(q[2*i]-q[2*j], q[2*i+1]-q[2*j+1])
			w = math.Max(w, sys.R[i]+sys.R[j]-d)
		}
	}
	return w
}

// A resting stack of 20 balls for 10⁴ steps, with Alg. 4's and with the
// closed active set, and with the nonlinear Gauss–Seidel correction
// (Method ngs): with the correction
// (tolerance 5·10⁻⁸ radii, so contacts rest at an overlap of 2.5·10⁻⁸) the
// worst overlap stays within 10⁻⁶ of the radius, the stack's height within
// 10⁻⁶ of its start and constant to 10⁻⁹ after the first steps
// (inelastic: it rests), and the total energy is bounded without gain:
// Alg. 4 leaves every resting ball the velocity h·g of one step's free fall
// at the step's end, so E − E₀ never exceeds that kinetic energy
// Σ ½mᵢ(h|g|)², and is constant over the second half of the run. Without
// the correction the stack sinks into the floor by ½|g|h² per step (0.05
// radii here).
func TestCorrectionRestingStack(t *testing.T) {
	const steps = 10000
	corr := &sim.Correction{Project: true, Tol: 5e-8}
	for _, tc := range []struct {
		op  string
		cor float64
	}{{"lcp", 0}, {"gr", 1}} {
		for _, closed := range []bool{false, true} {
			sys := stack20(tc.cor)
			st := stackStepper(t, sys, tc.op, corr)
			if closed {
				// with the closed active set (Stepper.SetClosure) too
				if err := st.SetClosure(&sim.Closure{}); err != nil {
					t.Fatal(err)
				}
			}
			checkRestingStack(t, sys, st, tc.op, tc.cor, steps)
		}
		// and with the nonlinear Gauss–Seidel correction
		ngs := *corr
		ngs.Method = sim.MethodNGS
		sys := stack20(tc.cor)
		checkRestingStack(t, sys, stackStepper(t, sys, tc.op, &ngs), tc.op+" ngs", tc.cor, steps)
	}
	// without the correction the inelastic stack sinks
	sys := stack20(0)
	st := stackStepper(t, sys, "lcp", nil)
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if w := stackOverlap(sys, st.Q); w < 0.04 {
		t.Errorf("without correction: overlap %.3g after %d steps, want the stack to sink ≈ 0.05", w, steps)
	}
}

// checkRestingStack runs the 20-ball stack sys for the given steps with st
// and checks TestCorrectionRestingStack's bounds.
func checkRestingStack(t *testing.T, sys *ball2d.System, st *sim.Stepper, op string, cor float64, steps int) {
	t.Helper()
	e0 := sys.Energy(st.Q, st.V)
	step := 0.5 * 20 * math.Pow(sys.Dt*10, 2) // Σ ½ m (h g)²
	var worst, worstReported, hdev, emax, emin, lateMax, lateMin float64
	emin, lateMin, lateMax = math.Inf(1), math.Inf(1), math.Inf(-1)
	hmin, hmax := math.Inf(1), math.Inf(-1)
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, stackOverlap(sys, st.Q))
		worstReported = math.Max(worstReported, st.Last.Correction.Overlap)
		if cor == 0 {
			hdev = math.Max(hdev, math.Abs(st.Q[39]-39))
			if k >= 100 {
				hmin, hmax = math.Min(hmin, st.Q[39]), math.Max(hmax, st.Q[39])
			}
		}
		e := sys.Energy(st.Q, st.V) - e0
		emax, emin = math.Max(emax, e), math.Min(emin, e)
		if k >= steps/2 {
			lateMax, lateMin = math.Max(lateMax, e), math.Min(lateMin, e)
		}
	}
	t.Logf("%s c = %g: worst overlap %.3g (reported %.3g), height deviation %.3g, E − E₀ in [%.6g, %.6g], second half [%.9g, %.9g] (one step's free-fall energy %.6g)",
		op, cor, worst, worstReported, hdev, emin, emax, lateMin, lateMax, step)
	if worst > 1e-6 || worstReported > worst {
		t.Errorf("%s: worst overlap %.3g (reported %.3g), want ≤ 1e-6", op, worst, worstReported)
	}
	if hdev > 1e-6 || hmax-hmin > 1e-9 {
		t.Errorf("%s: stack height moved by %.3g (by %.3g after step 100), want ≤ 1e-6 and constant", op, hdev, hmax-hmin)
	}
	if emax > step || lateMax-lateMin > 1e-12*math.Abs(e0) {
		t.Errorf("%s: E − E₀ in [%.6g, %.6g] (second half [%.6g, %.6g]), want ≤ %.6g and constant", op, emin, emax, lateMin, lateMax, step)
	}
}

// The correction moves positions only: one step from the same state with
// and without it gives bitwise the same velocities.
func TestCorrectionKeepsVelocities(t *testing.T) {
	for _, op := range []string{"lcp", "gr"} {
		a, b := stack20(0), stack20(0)
		sa := stackStepper(t, a, op, &sim.Correction{Project: true, Tol: 1e-9})
		sb := stackStepper(t, b, op, nil)
		moved := false
		for k := 0; k < 50; k++ {
			if err := sa.Step(); err != nil {
				t.Fatal(err)
			}
			copy(sb.Q, sa.Q) // the same start as the corrected stepper
			copy(sb.V, sa.V)
			if k < 49 {
				continue
			}
		}
		copy(sb.Q, sa.Q)
		copy(sb.V, sa.V)
		if err := sa.Step(); err != nil {
			t.Fatal(err)
		}
		if err := sb.Step(); err != nil {
			t.Fatal(err)
		}
		for i := range sa.V {
			if sa.V[i] != sb.V[i] {
				t.Fatalf("%s: v[%d] = %v with the correction, %v without", op, i, sa.V[i], sb.V[i])
			}
			moved = moved || sa.Q[i] != sb.Q[i]
		}
		if !moved || sa.Last.Correction.Passes == 0 {
			t.Errorf("%s: the correction did nothing (passes %d)", op, sa.Last.Correction.Passes)
		}
	}
}

// Every impact operator (impact.Names) under the correction: the
// inelastic 20-ball stack for 50 steps stays within 10⁻⁶ radii (it sinks
// ½|g|h² = 5·10⁻⁶ per step without; gr takes 20 ms a step on this resting
// chain at c = 0, hence the short run), and
// at every step the velocities are bitwise those of the same step without
// the correction from the same state.
func TestCorrectionEveryOperator(t *testing.T) {
	corr := &sim.Correction{Project: true, Tol: 5e-8}
	for _, op := range impact.Names() {
		sys, ref := stack20(0), stack20(0)
		st := stackStepper(t, sys, op, corr)
		sr := stackStepper(t, ref, op, nil)
		worst, passes := 0.0, 0
		t0 := time.Now()
		for k := 0; k < 50; k++ {
			copy(sr.Q, st.Q)
			copy(sr.V, st.V)
			if err := st.Step(); err != nil {
				t.Fatalf("%s, step %d: %v", op, k+1, err)
			}
			if err := sr.Step(); err != nil {
				t.Fatalf("%s, step %d without the correction: %v", op, k+1, err)
			}
			for i := range st.V {
				if st.V[i] != sr.V[i] {
					t.Fatalf("%s, step %d: v[%d] = %v with the correction, %v without", op, k+1, i, st.V[i], sr.V[i])
				}
			}
			worst = math.Max(worst, stackOverlap(sys, st.Q))
			passes += st.Last.Correction.Passes
		}
		t.Logf("%s: worst overlap %.3g over 50 steps, %d projection passes (%v)", op, worst, passes, time.Since(t0))
		if worst > 1e-6 || passes == 0 {
			t.Errorf("%s: worst overlap %.3g (want ≤ 1e-6), %d passes", op, worst, passes)
		}
	}
}

// A steady step with the correction allocates nothing.
func TestCorrectionAllocs(t *testing.T) {
	sys := stack20(0)
	st := stackStepper(t, sys, "lcp", &sim.Correction{Project: true, Tol: 1e-9})
	for k := 0; k < 20; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if a := testing.AllocsPerRun(50, func() {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations per step, want 0", a)
	}
	if st.Last.Correction.Passes == 0 {
		t.Error("the correction did not run")
	}
}

package spheres

import (
	"fmt"
	"math"
	"testing"

	"impactsim/friction"
	"impactsim/sim"
)

// restingLayer is a periodic square lattice (k × k, spacing 2r) of layers
// stacked sphere on sphere on the floor z = 0, at rest under gravity, with
// μ = 0.5: every contact is sustained. r = 0.05, so σ = 0.1.
func restingLayer(k, layers int) *System {
	const r = 0.05
	s := &System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.5}
	s.Planes = []Plane{{N: [3]float64{0, 0, 1}}}
	for z := 0; z < layers; z++ {
		for x := 0; x < k; x++ {
			for y := 0; y < k; y++ {
				s.Add([3]float64{r + 2*r*float64(x), r + 2*r*float64(y), r + 2*r*float64(z)}, [3]float64{}, [3]float64{}, r, 1000)
			}
		}
	}
	s.Periodic = Periodic{L: [2]float64{2 * r * float64(k), 2 * r * float64(k)}}
	return s
}

// copyState makes dst's spheres and walls those of src (same arrays'
// contents, same sort counter), so that a step of dst is src's step.
func copyState(dst, src *System) {
	dst.X = append(dst.X[:0], src.X...)
	dst.Q = append(dst.Q[:0], src.Q...)
	dst.VW = append(dst.VW[:0], src.VW...)
	dst.R = append(dst.R[:0], src.R...)
	dst.InvM = append(dst.InvM[:0], src.InvM...)
	dst.InvI = append(dst.InvI[:0], src.InvI...)
	dst.ID = append(dst.ID[:0], src.ID...)
	dst.Planes = append(dst.Planes[:0], src.Planes...)
	dst.stepsSinceOrder = src.stepsSinceOrder
}

// TestImpactCorrectionRestingLayer: a periodic layer of 3 × 16 spheres
// resting on a floor, 400 steps of StepImpact (h = 10⁻³) under every
// operator (and the boxed-LCP friction): with the position correction
// (tol 10⁻⁷ = 10⁻⁶σ) the worst overlap of all pairs and the floor stays ≤
// 10⁻⁶σ at every step, and every step's velocities are bitwise those of
// the same step without the correction; without it the layer sinks
// (measured: 0.0196σ under gr, grr, lcp and qce_lcp, whose resting
// contacts sink by ½gh² per step; 1.96·10⁻⁴σ under qce; the test wants ≥
// 10⁻⁴σ).
func TestImpactCorrectionRestingLayer(t *testing.T) {
	const h, steps, sigma = 1e-3, 400, 0.1
	laws := []Law{
		{Operator: "gr", Friction: "alg3"},
		{Operator: "grr", Friction: "alg3"},
		{Operator: "lcp", Friction: "alg3"},
		{Operator: "qce", Friction: "alg3"},
		{Operator: "qce_lcp", Friction: "alg3"},
		{Operator: "qce", Friction: "blcp"},
	}
	if testing.Short() {
		laws = laws[:1]
	}
	// the search distance is below ½gh² (4.9·10⁻⁶): a resting sphere
	// ends that far above its prediction, so all are searched, and the
	// contacts between layers that the prediction misses (both fall
	// together) are found on the first step
	corr := &sim.Correction{Project: true, Tol: 1e-6 * sigma, Search: 1e-6 * sigma}
	for _, l := range laws {
		s, free := restingLayer(4, 3), restingLayer(4, 3)
		cfg := &ImpactConfig{H: h, Law: l, Correction: corr}
		plain := &ImpactConfig{H: h, Law: l}
		worst, passes := 0.0, 0
		for k := 0; k < steps; k++ {
			copyState(free, s)
			if _, err := free.StepImpact(plain); err != nil {
				t.Fatal(err)
			}
			st, err := s.StepImpact(cfg)
			if err != nil {
				t.Fatal(err)
			}
			passes += st.Correction.Passes
			for i := range s.VW {
				if s.VW[i] != free.VW[i] {
					t.Fatalf("%s step %d: VW[%d] = %v with the correction, %v without", l.Name(), k+1, i, s.VW[i], free.VW[i])
				}
			}
			worst = math.Max(worst, s.overlapAll())
		}
		sink := restingLayer(4, 3)
		without := 0.0
		for k := 0; k < steps; k++ {
			if _, err := sink.StepImpact(plain); err != nil {
				t.Fatal(err)
			}
			without = math.Max(without, sink.overlapAll())
		}
		t.Logf("%s: worst overlap %.3gσ with the correction (%d passes in %d steps), %.3gσ without", l.Name(), worst/sigma, passes, steps, without/sigma)
		if !(worst <= 1e-6*sigma) {
			t.Errorf("%s: worst overlap %.3gσ with the correction, want ≤ 1e-6σ", l.Name(), worst/sigma)
		}
		if !(without >= 1e-4*sigma) {
			t.Errorf("%s: without the correction the layer sinks only %.3gσ: the test does not test", l.Name(), without/sigma)
		}
	}
}

// TestImpactCorrectionPeriodicPair: a resting pair overlapping across a
// periodic side (x, y and the corner) is corrected as the same pair in the
// unwrapped space, to 10⁻¹², by both steps (StepImpact and the NBGS Step);
// momentum is untouched.
func TestImpactCorrectionPeriodicPair(t *testing.T) {
	corr := &sim.Correction{Project: true, Tol: 1e-9, Search: 1e-6}
	alg4 := &ImpactConfig{H: 1e-3, Law: Law{Operator: "gr", Friction: "alg3", CoR: 0.5}, Correction: corr}
	nbgs := &Config{H: 1e-3, Law: friction.NBGS{Tol: 1e-12, MaxIter: 100}, Correction: corr}
	steps := map[string]func(s *System) (sim.CorrectionStats, error){
		"StepImpact": func(s *System) (sim.CorrectionStats, error) {
			st, err := s.StepImpact(alg4)
			return st.Correction, err
		},
		"Step": func(s *System) (sim.CorrectionStats, error) {
			st := s.Step(nbgs)
			return st.Correction, st.Err
		},
	}
	for _, name := range []string{"StepImpact", "Step"} {
		step := steps[name]
		for _, across := range [][2]bool{{true, false}, {false, true}, {true, true}} {
			pair := func(unwrapped bool) *System {
				s := periodicPair(across, unwrapped)
				for i := range s.VW {
					s.VW[i] *= 1e-3 // slow: the pair starts overlapping
				}
				// move B onto A's side through the period (or not)
				for d := 0; d < 2; d++ {
					if across[d] {
						s.X[3+d] = s.X[d] - 0.07 + 1
						if unwrapped {
							s.X[3+d] -= 1
						}
					}
				}
				return s
			}
			p, u := pair(false), pair(true)
			var sp, su, first sim.CorrectionStats
			for k := 0; k < 5; k++ {
				var err error
				if sp, err = step(p); err != nil {
					t.Fatal(err)
				}
				if su, err = step(u); err != nil {
					t.Fatal(err)
				}
				if k == 0 {
					first = sp
				}
				if k == 0 && (sp.Passes == 0 || sp.OverlapBefore < 0.01) {
					t.Fatalf("%s across %v: first step corrected nothing: %+v", name, across, sp)
				}
			}
			d := unwrappedDiff(p, u)
			mp, mu := p.LinearMomentum(), u.LinearMomentum()
			t.Logf("%s across %v: first step's overlap %.3g → %.3g; difference from the unwrapped pair %.3g; momentum %v", name, across, first.OverlapBefore, first.Overlap, d, mp)
			if !(d <= 1e-12) {
				t.Errorf("%s across %v: periodic pair differs from the unwrapped one by %.3g", name, across, d)
			}
			if math.Abs(su.Overlap-sp.Overlap) > 1e-12 {
				t.Errorf("%s across %v: overlaps %v and %v", name, across, sp.Overlap, su.Overlap)
			}
			for a := 0; a < 3; a++ {
				if math.Abs(mp[a]-mu[a]) > 1e-15 {
					t.Errorf("%s across %v: momentum %v, unwrapped %v", name, across, mp, mu)
				}
			}
			if p.overlapAll() > 1e-9 {
				t.Errorf("%s across %v: overlap %.3g left", name, across, p.overlapAll())
			}
		}
	}
}

// TestImpactCorrectionMissedAndDeterministic: 150 spheres thrown into a
// crate (spins, a rising floor, e(v)): the correction with the search
// finds contacts the Alg. 4 prediction missed and leaves no overlap above
// its tolerance among all pairs; the state is bitwise the same for 1, 2
// and 3 workers; a steady corrected step allocates nothing.
func TestImpactCorrectionMissedAndDeterministic(t *testing.T) {
	const tol = 1e-7
	corr := &sim.Correction{Project: true, Tol: tol, Search: 1e-9}
	var ref *System
	for _, nw := range []int{1, 2, 3} {
		s := crate(150, 2)
		done := onWorkers(s, nw)
		cfg := &ImpactConfig{H: 1e-3, Law: Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}, SortEvery: 7, Correction: corr}
		worst, missed := 0.0, 0
		for k := 0; k < 60; k++ {
			st, err := s.StepImpact(cfg)
			if err != nil {
				t.Fatal(err)
			}
			missed += st.Correction.Missed
			worst = math.Max(worst, s.overlapAll())
		}
		if nw == 1 {
			t.Logf("60 steps: %d missed contacts found, worst overlap %.3g", missed, worst)
			if missed == 0 {
				t.Errorf("no missed contact found: the test does not test the search")
			}
			if !(worst <= tol) {
				t.Errorf("worst overlap %.3g, want ≤ %g", worst, tol)
			}
		}
		if ref == nil {
			ref = s
			done()
			continue
		}
		sameState(t, fmt.Sprintf("%d workers", nw), s, ref)
		if nw == 3 {
			a := testing.AllocsPerRun(5, func() {
				if _, err := s.StepImpact(cfg); err != nil {
					t.Fatal(err)
				}
			})
			if a != 0 {
				t.Errorf("%v allocations per corrected step, want 0", a)
			}
		}
		done()
	}
}

package spheres

import (
	"math"
	"math/rand/v2"
	"testing"

	"impactsim/friction"
)

// periodicPair is two spheres, A just inside the low x (and y) sides of the
// periodic cell [0, 1)² and B just inside the high sides, approaching each
// other across the sides, spinning, with μ = 0.5 and no gravity; or the
// same pair unwrapped (B one period lower, no periodic sides).
func periodicPair(across [2]bool, unwrapped bool) *System {
	s := &System{Mu: 0.5}
	a := [3]float64{0.08, 0.06, 0.3}
	b := [3]float64{0.95, 0.93, 0.31}
	va := [3]float64{-1, -1.1, 0.05}
	vb := [3]float64{1.2, 0.9, 0}
	for d := 0; d < 2; d++ {
		if !across[d] {
			b[d] = a[d] + 0.02
			va[d], vb[d] = 0.1, -0.05
		}
		if across[d] && unwrapped {
			b[d] -= 1
		}
	}
	s.Add(a, va, [3]float64{3, -2, 5}, 0.05, 1000)
	s.Add(b, vb, [3]float64{-1, 4, 2}, 0.06, 800)
	if !unwrapped {
		s.Periodic = Periodic{L: [2]float64{1, 1}}
	}
	return s
}

// unwrappedDiff returns the largest difference of the periodic system's
// state from the unwrapped one's (spheres matched by ID, centres compared
// modulo the period).
func unwrappedDiff(p, u *System) float64 {
	d := 0.0
	for i := 0; i < p.N(); i++ {
		j := 0
		for u.ID[j] != p.ID[i] {
			j++
		}
		u := &System{X: u.X[3*j : 3*j+3], VW: u.VW[6*j : 6*j+6], Q: u.Q[4*j : 4*j+4]}
		i := i
		p := &System{X: p.X[3*i : 3*i+3], VW: p.VW[6*i : 6*i+6], Q: p.Q[4*i : 4*i+4]}
		i = 0
		for k := 0; k < 3; k++ {
			e := p.X[3*i+k] - u.X[3*i+k]
			if k < 2 {
				e -= math.Round(e)
			}
			d = math.Max(d, math.Abs(e))
		}
		for k := 0; k < 6; k++ {
			d = math.Max(d, math.Abs(p.VW[6*i+k]-u.VW[6*i+k]))
		}
		for k := 0; k < 4; k++ {
			d = math.Max(d, math.Abs(p.Q[4*i+k]-u.Q[4*i+k]))
		}
	}
	return d
}

func momentum(s *System) [3]float64 { return s.LinearMomentum() }

// TestPeriodicPairMatchesUnwrapped: a pair colliding across a periodic
// side (x, y, and the corner) under GR + Alg. 3 and under the NBGS step,
// and a sphere crossing the sides, give the unwrapped space's result to
// 1e-12, with the momentum conserved.
func TestPeriodicPairMatchesUnwrapped(t *testing.T) {
	for _, across := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		for _, nbgs := range []bool{false, true} {
			p, u := periodicPair(across, false), periodicPair(across, true)
			p0 := momentum(p)
			cImp := &ImpactConfig{H: 1e-3, Law: Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}}
			cNB := &Config{H: 1e-3, Law: friction.NBGS{Tol: 1e-12, MaxIter: 1000}}
			contacts := 0
			for k := 0; k < 300; k++ {
				if nbgs {
					sp, su := p.Step(cNB), u.Step(cNB)
					if sp.Err != nil || su.Err != nil {
						t.Fatal(sp.Err, su.Err)
					}
					if sp.Contacts != su.Contacts {
						t.Fatalf("step %d: %d contacts periodic, %d unwrapped", k, sp.Contacts, su.Contacts)
					}
					contacts += sp.Contacts
					continue
				}
				sp, err := p.StepImpact(cImp)
				if err != nil {
					t.Fatal(err)
				}
				su, err := u.StepImpact(cImp)
				if err != nil {
					t.Fatal(err)
				}
				if sp.Contacts != su.Contacts {
					t.Fatalf("step %d: %d contacts periodic, %d unwrapped", k, sp.Contacts, su.Contacts)
				}
				contacts += sp.Contacts
			}
			d := unwrappedDiff(p, u)
			p1 := momentum(p)
			dp := math.Abs(p1[0]-p0[0]) + math.Abs(p1[1]-p0[1]) + math.Abs(p1[2]-p0[2])
			t.Logf("across %v, nbgs %v: %d contact steps, difference %.3g, momentum change %.3g of %.3g", across, nbgs, contacts, d, dp, math.Abs(p0[0])+math.Abs(p0[1])+math.Abs(p0[2]))
			if contacts == 0 {
				t.Errorf("across %v: the pair never touched", across)
			}
			if !(d <= 1e-12) {
				t.Errorf("across %v, nbgs %v: periodic differs from unwrapped by %.3g, want ≤ 1e-12", across, nbgs, d)
			}
			if !(dp <= 1e-12) {
				t.Errorf("across %v, nbgs %v: momentum changed by %.3g", across, nbgs, dp)
			}
			for i := 0; i < p.N(); i++ {
				for k := 0; k < 2; k++ {
					if x := p.X[3*i+k]; !(x >= 0 && x < 1) {
						t.Errorf("sphere %d: coordinate %d = %v outside the periodic cell", i, k, x)
					}
				}
			}
		}
	}
}

// TestPeriodicRefusesShortPeriod: a period under three broad-phase cells
// is an error, not a silently missed contact.
func TestPeriodicRefusesShortPeriod(t *testing.T) {
	s := &System{Periodic: Periodic{L: [2]float64{0.25, 1}}}
	s.Add([3]float64{0.1, 0.5, 0}, [3]float64{}, [3]float64{}, 0.05, 1000)
	s.Add([3]float64{0.2, 0.5, 0.3}, [3]float64{}, [3]float64{}, 0.05, 1000)
	if _, err := s.StepImpact(&ImpactConfig{H: 1e-3, Law: Law{Operator: "gr"}}); err == nil {
		t.Fatal("want an error for a period of 2.5 diameters")
	} else {
		t.Log(err)
	}
}

// TestImpactBroadPhaseFindsEveryPair: StepImpact's broad phase (the grid,
// its wrapped stencil and the candidates' rejection at the prediction,
// pairs) keeps exactly the sphere pairs that overlap at the free-flight
// prediction under the nearest image, with pair's contact, on periodic
// cells of three to six broad-phase cells a side (the shortest allowed,
// where the image is decided closest to half a period) with fast spheres
// of several sizes: the same contacts as testing every pair with pair.
func TestImpactBroadPhaseFindsEveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	total := 0
	for trial := 0; trial < 40; trial++ {
		cells := 3 + trial%4
		s := &System{Gravity: [3]float64{0, 0, -9.81}}
		h := 2e-3
		l := 1.0
		s.Periodic = Periodic{Lo: [2]float64{-0.3, 0.2}, L: [2]float64{l, l * (1 + 0.1*float64(trial%3))}}
		n := 60 + rng.IntN(60)
		for k := 0; k < n; k++ {
			x := [3]float64{-0.3 + l*rng.Float64(), 0.2 + s.Periodic.L[1]*rng.Float64(), 0.4 * rng.Float64()}
			v := [3]float64{20 * (rng.Float64() - 0.5), 20 * (rng.Float64() - 0.5), 4 * (rng.Float64() - 0.5)}
			s.Add(x, v, [3]float64{}, 0.02+0.04*rng.Float64(), 1000)
		}
		// the largest radius that still gives the grid `cells` cells along x
		w := &s.work
		w.alg4, w.h = true, h
		s.wrapPeriodic()
		m := s.margin(h)
		rmax := 0.5 * (l/float64(cells) - m) * 0.999
		for k := range s.R {
			s.R[k] = math.Min(s.R[k], rmax)
		}
		s.R[0] = rmax
		s.detect(h, 0)
		if w.gridErr != nil || w.dims[0] != cells {
			t.Fatalf("trial %d: %d cells along x (want %d), %v", trial, w.dims[0], cells, w.gridErr)
		}
		got := map[[2]int32]contact{}
		for _, c := range w.con[:w.npair] {
			key := [2]int32{min(c.i, c.j), max(c.i, c.j)}
			if _, dup := got[key]; dup {
				t.Fatalf("trial %d: pair %v twice", trial, key)
			}
			got[key] = c
		}
		want := 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				for _, ij := range [][2]int{{i, j}, {j, i}} {
					out, _ := s.pair(nil, 0, ij[0], ij[1])
					c, ok := got[[2]int32{int32(i), int32(j)}]
					if len(out) == 1 && ok && c.i == out[0].i {
						if c != out[0] {
							t.Fatalf("trial %d: pair (%d, %d): contact %+v, pair gives %+v", trial, i, j, c, out[0])
						}
						want++
					} else if len(out) == 1 != ok {
						t.Fatalf("trial %d: pair (%d, %d) in the broad phase %v, at the prediction %v", trial, ij[0], ij[1], ok, len(out) == 1)
					}
				}
			}
		}
		if want != len(got) {
			t.Fatalf("trial %d: %d pairs found, %d confirmed", trial, len(got), want)
		}
		total += want
		if trial == 0 && want == 0 {
			t.Fatal("no pairs: the test needs denser spheres")
		}
	}
	t.Logf("%d pairs", total)
}

package domain

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"impactsim/friction"
	"impactsim/mpi"
	"impactsim/spheres"
)

// sphereBox is n spheres of radii 0.04…0.05 on a jittered lattice in the
// box [0, 2] × [0, 1] × [0, 0.6], random velocities of up to 2 (and
// spins), μ = mu; with walls: planes on all six sides and gravity.
func sphereBox(n int, walls bool, mu float64, seed uint64) *spheres.System {
	rng := rand.New(rand.NewPCG(seed, 11))
	s := &spheres.System{Mu: mu}
	if walls {
		s.Gravity = [3]float64{0, 0, -9.81}
		for d := 0; d < 3; d++ {
			var lo, hi spheres.Plane
			lo.N[d], hi.N[d] = 1, -1
			hi.P[d] = [3]float64{2, 1, 0.6}[d]
			s.Planes = append(s.Planes, lo, hi)
		}
	}
	nx, ny := 18, 9
	for k := 0; k < n; k++ {
		x := [3]float64{0.06 + 0.11*float64(k%nx) + 0.005*rng.Float64(), 0.06 + 0.11*float64(k/nx%ny) + 0.005*rng.Float64(),
			0.06 + 0.11*float64(k/(nx*ny)) + 0.005*rng.Float64()}
		v := [3]float64{4*rng.Float64() - 2, 4*rng.Float64() - 2, 4*rng.Float64() - 2}
		w := [3]float64{10*rng.Float64() - 5, 10*rng.Float64() - 5, 10*rng.Float64() - 5}
		s.Add(x, v, w, 0.04+0.01*rng.Float64(), 1000)
	}
	return s
}

// byID returns the state of s as (X, Q, VW) indexed by the spheres' IDs.
func byID(s *spheres.System) []float64 {
	n := s.N()
	out := make([]float64, 13*n)
	for i := 0; i < n; i++ {
		g := int(s.ID[i])
		copy(out[3*g:], s.X[3*i:3*i+3])
		copy(out[3*n+4*g:], s.Q[4*i:4*i+4])
		copy(out[7*n+6*g:], s.VW[6*i:6*i+6])
	}
	return out
}

// runSpheres runs sys over the ranks of c for steps steps, checks the
// sphere count and momentum every step and calls check on Root with the
// gathered state (X, Q, VW by ID).
func runSpheres(c mpi.Comm, sys *spheres.System, cfg SpheresConfig, steps int, check func(k int, state []float64, p [3]float64, st Stats) error) error {
	d, err := NewSpheres(c, sys, cfg)
	if err != nil {
		return err
	}
	n := sys.N()
	for k := 1; k <= steps; k++ {
		if err := d.Step(); err != nil {
			return err
		}
		if err := d.Count(n); err != nil {
			return err
		}
		p, err := d.Momentum()
		if err != nil {
			return err
		}
		x, q, vw, err := d.Gather(cfg.Root, n)
		if err != nil {
			return err
		}
		if c.Rank() == cfg.Root {
			state := append(append(append([]float64(nil), x...), q...), vw...)
			if err := check(k, state, p, d.Last); err != nil {
				return err
			}
		}
	}
	return nil
}

// sphereGRScenario checks Alg. 4 with GR (and the LCP) across the ranks of
// c against the single-process StepImpact with the canonical contact
// order, after every step of 200: 300 spheres in a walled box under
// gravity with friction (Alg. 3, μ = 0.3), c = 0.5 and c = 1.
func sphereGRScenario(c mpi.Comm) error {
	const steps = 200
	for _, law := range []spheres.Law{{Operator: "gr", Friction: "alg3", CoR: 0.5}, {Operator: "gr", Friction: "none", CoR: 1}, {Operator: "lcp", Friction: "alg3", CoR: 0.5}} {
		const h = 1e-3
		var ref [][]float64
		if c.Rank() == 0 {
			s := sphereBox(300, true, 0.3, 1)
			cfg := &spheres.ImpactConfig{H: h, Law: law, Canonical: true}
			for k := 0; k < steps; k++ {
				if _, err := s.StepImpact(cfg); err != nil {
					return fmt.Errorf("one process, step %d: %w", k+1, err)
				}
				ref = append(ref, byID(s))
			}
		}
		cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, H: h, Law: law}
		if c.Size() == 4 {
			cfg.Dims = [3]int{2, 2, 1}
		}
		worst, crossing := 0.0, 0
		err := runSpheres(c, sphereBox(300, true, 0.3, 1), cfg, steps, func(k int, state []float64, _ [3]float64, st Stats) error {
			diff := maxDiff(state, ref[k-1])
			worst = max(worst, diff)
			crossing += st.Solved
			if diff > 1e-12 {
				return fmt.Errorf("%s: step %d differs from one process by %.3g", law.Name(), k, diff)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			fmt.Printf("spheres %s c = %v, %d ranks: largest difference from one process over %d steps %.3g; contacts of crossing islands solved on root: %d\n",
				law.Name(), law.CoR, c.Size(), steps, worst, crossing)
			if c.Size() > 1 && crossing == 0 {
				return fmt.Errorf("%d ranks: no island crossed a subdomain boundary; the test proves nothing", c.Size())
			}
		}
	}
	return nil
}

// spherePeriodicScenario: periodic in x and y, no walls, no gravity, GR
// at c = 1 without friction: spheres migrate across rank boundaries and
// the periodic faces; every sphere is on exactly one rank after every
// step, momentum stays at its start value to 1e-12, spheres cross the
// periodic faces, and the final state equals the one-rank run's to 1e-12.
func spherePeriodicScenario(c mpi.Comm) error {
	const n, steps = 300, 200
	sys := sphereBox(n, false, 0, 2)
	p0 := sys.LinearMomentum()
	run := func(c mpi.Comm, final *[]float64) error {
		cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, Periodic: [2]bool{true, true}, H: 1e-3,
			Law: spheres.Law{Operator: "gr", Friction: "none", CoR: 1}}
		if c.Size() == 4 {
			cfg.Dims = [3]int{2, 2, 1}
		}
		return runSpheres(c, sphereBox(n, false, 0, 2), cfg, steps, func(k int, state []float64, p [3]float64, _ Stats) error {
			if dp := math.Sqrt((p[0]-p0[0])*(p[0]-p0[0]) + (p[1]-p0[1])*(p[1]-p0[1]) + (p[2]-p0[2])*(p[2]-p0[2])); dp > 1e-12 {
				return fmt.Errorf("step %d: momentum %v, started at %v", k, p, p0)
			}
			for i := 0; i < n; i++ {
				if x, y := state[3*i], state[3*i+1]; x < 0 || x >= 2 || y < 0 || y >= 1 {
					return fmt.Errorf("step %d: sphere %d at (%v, %v) outside the periodic box", k, i, x, y)
				}
			}
			if k == steps {
				*final = state
			}
			return nil
		})
	}
	return againstOneRank(c, "spheres", steps, run, func(final []float64) int {
		crossed := 0
		for i := 0; i < n; i++ {
			if math.Abs(final[3*i]-sys.X[3*i]) > 1 || math.Abs(final[3*i+1]-sys.X[3*i+1]) > 0.5 {
				crossed++
			}
		}
		return crossed
	})
}

func init() {
	scenarios["spheres-gr"] = sphereGRScenario
	scenarios["spheres-periodic"] = spherePeriodicScenario
	scenarios["spheres-colours"] = sphereColoursScenario
	scenarios["spheres-pe"] = spherePEScenario
	scenarios["spheres-restart"] = sphereRestartScenario
}

// Alg. 4 with GR and the LCP on 3D spheres across 1, 2 and 4 goroutine
// ranks equals the single-process StepImpact (canonical order).
func TestSpheresGRAcrossRanksEqualsOneProcess(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		if err := mpi.RunLocal(np, sphereGRScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

// Sphere migration across rank and periodic boundaries on 1, 2, 4
// goroutine ranks.
func TestSpheresPeriodicMigration(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		if err := mpi.RunLocal(np, spherePeriodicScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

// nbgsBox is the NBGS scenes' configuration: 300 spheres in the walled
// box, h = 1e-3, ε = 0.2, μ = 0.3, sweeps to 1e-9 (cap 500).
func nbgsConfig(c interface{ Size() int }, mode Sweeps) SpheresConfig {
	cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, H: 1e-3, Epsilon: 0.2,
		NBGS: &NBGSConfig{Law: friction.NBGS{Tol: 1e-9, MaxIter: 500}, Mode: mode, Blocks: [3]int{8, 4, 1}}}
	if c.Size() == 4 {
		cfg.Dims = [3]int{2, 2, 1}
	}
	return cfg
}

// sphereColoursScenario: the reproducible colour sweeps on the ranks of c
// equal the same sweeps on one rank bitwise, every step of 100, in the
// walled box under gravity and in a periodic gas (x and y periodic, no
// walls, no gravity: spheres migrate across the periodic faces, the
// momentum stays at its start to 1e-12).
func sphereColoursScenario(c mpi.Comm) error {
	const steps = 100
	for _, periodic := range []bool{false, true} {
		scene := func() *spheres.System { return sphereBox(300, !periodic, 0.3, 1) }
		p0 := scene().LinearMomentum()
		run := func(c mpi.Comm, states *[][]float64, cross *int) error {
			cfg := nbgsConfig(c, Colours)
			cfg.Periodic = [2]bool{periodic, periodic}
			return runSpheres(c, scene(), cfg, steps, func(k int, state []float64, p [3]float64, st Stats) error {
				if dp := math.Sqrt((p[0]-p0[0])*(p[0]-p0[0]) + (p[1]-p0[1])*(p[1]-p0[1]) + (p[2]-p0[2])*(p[2]-p0[2])); periodic && dp > 1e-12 {
					return fmt.Errorf("step %d: momentum %v, started at %v", k, p, p0)
				}
				*states = append(*states, state)
				*cross += st.Boundary
				return nil
			})
		}
		var mine, one [][]float64
		var cross, cross1 int
		if err := run(c, &mine, &cross); err != nil {
			return err
		}
		if c.Rank() != 0 {
			continue
		}
		if err := mpi.RunLocal(1, func(c mpi.Comm) error { return run(c, &one, &cross1) }); err != nil {
			return fmt.Errorf("one rank: %w", err)
		}
		worst := 0.0
		for k := range one {
			worst = max(worst, maxDiff(mine[k], one[k]))
		}
		fmt.Printf("spheres nbgs colours, periodic %v, %d ranks: %d contacts with a ghost swept on rank 0 over %d steps; largest difference from one rank %.3g\n", periodic, c.Size(), cross, steps, worst)
		if worst != 0 {
			return fmt.Errorf("colour sweeps on %d ranks differ from one rank by %.3g", c.Size(), worst)
		}
		if (c.Size() > 1 || periodic) && cross == 0 {
			return fmt.Errorf("%d ranks: no contact with a ghost; the test proves nothing", c.Size())
		}
	}
	return nil
}

// spherePEScenario: pe's sweeps on the ranks of c against one process's
// spheres.Step from the same states (every 10th of 100 steps), both swept
// to the residual tol = 1e-9 (sweep change A|Δλ|, in velocity units): the
// velocities and positions agree to 100 tol (measured: at most 20 tol on
// 1, 2 and 4 ranks, as the one-process sweeps agree with themselves in
// another order: convergence, not the exchange, sets the difference).
func spherePEScenario(c mpi.Comm) error {
	ref := sphereBox(300, true, 0.3, 1)
	cfg := nbgsConfig(c, PE)
	one := &spheres.Config{H: cfg.H, Epsilon: cfg.Epsilon, Law: cfg.NBGS.Law}
	one.Law.MaxIter = 20000
	cfg.NBGS.Law.MaxIter = 20000
	tol := cfg.NBGS.Law.Tol
	worst, cross := 0.0, 0
	for k := 0; k < 100; k++ {
		start := cloneSpheres(ref)
		// every rank steps the reference: all must start from the same system
		if st := ref.Step(one); st.Err != nil || st.Law.Capped > 0 {
			return fmt.Errorf("one process, step %d: %v (capped %d)", k+1, st.Err, st.Law.Capped)
		}
		if k%10 != 0 {
			continue
		}
		want := byID(ref)
		err := runSpheres(c, start, cfg, 1, func(_ int, state []float64, _ [3]float64, st Stats) error {
			d := maxDiff(state, want)
			worst = max(worst, d)
			cross += st.Boundary
			if st.Law.Capped > 0 {
				return fmt.Errorf("step %d: the distributed sweeps stopped at their cap, residual %.3g", k+1, st.Law.Residual)
			}
			if d > 100*tol {
				return fmt.Errorf("step %d: %d ranks differ from one process by %.3g (residual %.3g, tolerance %.3g)", k+1, c.Size(), d, st.Law.Residual, tol)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if c.Rank() == 0 {
		fmt.Printf("spheres nbgs pe, %d ranks: largest difference from one process %.3g = %.3g tol; %d contacts with a ghost on rank 0\n", c.Size(), worst, worst/tol, cross)
		if c.Size() > 1 && cross == 0 {
			return fmt.Errorf("%d ranks: no contact with a ghost; the test proves nothing", c.Size())
		}
	}
	return nil
}

// cloneSpheres copies a sphere system's state (not its workspaces).
func cloneSpheres(s *spheres.System) *spheres.System {
	c := &spheres.System{Gravity: s.Gravity, Mu: s.Mu, Planes: slices.Clone(s.Planes), Boxes: s.Boxes, Cylinders: s.Cylinders}
	c.X, c.Q, c.VW = slices.Clone(s.X), slices.Clone(s.Q), slices.Clone(s.VW)
	c.R, c.InvM, c.InvI, c.ID = slices.Clone(s.R), slices.Clone(s.InvM), slices.Clone(s.InvI), slices.Clone(s.ID)
	return c
}

// The reproducible colour sweeps on 2 and 4 goroutine ranks equal one
// rank's bitwise.
func TestSpheresNBGSColoursBitwise(t *testing.T) {
	for _, np := range []int{2, 4} {
		if err := mpi.RunLocal(np, sphereColoursScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

// pe's sweeps on 1, 2 and 4 goroutine ranks equal one process's
// spheres.Step to 100 times the sweeps' tolerance.
func TestSpheresNBGSPE(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		if err := mpi.RunLocal(np, spherePEScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

// Two equal spheres head-on across the boundary of two ranks, GR at c = 1:
// they exchange velocities (an island across the subdomains, solved on
// rank 0); the colour sweeps of NBGS with ε = 0 stop them (a perfectly
// inelastic contact).
func ExampleNewSpheres() {
	build := func() *spheres.System {
		s := &spheres.System{}
		s.Add([3]float64{0.9, 0.5, 0.5}, [3]float64{1, 0, 0}, [3]float64{}, 0.05, 1000)
		s.Add([3]float64{1.1, 0.5, 0.5}, [3]float64{-1, 0, 0}, [3]float64{}, 0.05, 1000)
		return s
	}
	gr := SpheresConfig{Hi: [3]float64{2, 1, 1}, Dims: [3]int{2, 1, 1}, H: 1e-3,
		Law: spheres.Law{Operator: "gr", Friction: "none", CoR: 1}}
	nbgs := gr
	nbgs.NBGS = &NBGSConfig{Law: friction.NBGS{Tol: 1e-12, MaxIter: 100}, Mode: Colours, Blocks: [3]int{4, 2, 2}}
	for _, cfg := range []SpheresConfig{gr, nbgs} {
		err := mpi.RunLocal(2, func(c mpi.Comm) error {
			d, err := NewSpheres(c, build(), cfg)
			if err != nil {
				return err
			}
			for range 200 {
				if err := d.Step(); err != nil {
					return err
				}
			}
			_, _, vw, err := d.Gather(0, 2)
			if c.Rank() == 0 {
				r := func(x float64) float64 { return math.Round(x*1e9)/1e9 + 0 } // to 1e-9, no −0
				fmt.Printf("vx after 200 steps: %.3g %.3g\n", r(vw[0]), r(vw[6]))
			}
			return err
		})
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// vx after 200 steps: -1 1
	// vx after 200 steps: 0 0
}

// sphereRestartScenario: a checkpoint written after 60 steps on the ranks
// of c (GatherState, WriteState) restarts on 4 ranks (when c has fewer;
// otherwise on 1) and reaches the uninterrupted run's state after 120
// steps bitwise, for Alg. 4 with GR and for the colour sweeps.
func sphereRestartScenario(c mpi.Comm) error {
	for _, mode := range []string{"gr", "colours"} {
		cfg := func(c mpi.Comm) SpheresConfig {
			if mode == "colours" {
				return nbgsConfig(c, Colours)
			}
			cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, H: 1e-3, Law: spheres.Law{Operator: "gr", Friction: "alg3", CoR: 0.5}}
			if c.Size() == 4 {
				cfg.Dims = [3]int{2, 2, 1}
			}
			return cfg
		}
		// the first half here, the checkpoint in memory on rank 0
		var ck bytes.Buffer
		sys := sphereBox(300, true, 0.3, 1)
		var last []float64
		d, err := NewSpheres(c, sphereBox(300, true, 0.3, 1), cfg(c))
		if err != nil {
			return err
		}
		for range 60 {
			if err := d.Step(); err != nil {
				return err
			}
		}
		if err := d.GatherState(0, sys); err != nil {
			return err
		}
		if c.Rank() != 0 {
			continue
		}
		if err := sys.WriteState(&ck); err != nil {
			return err
		}
		// the second half on another rank count, and the whole run on one
		np := 4
		if c.Size() == 4 {
			np = 1
		}
		resumed := sphereBox(300, true, 0.3, 1)
		if err := resumed.ReadState(&ck); err != nil {
			return err
		}
		if err := mpi.RunLocal(np, func(c mpi.Comm) error {
			return runSpheres(c, cloneSpheres(resumed), cfg(c), 60, func(k int, state []float64, _ [3]float64, _ Stats) error {
				if k == 60 {
					last = state
				}
				return nil
			})
		}); err != nil {
			return fmt.Errorf("resumed on %d ranks: %w", np, err)
		}
		var whole []float64
		if err := mpi.RunLocal(1, func(c mpi.Comm) error {
			return runSpheres(c, sphereBox(300, true, 0.3, 1), cfg(c), 120, func(k int, state []float64, _ [3]float64, _ Stats) error {
				if k == 120 {
					whole = state
				}
				return nil
			})
		}); err != nil {
			return err
		}
		dd := maxDiff(last, whole)
		fmt.Printf("spheres %s: 60 steps on %d ranks, checkpoint, 60 on %d: difference from 120 uninterrupted steps %.3g\n", mode, c.Size(), np, dd)
		if dd != 0 {
			return fmt.Errorf("%s: the restarted run differs from the uninterrupted one by %.3g", mode, dd)
		}
	}
	return nil
}

// A checkpoint of a distributed sphere run restarts on another number of
// ranks and continues bitwise.
func TestSpheresRestartOtherRankCount(t *testing.T) {
	if err := mpi.RunLocal(2, sphereRestartScenario); err != nil {
		t.Fatal(err)
	}
}

// What the sphere decomposition and its sweeps cannot do is refused with
// a message saying why.
func TestSpheresRefusals(t *testing.T) {
	box := func() *spheres.System { return sphereBox(60, true, 0.3, 4) }
	colours := func(np int) SpheresConfig { return nbgsConfig(mpiSize(np), Colours) }
	cases := []struct {
		name string
		sys  func() *spheres.System
		cfg  func() SpheresConfig
		np   int
		want string
	}{
		{"periodic system", func() *spheres.System { s := box(); s.Periodic.L = [2]float64{2, 1}; return s },
			func() SpheresConfig { return colours(1) }, 1, "periodic itself"},
		{"ids", func() *spheres.System { s := box(); s.ID[3] = 7; return s },
			func() SpheresConfig { return colours(1) }, 1, "IDs must be distinct"},
		{"time step", box, func() SpheresConfig { c := colours(1); c.H = 0; return c }, 1, "time step"},
		{"law", box, func() SpheresConfig { c := colours(1); c.NBGS = nil; c.Law.Operator = "nope"; return c }, 1, "nope"},
		{"odd blocks", box, func() SpheresConfig { c := colours(1); c.NBGS.Blocks[0] = 3; return c }, 1, "want 1 or an even number"},
		{"no blocks", box, func() SpheresConfig { c := colours(1); c.NBGS.Blocks = [3]int{}; return c }, 1, "need Blocks"},
		{"periodic one block", box, func() SpheresConfig {
			c := colours(1)
			c.Periodic[1], c.NBGS.Blocks[1] = true, 1
			return c
		}, 1, "must not meet its own image"},
		{"blocks per rank", box, func() SpheresConfig {
			c := colours(4)
			c.NBGS.Blocks = [3]int{2, 1, 1}
			c.Dims = [3]int{4, 1, 1}
			return c
		}, 4, "not a multiple of its 4 ranks"},
		{"narrow blocks", box, func() SpheresConfig { c := colours(1); c.NBGS.Blocks[0] = 16; return c }, 1, "want more than twice the interaction halo"},
		{"halo", box, func() SpheresConfig {
			c := colours(1)
			c.NBGS, c.Law, c.Dims = nil, spheres.Law{Operator: "gr"}, [3]int{40, 1, 1}
			return c
		}, 40, "exceeds the subdomain width"},
	}
	for _, tc := range cases {
		err := mpi.RunLocal(tc.np, func(c mpi.Comm) error {
			d, err := NewSpheres(c, tc.sys(), tc.cfg())
			if err != nil {
				return err
			}
			return d.Step()
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// mpiSize is a communicator's size for nbgsConfig outside a run.
type mpiSize int

func (n mpiSize) Size() int { return int(n) }

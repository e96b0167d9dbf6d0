package domain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"impactsim/ball2d"
	"impactsim/impact"
	"impactsim/mpi"
	"impactsim/sim"
)

func grLaw() (sim.ContactLaw, error) {
	op, err := impact.NewGR(0, "")
	if err != nil {
		return nil, err
	}
	return &sim.Staggered{Impact: op}, nil
}

func lcpLaw() (sim.ContactLaw, error) {
	op, err := impact.NewLCP("")
	if err != nil {
		return nil, err
	}
	return &sim.Staggered{Impact: op}, nil
}

// boxScene is n balls of radii 0.04…0.05 on a jittered lattice in the box
// [0, 4] × [0, 2] with walls on all four sides, gravity, random velocities
// of up to 2 and, with walls, two fixed balls; c = cor. Islands form along the floor
// and in the collisions, and cross every subdomain boundary.
func boxScene(n int, cor float64, walls bool, gravity bool, seed uint64) *ball2d.System {
	// walls and gravity come with two fixed balls; without them momentum is conserved.
	rng := rand.New(rand.NewPCG(seed, 7))
	s := &ball2d.System{Dt: 1e-3, CoR: cor, NoFrictionBasis: true}
	if gravity {
		s.Gravity = [2]float64{0, -9.81}
	}
	if walls {
		s.Planes = []ball2d.Plane{
			ball2d.NewPlane([2]float64{0, 0}, [2]float64{0, 1}),
			ball2d.NewPlane([2]float64{0, 2}, [2]float64{0, -1}),
			ball2d.NewPlane([2]float64{0, 0}, [2]float64{1, 0}),
			ball2d.NewPlane([2]float64{4, 0}, [2]float64{-1, 0}),
		}
	}
	nx := 36
	for k := 0; k < n; k++ {
		x := 0.06 + 0.11*float64(k%nx) + 0.005*rng.Float64()
		y := 0.06 + 0.11*float64(k/nx) + 0.005*rng.Float64()
		r := 0.04 + 0.01*rng.Float64()
		fixed := walls && (k == n/3 || k == 2*n/3)
		vx, vy := 4*rng.Float64()-2, 4*rng.Float64()-2
		if fixed {
			vx, vy = 0, 0
		}
		s.AddBall(x, y, vx, vy, math.Pi*r*r, r, fixed)
	}
	return s
}

// drumScene is balls of radii 0.04…0.05 on a jittered lattice inside a
// drum of radius 1 about (2, 1) (the centre of the decomposed region, so
// the subdomain boundaries cross it), random velocities of up to 2,
// gravity, one fixed ball; c = cor.
func drumScene(cor float64) *ball2d.System {
	rng := rand.New(rand.NewPCG(5, 7))
	s := &ball2d.System{Dt: 1e-3, CoR: cor, NoFrictionBasis: true, Gravity: [2]float64{0, -9.81},
		Drums: []ball2d.Drum{{C: [2]float64{2, 1}, R: 1}}}
	for i := -8; i <= 8; i++ {
		for j := -8; j <= 8; j++ {
			x, y := 0.11*float64(i)+0.005*rng.Float64(), 0.11*float64(j)+0.005*rng.Float64()
			if math.Hypot(x, y) > 0.88 {
				continue
			}
			r := 0.04 + 0.01*rng.Float64()
			fixed := i == 0 && j == -3
			vx, vy := 4*rng.Float64()-2, 4*rng.Float64()-2
			if fixed {
				vx, vy = 0, 0
			}
			s.AddBall(2+x, 1+y, vx, vy, math.Pi*r*r, r, fixed)
		}
	}
	return s
}

// reference runs the system in one process with sim.Stepper and returns
// the state after every step.
func reference(sys *ball2d.System, newLaw func() (sim.ContactLaw, error), dt float64, steps int) (qs, vs [][]float64, err error) {
	law, err := newLaw()
	if err != nil {
		return nil, nil, err
	}
	sys.Dt = dt
	st, err := sim.NewStepper(sys, law, dt, sys.Q, sys.V)
	if err != nil {
		return nil, nil, err
	}
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			return nil, nil, err
		}
		qs = append(qs, append([]float64(nil), st.Q...))
		vs = append(vs, append([]float64(nil), st.V...))
	}
	return qs, vs, nil
}

// distributed runs sys over the ranks of c and calls check on Root after
// every step with the gathered state.
func distributed(c mpi.Comm, sys *ball2d.System, cfg Config, steps int, check func(step int, q, v []float64, p [2]float64, st Stats) error) error {
	b, err := New(c, sys, cfg)
	if err != nil {
		return err
	}
	n := sys.N()
	for k := 1; k <= steps; k++ {
		if err := b.Step(); err != nil {
			return err
		}
		if err := b.Count(n); err != nil {
			return err
		}
		p, err := b.Momentum()
		if err != nil {
			return err
		}
		q, v, err := b.Gather(cfg.Root, n)
		if err != nil {
			return err
		}
		if c.Rank() == cfg.Root {
			if err := check(k, q, v, p, b.Last); err != nil {
				return err
			}
		}
	}
	return nil
}

func maxDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// grScenario checks GR across the ranks of c against the single-process
// run (sim.Stepper on the whole system, computed on Root) to 1e-12 after
// every step of 200: 400 balls in a walled box under gravity at c = 1,
// 200 at c = 0.5 with a larger step, which settle into a floor layer that
// is one island across every subdomain, and balls falling in a drum that
// the four subdomains share (with a fixed ball), with GR and the LCP.
func grScenario(c mpi.Comm) error {
	const steps = 200
	for _, tc := range []struct {
		n       int
		cor, dt float64
		drum    bool
		law     func() (sim.ContactLaw, error)
	}{{400, 1, 1e-3, false, grLaw}, {200, 0.5, 2e-3, false, grLaw}, {0, 1, 2e-3, true, grLaw}, {0, 0.5, 2e-3, true, lcpLaw}} {
		scene := func() *ball2d.System {
			if tc.drum {
				return drumScene(tc.cor)
			}
			return boxScene(tc.n, tc.cor, true, true, 1)
		}
		sys := scene()
		sys.Dt = tc.dt
		tc.n = sys.N()
		var qs, vs [][]float64
		if c.Rank() == 0 {
			var err error
			if qs, vs, err = reference(scene(), tc.law, tc.dt, steps); err != nil {
				return err
			}
		}
		d := mpi.DimsCreate(c.Size(), 2)
		cfg := Config{Lo: [2]float64{0, 0}, Hi: [2]float64{4, 2}, Dims: [2]int{d[0], d[1]}, NewLaw: tc.law}
		var worst float64
		var crossing int
		err := distributed(c, sys, cfg, steps, func(k int, q, v []float64, _ [2]float64, st Stats) error {
			diff := max(maxDiff(q, qs[k-1]), maxDiff(v, vs[k-1]))
			worst = max(worst, diff)
			crossing += st.Solved
			if diff > 1e-12 {
				return fmt.Errorf("%d balls, c = %v: step %d differs from one process by %.3g", tc.n, tc.cor, k, diff)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			name, _ := tc.law()
			fmt.Printf("%s, %d ranks, %d balls, drum %v, c = %v, h = %v: largest difference from one process over %d steps %.3g; contacts of crossing islands solved on root: %d\n",
				name.Name(), c.Size(), tc.n, tc.drum, tc.cor, tc.dt, steps, worst, crossing)
			if c.Size() > 1 && crossing == 0 {
				return fmt.Errorf("%d ranks: no island crossed a subdomain boundary; the test proves nothing", c.Size())
			}
		}
	}
	return nil
}

// periodicScenario: periodic in both dimensions, no walls, no gravity:
// balls migrate across rank boundaries and the periodic faces; every ball
// is on exactly one rank after every step (Count), momentum stays at its
// start value to 1e-12, balls cross the periodic faces, and the final state
// equals the one-rank run's to 1e-12.
func periodicScenario(c mpi.Comm) error {
	const n, steps = 300, 200
	sys := boxScene(n, 1, false, false, 2)
	var p0 [2]float64
	for i := range sys.M {
		p0[0] += sys.M[i] * sys.V[2*i]
		p0[1] += sys.M[i] * sys.V[2*i+1]
	}
	run := func(c mpi.Comm, final *[]float64) error {
		d := mpi.DimsCreate(c.Size(), 2)
		cfg := Config{Lo: [2]float64{0, 0}, Hi: [2]float64{4, 2}, Dims: [2]int{d[0], d[1]}, Periodic: [2]bool{true, true}, NewLaw: grLaw}
		return distributed(c, sys, cfg, steps, func(k int, q, v []float64, p [2]float64, _ Stats) error {
			if dp := math.Hypot(p[0]-p0[0], p[1]-p0[1]); dp > 1e-12 {
				return fmt.Errorf("step %d: momentum %v, started at %v", k, p, p0)
			}
			for i := 0; i < n; i++ {
				if q[2*i] < 0 || q[2*i] >= 4 || q[2*i+1] < 0 || q[2*i+1] >= 2 {
					return fmt.Errorf("step %d: ball %d at (%v, %v) outside the periodic box", k, i, q[2*i], q[2*i+1])
				}
			}
			if k == steps {
				*final = append(q, v...)
			}
			return nil
		})
	}
	return againstOneRank(c, "balls", steps, run, func(final []float64) int {
		crossed := 0
		for i := 0; i < n; i++ {
			if math.Abs(final[2*i]-sys.Q[2*i]) > 2 {
				crossed++
			}
		}
		return crossed
	})
}

// againstOneRank runs a periodic scenario on the ranks of c and on one
// rank, and checks on rank 0 that bodies crossed a periodic face (crossed
// counts them in the final state) and that the final states are equal.
func againstOneRank(c mpi.Comm, what string, steps int, run func(mpi.Comm, *[]float64) error, crossed func([]float64) int) error {
	var final, one []float64
	if err := run(c, &final); err != nil {
		return err
	}
	if c.Rank() != 0 {
		return nil
	}
	if err := mpi.RunLocal(1, func(c mpi.Comm) error { return run(c, &one) }); err != nil {
		return fmt.Errorf("one-rank reference: %w", err)
	}
	k := crossed(final)
	if k == 0 {
		return fmt.Errorf("no %s crossed a periodic face", what)
	}
	if d := maxDiff(final, one); d > 1e-12 {
		return fmt.Errorf("%d ranks differ from 1 rank by %.3g after %d steps", c.Size(), d, steps)
	}
	fmt.Printf("%s, %d ranks: %d crossed a periodic face; final state equal to one rank's to %.3g\n", what, c.Size(), k, maxDiff(final, one))
	return nil
}

var scenarios = map[string]func(mpi.Comm) error{
	"gr":       grScenario,
	"periodic": periodicScenario,
}

// GR across 1, 2 and 4 goroutine ranks equals the single-process run.
func TestGRAcrossRanksEqualsOneProcess(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		if err := mpi.RunLocal(np, grScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

// Migration across rank and periodic boundaries on 1, 2, 4 goroutine ranks.
func TestPeriodicMigration(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		if err := mpi.RunLocal(np, periodicScenario); err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
	}
}

func TestMain(m *testing.M) {
	mpi.MainScenario(scenarios)
	os.Exit(m.Run())
}

// The scenarios on 1, 2 and 4 MPI ranks (oversubscribed).
func TestMPIRanks(t *testing.T) {
	if !mpi.Enabled {
		t.Skip("MPI tests skipped: built without the MPI binding; run CGO_ENABLED=1 go test -tags mpi ./mpi ./domain")
	}
	if mpi.Mpirun() == "" {
		t.Skip("MPI tests skipped: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)")
	}
	for _, name := range []string{"gr", "periodic", "spheres-gr", "spheres-periodic", "spheres-colours", "spheres-pe", "spheres-restart"} {
		for _, np := range []int{1, 2, 4} {
			out, err := mpi.LaunchScenario(np, name)
			if err != nil {
				t.Fatalf("%s on %d ranks: %v\n%s", name, np, err, out)
			}
			for r := 0; r < np; r++ {
				if !strings.Contains(string(out), fmt.Sprintf("rank %d of %d: ok", r, np)) {
					t.Errorf("%s on %d ranks: rank %d did not report ok:\n%s", name, np, r, out)
				}
			}
			t.Logf("%s on %d MPI ranks:\n%s", name, np, out)
		}
	}
}

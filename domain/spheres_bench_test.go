package domain

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"impactsim/friction"
	"impactsim/mpi"
	"impactsim/spheres"
)

// sphereGas is nx × ny × nz spheres of radius 0.05 (density 1000) on a
// lattice of spacing 0.11 in a box with six walls, random velocities in
// [−1, 1]³, gravity, μ = 0.3: the decomposition's benchmark scene.
func sphereGas(nx, ny, nz int) (*spheres.System, [3]float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	hi := [3]float64{0.11 * float64(nx), 0.11 * float64(ny), 0.11 * float64(nz)}
	s := &spheres.System{Gravity: [3]float64{0, 0, -9.81}, Mu: 0.3}
	for d := 0; d < 3; d++ {
		var lo, up spheres.Plane
		lo.N[d], up.N[d] = 1, -1
		up.P[d] = hi[d]
		s.Planes = append(s.Planes, lo, up)
	}
	for k := 0; k < nz; k++ {
		for j := 0; j < ny; j++ {
			for i := 0; i < nx; i++ {
				x := [3]float64{0.055 + 0.11*float64(i), 0.055 + 0.11*float64(j), 0.055 + 0.11*float64(k)}
				v := [3]float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
				s.Add(x, v, [3]float64{}, 0.05, 1000)
			}
		}
	}
	return s, hi
}

// benchConfig is the benchmark's decomposition for mode gr (Alg. 4, GR +
// Alg. 3, c = 0.5), colours or pe (NBGS, 10 sweeps as waLBerla runs
// them, ε = 0.2).
func benchConfig(mode string, hi [3]float64) SpheresConfig {
	cfg := SpheresConfig{Hi: hi, H: 1e-3, Law: spheres.Law{Operator: "gr", Friction: "alg3", CoR: 0.5}, Epsilon: 0.2}
	nbgs := &NBGSConfig{Law: friction.NBGS{Tol: 1e-300, MaxIter: 10}, Blocks: [3]int{8, 4, 1}}
	switch mode {
	case "colours":
		cfg.NBGS = nbgs
	case "pe":
		nbgs.Mode = PE
		cfg.NBGS = nbgs
	}
	return cfg
}

// sphereBenchScenario runs IMPACTSIM_SPHERES_BENCH="mode nx ny nz steps"
// on the ranks of c and writes the rank table (Report) on rank 0.
func sphereBenchScenario(c mpi.Comm) error {
	f := strings.Fields(os.Getenv("IMPACTSIM_SPHERES_BENCH"))
	if len(f) != 5 {
		return fmt.Errorf("IMPACTSIM_SPHERES_BENCH=%q, want \"mode nx ny nz steps\"", os.Getenv("IMPACTSIM_SPHERES_BENCH"))
	}
	var n [4]int
	for k := range n {
		var err error
		if n[k], err = strconv.Atoi(f[1+k]); err != nil {
			return err
		}
	}
	sys, hi := sphereGas(n[0], n[1], n[2])
	d, err := NewSpheres(c, sys, benchConfig(f[0], hi))
	if err != nil {
		return err
	}
	t := time.Now()
	for k := 0; k < n[3]; k++ {
		if err := d.Step(); err != nil {
			return err
		}
	}
	wall := time.Since(t)
	if c.Rank() == 0 {
		fmt.Printf("%s, %d spheres, %d ranks, %d steps: %.4f s per step (rank 0 wall)\n", f[0], sys.N(), c.Size(), n[3], wall.Seconds()/float64(n[3]))
	}
	return d.Report(os.Stdout)
}

func init() { scenarios["spheres-bench"] = sphereBenchScenario }

// TestMPISpheresBench measures the decomposed sphere step on 1, 2 and 4
// MPI ranks (IMPACTSIM_SPHERES_BENCH="mode nx ny nz steps"; BENCHMARKS.md).
func TestMPISpheresBench(t *testing.T) {
	if os.Getenv("IMPACTSIM_SPHERES_BENCH") == "" {
		t.Skip("set IMPACTSIM_SPHERES_BENCH=\"gr|colours|pe nx ny nz steps\" (and build with -tags mpi) to measure")
	}
	if !mpi.Enabled || mpi.Mpirun() == "" {
		t.Skip("MPI benchmark skipped: needs the MPI binding (CGO_ENABLED=1 -tags mpi) and mpirun")
	}
	for _, np := range []int{1, 2, 4} {
		out, err := mpi.LaunchScenario(np, "spheres-bench")
		if err != nil {
			t.Fatalf("%d ranks: %v\n%s", np, err, out)
		}
		t.Logf("%d MPI ranks:\n%s", np, out)
	}
}

// BenchmarkSpheresStep: one decomposed step of 8,000 spheres (Alg. 4, GR
// + Alg. 3) on one goroutine rank — the decomposition's own cost over
// the plain StepImpact (BenchmarkSpheresPlainStep).
func BenchmarkSpheresStep(b *testing.B) {
	sys, hi := sphereGas(20, 20, 20)
	err := mpi.RunLocal(1, func(c mpi.Comm) error {
		d, err := NewSpheres(c, sys, benchConfig("gr", hi))
		if err != nil {
			return err
		}
		if err := warm(d.Step); err != nil {
			return err
		}
		b.ResetTimer()
		c0 := cpuTime()
		for range b.N {
			if err := d.Step(); err != nil {
				return err
			}
		}
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSpheresPlainStep: the same step with spheres.StepImpact
// (canonical order) in one process.
func BenchmarkSpheresPlainStep(b *testing.B) {
	sys, hi := sphereGas(20, 20, 20)
	cfg := benchConfig("gr", hi)
	ic := &spheres.ImpactConfig{H: cfg.H, Law: cfg.Law, Canonical: true}
	if err := warm(func() error { _, err := sys.StepImpact(ic); return err }); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		if _, err := sys.StepImpact(ic); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

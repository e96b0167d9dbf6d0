package domain

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"impactsim/ball2d"
	"impactsim/mpi"
	"impactsim/sim"
)

// gasBox is nx × ny unit balls (r = 0.5) on a lattice of spacing 1.25 in a
// walled box, random velocities in [−1, 1]², no gravity, c = 1, h = 0.01.
func gasBox(nx, ny int) *ball2d.System {
	rng := rand.New(rand.NewPCG(1, 2))
	w, h := 1.25*float64(nx), 1.25*float64(ny)
	s := &ball2d.System{Dt: 0.01, CoR: 1, NoFrictionBasis: true, Planes: []ball2d.Plane{
		ball2d.NewPlane([2]float64{0, 0}, [2]float64{0, 1}), ball2d.NewPlane([2]float64{0, h}, [2]float64{0, -1}),
		ball2d.NewPlane([2]float64{0, 0}, [2]float64{1, 0}), ball2d.NewPlane([2]float64{w, 0}, [2]float64{-1, 0}),
	}}
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			s.AddBall(0.625+1.25*float64(i), 0.625+1.25*float64(j), 2*rng.Float64()-1, 2*rng.Float64()-1, 1, 0.5, false)
		}
	}
	return s
}

// warm takes the benchmarks' first steps, untimed: the workspaces (the
// laws' too) grow to their sizes, so that B/op and allocs/op are those
// of a steady step.
func warm(step func() error) error {
	for range 10 {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkStep: one step of 20,000 balls on 1 goroutine rank (the
// decomposition's own cost over the plain stepper, BenchmarkPlainStep).
func BenchmarkStep(b *testing.B) {
	sys := gasBox(200, 100)
	err := mpi.RunLocal(1, func(c mpi.Comm) error {
		d, err := New(c, sys, Config{Hi: [2]float64{250, 125}, NewLaw: grLaw})
		if err != nil {
			return err
		}
		if err := warm(d.Step); err != nil {
			return err
		}
		b.ResetTimer()
		c0 := cpuTime()
		var det, tot time.Duration
		for range b.N {
			if err := d.Step(); err != nil {
				return err
			}
			det += d.Last.Detect
			tot += d.Last.Total
		}
		b.ReportMetric(float64(det.Nanoseconds())/float64(b.N), "detect-ns/op")
		b.ReportMetric(float64(tot.Nanoseconds())/float64(b.N), "step-ns/op")
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPlainStep: the same step with sim.Stepper in one process.
func BenchmarkPlainStep(b *testing.B) {
	sys := gasBox(200, 100)
	law, _ := grLaw()
	st, err := sim.NewStepper(sys, law, sys.Dt, sys.Q, sys.V)
	if err != nil {
		b.Fatal(err)
	}
	if err := warm(st.Step); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0 := cpuTime()
	var det time.Duration
	for range b.N {
		if err := st.Step(); err != nil {
			b.Fatal(err)
		}
		det += st.Last.Detection + st.Last.Integration
	}
	b.ReportMetric(float64(det.Nanoseconds())/float64(b.N), "detect-ns/op")
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	_ = math.Pi
}

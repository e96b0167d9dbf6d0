package singlecontact

import (
	"math/rand/v2"
	"syscall"
	"testing"
)

var sink [3]float64

// cpuNanos is the CPU time (user + system) the process has used. The
// benchmarks report it per operation next to the wall time: on the shared
// 2-core machine the wall time of a single-goroutine loop includes the
// time other processes held the core, the CPU time does not.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkMaxDissipation reports ns per contact (wall and CPU) for
// sphere contacts (the collapsed quartic), Table 1 (the full quartic),
// sliding random problems (the quartic path) and a mix of random problems
// of every kind (sticking, grazing, sliding).
func BenchmarkMaxDissipation(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	sphere := make([]Problem, 1024)
	for i := range sphere {
		ann, att := 0.5+rng.Float64(), 0.5+rng.Float64()
		sphere[i] = Problem{A: [3][3]float64{{ann, 0, 0}, {0, att, 0}, {0, 0, att}},
			B: [3]float64{rng.Float64(), 2*rng.Float64() - 1, 2*rng.Float64() - 1}, Mu: 0.4}
	}
	sliding := make([]Problem, 0, 1024)
	for len(sliding) < 1024 {
		p := randomProblem(rng, 2*rng.IntN(2)+1)
		if _, c := MaxDissipation(p); c == Sliding {
			sliding = append(sliding, *p)
		}
	}
	mix := make([]Problem, 1024)
	for i := range mix {
		mix[i] = *randomProblem(rng, rng.IntN(12))
	}
	run := func(name string, ps []Problem) {
		b.Run(name, func(b *testing.B) {
			c0 := cpuNanos()
			for i := 0; b.Loop(); i++ {
				sink, _ = MaxDissipation(&ps[i&1023])
			}
			b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
	run("sphere", sphere)
	t1 := make([]Problem, 1024)
	for i := range t1 {
		t1[i] = *academic()
	}
	run("table1", t1)
	run("sliding", sliding)
	run("mix", mix)
}

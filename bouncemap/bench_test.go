package bouncemap

import (
	"math"
	"math/rand"
	"os"
	"sync"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

// bunnyModel is the shared bunny scaled to 16 cm, meshed at 30 cells, with
// 45 modes — the model of the per-sample benchmarks (built once; about
// 20 s).
var bunnyModel = sync.OnceValues(func() (*bunnySetup, error) {
	f, err := os.Open("../../shared/meshes/bunny.obj")
	if err != nil {
		return nil, err
	}
	vs, fs, err := rigid3d.ReadOBJ(f, "bunny.obj")
	f.Close()
	if err != nil {
		return nil, err
	}
	for i := range vs {
		vs[i] = r3.Scale(0.01, vs[i])
	}
	tm, _, err := tetmesh.FromSurface(vs, fs, tetmesh.Options{Cells: 30, Snap: true}, "bunny.obj")
	if err != nil {
		return nil, err
	}
	pool := par.New(0)
	defer pool.Close()
	mm, err := NewModalModel(tm, ModalOptions{Modes: 45, Material: Steel, Pool: pool})
	if err != nil {
		return nil, err
	}
	samples, err := PlanSamples(vs, fs, SampleOptions{}, "bunny.obj")
	if err != nil {
		return nil, err
	}
	vm, _ := mm.SurfaceModes(vs, pool)
	b := &bunnySetup{mm: mm, sites: make([]Site, len(samples)), samples: samples, vs: vs, fs: fs, vm: vm}
	for i := range samples {
		mm.Site(&samples[i], fs, vm, &b.sites[i])
	}
	return b, nil
})

type bunnySetup struct {
	mm      *ModalModel
	sites   []Site
	samples []Sample
	vs      []r3.Vec
	fs      [][3]int
	vm      [][]float64
}

func bunnyOrSkip(b *testing.B) *bunnySetup {
	s, err := bunnyModel()
	if err != nil {
		b.Skip(err)
	}
	return s
}

// BenchmarkSampleExact is the exact analysis of the bunny's face samples
// at m = 45, one sample per iteration, serial.
func BenchmarkSampleExact(b *testing.B) {
	s := bunnyOrSkip(b)
	var w Workspace
	b.ResetTimer()
	var steps int
	for i := 0; i < b.N; i++ {
		o, err := w.Exact(&s.mm.Body, &s.sites[i%len(s.sites)], ExactOptions{})
		if err != nil {
			b.Fatal(err)
		}
		steps += o.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "passes/sample")
}

// BenchmarkSampleAlg1 is Alg. 1 (Δt = 0.02/ω₄₅) on the bunny's face
// samples at m = 45, serial.
func BenchmarkSampleAlg1(b *testing.B) {
	s := bunnyOrSkip(b)
	var w Workspace
	dt := 0.02 / s.mm.Body.Omega[44]
	b.ResetTimer()
	var steps int
	for i := 0; i < b.N; i++ {
		o, err := w.Alg1(&s.mm.Body, &s.sites[i%len(s.sites)], Alg1Options{Dt: dt})
		if err != nil {
			b.Fatal(err)
		}
		steps += o.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/sample")
}

// BenchmarkAnalyze runs Analyze over all 3,674 bunny faces on 1 and 2
// workers; ns/op divided by 3,674 is the time per sample.
func BenchmarkAnalyze(b *testing.B) {
	s := bunnyOrSkip(b)
	for _, method := range []string{"exact", "alg1"} {
		for _, workers := range []int{1, 2} {
			b.Run(method+"/workers="+string(rune('0'+workers)), func(b *testing.B) {
				pool := par.New(workers)
				defer pool.Close()
				samples := append([]Sample(nil), s.samples...)
				for i := 0; i < b.N; i++ {
					if err := s.mm.Analyze(samples, s.fs, s.vm, AnalyzeOptions{Method: method, Pool: pool}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N*len(samples)), "ms/sample")
			})
		}
	}
}

// BenchmarkLookup is the nearest-sample lookup of eq. (10) on the bunny's
// face map at random surface points and normals.
func BenchmarkLookup(b *testing.B) {
	s := bunnyOrSkip(b)
	mp := &Map{Samples: s.samples, Hx: meanEdge(s.vs, s.fs), Htheta: 9 * math.Pi / 180}
	mp.Prepare()
	rng := rand.New(rand.NewSource(1))
	q := make([][2]r3.Vec, 1024)
	for i := range q {
		sm := s.samples[rng.Intn(len(s.samples))]
		q[i] = [2]r3.Vec{r3.Add(sm.X, r3.Vec{X: 1e-3 * rng.NormFloat64(), Y: 1e-3 * rng.NormFloat64(), Z: 1e-3 * rng.NormFloat64()}), sm.N}
	}
	b.ResetTimer()
	var sum float64
	for i := 0; i < b.N; i++ {
		x := q[i%len(q)]
		sum += mp.Lookup(x[0], x[1])
	}
	_ = sum
}

package bouncemap

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/fem"
	"impactsim/par"
	"impactsim/tetmesh"
)

// Steel is the material of every example in Wang et al.'s Table 2
// (labelled "steel"; E in Pa assumed).
var Steel = fem.Material{Density: 2000, Young: 7e10, Poisson: 0.3}

// BuildOptions control Build.
type BuildOptions struct {
	// Source names the surface in messages and in the map.
	Source string
	// Scale is metres per surface unit (default 1).
	Scale    float64
	Material fem.Material // default Steel
	Modes    int          // default 45
	// Cells is the voxel mesher's resolution (default 30) unless Tets is
	// given (a mesh in surface units, named TetsName).
	Cells    int
	Tets     *tetmesh.Mesh
	TetsName string
	Sample   SampleOptions
	Analyze  AnalyzeOptions
	Eigen    eigen.Options
	Pool     *par.Pool
	// Stage, if set, is called as each stage starts ("mesh", "modes",
	// "samples") with the number of items the stage will report through
	// Analyze.Progress (samples) or 0.
	Stage func(stage string, total int)
}

// BuildReport tells what Build did and how long each stage took.
type BuildReport struct {
	Voxel           *tetmesh.Report // nil for a given mesh
	Quality         tetmesh.Quality
	Model           *ModalModel
	SurfaceDistance float64 // largest distance from a surface vertex to the tetrahedra (surface units)
	Samples         int
	Capped          int
	MeshTime        time.Duration
	ModesTime       time.Duration
	SampleTime      time.Duration
}

// Build makes the bounce map of the closed surface (vs, fs): tetrahedral
// mesh (FromSurface, or opt.Tets), FEM and the lowest opt.Modes elastic
// modes, the samples (PlanSamples), and the restitution analysis of each.
func Build(vs []r3.Vec, fs [][3]int, opt BuildOptions) (*Map, *BuildReport, error) {
	if opt.Scale == 0 {
		opt.Scale = 1
	}
	if !(opt.Scale > 0) || math.IsInf(opt.Scale, 0) {
		return nil, nil, fmt.Errorf("bouncemap: scale %v, want a finite positive length", opt.Scale)
	}
	if opt.Material == (fem.Material{}) {
		opt.Material = Steel
	}
	if opt.Modes == 0 {
		opt.Modes = 45
	}
	if opt.Modes < 1 {
		return nil, nil, fmt.Errorf("bouncemap: %d modes, want at least 1", opt.Modes)
	}
	if opt.Cells == 0 {
		opt.Cells = 30
	}
	stage := func(s string, n int) {
		if opt.Stage != nil {
			opt.Stage(s, n)
		}
	}
	rep := &BuildReport{}
	samples, err := PlanSamples(vs, fs, opt.Sample, opt.Source)
	if err != nil {
		return nil, nil, err
	}
	scaled := make([]r3.Vec, len(vs))
	for i, v := range vs {
		scaled[i] = r3.Scale(opt.Scale, v)
	}
	stage("mesh", 0)
	t0 := time.Now()
	var tm *tetmesh.Mesh
	tetsDesc := opt.TetsName
	if opt.Tets != nil {
		tm = &tetmesh.Mesh{T: opt.Tets.T, V: make([]r3.Vec, len(opt.Tets.V))}
		for i, v := range opt.Tets.V {
			tm.V[i] = r3.Scale(opt.Scale, v)
		}
		if err := tm.Validate(opt.TetsName); err != nil {
			return nil, nil, err
		}
	} else {
		var vr tetmesh.Report
		tm, vr, err = tetmesh.FromSurface(scaled, fs, tetmesh.Options{Cells: opt.Cells, Snap: true}, opt.Source)
		if err != nil {
			return nil, nil, err
		}
		rep.Voxel = &vr
		tetsDesc = fmt.Sprintf("voxel %d", opt.Cells)
	}
	rep.Quality = tm.Quality()
	rep.MeshTime = time.Since(t0)
	stage("modes", 0)
	t1 := time.Now()
	mm, err := NewModalModel(tm, ModalOptions{Modes: opt.Modes, Material: opt.Material, Eigen: opt.Eigen, Pool: opt.Pool})
	if err != nil {
		return nil, nil, err
	}
	rep.Model = mm
	rep.ModesTime = time.Since(t1)
	stage("samples", len(samples))
	t2 := time.Now()
	vm, dist := mm.SurfaceModes(scaled, opt.Pool)
	rep.SurfaceDistance = dist / opt.Scale
	// Analyze in scaled coordinates, store in surface units.
	for i := range samples {
		samples[i].X = r3.Scale(opt.Scale, samples[i].X)
	}
	ao := opt.Analyze
	ao.Pool = opt.Pool
	ao, err = ao.Resolved(mm)
	if err != nil {
		return nil, nil, err
	}
	if err := mm.Analyze(samples, fs, vm, ao); err != nil {
		return nil, nil, err
	}
	for i := range samples {
		samples[i].X = r3.Scale(1/opt.Scale, samples[i].X)
		if samples[i].Capped {
			rep.Capped++
		}
	}
	rep.Samples = len(samples)
	rep.SampleTime = time.Since(t2)
	m := mm.Body.Modes()
	mp := &Map{
		Shape: ShapeHash(vs, fs), SurfaceVertices: len(vs), Surface: len(fs), Scale: opt.Scale,
		Material: opt.Material, Modes: m,
		FreqLow: mm.Body.Omega[0] / (2 * math.Pi), FreqHigh: mm.Body.Omega[m-1] / (2 * math.Pi),
		Method: ao.Method, Center: r3.Scale(1/opt.Scale, mm.Center), Axes: mm.Axes,
		Tets: tetsDesc, TetVertices: len(tm.V), TetCount: len(tm.T),
		Hx: meanEdge(vs, fs), Htheta: edgeStep(opt.Sample),
		Samples: samples,
	}
	if ao.Method == "alg1" {
		mp.Dt = ao.Alg1.Dt
		mp.Speed = ao.Alg1.Speed
		if mp.Speed == 0 {
			mp.Speed = 1
		}
	}
	return mp, rep, nil
}

func edgeStep(o SampleOptions) float64 {
	if o.EdgeStep > 0 {
		return o.EdgeStep * math.Pi / 180
	}
	return 9 * math.Pi / 180
}

// meanEdge is the mean edge length of the surface (each edge once).
func meanEdge(vs []r3.Vec, fs [][3]int) float64 {
	var s float64
	n := 0
	for _, f := range fs {
		for e := 0; e < 3; e++ {
			a, b := f[e], f[(e+1)%3]
			if a < b {
				s += r3.Norm(r3.Sub(vs[a], vs[b]))
				n++
			}
		}
	}
	return s / float64(n)
}

// Stats returns the count, minimum, maximum and mean of ε over the samples.
func (mp *Map) Stats() (n int, lo, hi, mean float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range mp.Samples {
		lo, hi = math.Min(lo, s.Eps), math.Max(hi, s.Eps)
		mean += s.Eps
	}
	n = len(mp.Samples)
	if n > 0 {
		mean /= float64(n)
	}
	return n, lo, hi, mean
}

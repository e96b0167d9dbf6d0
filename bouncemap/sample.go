package bouncemap

import (
	"fmt"
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/par"
	"impactsim/rigid3d"
)

// Kind is what a sample sits on.
type Kind uint8

const (
	// Face samples sit at triangle centroids with the triangle's normal.
	Face Kind = iota
	// Edge samples sit at sharp convex edges' midpoints with normals
	// between the two faces' normals.
	Edge
	// Vertex samples sit at vertices of sharp edges with directions inside
	// the vertex's normal cone.
	Vertex
)

var kindNames = [...]string{"face", "edge", "vertex"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Sample is one point of a bounce map: where it sits (input frame of the
// surface) and the outcome of its analysis.
type Sample struct {
	Kind       Kind
	Elem       int // face, vertex index, or for edges the first face
	X, N       r3.Vec
	Eps        float64
	TauSim     float64
	TauLast    float64
	Collisions int
	Capped     bool
	// Other is the second endpoint of an edge sample's edge (−1 otherwise).
	Other int
}

// SampleOptions control PlanSamples.
type SampleOptions struct {
	// Sharp adds edge and vertex samples at sharp convex edges (Fig. 12).
	Sharp bool
	// SharpAngle is the dihedral angle between face normals above which an
	// edge is sharp, degrees (default 9).
	SharpAngle float64
	// EdgeStep is the angular spacing of edge normals, degrees (default 9).
	EdgeStep float64
	// SphereLevel is the subdivision level of the icosahedron whose
	// directions sample vertex cones (default 4: 2,562 directions).
	SphereLevel int
}

// PlanSamples lists the samples of the closed surface (vs, fs): one per
// face (centroid, normal), and with opt.Sharp, at each sharp convex edge
// the midpoint with the normals slerped from one face normal to the other
// at opt.EdgeStep (endpoints excluded: they are the faces'), and at each
// vertex of a sharp edge the sphere directions N with N·(w − v) ≤ 0 for
// every neighbour w (the closed normal cone; empty at saddles).
func PlanSamples(vs []r3.Vec, fs [][3]int, opt SampleOptions, source string) ([]Sample, error) {
	if err := rigid3d.ValidateSurface(vs, fs, source); err != nil {
		return nil, err
	}
	if opt.SharpAngle == 0 {
		opt.SharpAngle = 9
	}
	if opt.EdgeStep == 0 {
		opt.EdgeStep = 9
	}
	if opt.SphereLevel == 0 {
		opt.SphereLevel = 4
	}
	normals := make([]r3.Vec, len(fs))
	var out []Sample
	for k, f := range fs {
		a, b, c := vs[f[0]], vs[f[1]], vs[f[2]]
		normals[k] = r3.Unit(r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
		out = append(out, Sample{Kind: Face, Elem: k, X: r3.Scale(1.0/3, r3.Add(a, r3.Add(b, c))), N: normals[k], Other: -1})
	}
	if !opt.Sharp {
		return out, nil
	}
	// Edges, each once, with their two faces (the edge a→b is in the
	// first face, b→a in the second).
	type half struct{ face, opp int }
	edges := make(map[[2]int]half, 3*len(fs)/2)
	sharpV := make([]bool, len(vs))
	nbr := make([][]int, len(vs))
	thr := opt.SharpAngle * math.Pi / 180
	step := opt.EdgeStep * math.Pi / 180
	for k, f := range fs {
		for e := 0; e < 3; e++ {
			a, b, c := f[e], f[(e+1)%3], f[(e+2)%3]
			nbr[a] = append(nbr[a], b)
			edges[[2]int{a, b}] = half{k, c}
		}
	}
	for k, f := range fs {
		for e := 0; e < 3; e++ {
			a, b := f[e], f[(e+1)%3]
			if a > b {
				continue // the other face lists it a < b
			}
			h2 := edges[[2]int{b, a}]
			n1, n2 := normals[k], normals[h2.face]
			th := math.Acos(math.Max(-1, math.Min(1, r3.Dot(n1, n2))))
			convex := r3.Dot(r3.Sub(vs[h2.opp], vs[a]), n1) < 0
			if th <= thr || !convex {
				continue
			}
			sharpV[a], sharpV[b] = true, true
			mid := r3.Scale(0.5, r3.Add(vs[a], vs[b]))
			for j := 1; float64(j)*step < th-1e-9; j++ {
				t := float64(j) * step
				// slerp(n1, n2) at angle t from n1.
				n := r3.Unit(r3.Add(r3.Scale(math.Sin(th-t), n1), r3.Scale(math.Sin(t), n2)))
				out = append(out, Sample{Kind: Edge, Elem: a, Other: b, X: mid, N: n})
			}
		}
	}
	dirs, _ := rigid3d.IcosphereMesh(opt.SphereLevel)
	for v, sharp := range sharpV {
		if !sharp {
			continue
		}
		for _, d := range dirs {
			in := true
			for _, w := range nbr[v] {
				if r3.Dot(d, r3.Sub(vs[w], vs[v])) > 0 {
					in = false
					break
				}
			}
			if in {
				out = append(out, Sample{Kind: Vertex, Elem: v, Other: -1, X: vs[v], N: d})
			}
		}
	}
	return out, nil
}

// AnalyzeOptions control Analyze.
type AnalyzeOptions struct {
	// Method is "exact" (default) or "alg1".
	Method string
	Alg1   Alg1Options
	Exact  ExactOptions
	// DtFactor sets Alg. 1's step Δt = DtFactor/ω_m when Alg1.Dt is zero
	// (default 0.02).
	DtFactor float64
	Pool     *par.Pool
	// Progress, if set, is called with the number of finished samples
	// (from any worker, serialized by the caller's own means).
	Progress func(done int)
}

// Resolved returns opt with its defaults filled in for model mm.
func (opt AnalyzeOptions) Resolved(mm *ModalModel) (AnalyzeOptions, error) {
	if opt.Method == "" {
		opt.Method = "exact"
	}
	if opt.Method != "exact" && opt.Method != "alg1" {
		return opt, fmt.Errorf("bouncemap: method %q, want exact or alg1", opt.Method)
	}
	if opt.Method == "exact" && opt.Alg1.Damping != 0 {
		return opt, fmt.Errorf("bouncemap: damping needs --method alg1 (the exact analysis is undamped)")
	}
	if opt.DtFactor == 0 {
		opt.DtFactor = 0.02
	}
	if opt.Alg1.Dt == 0 && mm.Body.Modes() > 0 {
		opt.Alg1.Dt = opt.DtFactor / mm.Body.Omega[mm.Body.Modes()-1]
	}
	return opt, nil
}

// SurfaceModes interpolates U at every surface vertex (body components,
// 3m per vertex) and returns the largest distance from a vertex to the
// tetrahedral mesh.
func (mm *ModalModel) SurfaceModes(vs []r3.Vec, pool *par.Pool) ([][]float64, float64) {
	m := mm.Body.Modes()
	u := make([][]float64, len(vs))
	dist := make([]float64, len(vs))
	pool.Each(len(vs), func(_, i int) {
		u[i] = make([]float64, 3*m)
		dist[i] = mm.ModesAt(vs[i], u[i])
	})
	var dmax float64
	for _, d := range dist {
		dmax = math.Max(dmax, d)
	}
	return u, dmax
}

// Site returns the analysis site of sample s: X and N in body
// coordinates, U the mean of the mode vectors of the sample's surface
// vertices (three for a face, two for an edge, one for a vertex).
func (mm *ModalModel) Site(s *Sample, fs [][3]int, vertexModes [][]float64, dst *Site) {
	m := mm.Body.Modes()
	if cap(dst.U) < 3*m {
		dst.U = make([]float64, 3*m)
	}
	dst.U = dst.U[:3*m]
	var ids [3]int
	var cnt int
	switch s.Kind {
	case Face:
		ids, cnt = fs[s.Elem], 3
	case Edge:
		ids, cnt = [3]int{s.Elem, s.Other}, 2
	default:
		ids, cnt = [3]int{s.Elem}, 1
	}
	for k := range dst.U {
		var x float64
		for _, v := range ids[:cnt] {
			x += vertexModes[v][k]
		}
		dst.U[k] = x / float64(cnt)
	}
	dst.X = mm.ToBody(s.X)
	dst.N = r3.Unit(mm.DirToBody(s.N))
}

// Analyze runs the restitution analysis of every sample on the workers of
// opt.Pool and stores the outcomes in the samples (each sample by the same
// arithmetic on any worker: results do not depend on the worker count).
func (mm *ModalModel) Analyze(samples []Sample, fs [][3]int, vertexModes [][]float64, opt AnalyzeOptions) error {
	opt, err := opt.Resolved(mm)
	if err != nil {
		return err
	}
	nw := opt.Pool.Workers()
	ws := make([]Workspace, nw)
	sites := make([]Site, nw)
	errs := make([]error, len(samples))
	var done atomic.Int64
	opt.Pool.Each(len(samples), func(w, i int) {
		s := &samples[i]
		mm.Site(s, fs, vertexModes, &sites[w])
		var o Outcome
		var err error
		if opt.Method == "alg1" {
			o, err = ws[w].Alg1(&mm.Body, &sites[w], opt.Alg1)
		} else {
			o, err = ws[w].Exact(&mm.Body, &sites[w], opt.Exact)
		}
		errs[i] = err
		s.Eps, s.TauSim, s.TauLast, s.Collisions, s.Capped = o.Eps, o.TauSim, o.TauLast, o.Collisions, o.Capped
		if opt.Progress != nil {
			opt.Progress(int(done.Add(1)))
		}
	})
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("bouncemap: sample %d (%v %d): %w", i, samples[i].Kind, samples[i].Elem, err)
		}
	}
	return nil
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fogleman/gg"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/bouncemap"
	"impactsim/bounded"
	"impactsim/fem"
	"impactsim/output"
	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

// readSurface reads a closed OBJ surface; a problem is bad input.
func readSurface(path string) ([]r3.Vec, [][3]int, error) {
	f, err := bounded.OpenText(path, bounded.Text, "OBJ mesh")
	if err != nil {
		return nil, nil, usageError{err}
	}
	defer f.Close()
	vs, fs, err := rigid3d.ReadOBJ(f, path)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if err := rigid3d.ValidateSurface(vs, fs, path); err != nil {
		return nil, nil, usageError{err}
	}
	return vs, fs, nil
}

func bouncemapBuild(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("bouncemap build")
	modes := count(fl, "modes", 45, 1, 2000, "number of lowest elastic modes")
	out := fl.String("out", "", "`MAP` file to write (default out/NAME.bmap)")
	cells := count(fl, "cells", 30, 2, 400, "lattice cells along the longest side of the tetrahedral mesh")
	tets := fl.String("tets", "", "read the tetrahedral mesh from this TetGen `FILE.node` (and .ele) instead of meshing")
	sharp := fl.Bool("sharp", false, "also analyse sharp edges and vertex cones")
	method := fl.String("method", "exact", "restitution analysis: `exact|alg1`, the exact small-speed analysis or (the paper's Algorithm 1)")
	dtFactor := fl.Float64("dt-factor", 0.02, "alg1: time step as a fraction of 1/ω_M (the highest mode)")
	scale := fl.Float64("scale", 1, "metres per OBJ unit")
	rho := fl.Float64("rho", bouncemap.Steel.Density, "density (kg/m³)")
	young := fl.Float64("young", bouncemap.Steel.Young, "Young's modulus (Pa)")
	poisson := fl.Float64("poisson", bouncemap.Steel.Poisson, "Poisson's ratio")
	workers := count(fl, "workers", 0, 0, maxWorkers, "goroutines (0: GOMAXPROCS)")
	writeTets := fl.String("write-tets", "", "also write the tetrahedral mesh as PREFIX.node and PREFIX.ele")
	quiet := fl.Bool("quiet", false, "no progress output")
	pos, err := parse(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("bouncemap build: expected one mesh file, got %d arguments", len(pos))
	}
	mat := fem.Material{Density: *rho, Young: *young, Poisson: *poisson}
	switch {
	case *method != "exact" && *method != "alg1":
		return badInput("bouncemap build: --method %q, expected exact or alg1", *method)
	case !(*dtFactor > 0 && *dtFactor <= bouncemap.MaxOmegaDt):
		return badInput("bouncemap build: --dt-factor %v, expected 0 < ω_m·Δt ≤ %v", *dtFactor, bouncemap.MaxOmegaDt)
	case !(*scale > 0) || math.IsInf(*scale, 0):
		return badInput("bouncemap build: --scale %v, expected a finite positive length (metres per OBJ unit)", *scale)
	}
	if err := mat.Validate(); err != nil {
		return badInput("bouncemap build: %v", err)
	}
	meshPath := pos[0]
	vs, fs, err := readSurface(meshPath)
	if err != nil {
		return err
	}
	opt := bouncemap.BuildOptions{Source: meshPath, Scale: *scale, Material: mat, Modes: *modes, Cells: *cells,
		Sample:  bouncemap.SampleOptions{Sharp: *sharp},
		Analyze: bouncemap.AnalyzeOptions{Method: *method, DtFactor: *dtFactor}}
	if *tets != "" {
		tm, err := readTetGen(*tets)
		if err != nil {
			return err
		}
		opt.Tets, opt.TetsName = tm, filepath.Base(*tets)
	}
	if *out == "" {
		*out = filepath.Join("out", strings.TrimSuffix(filepath.Base(meshPath), filepath.Ext(meshPath))+".bmap")
	}
	pool := par.New(*workers)
	defer pool.Close()
	opt.Pool = pool
	var bar *output.Progress
	var mu sync.Mutex
	opt.Stage = func(stage string, total int) {
		if *quiet {
			return
		}
		switch stage {
		case "mesh":
			fmt.Fprintf(stdout, "meshing %s …\n", meshPath)
		case "modes":
			fmt.Fprintf(stdout, "solving for %d modes …\n", *modes)
		case "samples":
			bar = progress(stderr, *quiet, float64(total), "ε samples")
		}
	}
	opt.Analyze.Progress = func(done int) {
		if bar != nil {
			mu.Lock()
			bar.Update(float64(done))
			mu.Unlock()
		}
	}
	t0 := time.Now()
	mp, rep, err := bouncemap.Build(vs, fs, opt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		var me *rigid3d.MeshError
		if errors.As(err, &me) {
			return usageError{err}
		}
		return err
	}
	if rel, err := filepath.Rel(filepath.Dir(*out), meshPath); err == nil {
		mp.Source = rel
	} else {
		mp.Source = meshPath
	}
	var buf bytes.Buffer
	if err := mp.Write(&buf); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := output.WriteFileAtomic(*out, buf.Bytes()); err != nil {
		return err
	}
	if *writeTets != "" {
		if err := writeTetGenFiles(*writeTets, rep.Model.Mesh, *scale); err != nil {
			return err
		}
	}
	n, lo, hi, mean := mp.Stats()
	q := rep.Quality
	fmt.Fprintf(stdout, "surface: %d vertices, %d triangles\n", len(vs), len(fs))
	if rep.Voxel != nil {
		fmt.Fprintf(stdout, "tetrahedra (voxel, %d cells, spacing %.4g m): %v; %d of %d boundary vertices snapped, %d partly; parts %d (dropped %d cells)\n",
			*cells, rep.Voxel.H, q, rep.Voxel.Snapped, rep.Voxel.Boundary, rep.Voxel.Partial, rep.Voxel.Parts, rep.Voxel.Dropped)
	} else {
		fmt.Fprintf(stdout, "tetrahedra (%s): %v\n", opt.TetsName, q)
	}
	fmt.Fprintf(stdout, "surface to tetrahedra: at most %.3g (surface units)\n", rep.SurfaceDistance)
	e := rep.Model.Eigen
	fmt.Fprintf(stdout, "modes: %d, f1 = %.1f Hz … f%d = %.1f Hz; eigen solve %.2f s (factor %.2f s, nnz(L) %d, %d solves), residual %.1e\n",
		mp.Modes, mp.FreqLow, mp.Modes, mp.FreqHigh, rep.ModesTime.Seconds(), e.FactorTime.Seconds(), e.FactorNNZ, e.Solves, e.Residual)
	fmt.Fprintf(stdout, "samples: %d (%s), %.3f ms each on %d workers; capped %d\n", n, mp.Method, rep.SampleTime.Seconds()*1e3/float64(n), pool.Workers(), rep.Capped)
	fmt.Fprintf(stdout, "ε: min %.6f, max %.6f, mean %.6f\n", lo, hi, mean)
	fmt.Fprintf(stdout, "wrote %s (%.1f s)\n", *out, time.Since(t0).Seconds())
	if rep.Capped > 0 {
		fmt.Fprintf(stderr, "impactsim: warning: %d samples hit the step cap (ε kept at its last value)\n", rep.Capped)
	}
	return nil
}

// readTetGen reads FILE.node and the .ele beside it.
func readTetGen(nodePath string) (*tetmesh.Mesh, error) {
	base := strings.TrimSuffix(nodePath, filepath.Ext(nodePath))
	elePath := base + ".ele"
	nf, err := bounded.OpenText(nodePath, bounded.Text, "TetGen node file")
	if err != nil {
		return nil, usageError{err}
	}
	defer nf.Close()
	ef, err := bounded.OpenText(elePath, bounded.Text, "TetGen element file")
	if err != nil {
		return nil, usageError{err}
	}
	defer ef.Close()
	m, err := tetmesh.ReadTetGen(nf, nodePath, ef, elePath)
	if err != nil {
		return nil, usageError{err}
	}
	return m, nil
}

// writeTetGenFiles writes the (scaled) analysis mesh back in surface
// units as PREFIX.node / PREFIX.ele.
func writeTetGenFiles(prefix string, m *tetmesh.Mesh, scale float64) error {
	um := &tetmesh.Mesh{T: m.T, V: make([]r3.Vec, len(m.V))}
	for i, v := range m.V {
		um.V[i] = r3.Scale(1/scale, v)
	}
	var node, ele bytes.Buffer
	if err := tetmesh.WriteTetGen(um, &node, &ele); err != nil {
		return err
	}
	if err := output.WriteFileAtomic(prefix+".node", node.Bytes()); err != nil {
		return err
	}
	return output.WriteFileAtomic(prefix+".ele", ele.Bytes())
}

// loadMap reads a map file; a problem is bad input.
func loadMap(path string) (*bouncemap.Map, error) {
	f, err := bounded.Open(path, bounded.Text, "Bounce Map file")
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	mp, err := bouncemap.Read(f, path)
	if err != nil {
		return nil, usageError{err}
	}
	return mp, nil
}

func bouncemapShow(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("bouncemap show")
	meshFlag := fl.String("mesh", "", "the surface (OBJ) the map was built from (default: the one the map names)")
	out := fl.String("out", "", "output directory (default MAP_show)")
	width := count(fl, "width", 480, 64, 4096, "image width in pixels per view")
	height := count(fl, "height", 400, 64, 4096, "image height in pixels per view")
	pos, err := parse(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("bouncemap show: expected one map file, got %d arguments", len(pos))
	}
	mapPath := pos[0]
	mp, err := loadMap(mapPath)
	if err != nil {
		return err
	}
	meshPath := *meshFlag
	if meshPath == "" {
		if mp.Source == "-" || mp.Source == "" {
			return badInput("bouncemap show: %s does not name its surface; give --mesh", mapPath)
		}
		meshPath = mp.Source
		if !filepath.IsAbs(meshPath) {
			meshPath = filepath.Join(filepath.Dir(mapPath), meshPath)
		}
	}
	vs, fs, err := readSurface(meshPath)
	if err != nil {
		return err
	}
	if err := mp.CheckShape(vs, fs, meshPath, mapPath); err != nil {
		return usageError{err}
	}
	if *out == "" {
		*out = strings.TrimSuffix(mapPath, filepath.Ext(mapPath)) + "_show"
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	// Per face: the face sample's values (every face has one).
	eps := make([]float64, len(fs))
	tau := make([]float64, len(fs))
	coll := make([]float64, len(fs))
	var edges, verts int
	for _, s := range mp.Samples {
		switch s.Kind {
		case bouncemap.Face:
			eps[s.Elem], tau[s.Elem], coll[s.Elem] = s.Eps, s.TauLast, float64(s.Collisions)
		case bouncemap.Edge:
			edges++
		default:
			verts++
		}
	}
	pts := make([][3]float64, len(vs))
	polys := make([][]int, len(fs))
	for i, v := range vs {
		pts[i] = [3]float64{v.X, v.Y, v.Z}
	}
	for k, f := range fs {
		polys[k] = []int{f[0], f[1], f[2]}
	}
	vtp := filepath.Join(*out, "bouncemap.vtp")
	if err := output.WriteVTPPolys(vtp, pts, polys, []output.PointField{
		output.ScalarField("eps", eps), output.ScalarField("tau_last", tau), output.ScalarField("collisions", coll)}); err != nil {
		return err
	}
	png := filepath.Join(*out, "bouncemap.png")
	n, lo, hi, mean := mp.Stats()
	title := fmt.Sprintf("%s: ε %.3f–%.3f, mean %.3f (%d samples, m = %d, %s)", filepath.Base(meshPath), lo, hi, mean, n, mp.Modes, mp.Method)
	if err := renderMap(png, vs, fs, eps, *width, *height, title); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", title)
	if edges+verts > 0 {
		fmt.Fprintf(stdout, "(%d edge and %d vertex samples are in the map but not drawn: faces show their own sample)\n", edges, verts)
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", png, vtp)
	return nil
}

// renderMap draws the surface coloured by ε from four sides (front, back,
// top, bottom) with a colour bar.
func renderMap(path string, vs []r3.Vec, fs [][3]int, eps []float64, w, h int, title string) error {
	lo, hi := rigid3d.Bounds(vs)
	c := r3.Scale(0.5, r3.Add(lo, hi))
	rgb := make([]color.RGBA, len(fs))
	zero := make([]int, len(fs))
	for k := range fs {
		rgb[k] = output.SpeedColor(eps[k], 1)
	}
	views := []struct {
		name string
		rot  func(r3.Vec) r3.Vec
	}{
		{"front", func(p r3.Vec) r3.Vec { return p }},
		{"back", func(p r3.Vec) r3.Vec { return r3.Vec{X: -p.X, Y: p.Y, Z: -p.Z} }},
		{"top", func(p r3.Vec) r3.Vec { return r3.Vec{X: p.X, Y: -p.Z, Z: p.Y} }},
		{"bottom", func(p r3.Vec) r3.Vec { return r3.Vec{X: p.X, Y: p.Z, Z: -p.Y} }},
	}
	var frames []output.Frame3D
	for _, v := range views {
		fr := output.Frame3D{Tris: fs, Color: zero, RGB: rgb}
		for _, p := range vs {
			q := v.rot(r3.Sub(p, c))
			fr.Points = append(fr.Points, [3]float64{q.X, q.Y, q.Z})
		}
		frames = append(frames, fr)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".bouncemap-show-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	info, err := output.Render3D(frames, output.Render3DOptions{Dir: tmp, Width: w, Height: h, Outputs: output.OutputPNG})
	if err != nil {
		return err
	}
	const bar, top = 70, 28
	dc := gg.NewContext(2*w+bar, 2*h+top)
	dc.SetRGB(1, 1, 1)
	dc.Clear()
	for i, p := range info.PNGs {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		img, err := pngDecode(f)
		f.Close()
		if err != nil {
			return err
		}
		dst := image.NewRGBA(img.Bounds())
		draw.Draw(dst, dst.Bounds(), img, image.Point{}, draw.Src)
		x, y := (i%2)*w, top+(i/2)*h
		dc.DrawImage(dst, x, y)
		dc.SetRGB(0.2, 0.2, 0.2)
		dc.DrawString(views[i].name, float64(x+8), float64(y+16))
	}
	dc.SetRGB(0, 0, 0)
	// The bitmap font has no Greek or dashes.
	ascii := strings.NewReplacer("ε", "eps", "–", "-", "…", "...")
	dc.DrawString(ascii.Replace(title), 8, 18)
	// Colour bar: ε from 0 (bottom) to 1 (top).
	x0, y0, bh := float64(2*w+18), float64(top+20), float64(2*h-60)
	for k := 0; k < int(bh); k++ {
		col := output.SpeedColor(1-float64(k)/bh, 1)
		dc.SetColor(col)
		dc.DrawRectangle(x0, y0+float64(k), 18, 1)
		dc.Fill()
	}
	dc.SetRGB(0, 0, 0)
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		dc.DrawString(fmt.Sprintf("%.2f", v), x0+22, y0+(1-v)*bh+4)
	}
	dc.DrawString("eps", x0-2, y0-6)
	var buf bytes.Buffer
	if err := dc.EncodePNG(&buf); err != nil {
		return err
	}
	return output.WriteFileAtomic(path, buf.Bytes())
}

func pngDecode(r io.Reader) (image.Image, error) { return png.Decode(r) }

func bouncemapCombiners(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("bouncemap combiners")
	n := count(fl, "n", 200, 2, 2000, "sites per shape, spread evenly in ε; all N² pairs are collided")
	modes := count(fl, "modes", 45, 1, 2000, "number of lowest elastic modes")
	cells := count(fl, "cells", 24, 4, 400, "lattice cells along the longest side")
	bunny := fl.String("bunny", "../shared/meshes/bunny.obj", "the bunny's OBJ surface")
	out := fl.String("out", "out/combiners", "output directory")
	workers := count(fl, "workers", 0, 0, maxWorkers, "goroutines (0: GOMAXPROCS)")
	pos, err := parse(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return badInput("bouncemap combiners: unexpected arguments %v", pos)
	}
	type shape struct {
		name   string
		vs     []r3.Vec
		fs     [][3]int
		scale  float64
		detail string
	}
	rodV, rodF := rigid3d.CapsuleMesh(0.01, 0.18, 32, 8, 60)
	barV, barF := rigid3d.BoxGridMesh(r3.Vec{X: 0.1, Y: 0.01, Z: 0.01}, 0.004)
	torV, torF := rigid3d.TorusMesh(0.06, 0.02, 64, 24)
	triV, triF := rigid3d.TrefoilMesh(0.5, 160, 20)
	shapes := []shape{
		{"RectBar", barV, barF, 1, "200×20×20 mm"},
		{"Rod", rodV, rodF, 1, "capsule, 200 mm × ⌀20 mm"},
		{"Torus", torV, torF, 1, "R 60 mm, r 20 mm"},
		{"Trefoil", triV, triF, 0.03, "tube r 15 mm"},
	}
	if vs, fs, err := readSurface(*bunny); err == nil {
		shapes = append(shapes, shape{"Bunny", vs, fs, 0.01, filepath.Base(*bunny) + " ×0.01 m"})
	} else {
		fmt.Fprintf(stderr, "impactsim: warning: bunny left out: %v\n", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	pool := par.New(*workers)
	defer pool.Close()
	var csv strings.Builder
	csv.WriteString("object,combiner,mean_l1_error,pairs\n")
	errs := make([][]float64, len(shapes))
	for si, sh := range shapes {
		t0 := time.Now()
		mp, rep, err := bouncemap.Build(sh.vs, sh.fs, bouncemap.BuildOptions{Source: sh.name, Scale: sh.scale, Modes: *modes, Cells: *cells, Pool: pool})
		if err != nil {
			return fmt.Errorf("%s: %w", sh.name, err)
		}
		eps := make([]float64, len(mp.Samples))
		for i, s := range mp.Samples {
			eps[i] = s.Eps
		}
		pick := bouncemap.StratifiedPick(eps, *n)
		mm := rep.Model
		scaled := make([]r3.Vec, len(sh.vs))
		for i, v := range sh.vs {
			scaled[i] = r3.Scale(sh.scale, v)
		}
		vm, _ := mm.SurfaceModes(scaled, pool)
		sites := make([]bouncemap.Site, len(pick))
		e1 := make([]float64, len(pick))
		for k, i := range pick {
			s := mp.Samples[i]
			s.X = r3.Scale(sh.scale, s.X)
			mm.Site(&s, sh.fs, vm, &sites[k])
			e1[k] = s.Eps
		}
		pt, err := bouncemap.SelfPairs(&mm.Body, sites, e1, pool, bouncemap.ExactOptions{})
		if err != nil {
			return fmt.Errorf("%s: %w", sh.name, err)
		}
		_, lo, hi, mean := mp.Stats()
		fmt.Fprintf(stdout, "%s (%s): %d faces, ε %.3f–%.3f mean %.3f; %d sites, %d pair runs (%.1f s)\n",
			sh.name, sh.detail, len(sh.fs), lo, hi, mean, len(pick), len(pick)*(len(pick)+1)/2, time.Since(t0).Seconds())
		for _, c := range bouncemap.Combiners {
			e := pt.MeanError(c)
			errs[si] = append(errs[si], e)
			fmt.Fprintf(&csv, "%s,%s,%.6f,%d\n", sh.name, c.Name, e, len(pick)*len(pick))
		}
		runtime.GC()
	}
	// The table, combiners by average error as the paper sorts them.
	fmt.Fprintf(stdout, "\n%-18s %s%s", "combiner", "F(εi,εj)", strings.Repeat(" ", 21-utf8.RuneCountInString("F(εi,εj)")))
	for _, sh := range shapes {
		fmt.Fprintf(stdout, " %9s", sh.name)
	}
	fmt.Fprintf(stdout, " %9s\n", "average")
	order := make([]int, len(bouncemap.Combiners))
	avg := make([]float64, len(order))
	for c := range order {
		order[c] = c
		for si := range shapes {
			avg[c] += errs[si][c] / float64(len(shapes))
		}
	}
	sortByValue(order, avg)
	for _, c := range order {
		cb := bouncemap.Combiners[c]
		fmt.Fprintf(stdout, "%-18s %s%s", cb.Name, cb.Formula, strings.Repeat(" ", max(1, 21-utf8.RuneCountInString(cb.Formula))))
		for si := range shapes {
			fmt.Fprintf(stdout, " %9.3f", errs[si][c])
		}
		fmt.Fprintf(stdout, " %9.3f\n", avg[c])
	}
	path := filepath.Join(*out, "combiners.csv")
	if err := output.WriteFileAtomic(path, []byte(csv.String())); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", path)
	return nil
}

// sortByValue orders idx by ascending v[idx] (stable).
func sortByValue(idx []int, v []float64) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && v[idx[j]] < v[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

package patterns

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"impactsim/par"
)

// synthetic returns a height field of n × n cells over a cell of side L
// = n (σ = 1) made of cosines of wave number k (in units of 2π/L) along
// the given directions (degrees).
func synthetic(n int, k float64, dirs ...float64) HeightField {
	return syntheticRect(n, n, float64(n), float64(n), float64(n)/k, dirs...)
}

// syntheticRect returns a height field of nx × ny cells over a cell of
// sides lx × ly (σ = 1) made of cosines of wavelength lambda along the
// given directions (degrees).
func syntheticRect(nx, ny int, lx, ly, lambda float64, dirs ...float64) HeightField {
	return syntheticField(nx, ny, lx, ly, func(x, y float64) float64 {
		z := 3.0
		for _, d := range dirs {
			th := d * math.Pi / 180
			z += math.Cos(2 * math.Pi * (math.Cos(th)*x + math.Sin(th)*y) / lambda)
		}
		return z
	})
}

// syntheticField returns the height field of nx × ny cells over a cell of
// sides lx × ly whose cell (ix, iy) holds f at its corner (ix·lx/nx,
// iy·ly/ny).
func syntheticField(nx, ny int, lx, ly float64, f func(x, y float64) float64) HeightField {
	h := HeightField{NX: nx, NY: ny, LX: lx, LY: ly, Z: make([]float64, nx*ny)}
	for iy := 0; iy < ny; iy++ {
		for ix := 0; ix < nx; ix++ {
			h.Z[iy*nx+ix] = f(float64(ix)*lx/float64(nx), float64(iy)*ly/float64(ny))
		}
	}
	return h
}

// TestAnalyzeSynthetic: hexagons, squares and stripes of known wavelength
// give 6, 4 and 2 peaks and their wavelength to 3 %.
func TestAnalyzeSynthetic(t *testing.T) {
	for _, c := range []struct {
		name  string
		dirs  []float64
		peaks int
	}{{"hexagons", []float64{0, 60, 120}, 6}, {"squares", []float64{0, 90}, 4}, {"stripes", []float64{math.Atan2(4, 3) * 180 / math.Pi}, 2}} {
		h := synthetic(70, 5, c.dirs...)
		sp := h.Spectrum()
		p := sp.Analyze(1, 0)
		t.Logf("%s: λ = %.3f (want 14), %d peaks, contrast %.2f", c.name, p.Lambda, p.Peaks, p.Contrast)
		if p.Peaks != c.peaks {
			t.Errorf("%s: %d peaks, want %d", c.name, p.Peaks, c.peaks)
		}
		if math.Abs(p.Lambda-14) > 0.03*14 {
			t.Errorf("%s: λ = %.3f, want 14 ± 3 %%", c.name, p.Lambda)
		}
	}
	flat := HeightField{NX: 20, NY: 20, LX: 20, LY: 20, Z: make([]float64, 400)}
	sp := flat.Spectrum()
	if p := sp.Analyze(1, 0); p.Peaks != 0 || p.Contrast != 0 {
		t.Errorf("flat layer: %+v, want no pattern", p)
	}
}

// TestAnalyzeRectangular: in a periodic cell of aspect √3/2 (HexAspect)
// with L_x = 4λ the three wave vectors of hexagons are allowed ones, and
// hexagons give 6 peaks, squares 4 (their y waves do not fit the cell:
// 3.46 per L_y) and stripes 2, each with λ to 1 %. Wave numbers along y
// are scaled by L_x/L_y; the two axes' grids differ.
func TestAnalyzeRectangular(t *testing.T) {
	const lambda = 20.0
	lx := 4 * lambda
	ly := HexAspect * lx
	for _, c := range []struct {
		name  string
		dirs  []float64
		peaks int
	}{{"hexagons", []float64{0, 60, 120}, 6}, {"squares", []float64{0, 90}, 4}, {"stripes", []float64{0}, 2}} {
		// 0.5σ cells across x, 0.55σ across y: the DFT grids differ
		h := syntheticRect(160, int(math.Round(ly/0.55)), lx, ly, lambda, c.dirs...)
		sp := h.Spectrum()
		p := sp.Analyze(1, 0)
		t.Logf("%s in %.2f × %.2f: λ = %.3f (want %g), %d peaks, contrast %.2f", c.name, lx, ly, p.Lambda, lambda, p.Peaks, p.Contrast)
		if p.Peaks != c.peaks {
			t.Errorf("%s: %d peaks, want %d", c.name, p.Peaks, c.peaks)
		}
		if math.Abs(p.Lambda-lambda) > 0.01*lambda {
			t.Errorf("%s: λ = %.3f, want %g ± 1 %%", c.name, p.Lambda, lambda)
		}
	}
}

// TestAnalyzeGrainNoise: hexagons of λ = 14 (70 × 70 cells of σ) under a
// stronger grain-scale roughness (twelve waves of λ = 3 in directions and
// phases from a fixed pseudo-random sequence, four times the hexagons'
// power) are found with minLambda = 5.4 (6 peaks, λ to 3 %), and not
// without it (the roughness's wave number wins).
func TestAnalyzeGrainNoise(t *testing.T) {
	h := synthetic(70, 5, 0, 60, 120)
	seed := uint32(12345)
	rnd := func() float64 {
		seed = seed*1664525 + 1013904223
		return float64(seed>>8) / float64(1<<24)
	}
	for j := 0; j < 12; j++ {
		th, ph := 2*math.Pi*rnd(), 2*math.Pi*rnd()
		for iy := 0; iy < h.NY; iy++ {
			for ix := 0; ix < h.NX; ix++ {
				h.Z[iy*h.NX+ix] += math.Cos(2*math.Pi*(math.Cos(th)*float64(ix)+math.Sin(th)*float64(iy))/3 + ph)
			}
		}
	}
	sp := h.Spectrum()
	raw := sp.Analyze(1, 0)
	p := sp.Analyze(1, 5.4)
	t.Logf("without the bound: λ = %.2f, %d peaks; with λ ≥ 5.4: λ = %.3f, %d peaks, contrast %.2f", raw.Lambda, raw.Peaks, p.Lambda, p.Peaks, p.Contrast)
	if p.Peaks != 6 || math.Abs(p.Lambda-14) > 0.03*14 {
		t.Errorf("with λ ≥ 5.4: λ = %.3f, %d peaks, want 14 ± 3 %% and 6", p.Lambda, p.Peaks)
	}
	if !(raw.Lambda < 5.4) {
		t.Errorf("without the bound: λ = %.3f, want the roughness's (< 5.4): the test does not exercise the bound", raw.Lambda)
	}
}

// TestDispersion: λ/H of the dispersion relation at the three points.
func TestDispersion(t *testing.T) {
	for _, p := range Fig12 {
		t.Logf("%s: f* = %.2f, λ/H = %.3f", p.Name, p.FStar, Dispersion(p.FStar))
	}
	if d := Dispersion(1); d != 2.1 {
		t.Errorf("λ/H at f* = 1: %v, want 2.1", d)
	}
}

// TestLayerHeightRisesWithGamma: a periodic layer of 2,000 spheres shaken
// at f* = 0.38 for 3 cycles at h = 10⁻³ (GR + Alg. 3, e(v)) is higher on
// average over its last 1.5 cycles at Γ = 4 than at Γ = 2, and every
// centre stays in the periodic cell above the floor (Alg. 4 lets resting
// contacts sink by ½gh² per step, 0.005σ at this step: the deepest
// overlap with the floor is logged).
func TestLayerHeightRisesWithGamma(t *testing.T) {
	var mean []float64
	pool := par.New(2)
	defer pool.Close()
	for _, gamma := range []float64{2, 4} {
		c := DefaultConfig(Point{Name: "test", FStar: 0.38, Gamma: gamma})
		c.N, c.H = 2000, 1e-3
		y, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		y.SetPool(pool)
		rest := y.MeanHeight()
		steps := int(math.Round(3 / c.Frequency() / c.H))
		sum, k, pen := 0.0, 0, 0.0
		for i := 0; i < steps; i++ {
			st, err := y.Step()
			if err != nil {
				t.Fatal(err)
			}
			pen = math.Max(pen, st.MaxWallPenetration/c.Sigma)
			if i >= steps/2 {
				sum += y.MeanHeight()
				k++
			}
		}
		mean = append(mean, sum/float64(k))
		t.Logf("Γ = %g: mean centre height %.3fσ over the last 1.5 of 3 cycles (%d steps; %.3fσ at the start), deepest overlap with the floor %.3fσ", gamma, mean[len(mean)-1], steps, rest, pen)
		s := y.Sys
		for i := 0; i < s.N(); i++ {
			x, yy, z := s.X[3*i], s.X[3*i+1], s.X[3*i+2]
			if lx, ly := c.Sides(); !(x >= 0 && x < lx && yy >= 0 && yy < ly) || !(z > y.FloorHeight()) {
				t.Fatalf("Γ = %g: sphere %d at (%g, %g, %g), floor %g: outside the cell or in the floor", gamma, i, x, yy, z, y.FloorHeight())
			}
		}
	}
	if !(mean[1] > mean[0]) {
		t.Errorf("mean height %.3fσ at Γ = 4, %.3fσ at Γ = 2: want it to rise with Γ", mean[1], mean[0])
	}
}

// ExampleDispersion prints λ/H of the dispersion relation at the points
// of Fig. 12.
func ExampleDispersion() {
	for _, p := range Fig12 {
		fmt.Printf("%s: f* = %.2f, λ/H = %.2f\n", p.Name, p.FStar, Dispersion(p.FStar))
	}
	// Output:
	// hexagons: f* = 0.38, λ/H = 4.95
	// squares: f* = 0.27, λ/H = 7.19
	// stripes: f* = 0.44, λ/H = 4.25
}

// TestLayerSteadyStepAllocs: on a shaken layer (900 spheres at the hexagon
// point, GR + Alg. 3 with e(v), h = 10⁻³, 2 workers), steps whose problems
// the workspaces have already held allocate nothing: 10 steps from a
// state saved after the layer's first landing are replayed three times
// (every worker's workspace grows to the islands it gets), then a replay
// allocates exactly what restoring the state allocates.
func TestLayerSteadyStepAllocs(t *testing.T) {
	c := DefaultConfig(Fig12[0])
	c.N, c.H = 900, 1e-3
	y, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	pool := par.New(2)
	defer pool.Close()
	y.SetPool(pool)
	contacts := 0
	for k := 0; k < 60 || contacts < c.N; k++ {
		st, err := y.Step()
		if err != nil {
			t.Fatal(err)
		}
		contacts = st.Contacts
		if k > 400 {
			t.Fatalf("no landing in %d steps (%d contacts)", k, contacts)
		}
	}
	var state bytes.Buffer
	if err := y.WriteState(&state); err != nil {
		t.Fatal(err)
	}
	restore := func() {
		if err := y.ReadState(bytes.NewReader(state.Bytes())); err != nil {
			t.Fatal(err)
		}
	}
	most := 0
	replay := func() {
		restore()
		for k := 0; k < 10; k++ {
			st, err := y.Step()
			if err != nil {
				t.Fatal(err)
			}
			most = max(most, st.Contacts)
		}
	}
	for k := 0; k < 3; k++ {
		replay()
	}
	both := testing.AllocsPerRun(3, replay)
	alone := testing.AllocsPerRun(3, restore)
	t.Logf("replay of 10 steps (up to %d contacts at t = %.4f s): %v allocations, restoring alone %v", most, y.Time(), both, alone)
	if both != alone {
		t.Errorf("10 steady steps allocate %v times, want 0 (a replay %v, the restore alone %v)", both-alone, both, alone)
	}
}

// TestLateSamples: the summary TestPatternsLong checks takes the last
// third of the samples, their most frequent peak count (the larger on a
// tie) and their median λ and λ/H (the upper of an even count's middle
// two); the same under the shell and the exact measure.
func TestLateSamples(t *testing.T) {
	var s []Sample
	for i, p := range []int{2, 2, 2, 2, 2, 2, 8, 6, 8, 6, 4, 3} {
		s = append(s, Sample{Pattern: Pattern{Peaks: p, Lambda: float64(10 + i)}, LambdaOverH: float64(i)})
	}
	peaks, lambda, overH, k := lateSamples(s)
	if peaks != 8 || lambda != 20 || overH != 10 || k != 4 {
		t.Errorf("peaks %d, λ %v, λ/H %v over %d samples; want 8, 20, 10 over 4", peaks, lambda, overH, k)
	}
	// the shell measure's symmetry and λ: the last four samples have Q6,
	// Q6, Q4, Q6 largest and λ 25, 20, 25, 25
	for i, q := range [][3]float64{{0.1, 0.2, 0.5}, {0.1, 0.2, 0.6}, {0.1, 0.5, 0.2}, {0.2, 0.1, 0.4}} {
		x := &s[len(s)-4+i]
		x.Shell = ShellPattern{Shell: 4, Lambda: 25, Q2: q[0], Q4: q[1], Q6: q[2]}
		x.ShellLambdaOverH = 5
		if i == 1 {
			x.Shell.Shell, x.Shell.Lambda, x.ShellLambdaOverH = 5, 20, 4
		}
	}
	sym, sl, sh, k := lateShells(s)
	if sym != 6 || sl != 25 || sh != 5 || k != 4 {
		t.Errorf("shells: symmetry %d, λ %v, λ/H %v over %d samples; want 6, 25, 5 over 4", sym, sl, sh, k)
	}
	// the exact measure's count and λ: the last four samples have 4, 2,
	// 2, 4 peaks (a tie: the larger) and λ 44.72, 50, 44.72, 35.36
	for i, c := range []struct {
		peaks         int
		lambda, overH float64
	}{{4, 44.72, 8}, {2, 50, 10}, {2, 44.72, 8}, {4, 35.36, 7}} {
		x := &s[len(s)-4+i]
		x.Exact = ExactPattern{Peaks: c.peaks, Lambda: c.lambda}
		x.ExactLambdaOverH = c.overH
	}
	ep, el, eh, k := lateExact(s)
	if ep != 4 || el != 44.72 || eh != 8 || k != 4 {
		t.Errorf("exact: %d peaks, λ %v, λ/H %v over %d samples; want 4, 44.72, 8 over 4", ep, el, eh, k)
	}
}

// TestLayerTiled: a 2 × 2 tiling of a landing 900-sphere layer holds four
// shifted copies of it (the same spheres, velocities and spins, at the
// same time, inside a cell twice as long each way), and its first step
// finds four times the contacts and moves every copy as the original
// moves (to 1e-12 of σ: the copies differ from the original only by the
// rounding of their shifted positions).
func TestLayerTiled(t *testing.T) {
	c := DefaultConfig(Fig12[0])
	c.N, c.H = 900, 1e-3
	y, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 100; k++ {
		if _, err := y.Step(); err != nil {
			t.Fatal(err)
		}
	}
	z, err := y.Tiled(2)
	if err != nil {
		t.Fatal(err)
	}
	if z.Cfg.N != 4*c.N || z.Sys.N() != 4*c.N || z.T != y.T || z.N != y.N {
		t.Fatalf("tiled layer: %d spheres (config %d), t = %v, %d steps; want %d, t = %v, %d", z.Sys.N(), z.Cfg.N, z.T, z.N, 4*c.N, y.T, y.N)
	}
	lx, ly := y.Cfg.Sides()
	zx, zy := z.Cfg.Sides()
	if math.Abs(zx-2*lx) > 1e-12*lx || math.Abs(zy-2*ly) > 1e-12*ly {
		t.Fatalf("tiled cell %g × %g, want %g × %g", zx, zy, 2*lx, 2*ly)
	}
	sy, err := y.Step()
	if err != nil {
		t.Fatal(err)
	}
	sz, err := z.Step()
	if err != nil {
		t.Fatal(err)
	}
	if sz.Contacts != 4*sy.Contacts {
		t.Fatalf("first tiled step: %d contacts, want 4 × %d", sz.Contacts, sy.Contacts)
	}
	// every sphere of the original has its four copies, one period apart
	worst := 0.0
	n := y.Sys.N()
	for i := 0; i < n; i++ {
		found := 0
		for d := 0; d < z.Sys.N(); d++ {
			dx := z.Sys.X[3*d] - y.Sys.X[3*i]
			dx -= math.Round(dx/lx) * lx
			dy := z.Sys.X[3*d+1] - y.Sys.X[3*i+1]
			dy -= math.Round(dy/ly) * ly
			dz := z.Sys.X[3*d+2] - y.Sys.X[3*i+2]
			if e := math.Abs(dx) + math.Abs(dy) + math.Abs(dz); e < 1e-6*c.Sigma {
				found++
				worst = math.Max(worst, e)
			}
		}
		if found != 4 {
			t.Fatalf("sphere %d: %d copies after a step, want 4", i, found)
		}
	}
	t.Logf("%d contacts → %d; copies within %.2g σ of the original after one step", sy.Contacts, sz.Contacts, worst/c.Sigma)
	if worst > 1e-12*c.Sigma {
		t.Errorf("copies moved %.2g σ away from the original, want ≤ 1e-12 σ", worst/c.Sigma)
	}
}

// TestBizonCell: the default layer is Bizon et al.'s (60,000 spheres in a
// 100σ × 100σ cell, 6.0 per σ², H = 5.42σ in f* = f√(H/g)); PerArea = 0
// gives the first sessions' cell of area Nσ²/Depth; a state file carries
// its cell and is refused by a layer with another cell, and a format-1
// file (no cell) whose centres lie outside the configuration's cell is
// refused too.
func TestBizonCell(t *testing.T) {
	c := DefaultConfig(Fig12[0])
	lx, ly := c.Sides()
	if math.Abs(lx/c.Sigma-100) > 1e-12 || lx != ly {
		t.Errorf("default cell %.15g σ × %.15g σ, want 100σ × 100σ", lx/c.Sigma, ly/c.Sigma)
	}
	if f, want := c.Frequency(), 0.38*math.Sqrt(9.81/(5.42e-3)); math.Abs(f-want) > 1e-12*want {
		t.Errorf("drive frequency %.15g Hz, want f*√(g/H) = %.15g Hz with H = 5.42σ", f, want)
	}
	old := c
	old.PerArea, old.Depth = 0, 5.4
	if ox, _ := old.Sides(); math.Abs(ox/c.Sigma-math.Sqrt(60000/5.4)) > 1e-9 {
		t.Errorf("PerArea = 0: cell %.15g σ, want √(N/5.4) = %.15g σ", ox/c.Sigma, math.Sqrt(60000/5.4))
	}

	// a small layer after a few steps, written and read back
	c.N, c.H = 900, 1e-3
	y, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 5; k++ {
		if _, err := y.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := y.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	same, _ := New(c)
	if err := same.ReadState(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatalf("same configuration: %v", err)
	}
	d := c
	d.PerArea = 5.4
	other, _ := New(d)
	err = other.ReadState(bytes.NewReader(buf.Bytes()))
	t.Logf("another cell: %v", err)
	if err == nil || !strings.Contains(err.Error(), "cell") {
		t.Errorf("state of a %g per σ² cell read into a %g per σ² layer: %v, want an error naming the cell", c.PerArea, d.PerArea, err)
	}

	// format 1: the same bytes without the cell's sides
	v2 := buf.Bytes()
	v1 := append([]byte(stateMagic1), v2[len(stateMagic):len(stateMagic)+16]...)
	v1 = append(v1, v2[len(stateMagic)+32:]...)
	if err := same.ReadState(bytes.NewReader(v1)); err != nil {
		t.Errorf("format 1 in its own cell: %v", err)
	}
	small := c
	small.PerArea = 7
	s, _ := New(small)
	err = s.ReadState(bytes.NewReader(v1))
	t.Logf("format 1 in a smaller cell: %v", err)
	if err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("format-1 state read into a smaller cell: %v, want an error (centres outside the cell)", err)
	}
}

// TestRunKeepsLastSample runs half a period with a step that does not
// divide it (40.3 steps to the half period): Run must reach the end of
// the requested periods, so both quarter-period samples are taken.
func TestRunKeepsLastSample(t *testing.T) {
	c := DefaultConfig(Point{Name: "test", FStar: 0.38, Gamma: 4})
	c.N = 300
	c.H = 0.5 / c.Frequency() / 40.3
	y, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := y.Run(RunOptions{Cycles: 0.5, SampleEvery: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 2 || res.Cost.Steps != 41 {
		t.Fatalf("%d samples after %d steps (%.4f periods), want 2 after 41", len(res.Samples), res.Cost.Steps, y.Cycles())
	}
	if got := y.Cycles(); !(got >= 0.5) {
		t.Errorf("ended at %.6f periods, want ≥ 0.5", got)
	}
}

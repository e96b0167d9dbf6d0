package patterns

import (
	"math"
	"testing"
)

// TestShellsSynthetic: on Bizon's grid (100 × 100 cells of σ over 100σ)
// stripes and squares of an integer shell k give that shell and λ = 100/k
// exactly, and their orientational order: stripes along x Q2 > 0.9 > Q4 >
// Q6 (the Hann window spreads the power onto annulus vectors off the
// axis), squares along the axes Q4 > 0.7 and Q2 = Q6 = 0 (the spectrum's
// 90° symmetry; to 1e-6, the rounding of the synthetic field); hexagons,
// whose 60° wave vectors are not on the square grid, Q6 > 0.5 and Q2, Q4
// < 0.1 in a √3/2 cell that holds them (L_x = 4λ). Symmetry names each
// pattern (2, 4, 6).
func TestShellsSynthetic(t *testing.T) {
	for _, k := range []int{3, 4, 5} {
		lambda := 100 / float64(k)
		for _, c := range []struct {
			name string
			dirs []float64
			sym  int
		}{{"stripes", []float64{0}, 2}, {"squares", []float64{0, 90}, 4}} {
			h := syntheticRect(100, 100, 100, 100, lambda, c.dirs...)
			p := h.Shells(1)
			t.Logf("%s, k = %d: shell %d, λ = %.4g, Q2 %.3g, Q4 %.3g, Q6 %.3g, contrast %.3f", c.name, k, p.Shell, p.Lambda, p.Q2, p.Q4, p.Q6, p.Contrast)
			if p.Shell != k || p.Lambda != lambda {
				t.Errorf("%s, k = %d: shell %d, λ = %v; want %d, %v", c.name, k, p.Shell, p.Lambda, k, lambda)
			}
			if s := p.Symmetry(); s != c.sym {
				t.Errorf("%s, k = %d: symmetry %d, want %d", c.name, k, s, c.sym)
			}
			if c.sym == 2 && !(p.Q2 > 0.9 && p.Q2 > p.Q4 && p.Q4 > p.Q6) {
				t.Errorf("stripes, k = %d: Q2 %.3g, Q4 %.3g, Q6 %.3g; want Q2 > 0.9, Q2 > Q4 > Q6", k, p.Q2, p.Q4, p.Q6)
			}
			if c.sym == 4 && !(p.Q4 > 0.7 && p.Q2 < 1e-6 && p.Q6 < 1e-6) {
				t.Errorf("squares, k = %d: Q2 %.3g, Q4 %.3g, Q6 %.3g; want Q4 > 0.7, Q2 and Q6 < 1e-6", k, p.Q2, p.Q4, p.Q6)
			}
		}
	}
	const lambda = 20.0
	lx := 4 * lambda
	ly := HexAspect * lx
	h := syntheticRect(80, int(math.Round(ly)), lx, ly, lambda, 0, 60, 120)
	p := h.Shells(1)
	t.Logf("hexagons in %.1f × %.1f: shell %d, λ = %.4g, Q2 %.3g, Q4 %.3g, Q6 %.3g", lx, ly, p.Shell, p.Lambda, p.Q2, p.Q4, p.Q6)
	if p.Shell != 4 || p.Lambda != lambda || !(p.Q6 > 0.5) || !(p.Q2 < 0.1) || !(p.Q4 < 0.1) || p.Symmetry() != 6 {
		t.Errorf("hexagons: shell %d, λ = %v, Q2 %.3g, Q4 %.3g, Q6 %.3g, symmetry %d; want shell 4, λ = 20, Q6 > 0.5, Q2 and Q4 < 0.1, symmetry 6",
			p.Shell, p.Lambda, p.Q2, p.Q4, p.Q6, p.Symmetry())
	}
	flat := HeightField{NX: 20, NY: 20, LX: 20, LY: 20, Z: make([]float64, 400)}
	for i := range flat.Z {
		flat.Z[i] = 2.5
	}
	if p := flat.Shells(1); p != (ShellPattern{}) || p.Symmetry() != 0 {
		t.Errorf("flat field: %+v, want no pattern", p)
	}
}

// TestShellsQuantize: the shell measure's λ is L/k for an integer k.
// Stripes along x between two shells go to the nearer one (wave number
// 4.4 → 25σ, 4.6 → 20σ on a 100σ cell); hexagons of λ = 21.74σ (k = 4.6,
// about the ring λ of Bizon's layer at 60,000 spheres, 21.79σ) in the
// square 100σ cell, whose 60° waves are off the grid, are reported at
// shell 4, 25σ (the smoothing damps the higher shells more: e^{−4π²s²f²}
// in power, 0.78 at shell 4 and 0.67 at shell 5 for s = 2σ), while the
// ring's centroid (Spectrum.Analyze) stays below 24σ.
func TestShellsQuantize(t *testing.T) {
	for _, c := range []struct {
		k     float64
		dirs  []float64
		shell int
	}{{4.4, []float64{0}, 4}, {4.6, []float64{0}, 5}, {4.6, []float64{0, 60, 120}, 4}} {
		lambda := 100 / c.k
		h := syntheticRect(100, 100, 100, 100, lambda, c.dirs...)
		p := h.Shells(1)
		sp := h.Spectrum()
		r := sp.Analyze(1, 0)
		t.Logf("k = %.1f (λ = %.2f), %d waves: shell %d (λ = %.2f); the ring's centroid λ = %.2f", c.k, lambda, len(c.dirs), p.Shell, p.Lambda, r.Lambda)
		if p.Shell != c.shell {
			t.Errorf("k = %.1f, %d waves: shell %d, want %d", c.k, len(c.dirs), p.Shell, c.shell)
		}
		if len(c.dirs) == 3 && !(r.Lambda < 24) {
			t.Errorf("hexagons, k = %.1f: the ring's λ = %.2f, want < 24", c.k, r.Lambda)
		}
	}
}

// TestSmoothPeriodic: the periodic Gaussian smoothing keeps a constant and
// the field's sum (the kernel is normalized and wraps), and damps a cosine
// of wavelength λ cells by about exp(−2π²s²/λ²) (the sampled kernel, 5 %).
func TestSmoothPeriodic(t *testing.T) {
	const n = 40
	z := make([]float64, n*n)
	sum := 0.0
	for iy := 0; iy < n; iy++ {
		for ix := 0; ix < n; ix++ {
			z[iy*n+ix] = 1 + math.Cos(2*math.Pi*float64(ix)/10)
			sum += z[iy*n+ix]
		}
	}
	s := smoothPeriodic(z, n, n, 2)
	got, amp := 0.0, 0.0
	for i, v := range s {
		got += v
		if i < n {
			amp = math.Max(amp, v-1)
		}
	}
	want := math.Exp(-2 * math.Pi * math.Pi * 4 / 100)
	t.Logf("sum %.15g (want %.15g), amplitude %.4f (Gaussian %.4f)", got, sum, amp, want)
	if math.Abs(got-sum) > 1e-10*sum {
		t.Errorf("smoothing changed the sum: %.15g, want %.15g", got, sum)
	}
	if math.Abs(amp-want) > 0.05*want {
		t.Errorf("amplitude of λ = 10 cells after σ = 2 cells: %.4f, want %.4f ± 5 %%", amp, want)
	}
}

// TestGridField: the benchmark's field has cells of σ over the layer's
// cell, the highest sphere top above the floor in each, and the median of
// the occupied cells in the empty ones (spheres moved into the left half
// of the cell leave the right half empty).
func TestGridField(t *testing.T) {
	c := DefaultConfig(Fig12[0])
	c.N, c.H = 600, 1e-3
	y, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	lx, ly := c.Sides()
	s := y.Sys
	f := y.FloorHeight()
	for i := 0; i < s.N(); i++ {
		s.X[3*i] = math.Mod(s.X[3*i], lx/2) // the left half, x < L_x/2
		s.X[3*i+2] = f + (1+0.001*float64(i))*c.Sigma
	}
	g := y.GridField()
	nx, ny := int(math.Round(lx/c.Sigma)), int(math.Round(ly/c.Sigma))
	if g.NX != nx || g.NY != ny {
		t.Fatalf("grid %d × %d, want %d × %d (cells of σ)", g.NX, g.NY, nx, ny)
	}
	want := make([]float64, nx*ny)
	for k := range want {
		want[k] = math.Inf(-1)
	}
	for i := 0; i < s.N(); i++ {
		k := int(s.X[3*i+1]/ly*float64(ny))*nx + int(s.X[3*i]/lx*float64(nx))
		want[k] = math.Max(want[k], (s.X[3*i+2]+s.R[i]-f)/c.Sigma)
	}
	var occ []float64
	for _, w := range want {
		if !math.IsInf(w, -1) {
			occ = append(occ, w)
		}
	}
	// the tops differ cell to cell: the median has as many occupied
	// cells below it as above
	below, above := 0, 0
	med := g.Z[(ny-1)*nx+nx-1] // a right-half cell: empty
	for _, o := range occ {
		if o < med {
			below++
		} else if o > med {
			above++
		}
	}
	empty := 0
	for k, w := range want {
		if math.IsInf(w, -1) {
			empty++
			if g.Z[k] != med {
				t.Fatalf("empty cell %d: %v, want the median %v", k, g.Z[k], med)
			}
		} else if g.Z[k] != w {
			t.Fatalf("cell %d: %v, want the highest top %v", k, g.Z[k], w)
		}
	}
	t.Logf("%d × %d cells, %d empty, median %v (%d occupied below, %d above)", nx, ny, empty, med, below, above)
	if empty < nx*ny/3 || below != above || below < len(occ)/2-1 {
		t.Errorf("%d empty cells (want ≥ a third), median %v with %d below and %d above of %d", empty, med, below, above, len(occ))
	}
}

package patterns

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mode is a cosine wave of the periodic cell: amplitude Amp on the wave
// vector 2π(M/L_x, N/L_y).
type mode struct {
	M, N int
	Amp  float64
}

// syntheticModes returns a height field of nx × ny cells over a cell of
// sides lx × ly (σ = 1): 3 plus cosines on the given wave vectors of the
// cell (phases 0), sampled at the cells' corners as syntheticRect does.
func syntheticModes(nx, ny int, lx, ly float64, modes ...mode) HeightField {
	return syntheticField(nx, ny, lx, ly, func(x, y float64) float64 {
		z := 3.0
		for _, m := range modes {
			z += m.Amp * math.Cos(2*math.Pi*(float64(m.M)*x/lx+float64(m.N)*y/ly))
		}
		return z
	})
}

// TestExactSynthetic: the exact measure reads each pattern's wave vector
// family (M, N one of the pattern's waves), its wavelength 1/√((M/L_x)² +
// (N/L_y)²) to rounding (1e-12; the pattern's to 10⁻⁴, the family's
// width), and its peak count, on families that are not integer wave numbers:
// stripes (0, 5) of the 100σ cell (20σ; the family m² + n² = 25 has 12
// wave vectors, the stripes hold 2 of them); squares (2, 1) and (−1, 2)
// (100/√5 = 44.72σ, 4 of 8); squares (3, 1) and (−1, 3) in the 116.98σ
// cell (36.99σ); hexagons (4, 0), (2, 3), (−2, 3) in the HexAspect cell
// with L_x = 80 (20σ, 6 of 6) and in the cell of --aspect 0.866 (the
// families one within 10⁻⁴); stripes (3, 2) in a cell of aspect 0.8
// (family of 4); hexagons tilted in the √3 cell of L_x = 76, (4, 2),
// (−3, 5), (−1, −7) (3m² + n² = 52: 6 of the family's 12); and six
// counted wave vectors that are not hexagons, (5, ±2) and (3, 4) of the
// 0.866 cell (6 of one family of 8: the cellular pattern of the h = 5·10⁻⁴
// run, BENCHMARKS tenth session). Triads: 2 for each hexagon pattern (k₁ +
// k₂ + k₃ = 0 and its negative), 0 for the rest. The grids are the layer's
// (cells of about 1.5σ: 66 × 66 on 100σ).
func TestExactSynthetic(t *testing.T) {
	const l117 = 116.98
	for _, c := range []struct {
		name                   string
		nx, ny                 int
		lx, ly                 float64
		modes                  []mode
		lambda                 float64
		members, peaks, triads int
	}{
		{"stripes (0,5)", 66, 66, 100, 100, []mode{{0, 5, 1}}, 20, 12, 2, 0},
		{"squares (2,1) (-1,2)", 66, 66, 100, 100, []mode{{2, 1, 1}, {-1, 2, 1}}, 100 / math.Sqrt(5), 8, 4, 0},
		{"squares (3,1) (-1,3), 116.98σ", 77, 77, l117, l117, []mode{{3, 1, 1}, {-1, 3, 1}}, l117 / math.Sqrt(10), 8, 4, 0},
		{"hexagons, HexAspect", 53, 46, 80, 80 * HexAspect, []mode{{4, 0, 1}, {2, 3, 1}, {-2, 3, 1}}, 20, 6, 6, 2},
		{"hexagons, aspect 0.866", 53, 46, 80, 80 * 0.866, []mode{{4, 0, 1}, {2, 3, 1}, {-2, 3, 1}}, 20, 6, 6, 2},
		{"stripes (3,2), aspect 0.8", 60, 48, 90, 72, []mode{{3, 2, 1}}, 1 / math.Hypot(3.0/90, 2.0/72), 4, 2, 0},
		{"tilted hexagons, √3 cell", 51, 88, 76, 76 * math.Sqrt(3), []mode{{4, 2, 1}, {-3, 5, 1}, {-1, -7, 1}}, 76 / math.Sqrt(52.0/3), 12, 6, 2},
		{"(5,±2), (3,4), aspect 0.866", 53, 46, 80, 80 * 0.866, []mode{{5, 2, 1}, {5, -2, 1}, {3, 4, 1}}, 80 / math.Sqrt(91.0/3), 8, 6, 0},
	} {
		h := syntheticModes(c.nx, c.ny, c.lx, c.ly, c.modes...)
		sp := h.Spectrum()
		p := sp.Exact(1, BizonDepth)
		want := 1 / math.Hypot(float64(p.M)/c.lx, float64(p.N)/c.ly)
		t.Logf("%s: (%d,%d) λ = %.6f (want %.6f), %d peaks of %d wave vectors, %d triads, contrast %.3f", c.name, p.M, p.N, p.Lambda, want, p.Peaks, p.Members, p.Triads, p.Contrast)
		if !isMode(p.M, p.N, c.modes) || math.Abs(p.Lambda-want) > 1e-12*want || math.Abs(p.Lambda-c.lambda) > 1e-4*c.lambda {
			t.Errorf("%s: (%d, %d), λ = %.15g; want one of %v, %.15g (%g to 1e-4)", c.name, p.M, p.N, p.Lambda, c.modes, want, c.lambda)
		}
		if p.Peaks != c.peaks || p.Members != c.members || p.Triads != c.triads {
			t.Errorf("%s: %d peaks of %d wave vectors, %d triads; want %d of %d, %d triads", c.name, p.Peaks, p.Members, p.Triads, c.peaks, c.members, c.triads)
		}
		if !(p.Contrast > 0.99) {
			t.Errorf("%s: the family holds %.4f of the power, want > 0.99 (a field of its waves only)", c.name, p.Contrast)
		}
	}
	flat := HeightField{NX: 20, NY: 20, LX: 20, LY: 20, Z: make([]float64, 400)}
	for i := range flat.Z {
		flat.Z[i] = 2.5
	}
	sp := flat.Spectrum()
	if p := sp.Exact(1, 0); p != (ExactPattern{}) {
		t.Errorf("flat field: %+v, want no pattern", p)
	}
}

// isMode reports whether (m, n) or (−m, −n) is the wave vector of one of
// the modes.
func isMode(m, n int, modes []mode) bool {
	for _, x := range modes {
		if (x.M == m && x.N == n) || (x.M == -m && x.N == -n) {
			return true
		}
	}
	return false
}

// TestExactOldMeasuresMisread: the (2, 1) and (−1, 2) squares of the
// 100σ cell (λ = 100/√5 = 44.72σ, the mode of the squares at h = 2·10⁻⁴,
// BENCHMARKS "patc") are 50σ under the ring measure (|k| = √5 = 2.236
// rounded to ring 2, whose centroid with the empty rings 1 and 3 is 2)
// and under the shell measure (shell round(2.236) = 2), 44.72σ under the
// exact measure.
func TestExactOldMeasuresMisread(t *testing.T) {
	want := 100 / math.Sqrt(5)
	modes := []mode{{2, 1, 1}, {-1, 2, 1}}
	h := syntheticModes(66, 66, 100, 100, modes...)
	sp := h.Spectrum()
	ring := sp.Analyze(1, BizonDepth)
	ex := sp.Exact(1, BizonDepth)
	g := syntheticModes(100, 100, 100, 100, modes...)
	sh := g.Shells(1)
	t.Logf("(2,1)/(-1,2) squares, λ = %.4fσ: ring λ = %.4fσ (%d peaks), shell λ = %.4fσ (symmetry %d), exact λ = %.4fσ (%d peaks)",
		want, ring.Lambda, ring.Peaks, sh.Lambda, sh.Symmetry(), ex.Lambda, ex.Peaks)
	if math.Abs(ring.Lambda-50) > 0.01 || sh.Lambda != 50 {
		t.Errorf("ring λ = %.4f, shell λ = %.4f; the rounding of |k| to integers gives 50 for both", ring.Lambda, sh.Lambda)
	}
	if math.Abs(ex.Lambda-want) > 1e-12*want || ex.Peaks != 4 {
		t.Errorf("exact: λ = %.15g, %d peaks; want %.15g, 4", ex.Lambda, ex.Peaks, want)
	}
}

// TestExactPeakShare: the count's threshold is 1/3 of the strongest wave
// vector's power. Squares (2, 1) and (−1, 2) whose second wave has half
// the first's power (amplitude 1/√2) count 4; with a quarter (amplitude
// ½) they count 2, and the family, λ and (M, N) are the first wave's.
func TestExactPeakShare(t *testing.T) {
	for _, c := range []struct {
		amp   float64
		peaks int
	}{{math.Sqrt(0.5), 4}, {0.5, 2}} {
		h := syntheticModes(66, 66, 100, 100, mode{2, 1, 1}, mode{-1, 2, c.amp})
		sp := h.Spectrum()
		p := sp.Exact(1, BizonDepth)
		t.Logf("second wave's power %.2f of the first: (%d,%d) λ = %.4f, %d peaks", c.amp*c.amp, p.M, p.N, p.Lambda, p.Peaks)
		if p.Peaks != c.peaks || p.M != 2 || p.N != 1 {
			t.Errorf("power ratio %.2f: (%d, %d), %d peaks; want (2, 1), %d", c.amp*c.amp, p.M, p.N, p.Peaks, c.peaks)
		}
	}
}

// TestExactNoise: white noise (Gaussian, standard deviation 1 per cell,
// fixed seed) has no family above 3 % of the power (the largest
// families below the λ ≥ H bound hold about 24 of the 4,356 wave
// vectors); the squares (2, 1), (−1, 2) of amplitude 0.5 under that noise
// (their power 20 % of the field's) still read as their family, λ exact
// and 4 peaks; a grain-scale wave (0, 30) of λ = 3.33σ, twice the
// squares' power, wins without the λ ≥ H bound and not with it.
func TestExactNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	noise := syntheticModes(66, 66, 100, 100)
	for i := range noise.Z {
		noise.Z[i] += r.NormFloat64()
	}
	sp := noise.Spectrum()
	p := sp.Exact(1, BizonDepth)
	t.Logf("noise: (%d,%d) λ = %.3f, %d peaks of %d, contrast %.4f", p.M, p.N, p.Lambda, p.Peaks, p.Members, p.Contrast)
	if !(p.Contrast < 0.03) {
		t.Errorf("noise: the strongest family holds %.4f of the power, want < 0.03", p.Contrast)
	}
	sq := syntheticModes(66, 66, 100, 100, mode{2, 1, 0.5}, mode{-1, 2, 0.5})
	for i := range sq.Z {
		sq.Z[i] += noise.Z[i] - 3
	}
	sp = sq.Spectrum()
	p = sp.Exact(1, BizonDepth)
	want := 100 / math.Sqrt(5)
	t.Logf("squares under noise: (%d,%d) λ = %.4f, %d peaks of %d, contrast %.4f", p.M, p.N, p.Lambda, p.Peaks, p.Members, p.Contrast)
	if math.Abs(p.Lambda-want) > 1e-12*want || p.Peaks != 4 {
		t.Errorf("squares under noise: λ = %.6g, %d peaks; want %.6g, 4", p.Lambda, p.Peaks, want)
	}
	grain := syntheticModes(66, 66, 100, 100, mode{0, 30, 1})
	for i := range grain.Z {
		grain.Z[i] += sq.Z[i] - 3
	}
	sp = grain.Spectrum()
	with, without := sp.Exact(1, BizonDepth), sp.Exact(1, 0)
	t.Logf("with grain-scale (0,30): λ ≥ H (%d,%d) λ = %.3f; no bound (%d,%d) λ = %.3f", with.M, with.N, with.Lambda, without.M, without.N, without.Lambda)
	if math.Abs(with.Lambda-want) > 1e-12*want || without.M != 0 || without.N != 30 {
		t.Errorf("grain-scale wave: with the bound λ = %.4g (want %.4g), without (%d, %d) (want (0, 30))", with.Lambda, want, without.M, without.N)
	}
}

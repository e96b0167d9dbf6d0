package patterns

import (
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"impactsim/par"
)

// TestPatternsLong is the long validation of issue 16 (IMPACTSIM_LONG=1):
// each Fig. 12 point at h = 3·10⁻⁴ with GR + Alg. 3 shows its pattern —
// the most frequent peak count over the last third of the samples (at
// least 5) is the pattern's (6, 4, 2) — with the median λ/H of those
// samples within 15 % of the dispersion relation; at h = 10⁻³ the
// hexagons' median wavelength is shorter than at 3·10⁻⁴ (Smith et al.
// §11.4). It runs what BENCHMARKS.md ("The long validation") records for
// `impactsim patterns --n 60000 --cycles 40 --dt 3e-4` and `--dt 1e-3`:
//
//	IMPACTSIM_PATTERNS=hexagons,squares,stripes (the points, in order)
//	IMPACTSIM_PATTERNS_N=60000, IMPACTSIM_PATTERNS_CYCLES=40
//	IMPACTSIM_PATTERNS_ASPECT=1 (L_y/L_x; 0.866 for hexagons, HexAspect)
//	IMPACTSIM_PATTERNS_COARSE=1 (0: skip the h = 10⁻³ hexagon run)
//
// Each run's files go to out/patterns-long/<pattern>_h<h>/. At 60,000
// spheres a run of 40 periods takes about an hour on the 2 shared cores.
func TestPatternsLong(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("long validation: set IMPACTSIM_LONG=1")
	}
	n, cycles, aspect := 60000, 40.0, 1.0
	if v, err := strconv.Atoi(os.Getenv("IMPACTSIM_PATTERNS_N")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("IMPACTSIM_PATTERNS_CYCLES"), 64); err == nil && v > 0 {
		cycles = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("IMPACTSIM_PATTERNS_ASPECT"), 64); err == nil && v > 0 {
		aspect = v
	}
	points := Fig12
	if v := os.Getenv("IMPACTSIM_PATTERNS"); v != "" {
		points = nil
		for _, name := range strings.Split(v, ",") {
			p, err := PointByName(strings.TrimSpace(name))
			if err != nil {
				t.Fatal(err)
			}
			points = append(points, p)
		}
	}
	pool := par.New(0)
	defer pool.Close()
	run := func(p Point, h float64) (peaks int, lambda, overH float64) {
		c := DefaultConfig(p)
		c.N, c.H, c.Aspect = n, h, aspect
		y, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		y.SetPool(pool)
		dir := "../out/patterns-long/" + p.Name + "_h" + strconv.FormatFloat(h, 'g', -1, 64)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		res, err := y.Run(RunOptions{Cycles: cycles, Dir: dir, Progress: os.Stderr})
		if err != nil {
			t.Fatal(err)
		}
		peaks, lambda, overH, k := lateSamples(res.Samples)
		if k < 5 {
			t.Fatalf("%s: %d samples in the last third of the run, want at least 5", p.Name, k)
		}
		t.Logf("%s, h = %g: over the last %d samples λ = %.2fσ, λ/H = %.3f (median; dispersion %.3f), %d peaks most often (want %d), %.3f s/step",
			p.Name, h, k, lambda, overH, Dispersion(p.FStar), peaks, p.Peaks, res.Cost.Wall.Seconds()/float64(res.Cost.Steps))
		return peaks, lambda, overH
	}
	hex := math.NaN()
	for _, p := range points {
		peaks, lambda, overH := run(p, 3e-4)
		if peaks != p.Peaks {
			t.Errorf("%s: %d peaks on the ring most often, want %d", p.Name, peaks, p.Peaks)
		}
		if d := Dispersion(p.FStar); math.Abs(overH/d-1) > 0.15 {
			t.Errorf("%s: median λ/H = %.3f, want within 15 %% of %.3f", p.Name, overH, d)
		}
		if p.Name == "hexagons" {
			hex = lambda
		}
	}
	if os.Getenv("IMPACTSIM_PATTERNS_COARSE") == "0" || math.IsNaN(hex) {
		return
	}
	_, coarse, _ := run(Fig12[0], 1e-3)
	if !(coarse < hex) {
		t.Errorf("hexagons at h = 1e-3: median λ = %.2fσ, want shorter than at 3e-4 (%.2fσ)", coarse, hex)
	}
}

// lateSamples summarizes the last third of a run's samples: the most
// frequent peak count (the larger on a tie), the median λ (σ) and λ/H,
// and the number of samples.
func lateSamples(s []Sample) (peaks int, lambda, overH float64, k int) {
	late := s[len(s)-len(s)/3:]
	k = len(late)
	if k == 0 {
		return 0, math.NaN(), math.NaN(), 0
	}
	count := map[int]int{}
	ls, hs := make([]float64, k), make([]float64, k)
	for i, x := range late {
		count[x.Peaks]++
		ls[i], hs[i] = x.Lambda, x.LambdaOverH
		if c := count[x.Peaks]; c > count[peaks] || (c == count[peaks] && x.Peaks > peaks) {
			peaks = x.Peaks
		}
	}
	slices.Sort(ls)
	slices.Sort(hs)
	return peaks, ls[k/2], hs[k/2], k
}

package patterns

import (
	"math"
	"os"
	"strconv"
	"testing"

	"impactsim/par"
)

// TestPatternsLong is the long validation of issue 16 (IMPACTSIM_LONG=1;
// IMPACTSIM_PATTERNS_N sets the number of spheres, default 60,000, and
// IMPACTSIM_PATTERNS_CYCLES the drive periods, default 60): each Fig. 12
// point at h = 3·10⁻⁴ with GR + Alg. 3 shows its pattern — the peak count
// of the last sample's spectrum is the pattern's (6, 4, 2) — with λ/H
// within 15 % of the dispersion relation; at h = 10⁻³ the hexagons'
// wavelength is shorter than at 3·10⁻⁴ (Smith et al. §11.4). It writes
// each run's files under out/patterns-long/.
func TestPatternsLong(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("long validation: set IMPACTSIM_LONG=1")
	}
	n, cycles := 60000, 60.0
	if v, err := strconv.Atoi(os.Getenv("IMPACTSIM_PATTERNS_N")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("IMPACTSIM_PATTERNS_CYCLES"), 64); err == nil && v > 0 {
		cycles = v
	}
	pool := par.New(0)
	defer pool.Close()
	run := func(p Point, h float64) Sample {
		c := DefaultConfig(p)
		c.N, c.H = n, h
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
		if len(res.Samples) == 0 {
			t.Fatalf("%s: no sample", p.Name)
		}
		s := res.Samples[len(res.Samples)-1]
		t.Logf("%s, h = %g: λ/H = %.3f (dispersion %.3f), %d peaks (want %d), ring power %.2f, %.3f s/step",
			p.Name, h, s.LambdaOverH, Dispersion(p.FStar), s.Peaks, p.Peaks, s.Contrast, res.Cost.Wall.Seconds()/float64(res.Cost.Steps))
		return s
	}
	var hex Sample
	for _, p := range Fig12 {
		s := run(p, 3e-4)
		if s.Peaks != p.Peaks {
			t.Errorf("%s: %d peaks on the ring, want %d", p.Name, s.Peaks, p.Peaks)
		}
		if d := Dispersion(p.FStar); math.Abs(s.LambdaOverH/d-1) > 0.15 {
			t.Errorf("%s: λ/H = %.3f, want within 15 %% of %.3f", p.Name, s.LambdaOverH, d)
		}
		if p.Name == "hexagons" {
			hex = s
		}
	}
	coarse := run(Fig12[0], 1e-3)
	if !(coarse.Lambda < hex.Lambda) {
		t.Errorf("hexagons at h = 1e-3: λ = %.2fσ, want shorter than at 3e-4 (%.2fσ)", coarse.Lambda, hex.Lambda)
	}
}

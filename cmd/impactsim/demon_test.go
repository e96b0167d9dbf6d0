package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/scene"
)

// TestDemonClusters: the granular Maxwell's demon of Fig. 11 (288 balls,
// c = 0.6, seed 1). Shaken weakly (A = 0.8, Γ ≈ 80) the balls gather on
// one side: at least 80 % there at t = 80. Shaken strongly (A = 2.5,
// Γ ≈ 250) they stay spread: the count on the left, averaged over 2 time
// units (it fluctuates by about ±√N/2 ≈ 8.5 from one sample to the
// next), stays between 40 % and 60 % from t = 10 to t = 40.
func TestDemonClusters(t *testing.T) {
	p := scene.DefaultDemon()
	n := float64(2 * p.PerSide)
	_, left, err := demonRun(p, 80)
	if err != nil {
		t.Fatal(err)
	}
	l := left[len(left)-1]
	t.Logf("A = %g (Γ = %.3g): %g of %g on the left at t = 80", p.Amplitude, p.Gamma(), l, n)
	if f := max(l, n-l) / n; f < 0.8 {
		t.Errorf("weak shaking: %.1f%% on the fuller side, want ≥ 80%%", 100*f)
	}
	p.Amplitude = 2.5
	ts, left, err := demonRun(p, 40)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := demonWindow(ts, left, 20, 10)
	t.Logf("A = %g (Γ = %.3g): %.1f … %.1f of %g on the left (2-unit averages) for t in [10, 40]", p.Amplitude, p.Gamma(), lo, hi, n)
	if lo < 0.4*n || hi > 0.6*n {
		t.Errorf("strong shaking: the left side held %g … %g balls of %g, want within 60/40", lo, hi, n)
	}
}

// TestDemonCommand: a short run writes sides.csv, sides.png and the
// animation; bad flags exit 2 before writing anything.
func TestDemonCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demon")
	code, stdout, errs := runCLI(t, "demon", "--end", "0.5", "--frames", "5", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"sides.csv", "sides.png", "trajectory.csv", "render/animation.gif"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if !strings.Contains(stdout, "sides      left") {
		t.Errorf("summary %q", stdout)
	}
	for _, args := range [][]string{{"--freq", "0"}, {"--cor", "2"}, {"--gamma", "-1"}, {"--sweep", "1:0:1"}, {"--end", "nan"}} {
		bad := filepath.Join(t.TempDir(), "bad")
		code, _, errs := runCLI(t, append([]string{"demon", "--out", bad}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v: wrote %s", args, bad)
		}
	}
}

// TestDemonSweepLong (IMPACTSIM_LONG=1): the sweep of `impactsim demon
// --sweep 0.4:2.4:0.2 --seeds 3 --end 150`: every seed clusters (≥ 80 % on
// one side at the end) for A in [0.6, 1.0], every seed stays spread within
// 60/40 for A ≥ 2.0 — the split averaged over the last third of the run
// (the gas's count is noisy and slowly correlated: single samples reached
// 93 … 173 of 288 and 2-time-unit averages 107 … 179 in 150 time units,
// so a bound at every instant does not hold) —, and the threshold (mean asymmetry through 0.5) lies between
// A = 1.0 and 1.6. Recorded in README's validation list (measured 2026-11-24:
// Γ ≈ 130, A ≈ 1.29).
func TestDemonSweepLong(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("long: set IMPACTSIM_LONG=1")
	}
	p := scene.DefaultDemon()
	n := float64(2 * p.PerSide)
	var ga, asym []float64
	for k := 0; k <= 10; k++ {
		a := 0.4 + 0.2*float64(k)
		var sum float64
		for s := 1; s <= 3; s++ {
			q := p
			q.Amplitude, q.Seed = a, uint64(s)
			ts, left, err := demonRun(q, 150)
			if err != nil {
				t.Fatal(err)
			}
			sum += demonAsymmetry(left, int(n))
			l := left[len(left)-1]
			if a >= 0.6-1e-9 && a <= 1+1e-9 && max(l, n-l)/n < 0.8 {
				t.Errorf("A = %g seed %d: %g of %g on the left at the end, want ≥ 80%% on one side", a, s, l, n)
			}
			if a >= 2-1e-9 {
				lo, hi := demonWindow(ts, left, 20, 20)
				k := len(left) - len(left)/3
				mean, _ := demonWindow(ts[k:], left[k:], len(left)-k, 0)
				t.Logf("A = %.1f seed %d: %.1f on the left over the last third (2-unit averages %.1f … %.1f from t = 20)", a, s, mean, lo, hi)
				if mean < 0.4*n || mean > 0.6*n {
					t.Errorf("A = %g seed %d: %.1f on the left over the last third, outside 60/40", a, s, mean)
				}
			}
		}
		q := p
		q.Amplitude = a
		ga, asym = append(ga, a), append(asym, sum/3)
		t.Logf("A = %.1f (Γ = %.4g): mean asymmetry %.3f", a, q.Gamma(), sum/3)
	}
	ac, ok := demonThreshold(ga, asym)
	t.Logf("threshold A ≈ %.3g", ac)
	if !ok || ac < 1 || ac > 1.6 {
		t.Errorf("threshold A = %g (%v), want in [1, 1.6]", ac, ok)
	}
}

package bouncemap

import (
	"math"
	"os"
	"sort"
	"testing"
	"time"
)

// spearman is the rank correlation of a and b (average ranks for ties).
func spearman(a, b []float64) float64 {
	rank := func(x []float64) []float64 {
		idx := make([]int, len(x))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(p, q int) bool { return x[idx[p]] < x[idx[q]] })
		r := make([]float64, len(x))
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
				j++
			}
			for k := i; k <= j; k++ {
				r[idx[k]] = float64(i+j) / 2
			}
			i = j + 1
		}
		return r
	}
	ra, rb := rank(a), rank(b)
	var ma, mb float64
	for i := range ra {
		ma += ra[i]
		mb += rb[i]
	}
	ma /= float64(len(ra))
	mb /= float64(len(rb))
	var sab, saa, sbb float64
	for i := range ra {
		sab += (ra[i] - ma) * (rb[i] - mb)
		saa += (ra[i] - ma) * (ra[i] - ma)
		sbb += (rb[i] - mb) * (rb[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

// TestBunnyMap (IMPACTSIM_LONG=1): the shared bunny at 16 cm, 30 cells, 45
// modes, every face by the exact analysis: its Table 2 row (the paper,
// on its own 225,820-face bunny: min 0.150, max 1, mean 0.650), ε rising
// with contact duration (Fig. 20: Spearman ρ(ε, τ) > 0) and the ears (the
// top 5% of the faces in height) bouncier than the body.
func TestBunnyMap(t *testing.T) {
	if os.Getenv("IMPACTSIM_LONG") == "" {
		t.Skip("IMPACTSIM_LONG=1")
	}
	s, err := bunnyModel()
	if err != nil {
		t.Skip(err)
	}
	samples := append([]Sample(nil), s.samples...)
	t0 := time.Now()
	if err := s.mm.Analyze(samples, s.fs, s.vm, AnalyzeOptions{}); err != nil {
		t.Fatal(err)
	}
	eps := make([]float64, len(samples))
	tau := make([]float64, len(samples))
	var mean float64
	lo, hi := math.Inf(1), math.Inf(-1)
	ys := make([]float64, len(samples))
	for i, sm := range samples {
		eps[i], tau[i], ys[i] = sm.Eps, sm.TauLast, sm.X.Y
		mean += sm.Eps
		lo, hi = math.Min(lo, sm.Eps), math.Max(hi, sm.Eps)
	}
	mean /= float64(len(samples))
	rho := spearman(eps, tau)
	sorted := append([]float64(nil), ys...)
	sort.Float64s(sorted)
	cut := sorted[len(sorted)*95/100]
	var ear float64
	n := 0
	for i := range samples {
		if ys[i] >= cut {
			ear += eps[i]
			n++
		}
	}
	ear /= float64(n)
	t.Logf("bunny: %d faces in %v: ε min %.3f max %.3f mean %.3f; Spearman ρ(ε, τ) %.3f; top 5%% (ears) mean ε %.3f", len(samples), time.Since(t0), lo, hi, mean, rho, ear)
	if !(rho > 0) || !(ear > mean) {
		t.Errorf("ρ(ε, τ) = %v, ears %v vs mean %v", rho, ear, mean)
	}
}

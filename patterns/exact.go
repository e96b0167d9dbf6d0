package patterns

import (
	"math"
	"slices"
)

// This file holds the third measure of a sample, exact about the periodic
// cell (package documentation, "The exact measure").

// familyTol is the relative difference of |k| below which two wave
// vectors of the cell are one family: below the smallest relative spacing
// of distinct allowed |k| at λ ≥ H = 5.42σ in the cells of the runs
// (1.48·10⁻³ in the 100σ square, 1.09·10⁻³ in the 116.98σ square,
// 7.7·10⁻⁴ in the √3/2 cell of L_x = 80σ), far above the floating-point
// rounding, and above --aspect 0.866's departure from √3/2 (2.2·10⁻⁵ at
// the hexagons' (4, 0) and (±2, ±3)), so that the 0.866 cell's families
// are the √3/2 cell's.
const familyTol = 1e-4

// exactPeakShare is the fraction of the family's strongest wave vector's
// power at which another wave vector of the family counts as a peak (1/3:
// two waves whose amplitudes differ by up to √3 are both counted; the
// ring measure counts a direction at 35 % of the strongest).
const exactPeakShare = 1.0 / 3

// ExactPattern is what the exact measure finds in a spectrum.
type ExactPattern struct {
	// M, N are the family's strongest wave vector k = 2π(M/L_x, N/L_y)
	// (of k and −k, the one with N > 0, or N = 0 and M > 0).
	M, N int
	// Lambda = 2π/|k| = 1/√((M/L_x)² + (N/L_y)²) in units of σ: one of
	// the cell's allowed wavelengths, not rounded. 0 for a flat field.
	Lambda float64
	// Members is the number of wave vectors of the family (k and −k both
	// counted; 4 for (2, 0) of a square cell, 8 for (2, 1)).
	Members int
	// Peaks is the number of the family's wave vectors whose power is at
	// least 1/3 of its strongest's (k and −k both counted: 2 stripes, 4
	// squares, 6 hexagons).
	Peaks int
	// Contrast is the family's share of the spectrum's power.
	Contrast float64
	// Triads is the number of resonant triads among the counted wave
	// vectors: sets of three, k₁ + k₂ + k₃ = 0, compared in the integer
	// indices (exact). Three vectors of one |k| summing to zero are 120°
	// apart, so a triad is a hexagonal (or triangular) lattice: 2 for six
	// counted vectors ±k₁, ±k₂, ±k₃ of hexagons, 0 for stripes and
	// squares, 0 for six or eight counted vectors of one family at other
	// angles (which the count alone does not tell from hexagons).
	Triads int
}

// Exact applies the exact measure to the spectrum (package documentation,
// "The exact measure"): the power summed per family of wave vectors of
// equal |k| (2π(a/L_x, b/L_y), |k| exact, relative differences below
// 10⁻⁴ one family), the family of most power among those of λ ≥
// minLambda (σ; 0: every family), λ = 2π/|k| of it, and the count of its
// wave vectors holding at least 1/3 of its strongest's power. sigma
// converts lengths to units of σ. On a tie of power the family of the
// smaller |k| wins.
func (s *Spectrum) Exact(sigma, minLambda float64) ExactPattern {
	nx, ny := s.NX, s.NY
	cx, cy := nx/2, ny/2
	type wave struct {
		q    float64 // |k/2π|², (a/L_x)² + (b/L_y)²
		a, b int
		p    float64
	}
	waves := make([]wave, 0, nx*ny)
	total := 0.0
	qmax := math.Inf(1)
	if minLambda > 0 {
		qmax = 1 / (minLambda * sigma * minLambda * sigma)
	}
	for b := 0; b < ny; b++ {
		for a := 0; a < nx; a++ {
			p := s.P[b*nx+a]
			total += p
			ka, kb := float64(a-cx)/s.LX, float64(b-cy)/s.LY
			q := ka*ka + kb*kb
			if q == 0 || q > qmax*(1+2*familyTol) {
				continue
			}
			waves = append(waves, wave{q, a - cx, b - cy, p})
		}
	}
	var pat ExactPattern
	if total == 0 {
		return pat
	}
	slices.SortFunc(waves, func(u, v wave) int {
		if u.q != v.q {
			if u.q < v.q {
				return -1
			}
			return 1
		}
		if u.b != v.b {
			return v.b - u.b
		}
		return v.a - u.a
	})
	best, bestP := -1, 0.0
	var bestEnd int
	for i := 0; i < len(waves); {
		j, sum := i, 0.0
		for j < len(waves) && math.Sqrt(waves[j].q) <= math.Sqrt(waves[i].q)*(1+familyTol) {
			sum += waves[j].p
			j++
		}
		// a family straddling the bound is in when its first member is
		if waves[i].q <= qmax && sum > bestP {
			best, bestEnd, bestP = i, j, sum
		}
		i = j
	}
	if best < 0 {
		return pat
	}
	fam := waves[best:bestEnd]
	top := fam[0]
	for _, w := range fam[1:] {
		if w.p > top.p {
			top = w
		}
	}
	if top.b < 0 || (top.b == 0 && top.a < 0) {
		top.a, top.b = -top.a, -top.b
	}
	pat.M, pat.N = top.a, top.b
	pat.Lambda = 1 / math.Sqrt(top.q) / sigma
	pat.Members = len(fam)
	pat.Contrast = bestP / total
	var peaks [][2]int
	for _, w := range fam {
		if w.p >= exactPeakShare*top.p {
			pat.Peaks++
			peaks = append(peaks, [2]int{w.a, w.b})
		}
	}
	pat.Triads = triads(peaks)
	return pat
}

// triads counts the sets {i < j < l} of wave vectors (integer indices)
// whose sum is zero.
func triads(k [][2]int) int {
	n := 0
	for i := range k {
		for j := i + 1; j < len(k); j++ {
			for l := j + 1; l < len(k); l++ {
				if k[i][0]+k[j][0]+k[l][0] == 0 && k[i][1]+k[j][1]+k[l][1] == 0 {
					n++
				}
			}
		}
	}
	return n
}

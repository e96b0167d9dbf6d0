package patterns

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Dispersion returns λ/H of the experimental dispersion relation of
// Umbanhowar, Melo & Swinney, λ/H = 1.0 + 1.1 f*^(−1.32).
func Dispersion(fstar float64) float64 { return 1.0 + 1.1*math.Pow(fstar, -1.32) }

// HeightField is the layer's top surface sampled on NX × NY cells of the
// periodic cell of sides LX × LY: Z[iy·NX + ix] is the highest sphere top
// (centre + radius) above the floor among the spheres whose centres lie in
// cell (ix, iy), in units of σ (0 for an empty cell).
type HeightField struct {
	NX, NY int
	LX, LY float64
	Z      []float64
}

// HeightField samples the top surface on cells of about 1.5σ (a cell
// holds a column's top sphere or two, so holes between spheres do not
// count as valleys).
func (y *Layer) HeightField() HeightField {
	c := &y.Cfg
	lx, ly := c.Sides()
	h := y.topField(max(4, int(lx/(1.5*c.Sigma))), max(4, int(ly/(1.5*c.Sigma))))
	for k, z := range h.Z {
		h.Z[k] = math.Max(z, 0)
	}
	return h
}

// Spectrum is the power spectrum |ĥ(k)|² of a height field's deviation
// from its mean: P[b·NX + a] is the power of the wave vector k =
// 2π(a′/LX, b′/LY), a′ = a − NX/2 and b′ = b − NY/2 (zero frequency in the
// centre).
type Spectrum struct {
	NX, NY int
	LX, LY float64
	P      []float64
}

// Spectrum returns the height field's 2D power spectrum (a DFT along x,
// then along y; gonum's FFT).
func (h *HeightField) Spectrum() Spectrum {
	nx, ny := h.NX, h.NY
	mean := 0.0
	for _, z := range h.Z {
		mean += z
	}
	mean /= float64(len(h.Z))
	a := make([]complex128, nx*ny)
	for k, z := range h.Z {
		a[k] = complex(z-mean, 0)
	}
	fft2(a, nx, ny)
	sp := Spectrum{NX: nx, NY: ny, LX: h.LX, LY: h.LY, P: make([]float64, nx*ny)}
	for b := 0; b < ny; b++ {
		for c := 0; c < nx; c++ {
			v := a[b*nx+c]
			// index i holds frequency i for i < n/2 + (n odd), i − n above
			kb, kc := shifted(b, ny), shifted(c, nx)
			sp.P[kb*nx+kc] = real(v)*real(v) + imag(v)*imag(v)
		}
	}
	return sp
}

// fft2 replaces a (nx × ny, row-major) by its 2D DFT (unnormalized; a
// DFT along x, then along y; gonum's FFT).
func fft2(a []complex128, nx, ny int) {
	fx, fy := fourier.NewCmplxFFT(nx), fourier.NewCmplxFFT(ny)
	row := make([]complex128, max(nx, ny))
	for y := 0; y < ny; y++ {
		fx.Coefficients(row[:nx], a[y*nx:(y+1)*nx])
		copy(a[y*nx:(y+1)*nx], row[:nx])
	}
	col := make([]complex128, ny)
	for x := 0; x < nx; x++ {
		for y := 0; y < ny; y++ {
			col[y] = a[y*nx+x]
		}
		fy.Coefficients(row[:ny], col)
		for y := 0; y < ny; y++ {
			a[y*nx+x] = row[y]
		}
	}
}

// shifted returns where DFT index i goes when zero frequency is moved to
// index n/2.
func shifted(i, n int) int { return (i + n/2) % n }

// Pattern is what Analyze finds in a spectrum.
type Pattern struct {
	// K is the dominant wave number in units of 2π/L, L = max(LX, LY) (a
	// ring of the spectrum, refined by the centroid of the ring's
	// neighbours), Lambda = L/K the wavelength in units of σ.
	K, Lambda float64
	// Peaks is the number of peaks of the power on the ring |k| ≈ K
	// (6 hexagons, 4 squares, 2 stripes).
	Peaks int
	// Contrast is the ring's share of the total power (0: no pattern).
	Contrast float64
}

// ringBins is the number of angular bins over 2π for counting peaks.
const ringBins = 36

// Analyze finds the dominant wavelength and counts the peaks on its ring.
// Wave numbers are measured in units of 2π/L with L = max(LX, LY) (the
// wave vector of (a′, b′) has |k| = L·hypot(a′/LX, b′/LY), so every
// allowed wave vector lies at least one unit from its neighbours along
// each axis and rings one unit wide hold them all): the azimuthal sums
// S(k) = Σ_{|k′| ∈ [k − ½, k + ½)} P(k′) for k ≥ 1 have their largest
// value at k₀; K is the centroid of S over k₀ − 1 … k₀ + 1. The power of
// the wave vectors with |k′ − K| ≤ max(1, 0.15 K) is summed in 36 bins of
// 10° by direction, smoothed with the weights ¼, ½, ¼, and a bin that is a
// strict local maximum (≥ its left neighbour, > its right) holding at
// least 35 % of the largest bin is a peak. sigma converts L to units of σ.
//
// minLambda (in units of σ; 0: none) excludes the wave numbers of shorter
// waves from the search for k₀. The layer's run passes H: every pattern of
// the dispersion relation has λ/H = 1 + 1.1 f*^(−1.32) > 1, and the
// height field's grain-scale roughness (a sphere or a hole per cell, λ ≈
// 2–3σ) has most of its power at the largest k, where the ring sums hold
// the most wave vectors: without the bound it outweighs a young pattern's
// ring (λ ≈ 3.1σ was reported in the first cycles of the 60,000-sphere
// hexagon run).
func (s *Spectrum) Analyze(sigma, minLambda float64) Pattern {
	nx, ny := s.NX, s.NY
	cx, cy := nx/2, ny/2
	l := math.Max(s.LX, s.LY)
	sx, sy := l/s.LX, l/s.LY
	kmax := int(math.Min(float64(nx/2)*sx, float64(ny/2)*sy))
	if minLambda > 0 {
		kmax = max(1, min(kmax, int(math.Floor(l/(minLambda*sigma)))))
	}
	ring := make([]float64, kmax+2)
	total := 0.0
	for b := 0; b < ny; b++ {
		for a := 0; a < nx; a++ {
			p := s.P[b*nx+a]
			total += p
			k := math.Hypot(float64(a-cx)*sx, float64(b-cy)*sy)
			if kb := int(math.Floor(k + 0.5)); kb >= 1 && kb <= kmax {
				ring[kb] += p
			}
		}
	}
	var pat Pattern
	k0 := 1
	for k := 2; k <= kmax; k++ {
		if ring[k] > ring[k0] {
			k0 = k
		}
	}
	if total == 0 {
		return pat
	}
	num, den := 0.0, 0.0
	for k := max(1, k0-1); k <= min(kmax, k0+1); k++ {
		num += float64(k) * ring[k]
		den += ring[k]
	}
	pat.K = num / den
	pat.Lambda = l / sigma / pat.K
	width := math.Max(1, 0.15*pat.K)
	var bins [ringBins]float64
	inRing := 0.0
	for b := 0; b < ny; b++ {
		for a := 0; a < nx; a++ {
			x, y := float64(a-cx)*sx, float64(b-cy)*sy
			if math.Abs(math.Hypot(x, y)-pat.K) > width {
				continue
			}
			th := math.Atan2(y, x)
			if th < 0 {
				th += 2 * math.Pi
			}
			bins[min(ringBins-1, int(th/(2*math.Pi)*ringBins))] += s.P[b*nx+a]
			inRing += s.P[b*nx+a]
		}
	}
	pat.Contrast = inRing / total
	var sm [ringBins]float64
	top := 0.0
	for i := range bins {
		sm[i] = 0.25*bins[(i+ringBins-1)%ringBins] + 0.5*bins[i] + 0.25*bins[(i+1)%ringBins]
		top = math.Max(top, sm[i])
	}
	for i := range sm {
		l, r := sm[(i+ringBins-1)%ringBins], sm[(i+1)%ringBins]
		if sm[i] >= l && sm[i] > r && sm[i] >= 0.35*top {
			pat.Peaks++
		}
	}
	return pat
}

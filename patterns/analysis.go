package patterns

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Dispersion returns λ/H of the experimental dispersion relation of
// Umbanhowar, Melo & Swinney, λ/H = 1.0 + 1.1 f*^(−1.32).
func Dispersion(fstar float64) float64 { return 1.0 + 1.1*math.Pow(fstar, -1.32) }

// HeightField is the layer's top surface sampled on NX × NX square cells
// of the periodic cell of side L: Z[iy·NX + ix] is the highest sphere top
// (centre + radius) above the floor among the spheres whose centres lie in
// cell (ix, iy), in units of σ (0 for an empty cell).
type HeightField struct {
	NX int
	L  float64
	Z  []float64
}

// HeightField samples the top surface on cells of about 1.5σ (a cell
// holds a column's top sphere or two, so holes between spheres do not
// count as valleys).
func (y *Layer) HeightField() HeightField {
	c := &y.Cfg
	l := c.Side()
	nx := max(4, int(l/(1.5*c.Sigma)))
	h := HeightField{NX: nx, L: l, Z: make([]float64, nx*nx)}
	s := y.Sys
	f := y.FloorHeight()
	for i := 0; i < s.N(); i++ {
		ix := min(nx-1, max(0, int(s.X[3*i]/l*float64(nx))))
		iy := min(nx-1, max(0, int(s.X[3*i+1]/l*float64(nx))))
		top := (s.X[3*i+2] + s.R[i] - f) / c.Sigma
		if k := iy*nx + ix; top > h.Z[k] {
			h.Z[k] = top
		}
	}
	return h
}

// Spectrum is the power spectrum |ĥ(k)|² of a height field's deviation
// from its mean: P[b·NX + a] is the power of the wave vector k = 2π(a′,
// b′)/L, a′ = a − NX/2 and b′ = b − NX/2 (zero frequency in the centre).
type Spectrum struct {
	NX int
	L  float64
	P  []float64
}

// Spectrum returns the height field's 2D power spectrum (a DFT along x,
// then along y; gonum's FFT).
func (h *HeightField) Spectrum() Spectrum {
	n := h.NX
	mean := 0.0
	for _, z := range h.Z {
		mean += z
	}
	mean /= float64(len(h.Z))
	a := make([]complex128, n*n)
	for k, z := range h.Z {
		a[k] = complex(z-mean, 0)
	}
	fft := fourier.NewCmplxFFT(n)
	row := make([]complex128, n)
	for y := 0; y < n; y++ {
		fft.Coefficients(row, a[y*n:(y+1)*n])
		copy(a[y*n:(y+1)*n], row)
	}
	col := make([]complex128, n)
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			col[y] = a[y*n+x]
		}
		fft.Coefficients(row, col)
		for y := 0; y < n; y++ {
			a[y*n+x] = row[y]
		}
	}
	sp := Spectrum{NX: n, L: h.L, P: make([]float64, n*n)}
	for b := 0; b < n; b++ {
		for c := 0; c < n; c++ {
			v := a[b*n+c]
			// index i holds frequency i for i < n/2 + (n odd), i − n above
			kb, kc := shifted(b, n), shifted(c, n)
			sp.P[kb*n+kc] = real(v)*real(v) + imag(v)*imag(v)
		}
	}
	return sp
}

// shifted returns where DFT index i goes when zero frequency is moved to
// index n/2.
func shifted(i, n int) int { return (i + n/2) % n }

// Pattern is what Analyze finds in a spectrum.
type Pattern struct {
	// K is the dominant wave number in units of 2π/L (a ring of the
	// spectrum, refined by the centroid of the ring's neighbours), Lambda
	// = L/K the wavelength in units of σ.
	K, Lambda float64
	// Peaks is the number of peaks of the power on the ring |k| ≈ K
	// (6 hexagons, 4 squares, 2 stripes).
	Peaks int
	// Contrast is the ring's share of the total power (0: no pattern).
	Contrast float64
}

// ringBins is the number of angular bins over 2π for counting peaks.
const ringBins = 36

// Analyze finds the dominant wavelength and counts the peaks on its ring:
// the azimuthal sums S(k) = Σ_{|k′| ∈ [k − ½, k + ½)} P(k′) for k ≥ 1 have
// their largest value at k₀; K is the centroid of S over k₀ − 1 … k₀ + 1.
// The power of the wave vectors with |k′ − K| ≤ max(1, 0.15 K) is summed
// in 36 bins of 10° by direction, smoothed with the weights ¼, ½, ¼, and a
// bin that is a strict local maximum (≥ its left neighbour, > its right)
// holding at least 35 % of the largest bin is a peak. sigma converts L to
// units of σ.
func (s *Spectrum) Analyze(sigma float64) Pattern {
	n := s.NX
	c := n / 2
	kmax := n / 2
	ring := make([]float64, kmax+2)
	total := 0.0
	for b := 0; b < n; b++ {
		for a := 0; a < n; a++ {
			p := s.P[b*n+a]
			total += p
			k := math.Hypot(float64(a-c), float64(b-c))
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
	pat.Lambda = s.L / sigma / pat.K
	width := math.Max(1, 0.15*pat.K)
	var bins [ringBins]float64
	inRing := 0.0
	for b := 0; b < n; b++ {
		for a := 0; a < n; a++ {
			x, y := float64(a-c), float64(b-c)
			if math.Abs(math.Hypot(x, y)-pat.K) > width {
				continue
			}
			th := math.Atan2(y, x)
			if th < 0 {
				th += 2 * math.Pi
			}
			bins[min(ringBins-1, int(th/(2*math.Pi)*ringBins))] += s.P[b*n+a]
			inRing += s.P[b*n+a]
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

package patterns

import (
	"math"
	"slices"
)

// This file holds the second measure of a sample: the one Bizon's own
// reproduction of the 1998 simulation applies to its runs and to the
// published panels (github.com/cbizon/granular_benchmark,
// harness/METRICS.md; package documentation, "The shell measure").

// shellSmoothing is the Gaussian smoothing's standard deviation in cells
// (the benchmark's σ = 2 cells).
const shellSmoothing = 2.0

// GridField samples the top surface as the benchmark does: cells of about
// σ (100 × 100 on Bizon's 100σ × 100σ cell; round(L/σ) along each side
// otherwise), each holding the highest sphere top above the floor among
// the spheres whose centres lie in it (σ), and an empty cell the median of
// the occupied cells' heights (0 when every cell is empty).
func (y *Layer) GridField() HeightField {
	c := &y.Cfg
	lx, ly := c.Sides()
	h := y.topField(max(4, int(math.Round(lx/c.Sigma))), max(4, int(math.Round(ly/c.Sigma))))
	occ := make([]float64, 0, len(h.Z))
	for _, z := range h.Z {
		if !math.IsInf(z, -1) {
			occ = append(occ, z)
		}
	}
	fill := 0.0
	if n := len(occ); n > 0 {
		slices.Sort(occ)
		fill = occ[n/2]
		if n%2 == 0 {
			fill = 0.5 * (occ[n/2-1] + occ[n/2])
		}
	}
	for k, z := range h.Z {
		if math.IsInf(z, -1) {
			h.Z[k] = fill
		}
	}
	return h
}

// topField returns the highest sphere top above the floor (σ) per cell of
// nx × ny cells of the periodic cell, −∞ in a cell without a centre.
func (y *Layer) topField(nx, ny int) HeightField {
	c := &y.Cfg
	lx, ly := c.Sides()
	h := HeightField{NX: nx, NY: ny, LX: lx, LY: ly, Z: make([]float64, nx*ny)}
	for k := range h.Z {
		h.Z[k] = math.Inf(-1)
	}
	s := y.Sys
	f := y.FloorHeight()
	for i := 0; i < s.N(); i++ {
		ix := min(nx-1, max(0, int(s.X[3*i]/lx*float64(nx))))
		iy := min(ny-1, max(0, int(s.X[3*i+1]/ly*float64(ny))))
		top := (s.X[3*i+2] + s.R[i] - f) / c.Sigma
		if k := iy*nx + ix; top > h.Z[k] {
			h.Z[k] = top
		}
	}
	return h
}

// ShellPattern is what the shell measure finds in a height field.
type ShellPattern struct {
	// Shell is the strongest radial Fourier shell (an integer wave number
	// in units of 2π/L, L = max(L_x, L_y), at least 2) and Lambda = L/Shell
	// its wavelength (σ): on a 100σ cell only 50, 33.3, 25, 20, 16.7, …σ.
	// 0 for a flat field.
	Shell  int
	Lambda float64
	// Contrast is the standard deviation of the smoothed field (σ).
	Contrast float64
	// Q2, Q4, Q6 are the orientational orders |Σ P e^{imθ}| / Σ P over the
	// dominant shell's annulus: 1 for perfect stripes in all three, 1 for
	// squares in Q4 (0 in Q2, Q6), 1 for hexagons in Q6 (0 in Q2, Q4).
	Q2, Q4, Q6 float64
}

// Symmetry is the m of the largest of Q2, Q4, Q6 (2 stripes, 4 squares, 6
// hexagons; the smaller m on a tie), 0 for a flat field: the shell
// measure's counterpart of the peak count (our reading; the benchmark
// reports the three Q_m).
func (p ShellPattern) Symmetry() int {
	if p.Shell == 0 {
		return 0
	}
	m, q := 2, p.Q2
	if p.Q4 > q {
		m, q = 4, p.Q4
	}
	if p.Q6 > q {
		m = 6
	}
	return m
}

// Shells applies the shell measure to a height field (package
// documentation, "The shell measure"): Gaussian smoothing of 2 cells
// (periodic), standardization, a 2D Hann window, the power spectrum, the
// strongest shell among the integer wave numbers ≥ 2 and Q_m on the
// annulus within 0.75 of it. sigma converts L to units of σ.
func (h *HeightField) Shells(sigma float64) ShellPattern {
	nx, ny := h.NX, h.NY
	sm := smoothPeriodic(h.Z, nx, ny, shellSmoothing)
	mean := 0.0
	for _, z := range sm {
		mean += z
	}
	mean /= float64(len(sm))
	std := 0.0
	for _, z := range sm {
		std += (z - mean) * (z - mean)
	}
	std = math.Sqrt(std / float64(len(sm)))
	var p ShellPattern
	p.Contrast = std
	if std == 0 {
		return p
	}
	wx, wy := hann(nx), hann(ny)
	a := make([]complex128, nx*ny)
	for iy := 0; iy < ny; iy++ {
		for ix := 0; ix < nx; ix++ {
			a[iy*nx+ix] = complex((sm[iy*nx+ix]-mean)/std*wx[ix]*wy[iy], 0)
		}
	}
	fft2(a, nx, ny)
	l := math.Max(h.LX, h.LY)
	// wave vector of DFT index i: the signed frequency (i, or i − n in the
	// upper half) over the side, in units of 1/L
	freq := func(i, n int, side float64) float64 {
		if i >= (n+1)/2 {
			i -= n
		}
		return float64(i) * l / side
	}
	kmax := int(math.Ceil(math.Hypot(float64(nx)*l/h.LX, float64(ny)*l/h.LY))) + 1
	shells := make([]float64, kmax+1)
	for b := 0; b < ny; b++ {
		ky := freq(b, ny, h.LY)
		for c := 0; c < nx; c++ {
			v := a[b*nx+c]
			k := math.RoundToEven(math.Hypot(freq(c, nx, h.LX), ky))
			shells[int(k)] += real(v)*real(v) + imag(v)*imag(v)
		}
	}
	best := 0
	for k := 2; k <= kmax; k++ {
		if shells[k] > shells[best] {
			best = k
		}
	}
	if best == 0 {
		return p
	}
	p.Shell = best
	p.Lambda = l / sigma / float64(best)
	var sum float64
	var q [3]complex128
	for b := 0; b < ny; b++ {
		ky := freq(b, ny, h.LY)
		for c := 0; c < nx; c++ {
			kx := freq(c, nx, h.LX)
			if math.Abs(math.Hypot(kx, ky)-float64(best)) > 0.75 {
				continue
			}
			v := a[b*nx+c]
			pw := real(v)*real(v) + imag(v)*imag(v)
			th := math.Atan2(ky, kx)
			sum += pw
			for j, m := range [3]float64{2, 4, 6} {
				s, co := math.Sincos(m * th)
				q[j] += complex(pw*co, pw*s)
			}
		}
	}
	if sum > 0 {
		abs := func(z complex128) float64 { return math.Hypot(real(z), imag(z)) }
		p.Q2, p.Q4, p.Q6 = abs(q[0])/sum, abs(q[1])/sum, abs(q[2])/sum
	}
	return p
}

// smoothPeriodic returns z (nx × ny, row-major) convolved with a Gaussian
// of standard deviation s cells along x and then y, wrapping around the
// periodic cell; the kernel is truncated at round(4s) cells and
// normalized.
func smoothPeriodic(z []float64, nx, ny int, s float64) []float64 {
	r := int(4*s + 0.5)
	w := make([]float64, 2*r+1)
	tot := 0.0
	for i := range w {
		d := float64(i - r)
		w[i] = math.Exp(-d * d / (2 * s * s))
		tot += w[i]
	}
	for i := range w {
		w[i] /= tot
	}
	mod := func(i, n int) int { return ((i % n) + n) % n }
	tmp := make([]float64, len(z))
	for iy := 0; iy < ny; iy++ {
		for ix := 0; ix < nx; ix++ {
			v := 0.0
			for j, wj := range w {
				v += wj * z[iy*nx+mod(ix+j-r, nx)]
			}
			tmp[iy*nx+ix] = v
		}
	}
	out := make([]float64, len(z))
	for iy := 0; iy < ny; iy++ {
		for ix := 0; ix < nx; ix++ {
			v := 0.0
			for j, wj := range w {
				v += wj * tmp[mod(iy+j-r, ny)*nx+ix]
			}
			out[iy*nx+ix] = v
		}
	}
	return out
}

// hann returns the symmetric Hann window of n points, ½ − ½cos(2πi/(n−1)).
func hann(n int) []float64 {
	w := make([]float64, n)
	if n == 1 {
		w[0] = 1
		return w
	}
	for i := range w {
		w[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n-1))
	}
	return w
}

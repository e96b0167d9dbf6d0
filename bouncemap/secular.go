package bouncemap

import (
	"math"
)

// constrainedModes computes the modes of the modal system held on the
// plane, C = r + gᵀq ≡ 0 with rigid inverse mass a: eliminating the rigid
// gap r = −gᵀq leaves
//
//	(I + ggᵀ/a) q̈ = −Ω² q,                                               (X3)
//
// whose eigenproblem Ω²φ = μ(I + ggᵀ/a)φ becomes, for ψ = Ωφ and λ = 1/μ,
// the rank-one modification (D + ρzzᵀ)ψ = λψ with D = Ω⁻², z = Ω⁻¹g/‖Ω⁻¹g‖
// and ρ = ‖Ω⁻¹g‖²/a. Its eigenvalues are the roots of the secular equation
//
//	f(λ) = 1 + ρ Σ z_k²/(d_k − λ) = 0,                                       (X4)
//
// one in each gap between consecutive d_k (ascending) and one above the
// largest; each is found in coordinates shifted to the nearer pole (for
// accuracy) by Newton's method on τ·f, safeguarded by bisection. The
// weights z are then recomputed from the roots (Gu & Eisenstat 1994) so the
// eigenvectors ψ_j ∝ (D − λ_j)⁻¹ ẑ are orthogonal to working precision.
//
// Input: om (ascending, distinct) and g (no zero entries), a > 0. Output
// in w: nu[j] = √μ_j ascending, phi[j*m : (j+1)*m] the (I + ggᵀ/a)-
// orthonormal mode φ_j, gphi[j] = gᵀφ_j.
func (w *exactWork) constrainedModes(a float64, om, g []float64) {
	m := len(om)
	w.sizeModes(m)
	// Ascending d_k = 1/ω² is the reverse of ascending ω.
	d, z := w.d, w.z
	var zz float64
	for k := 0; k < m; k++ {
		i := m - 1 - k
		d[k] = 1 / (om[i] * om[i])
		z[k] = g[i] / om[i]
		zz += z[k] * z[k]
	}
	rho := zz / a
	nz := math.Sqrt(zz)
	for k := range z {
		z[k] /= nz
	}
	// Roots λ_j = d[org[j]] + tau[j].
	for j := 0; j < m; j++ {
		var lo, hi float64
		o := j
		if j < m-1 {
			mid := (d[j] + d[j+1]) / 2
			if w.secularAt(rho, mid) >= 0 {
				lo, hi = 0, mid-d[j]
			} else {
				o = j + 1
				lo, hi = mid-d[j+1], 0
			}
		} else {
			lo, hi = 0, rho
		}
		w.org[j] = o
		w.tau[j] = w.secularRoot(rho, o, lo, hi)
	}
	// Gu–Eisenstat: ẑ_k² = Π_j (λ_j − d_k) / (ρ Π_{j≠k} (d_j − d_k)).
	for k := 0; k < m; k++ {
		p := (d[w.org[m-1]] - d[k] + w.tau[m-1]) / rho
		for j := 0; j < m-1; j++ {
			lj := d[w.org[j]] - d[k] + w.tau[j]
			p *= lj
			jj := j
			if jj >= k {
				jj++
			}
			p /= d[jj] - d[k]
		}
		w.zh[k] = math.Copysign(math.Sqrt(math.Abs(p)), z[k])
	}
	// Eigenvectors ψ_j ∝ ẑ_k/(d_k − λ_j), then φ_j = Ω⁻¹ψ_j/√λ_j in the
	// original (ascending ω) order; j = 0 is the largest λ, i.e. the
	// smallest μ, so constrained mode index jm = m − 1 − j ascends in ν.
	for j := 0; j < m; j++ {
		o := w.org[j]
		var nn float64
		for k := 0; k < m; k++ {
			den := (d[k] - d[o]) - w.tau[j]
			v := w.zh[k] / den
			w.psi[k] = v
			nn += v * v
		}
		lam := d[o] + w.tau[j]
		s := 1 / math.Sqrt(nn*lam)
		jm := m - 1 - j
		w.nu[jm] = 1 / math.Sqrt(lam)
		phi := w.phi[jm*m : (jm+1)*m]
		var gp float64
		for k := 0; k < m; k++ {
			i := m - 1 - k
			phi[i] = w.psi[k] * s / om[i]
			gp += g[i] * phi[i]
		}
		w.gphi[jm] = gp
	}
}

// secularAt returns f(λ) of (X4).
func (w *exactWork) secularAt(rho, lam float64) float64 {
	f := 1.0
	for k, dk := range w.d {
		f += rho * w.z[k] * w.z[k] / (dk - lam)
	}
	return f
}

// secularRoot solves F(τ) = τ·f(d[o] + τ) = 0 on [lo, hi] (one end is 0,
// where F = −ρz_o²; the other end has the opposite sign).
func (w *exactWork) secularRoot(rho float64, o int, lo, hi float64) float64 {
	d, z := w.d, w.z
	do := d[o]
	eval := func(t float64) (F, dF float64) {
		// F = τ(1 + ψ) − ρ z_o², ψ = ρ Σ_{k≠o} z_k²/(δ_k − τ).
		var psi, dpsi float64
		for k, dk := range d {
			if k == o {
				continue
			}
			den := (dk - do) - t
			q := rho * z[k] * z[k] / den
			psi += q
			dpsi += q / den
		}
		return t*(1+psi) - rho*z[o]*z[o], 1 + psi + t*dpsi
	}
	flo, _ := eval(lo)
	t := (lo + hi) / 2
	for it := 0; it < 100; it++ {
		F, dF := eval(t)
		if F == 0 {
			return t
		}
		if (F < 0) == (flo < 0) {
			lo, flo = t, F
		} else {
			hi = t
		}
		next := t - F/dF
		if !(next > lo && next < hi) || dF == 0 {
			next = (lo + hi) / 2
		}
		if math.Abs(next-t) <= 2e-16*math.Abs(next) || hi-lo <= 4e-16*math.Max(math.Abs(lo), math.Abs(hi)) {
			return next
		}
		t = next
	}
	return t
}

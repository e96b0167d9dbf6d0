package bouncemap

import (
	"fmt"
	"math"
	"slices"
)

// ExactOptions control Exact.
type ExactOptions struct {
	// MaxEvents caps the number of contact events (default 10⁵).
	MaxEvents int
	// Grid is the scanning step of the root search in units of 1/ω_max
	// (default 1).
	Grid float64
}

// exactWork holds the buffers of the exact analysis.
type exactWork struct {
	om, g               []float64 // kept modes (ascending ω), participations
	d, z, zh, tau, psi  []float64
	org                 []int
	nu, phi, gphi, kap  []float64
	q, qd, eta, etad    []float64
	are, aim, w         []float64 // trig-sum amplitudes and frequencies
	cre, cim, rre, rim  []float64 // phasors at the scan point, rotation per step
	idx                 []int
	evals               int
	alpha, beta, l2, l3 float64
}

func (w *exactWork) sizeModes(m int) {
	grow := func(s []float64) []float64 {
		if cap(s) < m {
			return make([]float64, m)
		}
		return s[:m]
	}
	w.d, w.z, w.zh, w.tau, w.psi = grow(w.d), grow(w.z), grow(w.zh), grow(w.tau), grow(w.psi)
	w.nu, w.gphi, w.kap = grow(w.nu), grow(w.gphi), grow(w.kap)
	w.q, w.qd, w.eta, w.etad = grow(w.q), grow(w.qd), grow(w.eta), grow(w.etad)
	w.are, w.aim, w.w = grow(w.are), grow(w.aim), grow(w.w)
	w.cre, w.cim, w.rre, w.rim = grow(w.cre), grow(w.cim), grow(w.rre), grow(w.rim)
	if cap(w.org) < m {
		w.org = make([]int, m)
	}
	w.org = w.org[:m]
	if cap(w.phi) < m*m {
		w.phi = make([]float64, m*m)
	}
	w.phi = w.phi[:m*m]
}

// Exact is the restitution analysis of Alg. 1's proxy problem in the limit
// of small impact speed, solved without time steps (see the package
// documentation, eqs. X1–X6): free flight and contact phases in closed
// form, events found by safe root bracketing.
func (w *Workspace) Exact(b *Body, s *Site, opt ExactOptions) (Outcome, error) {
	if err := validateSite(b, s); err != nil {
		return Outcome{}, err
	}
	m := b.Modes()
	w.size(m)
	n := s.N
	xn := [3]float64{
		-(s.X.Y*n.Z - s.X.Z*n.Y), -(s.X.Z*n.X - s.X.X*n.Z), -(s.X.X*n.Y - s.X.Y*n.X),
	}
	a := 1/b.Mass + xn[0]*xn[0]/b.Inertia[0] + xn[1]*xn[1]/b.Inertia[1] + xn[2]*xn[2]/b.Inertia[2]
	g := w.mod
	for i := 0; i < m; i++ {
		g[i] = -(s.U[3*i]*n.X + s.U[3*i+1]*n.Y + s.U[3*i+2]*n.Z)
	}
	return w.ex.run(a, b.Omega, g, opt)
}

// ExactContact runs the exact analysis for a contact given directly by its
// rigid inverse mass a along the normal and its modes (ω, g) — the form
// both the one-body and the two-body (eq. 11) problems reduce to.
func (w *Workspace) ExactContact(a float64, om, g []float64, opt ExactOptions) (Outcome, error) {
	if !(a > 0) || len(om) != len(g) {
		return Outcome{}, fmt.Errorf("bouncemap: exact contact needs a > 0 (got %v) and one participation per mode (%d, %d)", a, len(om), len(g))
	}
	return w.ex.run(a, om, g, opt)
}

// keep filters and merges the modes: participations below 10⁻¹³ of the
// largest never couple to the contact and are dropped; modes whose
// frequencies agree to 10⁻¹² are one mode with g = √(Σg²) (the orthogonal
// combination starts at rest and is never excited).
func (w *exactWork) keep(om, g []float64) {
	m := len(om)
	w.om, w.g = w.om[:0], w.g[:0]
	var gmax float64
	for _, x := range g {
		gmax = math.Max(gmax, math.Abs(x))
	}
	if cap(w.idx) < m {
		w.idx = make([]int, m)
	}
	idx := w.idx[:m]
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(p, q int) int {
		switch {
		case om[p] < om[q]:
			return -1
		case om[p] > om[q]:
			return 1
		}
		return 0
	})
	for _, i := range idx {
		if !(math.Abs(g[i]) > 1e-13*gmax) {
			continue
		}
		if k := len(w.om) - 1; k >= 0 && om[i]-w.om[k] <= 1e-12*om[i] {
			w.g[k] = math.Copysign(math.Hypot(w.g[k], g[i]), w.g[k])
			continue
		}
		w.om = append(w.om, om[i])
		w.g = append(w.g, g[i])
	}
}

func (w *exactWork) run(a float64, omIn, gIn []float64, opt ExactOptions) (Outcome, error) {
	var out Outcome
	maxEvents := opt.MaxEvents
	if maxEvents <= 0 {
		maxEvents = 100_000
	}
	grid := opt.Grid
	if grid <= 0 {
		grid = 1
	}
	w.keep(omIn, gIn)
	om, g := w.om, w.g
	m := len(om)
	w.evals = 0
	// Rigid normal gap r and its rate; v_n⁻ = −1.
	r, rd := 0.0, -1.0
	if m == 0 {
		// One impulse stops the point: ε = 0.
		out.Collisions = 1
		out.Steps = 1
		return out, nil
	}
	w.constrainedModes(a, om, g)
	var G float64
	for i := 0; i < m; i++ {
		G += g[i] * g[i]
	}
	for j := 0; j < m; j++ {
		w.kap[j] = w.nu[j] * w.nu[j] * w.gphi[j] / a
	}
	q, qd := w.q, w.qd
	for i := range q {
		q[i], qd[i] = 0, 0
	}
	t := 0.0
	events := 0
	for {
		if events >= maxEvents {
			out.Capped = true
			break
		}
		events++
		// Impact at C = 0 with Ċ < 0 (inelastic, Alg. 1 line 8).
		cd := rd
		for i := 0; i < m; i++ {
			cd += g[i] * qd[i]
		}
		if cd < 0 {
			lam := -cd / (a + G)
			rd += a * lam
			for i := 0; i < m; i++ {
				qd[i] += g[i] * lam
			}
		}
		out.Collisions++
		out.TauLast = t
		// Held on the plane while the force it needs is compressive:
		// λ_c = gᵀΩ²q/(a + G) (X5).
		for {
			var lc, lcd float64
			for i := 0; i < m; i++ {
				lc += g[i] * om[i] * om[i] * q[i]
				lcd += g[i] * om[i] * om[i] * qd[i]
			}
			if !(lc > 0 || (lc == 0 && lcd > 0)) {
				break
			}
			sr, ok := w.contactPhase(a, lc, lcd, grid)
			if !ok {
				return out, fmt.Errorf("bouncemap: exact analysis: no release within 10⁴ periods of the slowest held mode")
			}
			t += sr
			out.TauLast = t
			// Held on the plane: r = −gᵀq, ṙ = −gᵀq̇.
			r, rd = 0, 0
			for i := 0; i < m; i++ {
				r -= g[i] * q[i]
				rd -= g[i] * qd[i]
			}
			// After the release C = Ċ = C̈ = 0; it separates if
			// C⃛ = −Σ gω²q̇ > 0, else it is held again.
			var c3 float64
			for i := 0; i < m; i++ {
				c3 -= g[i] * om[i] * om[i] * qd[i]
			}
			if c3 > 0 || sr == 0 {
				break
			}
		}
		// Free flight: C(s) = r + ṙs + Σ Re(Zᵢ e^{iωᵢs}), Zᵢ = gᵢ(qᵢ − iq̇ᵢ/ωᵢ).
		w.alpha, w.beta = r, rd
		var amp float64
		for i := 0; i < m; i++ {
			w.are[i], w.aim[i], w.w[i] = g[i]*q[i], -g[i]*qd[i]/om[i], om[i]
			amp += math.Hypot(w.are[i], w.aim[i])
		}
		// A safe start: C and Ċ vanish; the first non-zero derivative
		// decides how long C stays positive (Taylor bound of the next
		// order, derivatives bounded by Σ|Zᵢ|ωᵢᵏ).
		s0 := w.safeStart(m)
		// Beyond sEnd the rigid gap exceeds every modal excursion.
		var sEnd float64
		switch {
		case rd > 0:
			sEnd = math.Max(s0, (amp-r)/rd)
		case rd < 0:
			sEnd = (r+amp)/(-rd) + s0
		case r > amp:
			sEnd = s0
		default:
			sEnd = s0 + 1e4*2*math.Pi/om[0]
		}
		sr, found := w.firstRoot(m, s0, sEnd, grid/om[m-1])
		if !found {
			out.TauSim = t + sEnd
			break
		}
		// Propagate to the contact.
		for i := 0; i < m; i++ {
			sn, cs := math.Sincos(om[i] * sr)
			qi, qdi := q[i], qd[i]
			q[i] = qi*cs + qdi/om[i]*sn
			qd[i] = -qi*om[i]*sn + qdi*cs
		}
		t += sr
		// C = 0 exactly at the event (removes the root's last rounding).
		r = 0
		for i := 0; i < m; i++ {
			r -= g[i] * q[i]
		}
	}
	out.Steps = w.evals
	out.Eps = clamp01(rd)
	return out, nil
}

// safeStart returns s₀ > 0 such that the free-flight gap is positive on
// (0, s₀]: with C(0) = Ċ(0) = 0 (and C̈(0) = 0 after a release) the first
// non-zero derivative C⁽ᵏ⁻¹⁾(0) > 0 and C(s) ≥ C⁽ᵏ⁻¹⁾s^{k−1}/(k−1)! −
// L_k s^k/k!, positive below k·C⁽ᵏ⁻¹⁾/L_k; half of that is returned.
func (w *exactWork) safeStart(m int) float64 {
	for k := 2; k <= 5; k++ {
		// Derivative k−1 of Σ Re(A e^{iws}) at 0: Re(A (iw)^{k−1}).
		var dk, lk float64
		for i := 0; i < m; i++ {
			ar, ai, wi := w.are[i], w.aim[i], w.w[i]
			p := math.Pow(wi, float64(k-1))
			switch (k - 1) % 4 {
			case 0:
				dk += ar * p
			case 1:
				dk -= ai * p
			case 2:
				dk -= ar * p
			case 3:
				dk += ai * p
			}
			lk += math.Hypot(ar, ai) * p * wi
		}
		if k == 2 {
			dk += w.beta
		}
		if dk > 1e-12*lk/w.w[m-1] {
			return 0.5 * float64(k) * dk / lk
		}
	}
	return 0
}

// eval returns F(s) and F'(s) of the current trig sum by direct
// evaluation.
func (w *exactWork) eval(m int, s float64) (F, dF float64) {
	w.evals++
	F, dF = w.alpha+w.beta*s, w.beta
	for i := 0; i < m; i++ {
		sn, cs := math.Sincos(w.w[i] * s)
		re := w.are[i]*cs - w.aim[i]*sn
		im := w.are[i]*sn + w.aim[i]*cs
		F += re
		dF -= w.w[i] * im
	}
	return F, dF
}

// firstRoot returns the first s in [s0, s1] where F(s) ≤ 0 (to within
// 10⁻¹³ of the scan step), or found = false when F > 0 on all of it. F > 0
// on (0, s0] is the caller's guarantee. It scans with step h, rotating
// phasors (one complex product per mode and step, re-synchronized every 64
// steps) and proving each step root-free by the concave bound
// F(s+σ) ≥ F(s) + F'(s)σ − ½L₂σ², L₂ = Σ|Aᵢ|ωᵢ²; where the bound fails it
// walks from the left end by the bound's own root (safe Newton), which
// never passes a root and converges quadratically on a transversal one,
// and falls back to bisection-by-proof on grazing approaches.
func (w *exactWork) firstRoot(m int, s0, s1, h float64) (float64, bool) {
	var l2 float64
	for i := 0; i < m; i++ {
		l2 += math.Hypot(w.are[i], w.aim[i]) * w.w[i] * w.w[i]
	}
	w.l2 = l2
	tol := 1e-13 * h
	for i := 0; i < m; i++ {
		sn, cs := math.Sincos(w.w[i] * h)
		w.rre[i], w.rim[i] = cs, sn
	}
	s := s0
	k := 0
	for s < s1 {
		var F, dF float64
		if k%64 == 0 {
			F, dF = w.alpha+w.beta*s, w.beta
			for i := 0; i < m; i++ {
				sn, cs := math.Sincos(w.w[i] * s)
				w.cre[i] = w.are[i]*cs - w.aim[i]*sn
				w.cim[i] = w.are[i]*sn + w.aim[i]*cs
				F += w.cre[i]
				dF -= w.w[i] * w.cim[i]
			}
		} else {
			F, dF = w.alpha+w.beta*s, w.beta
			for i := 0; i < m; i++ {
				F += w.cre[i]
				dF -= w.w[i] * w.cim[i]
			}
		}
		w.evals++
		if F <= 0 {
			return s, true
		}
		step := math.Min(h, s1-s)
		if F+dF*step-0.5*l2*step*step <= 0 {
			if r, ok := w.walk(m, s, F, dF, s+step, tol); ok {
				return r, true
			}
		}
		// Advance the phasors by h.
		for i := 0; i < m; i++ {
			re := w.cre[i]*w.rre[i] - w.cim[i]*w.rim[i]
			w.cim[i] = w.cre[i]*w.rim[i] + w.cim[i]*w.rre[i]
			w.cre[i] = re
		}
		s = s0 + float64(k+1)*h
		k++
	}
	return 0, false
}

// walk searches [u, v] (F(u) > 0) for the first point with F ≤ 0 by safe
// steps σ with F(u) + F'(u)σ − ½L₂σ² = 0; after 40 steps it bisects
// instead, proving halves root-free or not.
func (w *exactWork) walk(m int, u, Fu, dFu, v, tol float64) (float64, bool) {
	l2 := w.l2
	for it := 0; it < 40; it++ {
		// Smallest positive root of Fu + dFu σ − ½l2σ².
		disc := math.Sqrt(dFu*dFu + 2*l2*Fu)
		var sig float64
		if dFu >= 0 {
			sig = (dFu + disc) / l2
		} else {
			sig = 2 * Fu / (disc - dFu)
		}
		if sig <= tol {
			return u + sig, true
		}
		u += sig
		if u >= v {
			return 0, false
		}
		Fu, dFu = w.eval(m, u)
		if Fu <= 0 {
			return u, true
		}
	}
	return w.bisect(m, u, Fu, dFu, v, tol, 0)
}

// bisect proves [u, v] root-free or returns its first point with F ≤ 0.
func (w *exactWork) bisect(m int, u, Fu, dFu, v, tol float64, depth int) (float64, bool) {
	d := v - u
	if Fu+dFu*d-0.5*w.l2*d*d > 0 {
		return 0, false
	}
	if d <= tol || depth > 60 {
		Fv, _ := w.eval(m, v)
		if Fv <= 0 {
			return v, true
		}
		return 0, false
	}
	mid := u + d/2
	Fm, dFm := w.eval(m, mid)
	if r, ok := w.bisect(m, u, Fu, dFu, mid, tol, depth+1); ok {
		return r, true
	}
	if Fm <= 0 {
		return mid, true
	}
	return w.bisect(m, mid, Fm, dFm, v, tol, depth+1)
}

// contactPhase integrates the held phase in closed form from the current
// (q, q̇) (eqs. X3, X5): the state in constrained modes,
// η_j = φ_jᵀ(I + ggᵀ/a)q, each a harmonic oscillator of frequency ν_j, and
// the contact force Λ(s) = Σ κ_j η_j(s), κ_j = ν_j² gᵀφ_j / a, until its
// first zero; it leaves q, q̇ at the release and returns the phase's
// length.
func (w *exactWork) contactPhase(a, lc, lcd float64, grid float64) (float64, bool) {
	om, g := w.om, w.g
	m := len(om)
	q, qd := w.q, w.qd
	var gq, gqd float64
	for i := 0; i < m; i++ {
		gq += g[i] * q[i]
		gqd += g[i] * qd[i]
	}
	for j := 0; j < m; j++ {
		phi := w.phi[j*m : (j+1)*m]
		var e, ed float64
		for i := 0; i < m; i++ {
			e += phi[i] * q[i]
			ed += phi[i] * qd[i]
		}
		w.eta[j] = e + w.gphi[j]*gq/a
		w.etad[j] = ed + w.gphi[j]*gqd/a
	}
	// Λ(s) = Σ Re(A_j e^{iν_j s}), A_j = κ_j(η_j − iη̇_j/ν_j).
	w.alpha, w.beta = 0, 0
	for j := 0; j < m; j++ {
		w.are[j], w.aim[j], w.w[j] = w.kap[j]*w.eta[j], -w.kap[j]*w.etad[j]/w.nu[j], w.nu[j]
	}
	var s0 float64
	if lc <= 0 {
		// Λ(0) = 0 with Λ'(0) > 0 (the first impact from rest).
		s0 = w.safeStart(m)
	}
	period := 2 * math.Pi / w.nu[0]
	sr, ok := w.firstRoot(m, s0, 1e4*period, grid/w.nu[m-1])
	if !ok {
		return 0, false
	}
	// Back to modal coordinates at the release.
	for i := range q {
		q[i], qd[i] = 0, 0
	}
	for j := 0; j < m; j++ {
		sn, cs := math.Sincos(w.nu[j] * sr)
		e := w.eta[j]*cs + w.etad[j]/w.nu[j]*sn
		ed := -w.eta[j]*w.nu[j]*sn + w.etad[j]*cs
		phi := w.phi[j*m : (j+1)*m]
		for i := 0; i < m; i++ {
			q[i] += phi[i] * e
			qd[i] += phi[i] * ed
		}
	}
	return sr, true
}

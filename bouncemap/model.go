package bouncemap

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Body is the modal model of one elastic body (eq. 6): total mass, the
// principal moments of inertia (the body frame has its origin at the
// centre of mass and its axes along the principal axes), and the angular
// frequencies ω₁ ≤ … ≤ ω_m of its lowest m mass-normalized elastic modes.
type Body struct {
	Mass    float64
	Inertia [3]float64
	Omega   []float64
}

// Modes returns m.
func (b *Body) Modes() int { return len(b.Omega) }

// Validate checks positive mass and moments and positive, finite,
// non-decreasing frequencies.
func (b *Body) Validate() error {
	if !(b.Mass > 0) || math.IsInf(b.Mass, 0) {
		return fmt.Errorf("bouncemap: body mass %v, want a finite positive number", b.Mass)
	}
	for k, i := range b.Inertia {
		if !(i > 0) || math.IsInf(i, 0) {
			return fmt.Errorf("bouncemap: principal moment %d is %v, want a finite positive number", k, i)
		}
	}
	for i, w := range b.Omega {
		if !(w > 0) || math.IsInf(w, 0) || (i > 0 && w < b.Omega[i-1]) {
			return fmt.Errorf("bouncemap: ω%d = %v; frequencies must be positive, finite and non-decreasing", i+1, w)
		}
	}
	return nil
}

// Site is one contact sample of a body: the undeformed point X and the
// outward unit surface normal N in the body frame, and the mode shapes at
// X, U[3i : 3i+3] = Uᵢ(X) (the 3×m matrix U(X) of eq. 2 by columns).
type Site struct {
	X, N r3.Vec
	U    []float64
}

// Mode returns Uᵢ(X).
func (s *Site) Mode(i int) r3.Vec { return r3.Vec{X: s.U[3*i], Y: s.U[3*i+1], Z: s.U[3*i+2]} }

// Compliance returns the linear contact quantities of the site against
// the proxy plane with normal n = −N: the rigid inverse mass of the
// contact point along n,
//
//	a = 1/M + Σ_k (X × n)_k² / I_k,
//
// and the modal participations gᵢ = Uᵢ(X)·n (the generalized normal's
// modal part at the undeformed state, Alg. 1 line 8).
func (s *Site) Compliance(b *Body) (a float64, g []float64) {
	n := r3.Scale(-1, s.N)
	xn := r3.Cross(s.X, n)
	a = 1/b.Mass + xn.X*xn.X/b.Inertia[0] + xn.Y*xn.Y/b.Inertia[1] + xn.Z*xn.Z/b.Inertia[2]
	g = make([]float64, b.Modes())
	for i := range g {
		g[i] = r3.Dot(s.Mode(i), n)
	}
	return a, g
}

// Outcome is the result of one restitution analysis.
type Outcome struct {
	// Eps is the coefficient of restitution ε = −v_n⁺/v_n⁻ (eq. 1), clamped
	// to [0, 1].
	Eps float64
	// TauSim is the simulated time until the deformation bound separates
	// from the plane (Alg. 1: steps·Δt); TauLast is the time of the last
	// contact impulse (Alg. 1) or the end of the last contact (exact).
	TauSim, TauLast float64
	// Collisions counts the contiguous contact events (micro-collisions);
	// in Alg. 1 impulse runs separated by at most two impulse-free steps
	// count as one.
	Collisions int
	// Steps is the number of time steps (Alg. 1) or of phase-propagation
	// evaluations (exact).
	Steps int
	// Capped is set when the step cap stopped the analysis before the
	// bound separated (ε is then the last cached value).
	Capped bool
}

// validateSite checks a site against its body.
func validateSite(b *Body, s *Site) error {
	if len(s.U) != 3*b.Modes() {
		return fmt.Errorf("bouncemap: site has %d mode entries for %d modes", len(s.U), b.Modes())
	}
	if l := r3.Norm(s.N); math.Abs(l-1) > 1e-9 {
		return fmt.Errorf("bouncemap: site normal %v has length %v, want 1", s.N, l)
	}
	for _, u := range s.U {
		if math.IsNaN(u) || math.IsInf(u, 0) {
			return fmt.Errorf("bouncemap: site mode shape has a non-finite entry")
		}
	}
	return nil
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

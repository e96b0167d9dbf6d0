package singlecontact

import (
	"fmt"
	"math"
)

// Mode says how a Coulomb-like solution acts at the contact.
type Mode uint8

const (
	// NoImpulse: x = 0 (a separating or grazing contact left alone).
	NoImpulse Mode = iota
	// Stick: x = x₀ = A⁻¹b, the contact comes to rest inside the cone.
	Stick
	// Slide: x on the cone's boundary with the friction impulse directly
	// opposing the post-impulse slip.
	Slide
	// Segment: every s·X, s ∈ [0, 1], is a solution (a continuum; it
	// happens for the Painlevé rod at μ = μ*). X is the end point.
	Segment
)

func (m Mode) String() string {
	switch m {
	case NoImpulse:
		return "no-impulse"
	case Stick:
		return "stick"
	case Slide:
		return "slide"
	case Segment:
		return "segment"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Solution is one solution of the Coulomb-like impulsive model.
type Solution struct {
	X    [3]float64
	Mode Mode
}

// Tolerances of the Coulomb enumeration (relative): a sticking impulse may
// exceed the cone by coulombConeTol, and a grazing conic within
// coulombConeTol of a parabola is taken as the parabola, so that the
// Painlevé rod at a rounded μ* still shows its continuum.
const coulombConeTol = 1e-12

// Coulomb appends to dst every solution of the Coulomb-like impulsive model
// (Preclik et al., Fig. 1, lower block) of the single-contact problem p and
// returns the extended slice: the constraints of eq. (3) with the friction
// impulse directly opposing the post-impulse slip,
// ‖δv⁺_to‖ x_to = −μ x_n δv⁺_to. The solutions are
//
//   - x = 0 when b_n ≤ 0;
//   - x₀ = A⁻¹b when it lies in the cone (sticking);
//   - for b_n > 0, every point of the conic where x_to ∥ −(Ax − b)_to: the
//     roots of the trigonometric polynomial of degree two in α below (the
//     same quartic in e^{iα} as eq. 8, with other coefficients), kept where
//     α ∈ I and the slip opposes the friction;
//   - for b_n = 0, on each boundary ray u the point r u with
//     r (u × Âu) = u × b̂, r > 0, slip opposing; a ray on which both sides
//     vanish carries a Segment of solutions.
//
// The sliding points solve
//
//	μb_n(Â_to cos 2α + ½(Â_oo−Â_tt) sin 2α) = f_r(α)(b̂_o cos α − b̂_t sin α).
//
// The model's solutions are not unique (Table 1 has three); the maximum-
// dissipation impulse of the same problem has an objective no larger than
// any of them. Coulomb does not iterate; it allocates only when dst is too
// small (at most five solutions).
func Coulomb(p *Problem, dst []Solution) []Solution {
	b := p.B
	mu := p.Mu
	a := &p.A
	eb := GrazingTol * math.Max(math.Abs(b[1]), math.Abs(b[2]))
	if b[0] < -eb {
		return append(dst, Solution{Mode: NoImpulse})
	}
	grazing := b[0] <= eb
	if grazing {
		b[0] = 0
		dst = append(dst, Solution{Mode: NoImpulse})
	}
	if mu == 0 {
		if !grazing {
			dst = append(dst, Solution{X: [3]float64{b[0] / a[0][0], 0, 0}, Mode: Stick})
		}
		return dst
	}
	x0 := solveSPD3(a, b)
	if x0 != ([3]float64{}) && x0[0] >= 0 && math.Hypot(x0[1], x0[2]) <= mu*x0[0]*(1+coulombConeTol) {
		dst = append(dst, Solution{X: x0, Mode: Stick})
	}
	c := newConic(a, &b, mu)
	if grazing {
		if c.ann > c.mu*c.s*(1+coulombConeTol) {
			return dst // the plane meets the cone at its apex only
		}
		a1, a2 := math.Pi+c.a0(), math.Pi+c.a0() // parabola: one ray
		if c.ann < c.mu*c.s*(1-coulombConeTol) {
			a1, a2 = c.rayDirs()
		}
		dst = c.coulombRay(dst, a1)
		if a2 != a1 {
			dst = c.coulombRay(dst, a2)
		}
		return dst
	}
	tr := c.coulombSlip()
	var roots [4]unit
	n := tr.roots(&roots)
	for _, u := range roots[:n] {
		fr := c.fr(u)
		if !(fr > 0) {
			continue
		}
		r := c.mu * c.bn / fr
		cs, sn := u.c, u.s
		gt, gto := r*cs, r*sn
		st := c.htt*gt + c.hto*gto - c.bt
		so := c.hto*gt + c.hoo*gto - c.bo
		if cs*st+sn*so < 0 {
			dst = append(dst, Solution{X: c.fromTangential(gt, gto), Mode: Slide})
		}
	}
	return dst
}

// coulombSlip returns the trigonometric polynomial whose roots are the
// conic points where the tangential impulse is parallel to the slip
// Âγ − b̂ (see Coulomb).
func (c *conic) coulombSlip() trig2 {
	mu, bn := c.mu, c.bn
	c0 := -0.5 * mu * (c.ant*c.bo - c.ano*c.bt)
	a1 := -c.ann * c.bo
	b1 := c.ann * c.bt
	a2 := mu*bn*c.hto - 0.5*mu*(c.ant*c.bo+c.ano*c.bt)
	b2 := 0.5*mu*bn*(c.hoo-c.htt) - 0.5*mu*(c.ano*c.bo-c.ant*c.bt)
	return trig2{c0: c0, k1: complex(a1, -b1), k2: complex(a2, -b2)}
}

// coulombRay appends the Coulomb solutions on the grazing ray of direction
// α (b_n = 0).
func (c *conic) coulombRay(dst []Solution, al float64) []Solution {
	sn, cs := math.Sincos(al)
	uau := c.htt*cs*cs + 2*c.hto*cs*sn + c.hoo*sn*sn
	uxau := c.hto*(cs*cs-sn*sn) + (c.hoo-c.htt)*sn*cs
	uxb := cs*c.bo - sn*c.bt
	ub := cs*c.bt + sn*c.bo
	an := math.Abs(c.htt) + math.Abs(c.hto) + math.Abs(c.hoo)
	bnorm := math.Hypot(c.bt, c.bo)
	if math.Abs(uxau) <= 1e-10*an && math.Abs(uxb) <= 1e-10*bnorm {
		// x_to ∥ b̂ and Âu ∥ u: the slip rÂu − b̂ opposes u for every
		// 0 < r < uᵀb̂/uᵀÂu
		if r := ub / uau; r > 0 {
			dst = append(dst, Solution{X: c.fromTangential(r*cs, r*sn), Mode: Segment})
		}
		return dst
	}
	if uxau == 0 {
		return dst
	}
	r := uxb / uxau
	if !(r > 0) {
		return dst
	}
	if r*uau-ub < 0 {
		dst = append(dst, Solution{X: c.fromTangential(r*cs, r*sn), Mode: Slide})
	}
	return dst
}

// CoulombNearest returns the Coulomb-like solution an iteration over
// blocks (friction.NBGS) takes: the sticking impulse when there is one,
// otherwise the solution (sliding, segment end or zero) nearest the
// block's previous impulse prev. buf is scratch for Coulomb (no allocation
// when its capacity is at least 5).
func CoulombNearest(p *Problem, prev [3]float64, buf []Solution) [3]float64 {
	sols := Coulomb(p, buf[:0])
	best, bestD := [3]float64{}, math.Inf(1)
	for _, s := range sols {
		if s.Mode == Stick {
			return s.X
		}
		d := (s.X[0]-prev[0])*(s.X[0]-prev[0]) + (s.X[1]-prev[1])*(s.X[1]-prev[1]) + (s.X[2]-prev[2])*(s.X[2]-prev[2])
		if d < bestD {
			best, bestD = s.X, d
		}
	}
	return best
}

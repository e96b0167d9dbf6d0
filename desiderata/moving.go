package desiderata

import (
	"fmt"
	"math"
	"math/rand"

	"impactsim/mech"
)

// AddFloor appends to p, built by Balls2D from balls, one contact with the
// floor y = y0 (normal +y, tangent +x) for every ball whose bottom is
// within TouchTol of it, with restitution cor and friction mu.
func AddFloor(p *mech.Problem, balls []Ball, y0, cor, mu float64) {
	for i, b := range balls {
		if b.Y-b.R-y0 > TouchTol {
			continue
		}
		p.G.Append(2*i+1, 1)
		p.G.EndCol()
		p.D.Append(2*i, 1)
		p.D.EndCol()
		p.DContact = append(p.DContact, p.NContacts()-1)
		p.AppendContact(cor, mu, i, -1)
	}
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("desiderata: built an invalid problem: %v", err))
	}
}

// Boost returns a copy of p seen from a frame moving at −w (len Dim): every
// body, fixed ones included, gains the velocity w on its translational
// degrees of freedom, and the static geometry moves at w, so that every
// contact's known relative velocities become NRel[i] − ∇gᵢᵀw̄ and
// DRel[k] − Dₖᵀw̄ (w̄ is w on every block). The relative velocities are
// those of p: an operator that acts on relative velocities (Galilean
// invariance) gives the same impulses, and velocities that differ from
// p's by w̄.
func Boost(p *mech.Problem, w []float64) *mech.Problem {
	q := &mech.Problem{Dim: p.Dim, M: p.M, MInv: p.MInv, G: p.G, D: p.D,
		CoR:      append([]float64(nil), p.CoR...),
		Mu:       append([]float64(nil), p.Mu...),
		DContact: append([]int(nil), p.DContact...),
		Bodies:   append([]int(nil), p.Bodies...)}
	wb := BoostVelocity(p, w)
	q.V = make([]float64, len(p.V))
	for i := range q.V {
		q.V[i] = p.V[i] + wb[i]
	}
	m, nd := p.NContacts(), p.D.NCols()
	q.NRel, q.DRel = make([]float64, m), make([]float64, nd)
	for i := range q.NRel {
		q.NRel[i] = p.NRelAt(i) - p.G.ColDot(i, wb)
	}
	for k := range q.DRel {
		q.DRel[k] = p.DRelAt(k) - p.D.ColDot(k, wb)
	}
	return q
}

// BoostVelocity returns w̄: w (len Dim) on the translational degrees of
// freedom of every block of p, zero elsewhere.
func BoostVelocity(p *mech.Problem, w []float64) []float64 {
	wb := make([]float64, len(p.V))
	for b := 0; b < p.MInv.NumBlocks(); b++ {
		s, _ := p.MInv.Bounds(b)
		copy(wb[s:s+p.Dim], w)
	}
	return wb
}

// FloorPile is a random pile of ten balls in a hexagonal patch of three
// rows standing on the floor y = 0 (AddFloor), with masses e^N(0,¼) and
// random velocities pressing it down, restitution cor and friction mu.
func FloorPile(rng *rand.Rand, cor, mu float64) *mech.Problem {
	var b []Ball
	for r := 0; r < 3; r++ {
		for q := 0; q < 4-r; q++ {
			b = append(b, Ball{X: float64(q) + 0.5*float64(r), Y: 0.5 + float64(r)*math.Sqrt(3)/2, R: 0.5,
				M: math.Exp(0.5 * rng.NormFloat64()), VX: 0.3 * rng.NormFloat64(), VY: -0.5 + 0.3*rng.NormFloat64()})
		}
	}
	p := Balls2D(b, cor, mu)
	AddFloor(p, b, 0, cor, mu)
	return p
}

// Dissipation returns the energy the contacts of p dissipate when they
// apply the impulses λ and β (β may be nil: no friction):
// −Σᵢ λᵢ ūᵢ − Σₖ βₖ w̄ₖ, with ū and w̄ the relative normal and tangential
// velocities (moving geometry included, mech.Problem.NRel and DRel)
// averaged over before and after the impulses. It is ≥ 0 for a law that
// creates no energy, and the change of kinetic energy of the step's
// impulses is the work of the moving geometry minus it.
func Dissipation(p *mech.Problem, lambda, beta []float64) float64 {
	n, m, d := len(p.V), p.NContacts(), p.D.NCols()
	if beta == nil {
		beta, d = make([]float64, d), 0
	}
	vp := make([]float64, n)
	p.ApplyImpulses(vp, p.V, lambda[:m], beta[:p.D.NCols()], make([]float64, n))
	u0, u1 := make([]float64, m), make([]float64, m)
	p.RelNormalVelocities(u0, p.V)
	p.RelNormalVelocities(u1, vp)
	var diss float64
	for i := range u0 {
		diss -= lambda[i] * (u0[i] + u1[i]) / 2
	}
	w0, w1 := make([]float64, d), make([]float64, d)
	p.RelTangentVelocities(w0, p.V)
	p.RelTangentVelocities(w1, vp)
	for k := range w0 {
		diss -= beta[k] * (w0[k] + w1[k]) / 2
	}
	return diss
}

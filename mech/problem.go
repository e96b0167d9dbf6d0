package mech

import (
	"fmt"
	"math"
)

// Problem is one instantaneous impact problem: the data every impact and
// friction operator maps to impulses. Systems (ball2d, rigid3d, …) fill it;
// operators read it. See the package documentation for the mathematics.
type Problem struct {
	// Dim is the spatial dimension (2 or 3). The first Dim entries of each
	// body's block are its translational degrees of freedom.
	Dim int
	// M and MInv are the block-diagonal mass matrix and its inverse, one block
	// per body. Fixed bodies have zero blocks in both.
	M, MInv BlockDiag
	// V is the pre-impact generalized velocity v⁻ (len n).
	V []float64
	// G holds one constraint gradient ∇gᵢ per contact (n×m).
	G Cols
	// CoR and Mu are per-contact restitution and friction coefficients (len m).
	CoR []float64
	Mu  []float64
	// D is the friction basis, one or more columns per contact; DContact[k]
	// is the contact of column k. D may be empty (no friction).
	D        Cols
	DContact []int
	// NRel and DRel, when not empty, are known velocities of moving
	// geometry that the contacts' relative velocities carry besides
	// ∇gᵢᵀv: the normal relative velocity of contact i is
	// ∇gᵢᵀv + NRel[i] and the tangential one along column k of D is
	// Dₖᵀv + DRel[k] (len m and D.NCols()). A contact with the sheared
	// periodic image of a body (Lees–Edwards portal) has them. Restitution
	// acts on the whole relative velocity. Laws that do not support them
	// refuse a problem that has them (HasRel).
	NRel, DRel []float64
	// Bodies[2i], Bodies[2i+1] are the blocks touched by contact i, −1 for
	// static geometry and fixed bodies (either position may be −1, not both).
	// Operators use it to build contact graphs (islands) without inspecting G.
	Bodies []int
}

// NDof returns n, the number of generalized degrees of freedom.
func (p *Problem) NDof() int { return len(p.V) }

// NContacts returns m, the number of contacts.
func (p *Problem) NContacts() int { return p.G.NCols() }

// Reset empties the problem for n degrees of freedom in dimension dim,
// keeping its storage for reuse.
func (p *Problem) Reset(dim, n int) {
	p.Dim = dim
	p.M.Reset()
	p.MInv.Reset()
	if cap(p.V) < n {
		p.V = make([]float64, n)
	}
	p.V = p.V[:n]
	p.G.Reset(n)
	p.CoR = p.CoR[:0]
	p.Mu = p.Mu[:0]
	p.D.Reset(n)
	p.DContact = p.DContact[:0]
	p.NRel, p.DRel = p.NRel[:0], p.DRel[:0]
	p.Bodies = p.Bodies[:0]
}

// RejectRel returns an error naming the operator op when the problem
// carries a nonzero known relative velocity (HasRel), which op would
// otherwise ignore. Operators that solve with ∇gᵢᵀv and Dₖᵀv only call it
// first.
func (p *Problem) RejectRel(op string) error {
	for i, x := range p.NRel {
		if x != 0 {
			return fmt.Errorf("mech: %s does not read the known relative velocities of moving geometry or gap corrections (contact %d has NRel = %g); use a law that does (coulomb, nbgs)", op, i, x)
		}
	}
	for k, x := range p.DRel {
		if x != 0 {
			return fmt.Errorf("mech: %s does not read the known relative velocities of moving geometry (friction column %d has DRel = %g); use a law that does (coulomb, nbgs)", op, k, x)
		}
	}
	return nil
}

// AppendContact records the coefficients and the bodies of the contact
// whose columns were just appended to G (and D): restitution cor, friction
// mu, blocks bi and bj (−1 for static geometry and fixed bodies).
func (p *Problem) AppendContact(cor, mu float64, bi, bj int) {
	p.CoR = append(p.CoR, cor)
	p.Mu = append(p.Mu, mu)
	p.Bodies = append(p.Bodies, bi, bj)
}

// HasRel reports whether the problem carries a nonzero known relative
// velocity (NRel or DRel).
func (p *Problem) HasRel() bool {
	for _, x := range p.NRel {
		if x != 0 {
			return true
		}
	}
	for _, x := range p.DRel {
		if x != 0 {
			return true
		}
	}
	return false
}

// Validate checks the shapes and values of the problem and returns a
// descriptive error for the first inconsistency.
func (p *Problem) Validate() error {
	n := len(p.V)
	if p.M.N() != n || p.MInv.N() != n {
		return fmt.Errorf("mech: M is %d×%d and M⁻¹ is %d×%d, want %d×%d", p.M.N(), p.M.N(), p.MInv.N(), p.MInv.N(), n, n)
	}
	m := p.NContacts()
	if p.G.NRows != n {
		return fmt.Errorf("mech: G has %d rows, want %d", p.G.NRows, n)
	}
	if len(p.CoR) != m || len(p.Mu) != m {
		return fmt.Errorf("mech: %d contacts but %d restitution and %d friction coefficients", m, len(p.CoR), len(p.Mu))
	}
	if len(p.Bodies) != 2*m {
		return fmt.Errorf("mech: %d contacts but %d body indices (want 2 per contact)", m, len(p.Bodies))
	}
	if p.D.NCols() != len(p.DContact) {
		return fmt.Errorf("mech: D has %d columns but %d contact indices", p.D.NCols(), len(p.DContact))
	}
	if len(p.NRel) != 0 && len(p.NRel) != m || len(p.DRel) != 0 && len(p.DRel) != p.D.NCols() {
		return fmt.Errorf("mech: %d contacts and %d friction columns but %d and %d known relative velocities", m, p.D.NCols(), len(p.NRel), len(p.DRel))
	}
	for i, v := range p.V {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("mech: velocity component %d is %v", i, v)
		}
	}
	for i := 0; i < m; i++ {
		if c := p.CoR[i]; !(c >= 0 && c <= 1) {
			return fmt.Errorf("mech: contact %d has restitution %v, want 0 ≤ c ≤ 1", i, c)
		}
		if mu := p.Mu[i]; !(mu >= 0) || math.IsInf(mu, 0) {
			return fmt.Errorf("mech: contact %d has friction coefficient %v, want finite μ ≥ 0", i, mu)
		}
	}
	return nil
}

// KineticEnergy returns ½ vᵀ M v.
func (p *Problem) KineticEnergy(v []float64) float64 { return 0.5 * p.M.QuadForm(v, v) }

// LinearMomentum writes the total linear momentum Σ_b (M_b v_b)[0:Dim] of
// velocity v into dst (len Dim).
func (p *Problem) LinearMomentum(dst, v []float64) {
	for d := range dst {
		dst[d] = 0
	}
	var buf [16]float64
	for b := 0; b < p.M.NumBlocks(); b++ {
		s, e := p.M.Bounds(b)
		k := e - s
		var y []float64
		if k <= len(buf) {
			y = buf[:k]
		} else {
			y = make([]float64, k)
		}
		p.M.MulVecBlock(b, y, v[s:e])
		for d := 0; d < p.Dim && d < k; d++ {
			dst[d] += y[d]
		}
	}
}

// NormalVelocities writes ∇gᵢᵀ v for every contact into dst (len m).
func (p *Problem) NormalVelocities(dst, v []float64) { p.G.MulTVec(dst, v) }

// ApplyImpulses sets dst = v + M⁻¹ (G λ + D β), with β optional (nil).
// scratch must have length n.
func (p *Problem) ApplyImpulses(dst, v, lambda, beta, scratch []float64) {
	for i := range scratch {
		scratch[i] = 0
	}
	p.G.AddMulVec(scratch, lambda)
	if beta != nil {
		p.D.AddMulVec(scratch, beta)
	}
	p.MInv.MulVec(dst, scratch)
	for i := range dst {
		dst[i] += v[i]
	}
}

// DelassusDiag returns gⱼᵀ M⁻¹ gⱼ, the effective inverse mass of contact j
// (the diagonal of A = Gᵀ M⁻¹ G).
func (p *Problem) DelassusDiag(j int) float64 { return ColMInvNorm(&p.G, j, &p.MInv) }

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
	// G holds one constraint gradient ∇gᵢ per contact (n×m). Operators
	// read it through Normals: when GNormals is set, G is given
	// matrix-free and G itself is empty (see Normals).
	G Cols
	// GNormals, when not nil, gives G matrix-free (see Normals); Reset
	// clears it.
	GNormals Normals
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
	// Known, when not nil, gives NRel and DRel matrix-free (see
	// KnownRel): both are then empty, and the operators that support it
	// read the values through NRelAt, DRelAt and AddNRel.
	Known KnownRel
	// DBasis, when not nil, gives the friction basis matrix-free (see
	// Basis): D and DContact are then empty and the operators that support
	// it read the columns through NTangents, TangentContact and
	// TangentCol. DRel, when not empty, still has one entry per column.
	DBasis Basis
	// Bodies[2i], Bodies[2i+1] are the blocks touched by contact i, −1 for
	// static geometry and fixed bodies (either position may be −1, not both).
	// Operators use it to build contact graphs (islands) without inspecting G.
	Bodies []int
	// Keys, when not empty, holds one key per contact, in the problem's
	// order, which lists the contacts by key: keys that a mirror image of
	// the state leaves unchanged (ball2d's mirror-invariant order), so a
	// contact and its mirror image have equal keys. An operator that
	// solves islands by a QP (GR, LCP) then gives an island that holds
	// mirror pairs of contacts, and whose problem is bitwise invariant
	// under swapping them, the average of its solution and the swapped
	// one, so the pair gets the same bits. Operators that do not read it
	// ignore it; Reset empties it, and a problem whose contact count no
	// longer matches it (contacts appended later) is solved without it.
	Keys [][2]float64
}

// ContactKeys returns Keys when it holds one key per contact, else nil.
func (p *Problem) ContactKeys() [][2]float64 {
	if len(p.Keys) != p.NContacts() {
		return nil
	}
	return p.Keys
}

// TruncateContacts drops the contacts from m on (columns of G, CoR, Mu,
// Bodies and NRel; the friction basis D is left as it is): it undoes
// contacts appended to a solved problem for a later stage (the position
// correction of package sim appends contacts its step missed).
func (p *Problem) TruncateContacts(m int) {
	if p.GNormals != nil {
		panic("mech: TruncateContacts on a problem whose G is given matrix-free")
	}
	p.G.Truncate(m)
	p.CoR = p.CoR[:min(m, len(p.CoR))]
	p.Mu = p.Mu[:min(m, len(p.Mu))]
	p.Bodies = p.Bodies[:min(2*m, len(p.Bodies))]
	p.NRel = p.NRel[:min(m, len(p.NRel))]
	p.Keys = p.Keys[:min(m, len(p.Keys))]
}

// NDof returns n, the number of generalized degrees of freedom.
func (p *Problem) NDof() int { return len(p.V) }

// NContacts returns m, the number of contacts.
func (p *Problem) NContacts() int { return p.Normals().NCols() }

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
	p.Keys = p.Keys[:0]
	p.DBasis = nil
	p.GNormals = nil
	p.Known = nil
}

// NRelAt returns NRel[i], or 0 when the problem has no normal known
// relative velocities.
func (p *Problem) NRelAt(i int) float64 {
	if p.Known != nil {
		return p.Known.NRel(i)
	}
	if len(p.NRel) == 0 {
		return 0
	}
	return p.NRel[i]
}

// DRelAt returns DRel[k], or 0 when the problem has no tangential known
// relative velocities.
func (p *Problem) DRelAt(k int) float64 {
	if p.Known != nil {
		return p.Known.DRel(k)
	}
	if len(p.DRel) == 0 {
		return 0
	}
	return p.DRel[k]
}

// RelNormalVelocities writes the normal relative velocities
// uᵢ = ∇gᵢᵀ v + NRel[i] for every contact into dst (len m). Without NRel it
// is NormalVelocities, bit for bit.
func (p *Problem) RelNormalVelocities(dst, v []float64) {
	p.RelNormalVelocitiesRange(dst, v, 0, len(dst))
}

// RelNormalVelocitiesRange writes uᵢ (RelNormalVelocities) for the
// contacts i in [lo, hi) into dst[i−lo], so that a caller may take them a
// range at a time.
func (p *Problem) RelNormalVelocitiesRange(dst, v []float64, lo, hi int) {
	dst = dst[:hi-lo]
	g := p.Normals()
	if f, ok := g.(RelColDotter); ok && p.Known != nil && f.RelColDots(dst, v, p.Known, lo, hi) {
		return
	}
	g.ColDots(dst, v, lo, hi)
	p.AddNRel(dst, lo, hi)
}

// RelTangentVelocities writes Dₖᵀ v + DRel[k] for every friction column
// into dst (len D.NCols()). Without DRel it is Dᵀv, bit for bit.
func (p *Problem) RelTangentVelocities(dst, v []float64) {
	p.D.MulTVec(dst, v)
	if p.Known != nil {
		for k := range dst {
			dst[k] += p.Known.DRel(k)
		}
	} else if len(p.DRel) != 0 {
		for k, r := range p.DRel[:len(dst)] {
			dst[k] += r
		}
	}
}

// RelWork returns −Σᵢ λᵢ NRel[i] − Σₖ βₖ DRel[k] (β may be nil): the work
// that geometry moving with the known relative velocities does on the
// bodies through the impulses λ, β (the impulse on a body touching a wall
// of velocity w is λ n, its work λ n·w = −λ NRel). See the package
// documentation, "Energy with moving geometry".
func (p *Problem) RelWork(lambda, beta []float64) float64 {
	if p.Known != nil {
		var w float64
		for i := range p.NContacts() {
			w -= lambda[i] * p.Known.NRel(i)
		}
		if beta != nil {
			for k := range p.NTangents() {
				w -= beta[k] * p.Known.DRel(k)
			}
		}
		return w
	}
	return KnownWork(p.NRel, p.DRel, lambda, beta)
}

// KnownWork is Problem.RelWork for known relative velocities nrel, drel
// held apart from a problem (either may be empty, β may be nil).
func KnownWork(nrel, drel, lambda, beta []float64) float64 {
	var w float64
	for i, r := range nrel {
		w -= lambda[i] * r
	}
	if beta != nil {
		for k, r := range drel {
			w -= beta[k] * r
		}
	}
	return w
}

// FixedWork returns the work that fixed bodies moving with a velocity the
// problem carries in V (a zero M block, V ≠ 0: kinematic bodies whose
// velocity enters ∇gᵢᵀv through their entries of G) do on the other
// bodies through λ and β (β may be nil): −Σ λᵢ ∇gᵢ|_f ᵀ v_f − Σ βₖ Dₖ|_f ᵀ v_f,
// the column entries on those bodies' rows. Only contacts with a −1 in
// Bodies are visited.
func (p *Problem) FixedWork(lambda, beta []float64) float64 {
	var w float64
	col := func(c *Cols, j int, x float64) {
		for e := c.Ptr[j]; e < c.Ptr[j+1]; e++ {
			r := int(c.Row[e])
			if p.V[r] != 0 && p.M.At(r, r) == 0 {
				w -= x * c.Val[e] * p.V[r]
			}
		}
	}
	for i := 0; i < p.NContacts(); i++ {
		if p.Bodies[2*i] < 0 || p.Bodies[2*i+1] < 0 {
			col(&p.G, i, lambda[i])
		}
	}
	if beta != nil {
		for k := 0; k < p.D.NCols(); k++ {
			if i := p.DContact[k]; p.Bodies[2*i] < 0 || p.Bodies[2*i+1] < 0 {
				col(&p.D, k, beta[k])
			}
		}
	}
	return w
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
	if p.Known != nil {
		for i := range p.NContacts() {
			if p.Known.NRel(i) != 0 {
				return true
			}
		}
		for k := range p.NTangents() {
			if p.Known.DRel(k) != 0 {
				return true
			}
		}
		return false
	}
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
	if p.GNormals == nil && p.G.NRows != n {
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
	if p.Known != nil && (len(p.NRel) != 0 || len(p.DRel) != 0) {
		return fmt.Errorf("mech: known relative velocities both given matrix-free (Known) and stored (%d and %d)", len(p.NRel), len(p.DRel))
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
func (p *Problem) NormalVelocities(dst, v []float64) { p.Normals().ColDots(dst, v, 0, len(dst)) }

// ApplyImpulses sets dst = v + M⁻¹ (G λ + D β), with β optional (nil).
// scratch must have length n, or be nil when no block of M⁻¹ is larger
// than MaxInPlaceBlock: G λ + D β is then summed in dst itself
// (BlockDiag.MulVecAddBlocks in place), with the same arithmetic.
func (p *Problem) ApplyImpulses(dst, v, lambda, beta, scratch []float64) {
	inPlace := scratch == nil
	if inPlace {
		if p.MInv.MaxBlock() > MaxInPlaceBlock {
			panic("mech: ApplyImpulses without scratch needs blocks of at most MaxInPlaceBlock")
		}
		scratch = dst
	}
	for i := range scratch {
		scratch[i] = 0
	}
	p.Normals().AddMulVec(scratch, lambda)
	if beta != nil {
		if p.DBasis != nil {
			p.DBasis.AddMulVec(scratch, beta)
		} else {
			p.D.AddMulVec(scratch, beta)
		}
	}
	if inPlace {
		p.MInv.MulVecAddBlocks(dst, dst, v, 0, p.MInv.NumBlocks())
		return
	}
	p.MInv.MulVec(dst, scratch)
	for i := range dst {
		dst[i] += v[i]
	}
}

// DelassusDiag returns gⱼᵀ M⁻¹ gⱼ, the effective inverse mass of contact j
// (the diagonal of A = Gᵀ M⁻¹ G).
func (p *Problem) DelassusDiag(j int) float64 { return ColMInvNorm(&p.G, j, &p.MInv) }

package mech

import "fmt"

// KnownRel gives a problem's known relative velocities (NRel, DRel)
// matrix-free: a system whose contacts' known velocities follow from its
// contact records (a sphere contact's wall velocity along its normal and
// tangents) hands one to the operators in Problem.Known instead of storing
// them, and NRel and DRel then stay empty. Its values are exactly the
// stored ones, so an operator that reads them through NRelAt, DRelAt,
// AddNRel, RelNormalVelocities or RelTangentVelocities gets the stored
// path's bits. The laws that read NRel or DRel's storage, or write them,
// refuse such a problem (NeedStoredRel) instead of seeing zeros.
type KnownRel interface {
	// NRel returns contact i's known normal relative velocity (NRel[i]).
	NRel(i int) float64
	// DRel returns friction column k's known tangential relative
	// velocity (DRel[k]).
	DRel(k int) float64
	// AddNRel adds NRel(i) to dst[i−lo] for the contacts i in [lo, hi)
	// (one call for a range: GR adds them at every iteration).
	AddNRel(dst []float64, lo, hi int)
}

// RelColDotter is implemented by Normals that can add a KnownRel's NRel in
// the same pass over their contact records as ColDots, when that KnownRel
// reads the same records (RelColDots reports false, and writes nothing,
// for any other). The sum is ColDots' value plus NRel, added last, so the
// bits are ColDots followed by AddNRel's.
type RelColDotter interface {
	// RelColDots sets dst[j−lo] = ∇gⱼᵀ x + k.NRel(j) for the columns j
	// in [lo, hi) and reports true, or reports false when k is not one
	// it can fuse.
	RelColDots(dst, x []float64, k KnownRel, lo, hi int) bool
}

// MatrixFreeRel is implemented by the operators that read the known
// relative velocities only through Problem's accessors (NRelAt, DRelAt,
// AddNRel, HasNRel, HasDRel, RelNormalVelocities, RelTangentVelocities), so
// that a system may give them as a KnownRel.
type MatrixFreeRel interface {
	// ReadsKnownRel reports whether the operator, as configured, reads
	// the known relative velocities only through the accessors.
	ReadsKnownRel() bool
}

// HasNRel reports whether the problem has normal known relative
// velocities (stored NRel or Known).
func (p *Problem) HasNRel() bool { return p.Known != nil || len(p.NRel) != 0 }

// HasDRel reports whether the problem has tangential known relative
// velocities (stored DRel or Known).
func (p *Problem) HasDRel() bool { return p.Known != nil || len(p.DRel) != 0 }

// AddNRel adds NRel_i to dst[i−lo] for the contacts i in [lo, hi) when the
// problem has normal known relative velocities (HasNRel), and leaves dst
// as it is otherwise (not even +0 is added, so −0 stays).
func (p *Problem) AddNRel(dst []float64, lo, hi int) {
	if p.Known != nil {
		p.Known.AddNRel(dst, lo, hi)
		return
	}
	if len(p.NRel) != 0 {
		for i, r := range p.NRel[lo:hi] {
			dst[i] += r
		}
	}
}

// NeedStoredRel returns an error naming law when the problem's known
// relative velocities are given matrix-free (Known), which law does not
// read.
func (p *Problem) NeedStoredRel(law string) error {
	if p.Known != nil {
		return fmt.Errorf("mech: %s needs the known relative velocities NRel and DRel stored; this problem gives them matrix-free (Known)", law)
	}
	return nil
}

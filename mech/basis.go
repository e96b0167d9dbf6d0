package mech

import "fmt"

// Basis is a friction basis D given matrix-free: a system whose tangent
// columns follow from compact per-contact records (a sphere contact's two
// tangents derive from its normal, its tangent and the two radii) hands
// one to the operators in Problem.DBasis instead of storing the columns in
// Problem.D, which then stays empty. Its columns are exactly the columns a
// stored D would hold (the same entries in the same order), so an operator
// that reads them through Problem.TangentCol gets the stored path's bits.
//
// Only friction.MaxDissipation (Alg. 3) and Problem.ApplyImpulses read a
// Basis; the other friction laws read D's storage and refuse a problem that
// has one (Problem.NeedStoredD).
type Basis interface {
	// NCols returns the number of columns (D.NCols() of the stored form).
	NCols() int
	// Contact returns the contact of column k (DContact[k]).
	Contact(k int) int
	// AppendCol appends column k's entries (rows and values, in storage
	// order) to rows and vals and returns them.
	AppendCol(k int, rows []int32, vals []float64) ([]int32, []float64)
	// AddMulVec sets dst += D y with Cols.AddMulVec's arithmetic (by
	// column, zero yₖ skipped, entries in storage order).
	AddMulVec(dst, y []float64)
}

// ContactBasis is a Basis that writes all the columns of one contact in
// one call, cheaper than one AppendCol per column when they share work (a
// sphere contact's t and o = n × t share o and the contact's record).
// Problem.TangentCols uses it when DBasis has it.
type ContactBasis interface {
	Basis
	// AppendContactCols appends columns k0, …, k1−1 — all the columns of
	// one contact, k0 its first — to rows and vals, each as AppendCol
	// appends it, and the end of each (its len(rows) after it) to ends.
	AppendContactCols(k0, k1 int, rows []int32, vals []float64, ends []int) ([]int32, []float64, []int)
}

// NTangents returns the number of friction columns: D's, or DBasis's
// when the basis is given matrix-free.
func (p *Problem) NTangents() int {
	if p.DBasis != nil {
		return p.DBasis.NCols()
	}
	return p.D.NCols()
}

// TangentContact returns the contact of friction column k (DContact[k],
// or DBasis.Contact(k)).
func (p *Problem) TangentContact(k int) int {
	if p.DBasis != nil {
		return p.DBasis.Contact(k)
	}
	return p.DContact[k]
}

// TangentCol returns friction column k's entries: slices of D's storage,
// or, with DBasis, the column appended to rows[:0] and vals[:0] (scratch
// the caller keeps, so that steady calls do not allocate).
func (p *Problem) TangentCol(k int, rows []int32, vals []float64) ([]int32, []float64) {
	if p.DBasis != nil {
		return p.DBasis.AppendCol(k, rows[:0], vals[:0])
	}
	a, b := p.D.Ptr[k], p.D.Ptr[k+1]
	return p.D.Row[a:b], p.D.Val[a:b]
}

// TangentCols returns the entries of friction columns k0, …, k1−1 —
// all the columns of one contact, k0 its first — one after the other,
// column k0+i being rows[ends[i−1]:ends[i]] (ends[−1] = 0), with
// TangentCol's entries: slices of D's storage, or, with DBasis, the
// columns appended to rows[:0] and vals[:0] (in one call when DBasis is a
// ContactBasis); ends is appended to ends[:0]. The scratch is the
// caller's, so that steady calls do not allocate.
func (p *Problem) TangentCols(k0, k1 int, rows []int32, vals []float64, ends []int) ([]int32, []float64, []int) {
	ends = ends[:0]
	if cb, ok := p.DBasis.(ContactBasis); ok {
		return cb.AppendContactCols(k0, k1, rows[:0], vals[:0], ends)
	}
	if p.DBasis != nil {
		rows, vals = rows[:0], vals[:0]
		for k := k0; k < k1; k++ {
			rows, vals = p.DBasis.AppendCol(k, rows, vals)
			ends = append(ends, len(rows))
		}
		return rows, vals, ends
	}
	a := p.D.Ptr[k0]
	for k := k0; k < k1; k++ {
		ends = append(ends, p.D.Ptr[k+1]-a)
	}
	return p.D.Row[a:p.D.Ptr[k1]], p.D.Val[a:p.D.Ptr[k1]], ends
}

// NeedStoredD returns an error naming law when the problem's friction
// basis is given matrix-free (DBasis), which law does not read.
func (p *Problem) NeedStoredD(law string) error {
	if p.DBasis != nil {
		return fmt.Errorf("mech: %s needs the friction basis D stored; this problem gives it matrix-free (DBasis)", law)
	}
	return nil
}

// DotEntries returns Σₑ vals[e]·x[rows[e]], summed as Cols.ColDot sums a
// column (a column of 4 entries pairwise, x terms and y terms first;
// otherwise in order).
func DotEntries(rows []int32, vals []float64, x []float64) float64 {
	if len(vals) == 4 && len(rows) == 4 {
		// The conversions forbid fused multiply-adds (see ColDot).
		return (float64(vals[0]*x[rows[0]]) + float64(vals[2]*x[rows[2]])) + (float64(vals[1]*x[rows[1]]) + float64(vals[3]*x[rows[3]]))
	}
	var s float64
	for e, r := range rows {
		s += vals[e] * x[r]
	}
	return s
}

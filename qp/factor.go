package qp

import (
	"fmt"
)

// CholeskyFactor is the sparse Cholesky factorization L Lᵀ = P A Pᵀ of a
// symmetric positive definite matrix A, with the nested-dissection
// permutation P of the interior-point solver (the same sparseChol, whole
// matrix, no diagonal shift). It serves callers outside the QP solvers that
// need repeated solves with one matrix, such as the shift-invert
// eigensolver of package eigen.
//
// Solve only reads the factor, so any number of goroutines may solve with
// one CholeskyFactor at the same time, each with its own workspace.
type CholeskyFactor struct {
	c sparseChol
}

// FactorSPD factors the n×n symmetric matrix A given by rows in (ptr, col,
// val): row i holds columns col[ptr[i]:ptr[i+1]] with values
// val[ptr[i]:ptr[i+1]], both triangles stored, every row holding its
// diagonal. It returns an error if A is not numerically positive definite
// (a pivot that is not positive), naming the first such pivot's row.
func FactorSPD(n int, ptr, col []int, val []float64) (*CholeskyFactor, error) {
	if len(ptr) != n+1 || ptr[0] != 0 || ptr[n] > len(col) || len(col) != len(val) {
		return nil, fmt.Errorf("qp: FactorSPD: malformed rows (n = %d, %d row pointers, %d columns, %d values)", n, len(ptr), len(col), len(val))
	}
	sub := make([]int, n)
	loc := make([]int32, n)
	for i := 0; i < n; i++ {
		sub[i] = i
		loc[i] = int32(i)
		diag := false
		for q := ptr[i]; q < ptr[i+1]; q++ {
			if col[q] < 0 || col[q] >= n {
				return nil, fmt.Errorf("qp: FactorSPD: row %d has column %d outside 0..%d", i, col[q], n-1)
			}
			diag = diag || col[q] == i
		}
		if !diag {
			return nil, fmt.Errorf("qp: FactorSPD: row %d has no diagonal entry", i)
		}
	}
	f := &CholeskyFactor{}
	f.c.analyze(ptr, col, val, sub, loc)
	f.c.numeric(nil, 0)
	if f.c.Shifted > 0 {
		for k := 0; k < n; k++ {
			// A floored pivot is the smallest normal number.
			if l := f.c.lx[f.c.lp[k]]; l*l <= 0x1p-1022 {
				return nil, fmt.Errorf("qp: FactorSPD: matrix is not positive definite (%d non-positive pivots; the first at row %d)", f.c.Shifted, f.c.perm[k])
			}
		}
		return nil, fmt.Errorf("qp: FactorSPD: matrix is not positive definite (%d non-positive pivots)", f.c.Shifted)
	}
	return f, nil
}

// N returns the order of the factored matrix.
func (f *CholeskyFactor) N() int { return f.c.n }

// NNZ returns the number of entries of L (diagonal included).
func (f *CholeskyFactor) NNZ() int { return f.c.lp[f.c.n] }

// Solve overwrites x with A⁻¹x. work must have length N(); it is the only
// memory Solve writes besides x.
func (f *CholeskyFactor) Solve(x, work []float64) {
	f.c.solve(x, work)
}

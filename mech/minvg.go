package mech

import "fmt"

// MulMInvCols sets dst = M⁻¹ C column by column. Because M⁻¹ is block
// diagonal, column j of the result is nonzero only in the blocks that column j
// of c touches; those block rows are stored in full, in block order. The
// columns of c must touch at most two blocks each. dst's storage is reused.
func MulMInvCols(dst *Cols, c *Cols, minv *BlockDiag) {
	dst.Reset(c.NRows)
	for j := 0; j < c.NCols(); j++ {
		b0, b1 := c.colBlocks(j, minv.BlockOf)
		if b1 >= 0 && b1 < b0 {
			b0, b1 = b1, b0
		}
		for _, b := range [2]int{b0, b1} {
			if b < 0 {
				continue
			}
			st, en := minv.Bounds(b)
			for r := 0; r < en-st; r++ {
				var sum float64
				for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
					if row := int(c.Row[k]); row >= st && row < en {
						sum += minv.Entry(b, r, row-st) * c.Val[k]
					}
				}
				dst.Append(st+r, sum)
			}
		}
		dst.EndCol()
	}
}

// Stats reports the work an operator did on one problem.
type Stats struct {
	// Iterations counts the operator's outer iterations (GR reflections,
	// pairwise sweeps, Gauss–Seidel passes of a friction solver).
	Iterations int
	// Sweeps counts, of Iterations, the Gauss–Seidel sweeps of a coupled
	// law that wraps an impact operator (friction.BoxedLCP: pairs of a
	// normal and a friction sweep); Iterations − Sweeps is then the
	// operator's own count.
	Sweeps int
	// LocalUpdates counts the single-contact updates of friction.BoxedLCP's
	// local sweeps (BoxedLCP.LocalSweeps: sweeps over the contacts still
	// changing after a full sweep), which Sweeps does not count; divided by
	// the contacts it gives their work in full sweeps' worth.
	LocalUpdates int
	// Solves counts inner QP/LCP solves and SolverIterations their summed
	// iterations.
	Solves           int
	SolverIterations int
	// Residual is the largest relative KKT residual of the inner solves.
	Residual float64
	// Largest is the number of contacts of the largest inner solve (an
	// island of one LCP or GR reflection) and Method the solver that ran
	// it; they say where the time of a step went.
	Largest int
	Method  string
	// Capped counts the solves of iterative laws whose iteration cap and
	// tolerance the user sets (Coulomb Gauss–Seidel, NBGS) that reached the
	// cap before the tolerance. Such a solve is not an error: as in SCISim
	// the step goes on with the last iterate, and the caller records it.
	// CappedResidual is the largest residual among them, CappedTol the
	// tolerance it was to reach and CappedIterations the cap.
	Capped           int
	CappedResidual   float64
	CappedTol        float64
	CappedIterations int
}

// CapError is what a capped solve becomes where the caller does not accept
// one (sim.Stepper.Strict, impactsim run --strict).
type CapError struct {
	Iterations int     // the cap that was reached
	Residual   float64 // the residual at the cap
	Tol        float64 // the tolerance it did not reach
}

func (e *CapError) Error() string {
	return fmt.Sprintf("iteration cap reached before the tolerance: %d iterations, residual %.3g > tolerance %.3g", e.Iterations, e.Residual, e.Tol)
}

// Add accumulates o into s (iterations, sweeps, local updates, solves and
// capped solves add; residual, largest solve and the worst capped residual
// max).
func (s *Stats) Add(o Stats) {
	s.Iterations += o.Iterations
	s.Sweeps += o.Sweeps
	s.LocalUpdates += o.LocalUpdates
	s.Solves += o.Solves
	s.SolverIterations += o.SolverIterations
	if o.Residual > s.Residual {
		s.Residual = o.Residual
	}
	if o.Largest > s.Largest {
		s.Largest, s.Method = o.Largest, o.Method
	}
	s.Capped += o.Capped
	if o.Capped > 0 && (s.Capped == o.Capped || o.CappedResidual > s.CappedResidual) {
		s.CappedResidual, s.CappedTol, s.CappedIterations = o.CappedResidual, o.CappedTol, o.CappedIterations
	}
}

// colBlocks returns the (at most two) distinct blocks that column j touches,
// in order of first appearance, −1 for none; blockOf maps a row to its block.
// A column touching three or more blocks is a programming error.
func (c *Cols) colBlocks(j int, blockOf func(row int) int) (b0, b1 int) {
	b0, b1 = -1, -1
	for k := c.Ptr[j]; k < c.Ptr[j+1]; k++ {
		b := blockOf(int(c.Row[k]))
		if b == b0 || b == b1 {
			continue
		}
		if b0 < 0 {
			b0 = b
		} else if b1 < 0 {
			b1 = b
		} else {
			panic("mech: constraint column touches more than two bodies")
		}
	}
	return b0, b1
}

// ColMInvNorm returns cⱼᵀ M⁻¹ cⱼ for column j of c: for a constraint
// gradient, the effective inverse mass of its contact (the diagonal of the
// Delassus matrix). It visits only the column's nonzeros.
func ColMInvNorm(c *Cols, j int, minv *BlockDiag) float64 {
	a, b := c.Ptr[j], c.Ptr[j+1]
	return EntriesMInvNorm(c.Row[a:b], c.Val[a:b], minv)
}

// EntriesMInvNorm is ColMInvNorm for the column with entries rows, vals
// (the same arithmetic).
func EntriesMInvNorm(rows []int32, vals []float64, minv *BlockDiag) float64 {
	var sum float64
	for a, ra32 := range rows {
		// minv.At(ra, rb), with ra's block looked up once.
		ra := int(ra32)
		k := minv.BlockOf(ra)
		s, e := minv.Bounds(k)
		for b, rb32 := range rows {
			rb := int(rb32)
			var m float64
			if rb >= s && rb < e {
				m = minv.Entry(k, ra-s, rb-s)
			}
			sum += vals[a] * m * vals[b]
		}
	}
	return sum
}

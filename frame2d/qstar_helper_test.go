package frame2d

import "impactsim/qp"

// qpDiag is a small builder for qp.DiagProblem used by the tests.
type qpDiag qp.DiagProblem

func (p *qpDiag) eq(idx []int, val []float64, rhs float64) {
	p.Eq = append(p.Eq, qp.SparseRow{Idx: idx, Val: val})
	p.EqRHS = append(p.EqRHS, rhs)
}

func (p *qpDiag) in(idx []int, val []float64, rhs float64) {
	p.In = append(p.In, qp.SparseRow{Idx: idx, Val: val})
	p.InRHS = append(p.InRHS, rhs)
}

func (p *qpDiag) solve() ([]float64, error) {
	var s qp.DiagQP
	x := make([]float64, len(p.M))
	_, err := s.Solve((*qp.DiagProblem)(p), x, nil)
	return x, err
}

package qp_test

import (
	"fmt"

	"impactsim/qp"
)

// Newton's cradle: three unit masses on a line, the first moving at speed 2
// into the other two, which touch. The contacts (1,2) and (2,3) have
// gradients (−1, 1, 0) and (0, −1, 1), so A = GᵀM⁻¹G = [[2, −1], [−1, 2]],
// and with restitution 1 the impact LCP has b = (1+1)·Gᵀv⁻ = (−4, 0).
func Example() {
	p := &qp.Problem{
		A: &qp.DenseMatrix{N: 2, Data: []float64{2, -1, -1, 2}},
		B: []float64{-4, 0},
	}
	lambda := make([]float64, 2) // zero: cold start
	s, err := qp.New("auto")
	if err != nil {
		panic(err)
	}
	res, err := s.Solve(p, lambda)
	if err != nil {
		panic(err)
	}
	// v⁺ = v⁻ + M⁻¹ G λ
	v := []float64{2 - lambda[0], lambda[0] - lambda[1], lambda[1]}
	fmt.Printf("method %s, KKT residual below 1e-12: %v\n", res.Method, res.Residual <= 1e-12)
	fmt.Printf("λ  = [%.6f %.6f]\n", lambda[0], lambda[1])
	fmt.Printf("v⁺ = [%.6f %.6f %.6f]\n", v[0], v[1], v[2])
	// Output:
	// method dense, KKT residual below 1e-12: true
	// λ  = [2.666667 1.333333]
	// v⁺ = [-0.666667 1.333333 1.333333]
}

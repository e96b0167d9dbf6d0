package qp_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"impactsim/qp"
)

func row(idx []int, val ...float64) qp.SparseRow { return qp.SparseRow{Idx: idx, Val: val} }

// TestDiagHand: min ½‖x − (0,0)‖² s.t. x₁ + x₂ = 1, x₁ ≥ 0.8 has the
// solution (0.8, 0.2) with multipliers λ = 0.2 (equality), μ = 0.6.
func TestDiagHand(t *testing.T) {
	p := &qp.DiagProblem{
		M: []float64{1, 1}, X0: []float64{0, 0},
		Eq: []qp.SparseRow{row([]int{0, 1}, 1, 1)}, EqRHS: []float64{1},
		In: []qp.SparseRow{row([]int{0}, 1)}, InRHS: []float64{0.8},
	}
	var s qp.DiagQP
	x := make([]float64, 2)
	lam := make([]float64, 2)
	res, err := s.Solve(p, x, lam)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.8, 0.2, 0.2, 0.6}
	got := []float64{x[0], x[1], lam[0], lam[1]}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-14 {
			t.Errorf("component %d = %.17g, want %g", i, got[i], want[i])
		}
	}
	if res.Residual > 1e-12 || res.Primal > 1e-12 {
		t.Errorf("residuals %g %g", res.Residual, res.Primal)
	}
	// With the bound x₁ ≥ 0.3 inactive: the projection (0.5, 0.5), μ = 0.
	p.InRHS[0] = 0.3
	if _, err := s.Solve(p, x, lam); err != nil {
		t.Fatal(err)
	}
	if math.Abs(x[0]-0.5) > 1e-15 || math.Abs(x[1]-0.5) > 1e-15 || lam[1] != 0 {
		t.Errorf("inactive bound: x = %v, λ = %v", x, lam)
	}
	// Weighted: masses (1, 3), x₁ + x₂ = 1 → x = (0.75, 0.25) (x₁ ≥ 0.3 slack).
	p.M[1] = 3
	if _, err := s.Solve(p, x, nil); err != nil {
		t.Fatal(err)
	}
	if math.Abs(x[0]-0.75) > 1e-15 || math.Abs(x[1]-0.25) > 1e-15 {
		t.Errorf("weighted: x = %v", x)
	}
}

// TestDiagRandom checks the KKT conditions of random feasible problems
// (feasible by construction: the constraints hold at a random point z),
// with redundant equalities, to 1e-12.
func TestDiagRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s qp.DiagQP
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(12)
		ne := rng.IntN(n)
		ni := rng.IntN(2 * n)
		z := make([]float64, n)
		p := &qp.DiagProblem{M: make([]float64, n), X0: make([]float64, n)}
		for i := range z {
			z[i] = rng.NormFloat64()
			p.M[i] = 0.1 + rng.Float64()
			p.X0[i] = 3 * rng.NormFloat64()
		}
		randRow := func() qp.SparseRow {
			var r qp.SparseRow
			for i := 0; i < n; i++ {
				if rng.IntN(2) == 0 {
					r.Idx = append(r.Idx, i)
					r.Val = append(r.Val, rng.NormFloat64())
				}
			}
			if len(r.Idx) == 0 {
				r.Idx, r.Val = []int{rng.IntN(n)}, []float64{1}
			}
			return r
		}
		for k := 0; k < ne; k++ {
			r := randRow()
			if k > 0 && rng.IntN(4) == 0 { // a redundant copy, scaled
				r = qp.SparseRow{Idx: p.Eq[0].Idx, Val: make([]float64, len(p.Eq[0].Val))}
				for q, v := range p.Eq[0].Val {
					r.Val[q] = -2 * v
				}
			}
			p.Eq = append(p.Eq, r)
			p.EqRHS = append(p.EqRHS, r.Dot(z))
		}
		for k := 0; k < ni; k++ {
			r := randRow()
			p.In = append(p.In, r)
			p.InRHS = append(p.InRHS, r.Dot(z)-rng.Float64()*float64(rng.IntN(2)))
		}
		x := make([]float64, n)
		lam := make([]float64, ne+ni)
		res, err := s.Solve(p, x, lam)
		if err != nil {
			t.Fatalf("trial %d: %v (n %d ne %d ni %d) %+v", trial, err, n, ne, ni, p)
		}
		// stationarity M(x − x0) = Gᵀy, feasibility, sign, complementarity
		g := make([]float64, n)
		scale := 0.0
		for i := range g {
			g[i] = p.M[i] * (x[i] - p.X0[i])
			scale = math.Max(scale, math.Abs(g[i]))
		}
		rows := append(append([]qp.SparseRow{}, p.Eq...), p.In...)
		for r, rw := range rows {
			for q, i := range rw.Idx {
				g[i] -= rw.Val[q] * lam[r]
			}
		}
		for i := range g {
			if math.Abs(g[i]) > 1e-11*math.Max(scale, 1) {
				t.Fatalf("trial %d: stationarity residual %g", trial, g[i])
			}
		}
		for r, rw := range p.In {
			slack := rw.Dot(x) - p.InRHS[r]
			mu := lam[ne+r]
			if mu < 0 || slack < -1e-11 || math.Abs(slack*mu) > 1e-11 {
				t.Fatalf("trial %d: inequality %d slack %g μ %g", trial, r, slack, mu)
			}
		}
		for r, rw := range p.Eq {
			if d := rw.Dot(x) - p.EqRHS[r]; math.Abs(d) > 1e-11 {
				t.Fatalf("trial %d: equality %d off by %g", trial, r, d)
			}
		}
		if res.Residual > 1e-12 || res.Primal > 1e-12 {
			t.Fatalf("trial %d: residuals %g, %g", trial, res.Residual, res.Primal)
		}
	}
}

func TestDiagInfeasible(t *testing.T) {
	p := &qp.DiagProblem{
		M: []float64{1, 1}, X0: []float64{0, 0},
		In:    []qp.SparseRow{row([]int{0}, 1), row([]int{0}, -1)},
		InRHS: []float64{1, 0}, // x₀ ≥ 1 and x₀ ≤ 0
	}
	var s qp.DiagQP
	_, err := s.Solve(p, make([]float64, 2), nil)
	if !errors.Is(err, qp.ErrInfeasible) {
		t.Fatalf("err = %v, want ErrInfeasible", err)
	}
	p.M[0] = 0
	if _, err := s.Solve(p, make([]float64, 2), nil); err == nil {
		t.Fatal("zero mass accepted")
	}
}

// Two unit point masses on a line that want to move to 1 and −1 (x0),
// joined so that x₁ − x₂ = 0.5, with x₁ ≤ 0.1 (−x₁ ≥ −0.1).
func ExampleDiagQP() {
	p := &qp.DiagProblem{
		M: []float64{1, 1}, X0: []float64{1, -1},
		Eq: []qp.SparseRow{{Idx: []int{0, 1}, Val: []float64{1, -1}}}, EqRHS: []float64{0.5},
		In: []qp.SparseRow{{Idx: []int{0}, Val: []float64{-1}}}, InRHS: []float64{-0.1},
	}
	var s qp.DiagQP
	x := make([]float64, 2)
	lam := make([]float64, 2)
	res, err := s.Solve(p, x, lam)
	if err != nil {
		panic(err)
	}
	fmt.Printf("x = [%.4f %.4f], λ = %.4f, μ = %.4f, KKT residual ≤ 1e-12: %v\n", x[0], x[1], lam[0], lam[1], res.Residual <= 1e-12)
	// Output:
	// x = [0.1000 -0.4000], λ = -0.6000, μ = 0.3000, KKT residual ≤ 1e-12: true
}

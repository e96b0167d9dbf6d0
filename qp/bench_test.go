package qp_test

import (
	"math/rand"
	"testing"

	"impactsim/qp"
)

// benchSolve solves a jammed ball packing (m contacts, 0.8·m degrees of
// freedom, so A is singular; wall below; random restitution) from a cold
// start (or, with warm, from the previous solution).
func benchSolve(b *testing.B, s qp.Solver, m int, warm bool) {
	rng := rand.New(rand.NewSource(int64(m)))
	pk := newPacking(rng, m, 0.8, true, true)
	y := make([]float64, m)
	res, err := s.Solve(&pk.P, y)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !warm {
			for j := range y {
				y[j] = 0
			}
		}
		if res, err = s.Solve(&pk.P, y); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(res.Residual/1e-12, "resid/1e-12")
	if sp, ok := s.(*qp.Sparse); ok {
		st := sp.Steps
		b.ReportMetric(float64(st.CG), "cg")
		b.ReportMetric(float64(st.Expansion), "expand")
		b.ReportMetric(float64(st.Proportioning), "prop")
		b.ReportMetric(float64(st.Free), "free")
	}
}

func BenchmarkDense_m30(b *testing.B)       { benchSolve(b, &qp.Dense{}, 30, false) }
func BenchmarkDense_m100(b *testing.B)      { benchSolve(b, &qp.Dense{}, 100, false) }
func BenchmarkDense_m300(b *testing.B)      { benchSolve(b, &qp.Dense{}, 300, false) }
func BenchmarkSparse_m100(b *testing.B)     { benchSolve(b, &qp.Sparse{}, 100, false) }
func BenchmarkSparse_m300(b *testing.B)     { benchSolve(b, &qp.Sparse{}, 300, false) }
func BenchmarkSparse_m1000(b *testing.B)    { benchSolve(b, &qp.Sparse{}, 1000, false) }
func BenchmarkSparse_m10000(b *testing.B)   { benchSolve(b, &qp.Sparse{}, 10000, false) }
func BenchmarkDense_m300_warm(b *testing.B) { benchSolve(b, &qp.Dense{}, 300, true) }
func BenchmarkAuto_m1000(b *testing.B)      { benchSolve(b, &qp.Auto{}, 1000, false) }
func BenchmarkInterior_m30(b *testing.B)    { benchSolve(b, &qp.Interior{}, 30, false) }
func BenchmarkInterior_m100(b *testing.B)   { benchSolve(b, &qp.Interior{}, 100, false) }
func BenchmarkInterior_m300(b *testing.B)   { benchSolve(b, &qp.Interior{}, 300, false) }
func BenchmarkInterior_m1000(b *testing.B)  { benchSolve(b, &qp.Interior{}, 1000, false) }
func BenchmarkInterior_m10000(b *testing.B) { benchSolve(b, &qp.Interior{}, 10000, false) }
func BenchmarkDense_m150(b *testing.B)      { benchSolve(b, &qp.Dense{}, 150, false) }
func BenchmarkDense_m200(b *testing.B)      { benchSolve(b, &qp.Dense{}, 200, false) }
func BenchmarkInterior_m150(b *testing.B)   { benchSolve(b, &qp.Interior{}, 150, false) }
func BenchmarkInterior_m200(b *testing.B)   { benchSolve(b, &qp.Interior{}, 200, false) }

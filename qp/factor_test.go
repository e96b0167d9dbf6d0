package qp

import (
	"math"
	"math/rand"
	"strings"
	"testing"
)

// TestFactorSPD factors a 3D grid Laplacian with a positive diagonal
// (numbered at random) through the exported interface and checks
// A x = b to 1e-12; an indefinite matrix is refused with the row of its
// first non-positive pivot.
func TestFactorSPD(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	side := 12
	n := side * side * side
	id := rng.Perm(n)
	rows := make([]map[int]float64, n)
	for i := range rows {
		rows[i] = map[int]float64{}
	}
	for z := 0; z < side; z++ {
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				a := id[(z*side+y)*side+x]
				rows[a][a] += 1e-3
				for _, d := range [][3]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
					u, v, w := x+d[0], y+d[1], z+d[2]
					if u < side && v < side && w < side {
						b := id[(w*side+v)*side+u]
						rows[a][a]++
						rows[b][b]++
						rows[a][b]--
						rows[b][a]--
					}
				}
			}
		}
	}
	ptr, col, val := []int{0}, []int{}, []float64{}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v, ok := rows[i][j]; ok {
				col = append(col, j)
				val = append(val, v)
			}
		}
		ptr = append(ptr, len(col))
	}
	f, err := FactorSPD(n, ptr, col, val)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, n)
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	copy(x, b)
	f.Solve(x, make([]float64, n))
	var rn, bn float64
	for i := 0; i < n; i++ {
		s := -b[i]
		for q := ptr[i]; q < ptr[i+1]; q++ {
			s += val[q] * x[col[q]]
		}
		rn = math.Max(rn, math.Abs(s))
		bn = math.Max(bn, math.Abs(b[i]))
	}
	if rn > 1e-12*bn*float64(side) {
		t.Errorf("‖Ax − b‖∞ = %g (‖b‖∞ = %g)", rn, bn)
	}
	t.Logf("n = %d, nnz(L) = %d, residual %.2g", n, f.NNZ(), rn/bn)
	// Make the matrix indefinite: a negative diagonal entry.
	for q := ptr[7]; q < ptr[8]; q++ {
		if col[q] == 7 {
			val[q] = -5
		}
	}
	if _, err := FactorSPD(n, ptr, col, val); err == nil || !strings.Contains(err.Error(), "not positive definite") {
		t.Errorf("indefinite matrix: err = %v", err)
	}
}

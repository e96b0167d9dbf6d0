package qp

import (
	"math"
	"math/rand"
	"testing"
)

// TestSparseCholesky factors random sparse SPD matrices (a 2D grid
// Laplacian plus a random diagonal, numbered at random, so the
// nested-dissection order has work to do) twice with different diagonal
// shifts, as the interior point does, and checks A x = b to 1e-12 relative
// after each factorization, for the whole matrix and for a principal
// submatrix; where the two sides of the top separator are factored
// concurrently, the factor equals the serial one bit for bit.
func TestSparseCholesky(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	parallelChecked := 0
	defer func() {
		if parallelChecked == 0 {
			t.Error("no factorization took the concurrent path")
		}
	}()
	for _, side := range []int{3, 10, 40, 90} {
		n := side * side
		id := rng.Perm(n) // grid point → variable
		rows := make([]map[int]float64, n)
		for i := range rows {
			rows[i] = map[int]float64{}
		}
		for gy := 0; gy < side; gy++ {
			for gx := 0; gx < side; gx++ {
				a := id[gy*side+gx]
				rows[a][a] += 0.01 + rng.Float64()
				for _, d := range [][2]int{{1, 0}, {0, 1}} {
					x, y := gx+d[0], gy+d[1]
					if x < side && y < side {
						b := id[y*side+x]
						w := 0.5 + rng.Float64()
						rows[a][a] += w
						rows[b][b] += w
						rows[a][b] -= w
						rows[b][a] -= w
					}
				}
			}
		}
		c := &csrMatrix{n: n, ptr: []int{0}}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if v, ok := rows[i][j]; ok {
					c.col = append(c.col, j)
					c.val = append(c.val, v)
				}
			}
			c.ptr = append(c.ptr, len(c.col))
		}
		// The whole matrix, then every other variable.
		for _, stride := range []int{1, 2} {
			var sub []int
			loc := make([]int32, n)
			for i := range loc {
				loc[i] = -1
			}
			for i := 0; i < n; i += stride {
				loc[i] = int32(len(sub))
				sub = append(sub, i)
			}
			var ch sparseChol
			ch.analyze(c.ptr, c.col, c.val, sub, loc)
			for pass, shift := range []float64{0, 3} {
				add := make([]float64, len(sub))
				for k := range add {
					add[k] = shift
				}
				ch.numeric(add, 1e-14)
				b := make([]float64, len(sub))
				for k := range b {
					b[k] = rng.NormFloat64()
				}
				x := append([]float64(nil), b...)
				ch.solve(x, make([]float64, len(sub)))
				var res, scale float64
				for k, i := range sub {
					s := shift * x[k]
					for p := c.ptr[i]; p < c.ptr[i+1]; p++ {
						if l := loc[c.col[p]]; l >= 0 {
							s += c.val[p] * x[l]
						}
					}
					res = math.Max(res, math.Abs(s-b[k]))
					scale = math.Max(scale, math.Abs(b[k]))
				}
				if res > 1e-12*scale {
					t.Errorf("side %d, stride %d, pass %d: residual %.3g", side, stride, pass, res/scale)
				}
				if ch.Shifted != 0 {
					t.Errorf("side %d: %d pivots floored on a definite matrix", side, ch.Shifted)
				}
				// The two halves of the top separator may be factored
				// concurrently; serially the factor is the same bit for bit.
				if ch.split0 >= parallelRows && ch.split1-ch.split0 >= parallelRows {
					lx := append([]float64(nil), ch.lx...)
					s0, s1 := ch.split0, ch.split1
					ch.split0, ch.split1 = 0, 0
					ch.numeric(add, 1e-14)
					ch.split0, ch.split1 = s0, s1
					for q := range lx {
						if lx[q] != ch.lx[q] {
							t.Fatalf("side %d: concurrent and serial factors differ at entry %d", side, q)
						}
					}
					parallelChecked++
				}
			}
		}
	}
}

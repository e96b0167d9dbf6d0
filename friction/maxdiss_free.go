package friction

import (
	"math"

	"impactsim/mech"
	"impactsim/par"
)

// freeDelassus is the matrix of Alg. 3's QP, A = DᵀM⁻¹D over the sliding
// directions (the columns of D, MaxDissipation.d), given matrix-free for
// large problems: A x = Dᵀ(M⁻¹(D x)) in two passes,
//
//  1. by ranges of the bodies (blocks of M⁻¹) that directions touch:
//     u = D x on the range's rows, each row summing its directions' terms
//     in increasing direction order (Cols.AddMulVecRows over the runs of
//     directions that touch the range, found once per solve with
//     Cols.ColRuns), then u_b = M⁻¹_b u_b;
//  2. by ranges of directions: (A x)_k = d_kᵀ u (Cols.ColDot).
//
// When every block of M⁻¹ is s_b·I (mech.BlockDiag.Scalar: the spheres'
// compact blocks), build scales the directions in place by √s_b
// (d̃ = M^{-1/2} d, after the caller has used d) and A x = D̃ᵀ(D̃ x): pass 1
// has no M⁻¹ to apply.
//
// Each entry of u and of A x is computed by one goroutine in an order that
// does not depend on how the bodies and directions are split, so both
// passes run by ranges on a pool and give the same bits for any number of
// workers. It stores no entry of A: besides D only its diagonal, where the
// assembled Delassus matrix (mech.Delassus) holds ≈ 6 entries of 16 bytes
// per direction and its assembly workspace.
type freeDelassus struct {
	d    *mech.Cols
	minv *mech.BlockDiag
	u    []float64  // M⁻¹ D x
	diag []float64  // A_kk
	runs [][][2]int // per worker: the runs of directions touching its bodies
	blk  [][2]int32 // the runs [b0, b1) of consecutive blocks that directions touch
	// scaled: the directions hold d̃ = M^{-1/2} d (scalar blocks)
	scaled bool
	pool   *par.Pool
	grain  int

	dst, x            []float64
	fBody, fDir, fDia func(w, lo, hi int)
	fRuns             func(w, lo, hi int)
}

// build prepares the products for the directions d and the inverse mass
// minv (u: scratch of minv's dimension, kept by the caller). With scalar
// blocks it scales d in place (d̃ = M^{-1/2} d).
func (a *freeDelassus) build(d *mech.Cols, minv *mech.BlockDiag, u []float64, pool *par.Pool, grain int) {
	a.d, a.minv, a.u, a.pool, a.grain = d, minv, u, pool, grain
	a.scaled = minv.Scalar()
	if nw := pool.Workers(); len(a.runs) < nw {
		a.runs = make([][][2]int, nw)
	}
	if a.fBody == nil {
		a.fBody, a.fDir, a.fDia, a.fRuns = a.bodies, a.directions, a.diagonal, a.findRuns
	}
	a.diag = grow(a.diag, d.NCols())
	// the touched blocks, marked at their first row of u
	clear(u)
	for _, r := range d.Row {
		s, _ := minv.Bounds(minv.BlockOf(int(r)))
		u[s] = 1
	}
	a.blk = a.blk[:0]
	for b, nb := 0, minv.NumBlocks(); b < nb; b++ {
		s, _ := minv.Bounds(b)
		if u[s] == 0 {
			continue
		}
		if a.scaled {
			u[s] = math.Sqrt(minv.Entry(b, 0, 0)) // read by diagonal
		}
		if k := len(a.blk) - 1; k >= 0 && a.blk[k][1] == int32(b) {
			a.blk[k][1]++
		} else {
			a.blk = append(a.blk, [2]int32{int32(b), int32(b + 1)})
		}
	}
	a.run(len(a.blk), a.fRuns) // the same ranges as the products'
	a.run(d.NCols(), a.fDia)
}

// rows returns the rows of the block runs blk[lo:hi].
func (a *freeDelassus) rows(lo, hi int) (int, int) {
	s, _ := a.minv.Bounds(int(a.blk[lo][0]))
	_, e := a.minv.Bounds(int(a.blk[hi-1][1]) - 1)
	return s, e
}

func (a *freeDelassus) findRuns(w, lo, hi int) {
	s, e := a.rows(lo, hi)
	a.runs[w] = a.d.ColRuns(a.runs[w][:0], s, e, 64)
}

// run calls f on ranges of [0, n): on the pool for large n.
func (a *freeDelassus) run(n int, f func(w, lo, hi int)) {
	if a.pool.Workers() > 1 && n >= 2*a.grain {
		a.pool.For(n, a.grain, f)
	} else if n > 0 {
		f(0, 0, n)
	}
}

// diagonal sets A_kk = Σ_b d_k|_bᵀ M⁻¹_b d_k|_b for the directions
// [lo, hi), block by block (a block's entries need not be consecutive);
// with scalar blocks it first scales the directions' entries by √s_b (held
// at each touched block's first row of u) and A_kk = ‖d̃_k‖² (a
// direction's rows are distinct: fillChunk merges them).
func (a *freeDelassus) diagonal(_, lo, hi int) {
	d := a.d
	if a.scaled {
		for k := lo; k < hi; k++ {
			var sum float64
			for e := d.Ptr[k]; e < d.Ptr[k+1]; e++ {
				s, _ := a.minv.Bounds(a.minv.BlockOf(int(d.Row[e])))
				v := d.Val[e] * a.u[s]
				d.Val[e] = v
				sum += v * v
			}
			a.diag[k] = sum
		}
		return
	}
	var buf, mb [mech.MaxInPlaceBlock]float64
	for k := lo; k < hi; k++ {
		var sum float64
		seen := [2]int{-1, -1}
		col := d.Row[d.Ptr[k]:d.Ptr[k+1]]
		vals := d.Val[d.Ptr[k]:d.Ptr[k+1]]
		for _, r0 := range col {
			b := a.minv.BlockOf(int(r0))
			if b == seen[0] || b == seen[1] {
				continue
			}
			if seen[0] < 0 {
				seen[0] = b
			} else {
				seen[1] = b
			}
			s, e := a.minv.Bounds(b)
			v, w := buf[:], mb[:]
			if e-s <= len(buf) {
				v, w = buf[:e-s], mb[:e-s]
				clear(v)
			} else {
				v, w = make([]float64, e-s), make([]float64, e-s) // rare
			}
			for q, r := range col {
				if int(r) >= s && int(r) < e {
					v[int(r)-s] += vals[q]
				}
			}
			a.minv.MulVecBlock(b, w, v)
			for q, r := range col {
				if int(r) >= s && int(r) < e {
					sum += vals[q] * w[int(r)-s]
				}
			}
		}
		a.diag[k] = sum
	}
}

// Dim returns the number of directions.
func (a *freeDelassus) Dim() int { return len(a.diag) }

// Diag returns A_kk = d_kᵀ M⁻¹ d_k.
func (a *freeDelassus) Diag(k int) float64 { return a.diag[k] }

// At returns A_ij = d_iᵀ M⁻¹ d_j (from the two columns; A_ii stored).
func (a *freeDelassus) At(i, j int) float64 {
	if i == j {
		return a.diag[i]
	}
	d := a.d
	var sum float64
	if a.scaled {
		for e := d.Ptr[i]; e < d.Ptr[i+1]; e++ {
			for f := d.Ptr[j]; f < d.Ptr[j+1]; f++ {
				if d.Row[f] == d.Row[e] {
					sum += d.Val[e] * d.Val[f]
				}
			}
		}
		return sum
	}
	for e := d.Ptr[i]; e < d.Ptr[i+1]; e++ {
		ri := int(d.Row[e])
		b := a.minv.BlockOf(ri)
		s, en := a.minv.Bounds(b)
		for f := d.Ptr[j]; f < d.Ptr[j+1]; f++ {
			if rj := int(d.Row[f]); rj >= s && rj < en {
				sum += d.Val[e] * a.minv.Entry(b, ri-s, rj-s) * d.Val[f]
			}
		}
	}
	return sum
}

// MulVec sets dst = A x (the two passes, on the pool for large problems).
func (a *freeDelassus) MulVec(dst, x []float64) {
	a.dst, a.x = dst, x
	a.run(len(a.blk), a.fBody)
	a.run(len(a.diag), a.fDir)
	a.dst, a.x = nil, nil
}

// bodies is pass 1 on the block runs blk[lo:hi], worker w's range.
func (a *freeDelassus) bodies(w, lo, hi int) {
	for _, r := range a.blk[lo:hi] {
		s, _ := a.minv.Bounds(int(r[0]))
		_, e := a.minv.Bounds(int(r[1]) - 1)
		clear(a.u[s:e])
	}
	s, e := a.rows(lo, hi)
	a.d.AddMulVecRows(a.u, a.x, s, e, a.runs[w])
	if a.scaled {
		return
	}
	for _, r := range a.blk[lo:hi] {
		a.minv.MulVecAddBlocks(a.u, a.u, nil, int(r[0]), int(r[1]))
	}
}

// directions is pass 2 on the directions [lo, hi).
func (a *freeDelassus) directions(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		a.dst[k] = a.d.ColDot(k, a.u)
	}
}

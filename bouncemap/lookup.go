package bouncemap

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"
)

// sampleIndex is a uniform grid of the samples' positions.
type sampleIndex struct {
	lo    r3.Vec
	h     float64
	n     [3]int
	start []int32 // cell c holds order[start[c]:start[c+1]]
	order []int32
}

// Prepare builds the lookup index; Lookup calls it on first use (it is
// not safe to race with the first Lookup: call Prepare before sharing a
// map between goroutines).
func (mp *Map) Prepare() {
	if mp.index != nil {
		return
	}
	g := mp.Hx / mp.Htheta
	mp.gamma2 = g * g
	mp.mlsR2 = 4 * mp.Hx * mp.Hx
	lo := r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := r3.Scale(-1, lo)
	for _, s := range mp.Samples {
		lo = r3.Vec{X: math.Min(lo.X, s.X.X), Y: math.Min(lo.Y, s.X.Y), Z: math.Min(lo.Z, s.X.Z)}
		hi = r3.Vec{X: math.Max(hi.X, s.X.X), Y: math.Max(hi.Y, s.X.Y), Z: math.Max(hi.Z, s.X.Z)}
	}
	ix := &sampleIndex{lo: lo, h: 1.5 * mp.Hx}
	ext := r3.Sub(hi, lo)
	for a, e := range [3]float64{ext.X, ext.Y, ext.Z} {
		ix.n[a] = min(512, max(1, int(math.Ceil(e/ix.h))+1))
	}
	// Cells no smaller than needed to cover the box with ≤ 512 per axis.
	ix.h = math.Max(ix.h, math.Max(ext.X, math.Max(ext.Y, ext.Z))/511)
	cnt := make([]int32, ix.n[0]*ix.n[1]*ix.n[2]+1)
	cells := make([]int32, len(mp.Samples))
	for i, s := range mp.Samples {
		c := ix.cell(s.X)
		cells[i] = int32(c)
		cnt[c+1]++
	}
	for c := 1; c < len(cnt); c++ {
		cnt[c] += cnt[c-1]
	}
	ix.start = append([]int32(nil), cnt...)
	ix.order = make([]int32, len(mp.Samples))
	for i, c := range cells {
		ix.order[cnt[c]] = int32(i)
		cnt[c]++
	}
	mp.index = ix
}

func (ix *sampleIndex) coords(p r3.Vec) [3]int {
	var c [3]int
	for a, x := range [3]float64{p.X - ix.lo.X, p.Y - ix.lo.Y, p.Z - ix.lo.Z} {
		c[a] = min(ix.n[a]-1, max(0, int(math.Floor(x/ix.h))))
	}
	return c
}

func (ix *sampleIndex) cell(p r3.Vec) int {
	c := ix.coords(p)
	return (c[2]*ix.n[1]+c[1])*ix.n[0] + c[0]
}

// Dist2 is the squared distance of eq. (10) between (x, n) and sample s:
// ‖x − X‖² + γ²‖n − N‖², γ = h_x/h_θ.
func (mp *Map) Dist2(x, n r3.Vec, s *Sample) float64 {
	mp.Prepare()
	return r3.Norm2(r3.Sub(x, s.X)) + mp.gamma2*r3.Norm2(r3.Sub(n, s.N))
}

// visit calls f for the samples in the rings of cells around x's cell,
// ring by ring, until a ring's nearest possible position distance exceeds
// √(bound()) (bound may shrink as f runs).
func (mp *Map) visit(x r3.Vec, bound func() float64, f func(i int)) {
	ix := mp.index
	c := ix.coords(x)
	rmax := max(ix.n[0], ix.n[1], ix.n[2])
	for r := 0; r <= rmax; r++ {
		if d := float64(r-1) * ix.h; r > 1 && d*d > bound() {
			return
		}
		for z := max(0, c[2]-r); z <= min(ix.n[2]-1, c[2]+r); z++ {
			for y := max(0, c[1]-r); y <= min(ix.n[1]-1, c[1]+r); y++ {
				dz, dy := abs(z-c[2]), abs(y-c[1])
				for xx := max(0, c[0]-r); xx <= min(ix.n[0]-1, c[0]+r); xx++ {
					if max(dz, dy, abs(xx-c[0])) != r {
						continue
					}
					cell := (z*ix.n[1]+y)*ix.n[0] + xx
					for _, i := range ix.order[ix.start[cell]:ix.start[cell+1]] {
						f(int(i))
					}
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Nearest returns the index of the sample nearest to (x, n) under eq. (10)
// (x and n in the surface's coordinates, n a unit outward normal); ties go
// to the lower index.
func (mp *Map) Nearest(x, n r3.Vec) int {
	mp.Prepare()
	best, bd := -1, math.Inf(1)
	mp.visit(x, func() float64 { return bd }, func(i int) {
		s := &mp.Samples[i]
		d := r3.Norm2(r3.Sub(x, s.X)) + mp.gamma2*r3.Norm2(r3.Sub(n, s.N))
		if d < bd || (d == bd && i < best) {
			best, bd = i, d
		}
	})
	return best
}

// Lookup returns ε at (x, n): the nearest sample's value under eq. (10).
func (mp *Map) Lookup(x, n r3.Vec) float64 { return mp.Samples[mp.Nearest(x, n)].Eps }

// LookupMLS returns ε at (x, n) by a linear moving least-squares fit
// (Jin et al. 2009) over the samples within 2h_x under eq. (10), weights
// (1 − d²/R²)⁴, evaluated at (x, n) and clamped to [0, 1]. The basis is
// {1, X − x} where every neighbour is a face sample (on a smooth surface
// the normal is a function of the position, so normal terms would be
// redundant), and {1, X − x, N − n} where edge or vertex samples take part;
// the weighted least-squares problem is solved by SVD with singular values
// below 10⁻¹⁰ of the largest dropped (the minimum-norm fit), so redundant
// directions do no harm. With fewer neighbours than basis functions it is
// the nearest sample's value.
func (mp *Map) LookupMLS(x, n r3.Vec) float64 {
	mp.Prepare()
	r2 := mp.mlsR2
	type nb struct {
		i int
		w float64
	}
	var nbs []nb
	sharp := false
	mp.visit(x, func() float64 { return r2 }, func(i int) {
		s := &mp.Samples[i]
		d := r3.Norm2(r3.Sub(x, s.X)) + mp.gamma2*r3.Norm2(r3.Sub(n, s.N))
		if d < r2 {
			t := 1 - d/r2
			nbs = append(nbs, nb{i, t * t * t * t})
			sharp = sharp || s.Kind != Face
		}
	})
	k := 4
	if sharp {
		k = 7
	}
	if len(nbs) < k {
		return mp.Lookup(x, n)
	}
	A := mat.NewDense(len(nbs), k, nil)
	rhs := mat.NewDense(len(nbs), 1, nil)
	for r, a := range nbs {
		s := &mp.Samples[a.i]
		sw := math.Sqrt(a.w)
		d := r3.Scale(1/mp.Hx, r3.Sub(s.X, x))
		row := [7]float64{1, d.X, d.Y, d.Z}
		if k == 7 {
			dn := r3.Sub(s.N, n)
			row[4], row[5], row[6] = dn.X, dn.Y, dn.Z
		}
		for c := 0; c < k; c++ {
			A.Set(r, c, sw*row[c])
		}
		rhs.Set(r, 0, sw*s.Eps)
	}
	var svd mat.SVD
	if !svd.Factorize(A, mat.SVDThin) {
		return mp.Lookup(x, n)
	}
	vals := svd.Values(nil)
	rank := svd.Rank(1e-10)
	if rank == 0 || !(vals[0] > 0) {
		return mp.Lookup(x, n)
	}
	var c mat.Dense
	svd.SolveTo(&c, rhs, rank)
	return clamp01(c.At(0, 0))
}

package friction

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/qp"
	"impactsim/scratch"
)

// layerBasis is sphereLayer's friction basis given as a SphereBasis: per
// contact its spheres, t and o = n × t read off the stored columns, and
// the moment scale r = 0.5 of every sphere; its columns are the stored
// ones bit for bit (checked by sphereBasisLayer).
type layerBasis struct {
	i, j []int32
	t, o [][3]float64
	kap  []float64
}

func (b *layerBasis) NCols() int        { return 2 * len(b.i) }
func (b *layerBasis) Contact(k int) int { return k >> 1 }
func (b *layerBasis) AppendCol(k int, rows []int32, vals []float64) ([]int32, []float64) {
	c := k >> 1
	i, j := b.i[c], b.j[c]
	d, ai, aj := b.t[c], scaled(-b.kap[i], b.o[c]), [3]float64{}
	if j >= 0 {
		aj = scaled(-b.kap[j], b.o[c])
	}
	if k&1 == 1 {
		d, ai = b.o[c], scaled(b.kap[i], b.t[c])
		if j >= 0 {
			aj = scaled(b.kap[j], b.t[c])
		}
	}
	for q := 0; q < 3; q++ {
		rows, vals = append(rows, 6*i+int32(q)), append(vals, d[q])
	}
	for q := 0; q < 3; q++ {
		rows, vals = append(rows, 6*i+3+int32(q)), append(vals, ai[q])
	}
	if j >= 0 {
		for q := 0; q < 3; q++ {
			rows, vals = append(rows, 6*j+int32(q)), append(vals, -d[q])
		}
		for q := 0; q < 3; q++ {
			rows, vals = append(rows, 6*j+3+int32(q)), append(vals, aj[q])
		}
	}
	return rows, vals
}
func (b *layerBasis) AddMulVec(dst, y []float64) {
	var rows []int32
	var vals []float64
	for k, yk := range y {
		if yk == 0 {
			continue
		}
		rows, vals = b.AppendCol(k, rows[:0], vals[:0])
		for e, r := range rows {
			dst[r] += vals[e] * yk
		}
	}
}
func (b *layerBasis) SphereContact(k int) (i, j int32, t, o [3]float64) {
	return b.i[k], b.j[k], b.t[k], b.o[k]
}
func (b *layerBasis) MomentScales() []float64 { return b.kap }

// sphereBasisLayer returns sphereLayer(k, seed, true) (compact scalar
// blocks) twice: with its stored D, and with D given as a layerBasis
// (D empty), and with drel random known tangential velocities of the
// floor contacts (the moving floor) in both.
func sphereBasisLayer(t *testing.T, k int, seed int64, drel bool) (stored, free *mech.Problem, lambda []float64) {
	stored, lambda = sphereLayer(k, seed, true)
	m := stored.NContacts()
	b := &layerBasis{i: make([]int32, m), j: make([]int32, m), t: make([][3]float64, m), o: make([][3]float64, m), kap: make([]float64, stored.MInv.NumBlocks())}
	for i := range b.kap {
		b.kap[i] = 0.5
	}
	d := &stored.D
	for c := 0; c < m; c++ {
		e0, e1 := d.Ptr[2*c], d.Ptr[2*c+1]
		b.i[c], b.j[c] = d.Row[e0]/6, -1
		if e1-e0 == 12 {
			b.j[c] = d.Row[e0+6] / 6
		}
		copy(b.t[c][:], d.Val[e0:e0+3])
		copy(b.o[c][:], d.Val[e1:e1+3])
	}
	for c := 0; c < 2*m; c++ {
		rows, vals := b.AppendCol(c, nil, nil)
		sr, sv := d.Row[d.Ptr[c]:d.Ptr[c+1]], d.Val[d.Ptr[c]:d.Ptr[c+1]]
		for e := range sr {
			if len(rows) != len(sr) || rows[e] != sr[e] || math.Float64bits(vals[e]) != math.Float64bits(sv[e]) {
				t.Fatalf("layerBasis column %d differs from the stored one", c)
			}
		}
	}
	// turn the layer by a rotation, so that no component of n, t, o is
	// zero or ±1 (sums in another order then give other bits): G's normal
	// triples, t and o; the stored D is written anew from the basis
	rot := rotation(rand.New(rand.NewSource(seed + 2)))
	turn := func(v []float64) {
		x := [3]float64{v[0], v[1], v[2]}
		for r := 0; r < 3; r++ {
			v[r] = rot[r][0]*x[0] + rot[r][1]*x[1] + rot[r][2]*x[2]
		}
	}
	for e := 0; e < len(stored.G.Val); e += 3 {
		turn(stored.G.Val[e : e+3])
	}
	for c := 0; c < m; c++ {
		turn(b.t[c][:])
		turn(b.o[c][:])
	}
	stored.D.Reset(stored.NDof())
	for c := 0; c < 2*m; c++ {
		rows, vals := b.AppendCol(c, nil, nil)
		for e, r := range rows {
			stored.D.Append(int(r), vals[e])
		}
		stored.D.EndCol()
	}
	if drel {
		rng := rand.New(rand.NewSource(seed + 1))
		stored.DRel = make([]float64, 2*m)
		for c := 0; c < m; c++ {
			if b.j[c] < 0 {
				stored.DRel[2*c], stored.DRel[2*c+1] = rng.NormFloat64(), rng.NormFloat64()
			}
		}
	}
	f := *stored
	f.DBasis = b
	f.D, f.DContact = mech.Cols{}, nil
	f.D.Reset(stored.NDof())
	return stored, &f, lambda
}

// TestMaxDissipationSphereFree: on a layer of 3D spheres with the compact
// scalar blocks and the friction basis given as a SphereBasis (with and
// without a moving floor's known velocities), Alg. 3's slip pass
// (slipSpheres) gives the stored basis's impulses bit for bit (both on the
// generic matrix-free QP, whose directions it fills), and the QP
// assembled from the directions' compact form (sphereDelassus, the
// default) returns the generic assembly's impulses to rounding, both at
// KKT residual ≤ 1e-14, with sliding and sticking contacts; its diagonal,
// entries, products and linear term equal the generic ones to rounding,
// and a solve stopped early is a qp.NotConvergedError.
func TestMaxDissipationSphereFree(t *testing.T) {
	for _, drel := range []bool{false, true} {
		stored, free, lambda := sphereBasisLayer(t, 12, 3, drel)
		nd := stored.NTangents()
		for k := 0; k < len(lambda); k += 5 {
			lambda[k] = 0 // no friction bound: the contact does not slide
		}
		lambda[len(lambda)-1] = 0 // the last too
		solve := func(p *mech.Problem, freeFrom int) ([]float64, *MaxDissipation) {
			o := mdp(t, 1e-14, nil, 0, freeFrom)
			beta := make([]float64, nd)
			st, err := o.Resolve(p, lambda, beta)
			if err != nil {
				t.Fatal(err)
			}
			if st.Residual > 1e-14 {
				t.Fatalf("KKT residual %g", st.Residual)
			}
			if _, ok := o.prob.A.(*sphereDelassus); ok != (p.DBasis != nil && freeFrom == 0) {
				t.Fatalf("freeFrom %d, basis %v: the QP matrix is %T", freeFrom, p.DBasis != nil, o.prob.A)
			}
			return beta, o
		}
		ref, _ := solve(stored, 1)
		got, _ := solve(free, 1)
		if j := bitDiff(got, ref); j >= 0 {
			t.Fatalf("drel %v: β[%d] = %v with the SphereBasis, %v stored", drel, j, got[j], ref[j])
		}
		ref, asm := solve(stored, 0)
		got, sph := solve(free, 0)
		// a contact that does not slide has β = 0 on both columns (w is
		// held in β's storage until β is written)
		stick := 0
		for k, ne := range sph.nent[:nd/2] {
			if ne == 0 {
				stick++
				if got[2*k] != 0 || got[2*k+1] != 0 || ref[2*k] != 0 || ref[2*k+1] != 0 {
					t.Fatalf("drel %v: contact %d does not slide but β = (%v, %v), stored (%v, %v)", drel, k, got[2*k], got[2*k+1], ref[2*k], ref[2*k+1])
				}
			}
		}
		if stick == 0 {
			t.Fatalf("drel %v: every contact slides: the test needs some that do not", drel)
		}
		var d, scale float64
		nz, inside := 0, 0
		for j := range ref {
			d = math.Max(d, math.Abs(got[j]-ref[j]))
			scale = math.Max(scale, math.Abs(ref[j]))
			if ref[j] != 0 && j%2 == 0 {
				nz++
				if c := j / 2; math.Hypot(ref[j], ref[j+1]) < 0.999*stored.Mu[c]*lambda[c] {
					inside++
				}
			}
		}
		m := asm.A.Dim()
		if nz < m/2 || inside < m/10 {
			t.Fatalf("%d of %d directions slide, %d inside their bounds: the test needs sliding and sticking contacts", nz, m, inside)
		}
		if d > 1e-14*scale {
			t.Errorf("drel %v: β from the compact directions and the generic assembly differ by %g (max |β| %g)", drel, d, scale)
		}
		// the matrix and the linear term against the generic assembly (the
		// same directions)
		sameMatrix(t, &asm.A, &sph.sf, 1e-14)
		for i := range m {
			if e := math.Abs(sph.b[i] - asm.b[i]); e > 1e-14*(1+math.Abs(asm.b[i])) {
				t.Fatalf("b[%d] = %v from the compact directions, %v generic", i, sph.b[i], asm.b[i])
			}
		}
		t.Logf("drel %v: %d directions (%d inside their bounds), |Δβ| = %.2g of max %.3g", drel, m, inside, d, scale)
	}
	// stopping early is an error naming the iterations and the residual
	_, free, lambda := sphereBasisLayer(t, 12, 3, false)
	short := mdp(t, 1e-14, nil, 0, 0)
	short.solver.(*qp.Sparse).MaxIter = 2
	_, err := short.Resolve(free, lambda, make([]float64, free.NTangents()))
	var nc *qp.NotConvergedError
	if !errors.As(err, &nc) || nc.Iterations != 2 || !(nc.Residual > 1e-14) {
		t.Errorf("QP stopped after 2 iterations: error %v, want qp.NotConvergedError with 2 iterations and its residual", err)
	}
}

// TestMaxDissipationSphereFreePooled: the SphereBasis path with its slip
// pass, compact directions, assembly, products and MPRGP's blocks on pools of 2 and
// 3 workers (every threshold lowered so that all of it is split, the QP
// above one MPRGP block) returns one goroutine's impulses bit for bit, and
// a repeated solve on the pool allocates nothing. MPRGP's vectors taken
// from the directions' storage (qp.Sparse.Lend, which the path does once
// A is assembled) give the impulses of a solver that owns them, bit for
// bit, and so does the contacts' ‖w‖ kept in a buffer given by LendNorm,
// and so do the per-call arrays taken from an arena given by LendArena.
func TestMaxDissipationSphereFreePooled(t *testing.T) {
	_, p, lambda := sphereBasisLayer(t, 34, 8, true)
	run := func(o *MaxDissipation) []float64 {
		beta := make([]float64, p.NTangents())
		if _, err := o.Resolve(p, lambda, beta); err != nil {
			t.Fatal(err)
		}
		return beta
	}
	solve := func(o *MaxDissipation) []float64 {
		beta := run(o)
		if m := o.sf.Dim(); m <= qp.SparseBlock {
			t.Fatalf("%d sliding directions: the test needs more than one MPRGP block", m)
		}
		return beta
	}
	ref := solve(mdp(t, 1e-10, nil, 16, 0))
	own := mdp(t, 1e-10, nil, 16, 0)
	own.solver = noLend{own.solver}
	got := solve(own)
	if j := bitDiff(got, ref); j >= 0 {
		t.Fatalf("β[%d] = %v with MPRGP's own vectors, %v with lent ones", j, got[j], ref[j])
	}
	// ‖w‖ in a lent buffer (LendNorm, holding other values) gives the same
	// bits; the next call, without one, does not write to it
	lent := mdp(t, 1e-10, nil, 16, 0)
	buf := make([]float64, p.NContacts()+3)
	for i := range buf {
		buf[i] = float64(i) - 0.5
	}
	for round := range 2 {
		if round == 0 {
			lent.LendNorm(buf)
		}
		got := solve(lent)
		if j := bitDiff(got, ref); j >= 0 {
			t.Fatalf("round %d: β[%d] = %v with ‖w‖ in a lent buffer, %v in its own", round, j, got[j], ref[j])
		}
		if round == 0 {
			copy(buf, make([]float64, len(buf)))
		}
	}
	for i, x := range buf {
		if x != 0 {
			t.Fatalf("the buffer lent to the first call was written by the second: [%d] = %v", i, x)
		}
	}
	// the per-call arrays in a lent arena (LendArena) holding garbage:
	// the same bits, none of Alg. 3's own storage for what it holds, the
	// arena not grown, and the next call without it not writing to it
	// used: the words a call takes from an arena that holds all of it;
	// then an arena of half of that
	used := 0
	for _, words := range []int{1 << 20, 0} {
		if words == 0 {
			words = used / 2
		}
		var ar scratch.Arena
		ar.Floats(words)
		ar.Reset()
		fill := ar.Floats(ar.Words()) // all of it
		ar.Reset()
		arena := mdp(t, 1e-10, nil, 16, 0)
		for round := range 3 {
			for i := range fill {
				fill[i] = math.NaN()
			}
			if round < 2 {
				arena.LendArena(&ar)
			}
			got := run(arena) // (a lent call keeps no arrays: no Dim after it)
			if j := bitDiff(got, ref); j >= 0 {
				t.Fatalf("arena of %d words, round %d: β[%d] = %v, %v without it", words, round, j, got[j], ref[j])
			}
			if round == 2 {
				for i, x := range fill {
					if !math.IsNaN(x) {
						t.Fatalf("arena of %d words: written by a call it was not lent to ([%d] = %v)", words, i, x)
					}
				}
				continue
			}
			if ar.Words() != len(fill) || ar.Used() == 0 {
				t.Fatalf("arena of %d words: grown to %d, %d used", words, ar.Words(), ar.Used())
			}
			used = ar.Used()
			ar.Reset()
			if own := arena.sf.own; words == 1<<20 && (own.val != nil || own.col != nil || own.sq != nil || arena.nentOwn != nil) {
				t.Fatalf("arena of %d words: Alg. 3 kept arrays of its own for what it holds", words)
			}
		}
	}
	for _, nw := range []int{2, 3} {
		pool := par.New(nw)
		o := mdp(t, 1e-10, pool, 16, 0)
		got := solve(o)
		if j := bitDiff(got, ref); j >= 0 {
			t.Fatalf("%d workers: β[%d] = %v, one goroutine %v", nw, j, got[j], ref[j])
		}
		if nw == 2 {
			beta := make([]float64, p.NTangents())
			if a := testing.AllocsPerRun(3, func() {
				if _, err := o.Resolve(p, lambda, beta); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("%v allocations per solve, want 0", a)
			}
		}
		pool.Close()
	}
}

// rotation returns a random rotation matrix (from a unit quaternion).
func rotation(rng *rand.Rand) [3][3]float64 {
	q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	w, x, y, z := q[0]/l, q[1]/l, q[2]/l, q[3]/l
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
}

// bitDiff returns the first index at which a and b differ in their bits,
// or −1 when they are bitwise equal; slices of different lengths are a
// mistake of the test and panic.
func bitDiff(a, b []float64) int {
	if len(a) != len(b) {
		panic(fmt.Sprintf("bitDiff: lengths %d and %d", len(a), len(b)))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// noLend hides a solver's Lend: MPRGP keeps all its vectors.
type noLend struct{ qp.Solver }

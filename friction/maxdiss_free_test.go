package friction

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/qp"
)

// sphereLayer is a k × k layer of touching 3D spheres (r = 0.5, masses
// 0.5–1.5, each its own 6×6 block of M⁻¹ = diag(1/m, 1/I), or with scalar
// the compact blocks (1/m)·I of the sphere path's scaled spin) resting on a
// floor: per sphere a floor contact and contacts with its right and upper
// neighbours, each with two tangent columns with moments, as the sphere
// path builds them (t, −r o | −t, −r o) and (o, r t | −o, r t), o = n × t.
// Velocities are random, μ = 0.4, and the normal impulses λ lie between
// 0.5 and 4.5, so that some contacts slide and some stick under Alg. 3.
func sphereLayer(k int, seed int64, scalar bool) (*mech.Problem, []float64) {
	rng := rand.New(rand.NewSource(seed))
	const r = 0.5
	nb := k * k
	p := &mech.Problem{}
	p.Reset(3, 6*nb)
	if scalar {
		p.M.ShapeUniform(nb, 6)
		p.MInv.ShapeUniform(nb, 6)
	}
	for b := 0; b < nb; b++ {
		m := 0.5 + rng.Float64()
		if scalar {
			p.M.Data[b], p.MInv.Data[b] = m, 1/m
			for i := 0; i < 6; i++ {
				p.V[6*b+i] = rng.NormFloat64()
			}
			continue
		}
		in := 2.0 / 5 * m * r * r
		var mb, ib [36]float64
		for i := 0; i < 6; i++ {
			mv, iv := m, 1/m
			if i >= 3 {
				mv, iv = in, 1/in
			}
			mb[7*i], ib[7*i] = mv, iv
		}
		p.M.AppendBlock(6, mb[:]...)
		p.MInv.AppendBlock(6, ib[:]...)
		for i := 0; i < 6; i++ {
			p.V[6*b+i] = rng.NormFloat64()
		}
	}
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	col := func(c *mech.Cols, i, j int, d, ai, aj [3]float64) {
		for q := 0; q < 3; q++ {
			c.Append(6*i+q, d[q])
		}
		for q := 0; q < 3; q++ {
			c.Append(6*i+3+q, ai[q])
		}
		if j >= 0 {
			for q := 0; q < 3; q++ {
				c.Append(6*j+q, -d[q])
			}
			for q := 0; q < 3; q++ {
				c.Append(6*j+3+q, aj[q])
			}
		}
		c.EndCol()
	}
	contact := func(i, j int, n, t [3]float64) {
		o := cross(n, t)
		col(&p.G, i, j, n, [3]float64{}, [3]float64{})
		ro := [3]float64{-r * o[0], -r * o[1], -r * o[2]}
		rt := [3]float64{r * t[0], r * t[1], r * t[2]}
		aj := ro
		if j < 0 {
			aj = [3]float64{}
		}
		col(&p.D, i, j, t, ro, aj)
		if j >= 0 {
			aj = rt
		}
		col(&p.D, i, j, o, rt, aj)
		c := p.NContacts() - 1
		p.DContact = append(p.DContact, c, c)
		p.AppendContact(0.5, 0.4, i, j)
	}
	for y := 0; y < k; y++ {
		for x := 0; x < k; x++ {
			b := y*k + x
			contact(b, -1, [3]float64{0, 0, 1}, [3]float64{1, 0, 0})
			if x+1 < k {
				contact(b, b+1, [3]float64{-1, 0, 0}, [3]float64{0, 0.6, 0.8})
			}
			if y+1 < k {
				contact(b, b+k, [3]float64{0, -1, 0}, [3]float64{0.8, 0, 0.6})
			}
		}
	}
	if err := p.Validate(); err != nil {
		panic(err)
	}
	lambda := make([]float64, p.NContacts())
	for c := range lambda {
		lambda[c] = 0.5 + 4*rng.Float64()
	}
	return p, lambda
}

// mdp returns Alg. 3 on MPRGP at KKT tolerance tol, on pool, with its
// pool threshold (0: the constant) and MatrixFreeFrom.
func mdp(t *testing.T, tol float64, pool *par.Pool, poolFrom, freeFrom int) *MaxDissipation {
	o, err := NewMaxDissipation("sparse")
	if err != nil {
		t.Fatal(err)
	}
	o.solver.(*qp.Sparse).Tol = tol
	o.SetPool(pool)
	o.poolFrom, o.MatrixFreeFrom = poolFrom, freeFrom
	return o
}

// TestMaxDissipationMatrixFreeAgrees: on a layer of 3D spheres (two
// tangent columns per contact, merged into one direction each), Alg. 3
// with its QP matrix-free (freeDelassus) returns the impulses of the
// assembled Delassus matrix to 1e-12 relative, both solved to KKT residual
// 1e-14, with sliding and sticking contacts; the matrix-free diagonal and
// products equal the assembled matrix's to rounding.
func TestMaxDissipationMatrixFreeAgrees(t *testing.T) {
	for _, scalar := range []bool{false, true} {
		matrixFreeAgrees(t, scalar)
	}
}

func matrixFreeAgrees(t *testing.T, scalar bool) {
	p, lambda := sphereLayer(12, 3, scalar)
	nd := p.NTangents()
	solve := func(freeFrom int) ([]float64, *MaxDissipation) {
		o := mdp(t, 1e-14, nil, 0, freeFrom)
		beta := make([]float64, nd)
		st, err := o.Resolve(p, lambda, beta)
		if err != nil {
			t.Fatal(err)
		}
		if st.Residual > 1e-14 {
			t.Fatalf("KKT residual %g", st.Residual)
		}
		fa, free := o.prob.A.(*freeDelassus)
		if free != (freeFrom > 0) || free && fa.scaled != scalar {
			t.Fatalf("freeFrom %d: matrix-free %v (scaled %v, scalar blocks %v)", freeFrom, free, free && fa.scaled, scalar)
		}
		return beta, o
	}
	ref, asm := solve(0)
	got, fr := solve(1)
	var d, scale float64
	nz, inside := 0, 0
	for j := range ref {
		d = math.Max(d, math.Abs(got[j]-ref[j]))
		scale = math.Max(scale, math.Abs(ref[j]))
		if ref[j] != 0 && j%2 == 0 {
			nz++
			c := p.DContact[j]
			if math.Hypot(ref[j], ref[j+1]) < 0.999*p.Mu[c]*lambda[c] {
				inside++
			}
		}
	}
	m := asm.A.Dim()
	if nz < m/2 || inside < m/10 {
		t.Fatalf("%d of %d directions slide, %d inside their bounds: the test needs sliding and sticking contacts", nz, m, inside)
	}
	if d > 1e-12*scale {
		t.Errorf("β matrix-free and assembled differ by %g (max |β| %g)", d, scale)
	}
	// the operator itself: diagonal and a product against the assembled
	// matrix (same directions: the build does not depend on the path)
	fr.fa.u = make([]float64, p.NDof())
	sameMatrix(t, &asm.A, &fr.fa, 1e-13)
	// stopping early is an error naming the iterations and the residual
	short := mdp(t, 1e-14, nil, 0, 1)
	short.solver.(*qp.Sparse).MaxIter = 2
	_, err := short.Resolve(p, lambda, make([]float64, nd))
	var nc *qp.NotConvergedError
	if !errors.As(err, &nc) || nc.Iterations != 2 || !(nc.Residual > 1e-14) {
		t.Errorf("matrix-free QP stopped after 2 iterations: error %v, want qp.NotConvergedError with 2 iterations and its residual", err)
	}
	t.Logf("scalar blocks %v: %d directions (%d inside their bounds), |Δβ| = %.2g of max %.3g", scalar, m, inside, d, scale)
}

// TestMaxDissipationPooledDirections: Alg. 3 on a sphere layer (compact
// scalar blocks: the directions scaled in place) with the
// slip decisions, the directions, the matrix-free products and MPRGP's
// blocks on pools of 2 and 3 workers (every threshold lowered so that all
// of it is split, the QP above one MPRGP block) returns the impulses of
// one goroutine bit for bit.
func TestMaxDissipationPooledDirections(t *testing.T) {
	p, lambda := sphereLayer(34, 8, true)
	solve := func(pool *par.Pool) []float64 {
		o := mdp(t, 1e-10, pool, 16, 1)
		beta := make([]float64, p.NTangents())
		if _, err := o.Resolve(p, lambda, beta); err != nil {
			t.Fatal(err)
		}
		if m := o.fa.Dim(); m <= qp.SparseBlock {
			t.Fatalf("%d sliding directions: the test needs more than one MPRGP block", m)
		}
		return beta
	}
	ref := solve(nil)
	for _, nw := range []int{2, 3} {
		pool := par.New(nw)
		got := solve(pool)
		pool.Close()
		if j := bitDiff(got, ref); j >= 0 {
			t.Fatalf("%d workers: β[%d] = %v, one goroutine %v", nw, j, got[j], ref[j])
		}
	}
}

// TestMaxDissipationPooledAllocs: a repeated Alg. 3 solve of the same
// sphere layer, with its slip pass, directions, QP products and MPRGP
// blocks on a pool of 2 (assembled and matrix-free), allocates nothing.
func TestMaxDissipationPooledAllocs(t *testing.T) {
	p, lambda := sphereLayer(34, 8, false)
	pool := par.New(2)
	defer pool.Close()
	for _, free := range []int{0, 1} {
		o := mdp(t, 1e-10, pool, 16, free)
		beta := make([]float64, p.NTangents())
		solve := func() {
			if _, err := o.Resolve(p, lambda, beta); err != nil {
				t.Fatal(err)
			}
		}
		solve()
		if a := testing.AllocsPerRun(3, solve); a != 0 {
			t.Errorf("MatrixFreeFrom %d: %v allocations per solve, want 0", free, a)
		}
	}
}

// diagMatrix is a QP matrix with its diagonal (mech.Delassus and the
// matrix-free forms).
type diagMatrix interface {
	qp.Matrix
	Diag(i int) float64
}

// sameMatrix checks a matrix-free QP matrix against the assembled one of
// the same directions: a product with a random vector to tol relative,
// the diagonal and the entries A[i, 7i mod m], A[i, i±1] to 1e-14.
func sameMatrix(t *testing.T, asm, free diagMatrix, tol float64) {
	t.Helper()
	m := asm.Dim()
	if free.Dim() != m {
		t.Fatalf("dimension %d matrix-free, %d assembled", free.Dim(), m)
	}
	x, ya, yf := make([]float64, m), make([]float64, m), make([]float64, m)
	rng := rand.New(rand.NewSource(5))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	asm.MulVec(ya, x)
	free.MulVec(yf, x)
	for i := range x {
		if e := math.Abs(yf[i] - ya[i]); e > tol*(1+math.Abs(ya[i])) {
			t.Fatalf("(A x)[%d] = %v matrix-free, %v assembled", i, yf[i], ya[i])
		}
		if e := math.Abs(free.Diag(i) - asm.Diag(i)); e > 1e-14*asm.Diag(i) {
			t.Fatalf("A[%d,%d] = %v matrix-free, %v assembled", i, i, free.Diag(i), asm.Diag(i))
		}
		for _, j := range []int{(i * 7) % m, (i + 1) % m, max(i-1, 0)} {
			if math.Abs(free.At(i, j)-asm.At(i, j)) > 1e-14*(1+math.Abs(asm.At(i, j))) {
				t.Fatalf("A[%d,%d] = %v matrix-free, %v assembled", i, j, free.At(i, j), asm.At(i, j))
			}
		}
	}
}

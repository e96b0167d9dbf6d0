package eigen_test

import (
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/fem"
	"impactsim/par"
	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

var steel = fem.Material{Density: 2000, Young: 7e10, Poisson: 0.3}

func model(t testing.TB, vs []r3.Vec, fs [][3]int, cells int) *fem.Model {
	t.Helper()
	m, _, err := tetmesh.FromSurface(vs, fs, tetmesh.Options{Cells: cells, Snap: true}, "test")
	if err != nil {
		t.Fatal(err)
	}
	md, err := fem.Assemble(m, steel)
	if err != nil {
		t.Fatal(err)
	}
	return md
}

func pencil(md *fem.Model) *eigen.Pencil { return &md.Pencil }

// denseReference returns every eigenvalue of K x = λ M x (ascending) by
// reducing to L⁻¹ K L⁻ᵀ with the dense Cholesky factor of M and gonum's
// symmetric eigensolver.
func denseReference(t testing.TB, p *eigen.Pencil) []float64 {
	n := p.N
	K := mat.NewSymDense(n, nil)
	M := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for q := p.Ptr[i]; q < p.Ptr[i+1]; q++ {
			if j := p.Col[q]; j >= i {
				K.SetSym(i, j, p.K[q])
				M.SetSym(i, j, p.M[q])
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(M) {
		t.Fatal("M is not positive definite")
	}
	var L mat.TriDense
	ch.LTo(&L)
	// A = L⁻¹ K L⁻ᵀ: solve L X = K, then L Aᵀ = Xᵀ.
	var X, A mat.Dense
	if err := X.Solve(&L, K); err != nil {
		t.Fatal(err)
	}
	if err := A.Solve(&L, X.T()); err != nil {
		t.Fatal(err)
	}
	S := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			S.SetSym(i, j, (A.At(i, j)+A.At(j, i))/2)
		}
	}
	var e mat.EigenSym
	if !e.Factorize(S, false) {
		t.Fatal("dense eigensolver failed")
	}
	return e.Values(nil)
}

func rigidModes(md *fem.Model) [][]float64 {
	_, com, _ := md.MassProperties()
	return md.RigidModes(com)
}

// TestAgainstDense: on a 10×10×40 bar (square section: every bending
// eigenvalue is double) and a coarse bunny, both ≤ 1,500 degrees of
// freedom, the 20 lowest elastic eigenvalues equal the dense reference to
// 1e-9 relative, residuals ≤ 1e-8, ΦᵀMΦ = I to 1e-10, Φ M-orthogonal to
// the rigid modes; the result is bitwise the same on 1 and 2 workers.
func TestAgainstDense(t *testing.T) {
	bar, barF := rigid3d.BoxMesh(r3.Vec{X: 0.2, Y: 0.025, Z: 0.025})
	cases := []struct {
		name  string
		vs    []r3.Vec
		fs    [][3]int
		cells int
	}{{"bar", bar, barF, 16}}
	// 1,083 degrees of freedom in the suite, 2,625 with IMPACTSIM_LONG=1
	// (the dense reference takes 10 s there).
	bunnyCells := 10
	if os.Getenv("IMPACTSIM_LONG") != "" {
		bunnyCells = 14
	}
	if f, err := os.Open("../../shared/meshes/bunny.obj"); err == nil {
		vs, fs, err := rigid3d.ReadOBJ(f, "bunny.obj")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name  string
			vs    []r3.Vec
			fs    [][3]int
			cells int
		}{"bunny", vs, fs, bunnyCells})
	}
	for _, c := range cases {
		md := model(t, c.vs, c.fs, c.cells)
		p := pencil(md)
		ref := denseReference(t, p)
		if math.Abs(ref[5]) > 1e-8*ref[6] || math.Abs(ref[0]) > 1e-8*ref[6] {
			t.Errorf("%s: dense reference rigid eigenvalues %v", c.name, ref[:7])
		}
		var first *eigen.Result
		for _, workers := range []int{1, 2} {
			pool := par.New(workers)
			res, err := eigen.Solve(p, eigen.Options{Modes: 20, Deflate: rigidModes(md), Pool: pool})
			pool.Close()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (%d dof, %d workers): %d solves, %d restarts, residual %.2g, orthonormality %.2g, leak %.2g; λ₁ = %.6g, λ₂₀ = %.6g", c.name, p.N, workers, res.Solves, res.Restarts, res.Residual, res.Orthonormality, res.DeflationLeak, res.Values[0], res.Values[19])
			if res.Residual > 1e-8 || res.Orthonormality > 1e-10 || res.DeflationLeak > 1e-10 {
				t.Errorf("%s: residual %g, orthonormality %g, deflation leak %g", c.name, res.Residual, res.Orthonormality, res.DeflationLeak)
			}
			var worst float64
			for i, l := range res.Values {
				worst = math.Max(worst, math.Abs(l/ref[6+i]-1))
			}
			if worst > 1e-9 {
				t.Errorf("%s: eigenvalues differ from the dense reference by %g relative\n got %v\nwant %v", c.name, worst, res.Values, ref[6:26])
			}
			if first == nil {
				first = res
				continue
			}
			for i := range res.Values {
				if res.Values[i] != first.Values[i] {
					t.Fatalf("%s: λ%d = %v on 2 workers, %v on 1", c.name, i+1, res.Values[i], first.Values[i])
				}
				for k := range res.Vectors[i] {
					if res.Vectors[i][k] != first.Vectors[i][k] {
						t.Fatalf("%s: φ%d differs between 1 and 2 workers", c.name, i+1)
					}
				}
			}
		}
	}
}

// TestRigidModesFound: without deflation the six zero eigenvalues come
// first, |λ| < 1e-8·λ₇.
func TestRigidModesFound(t *testing.T) {
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 0.1, Y: 0.07, Z: 0.05})
	md := model(t, vs, fs, 10)
	res, err := eigen.Solve(pencil(md), eigen.Options{Modes: 10, MaxResidual: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("λ: %v", res.Values)
	for i := 0; i < 6; i++ {
		if math.Abs(res.Values[i]) > 1e-8*res.Values[6] {
			t.Errorf("λ%d = %g, λ₇ = %g", i+1, res.Values[i], res.Values[6])
		}
	}
	if !(res.Values[6] > 0) {
		t.Errorf("λ₇ = %v", res.Values[6])
	}
}

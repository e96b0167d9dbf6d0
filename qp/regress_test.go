package qp

import (
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDenseNearlyDependentContacts is a 6-contact group from a pile of
// 1,000 boxes (impactsim rigid3d, step 134): four of its columns are
// linearly dependent to working precision and rounding makes A slightly
// indefinite on them (Schur pivot −7.7e-14 against Aⱼⱼ = 840). The solver
// used to stop with variable 0 at its bound and gradient −7.2e-17 (KKT
// residual 1.13e-12), treating a slope above its own tolerance as rounding
// noise. Enumerating all 64 active sets in rational arithmetic gives one
// LCP solution of the rounded data, with free set {0, 1, 3}.
func TestDenseNearlyDependentContacts(t *testing.T) {
	a, b := nearDepData()
	p := &Problem{A: &DenseMatrix{N: 6, Data: a}, B: b}
	y := make([]float64, 6)
	var d Dense
	res, err := d.Solve(p, y)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 6)
	if r := KKTResidual(p, y, w); r > 1e-12 {
		t.Errorf("KKT residual %.3g > 1e-12 (solver reported %.3g)", r, res.Residual)
	}
	want := []float64{1.8259097423238037e-08, 3.9955507835006266e-08, 0, 8.626326302062014e-08, 0, 0}
	wantAy := []float64{2.620820514690034e-05, 2.751183531759637e-05, 5.251045060354238e-05, 6.34917068020515e-05, 2.8850101123411633e-05, 2.872416098412342e-05}
	p.A.MulVec(w, y)
	for i := range want {
		if math.Abs(y[i]-want[i]) > 1e-9*want[1] {
			t.Errorf("y[%d] = %v, want %v", i, y[i], want[i])
		}
		if math.Abs(w[i]-wantAy[i]) > 1e-12*wantAy[3] {
			t.Errorf("(Ay)[%d] = %v, want %v", i, w[i], wantAy[i])
		}
	}
}

func nearDepData() (a, b []float64) {
	a = []float64{
		840.6081603148997, 193.5955390825309, -151.159434246356, 36.21762804822893, 881.8019697335338, 883.5388055088235,
		193.5955390825309, 735.0063009676826, 390.2558339517513, -62.49003712067454, 88.12846086390698, 89.86527393691273,
		-151.159434246356, 390.2558339517513, 636.4991044213696, 459.9595936834385, -190.36650311672796, -191.60704830001083,
		36.21762804822893, -62.49003712067454, 459.9595936834385, 757.3006687128168, 106.97457200643025, 104.34253105048423,
		881.8019697335338, 88.12846086390698, -190.36650311672796, 106.97457200643025, 948.5238472635194, 949.9268727572752,
		883.5388055088235, 89.86527393691273, -191.60704830001083, 104.34253105048423, 949.9268727572752, 951.3448978383769,
	}
	b = []float64{-2.620820514690034e-05, -2.751183531759637e-05, -5.2510450603518444e-05, -6.34917068020515e-05, -2.885010112334773e-05, -2.8724160984045476e-05}
	return a, b
}

// TestAutoDegenerateMeshIsland is a 47-contact island from two tori in a
// closed box (rigid3d, t = 444.8 s of the 1,000 s momentum run): signed-
// distance contacts give dozens of nearly dependent columns. The dense
// active-set method alone stopped at KKT residual 1.87e-12 with eleven
// bound variables whose slopes (up to 1.9e-12 relative, about 10⁴ times
// their rounding error) it could not tell from noise; Auto must still
// deliver 1e-12, by polishing with MPRGP from the dense iterate.
func TestAutoDegenerateMeshIsland(t *testing.T) {
	autoReachesDenseTol(t, loadProblem(t, "testdata/degenerate_mesh_island_47.txt"))
}

// TestAutoStalledMeshIsland is a 366-contact island from 1,000 tori piling
// into a box (impactsim bench pile --kind mesh, step 267): MPRGP stalls at
// KKT residual 7.4e-8 after 4,660 iterations, and Auto must finish it with
// the exact dense method to 1e-12.
func TestAutoStalledMeshIsland(t *testing.T) {
	autoReachesDenseTol(t, loadProblem(t, "testdata/stalled_mesh_island_366.txt.gz"))
}

// autoReachesDenseTol solves p with Auto and re-checks that the KKT
// residual meets the dense tolerance.
func autoReachesDenseTol(t *testing.T, p *Problem) {
	t.Helper()
	m := p.A.Dim()
	y := make([]float64, m)
	var auto Auto
	res, err := auto.Solve(p, y)
	if err != nil {
		t.Fatal(err)
	}
	if r := KKTResidual(p, y, make([]float64, m)); r > DefaultDenseTol {
		t.Errorf("KKT residual %.3g > %.0e (%s reported %.3g)", r, DefaultDenseTol, res.Method, res.Residual)
	}
	t.Logf("%s: %d iterations, residual %.3g", res.Method, res.Iterations, res.Residual)
}

// loadProblem reads an LCP dumped as text: m, then m rows of A, then b
// (gzip-compressed if the name ends in .gz).
func loadProblem(t *testing.T, path string) *Problem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	m, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || len(lines) < m+2 {
		t.Fatalf("%s: bad test data: %v", path, err)
	}
	var a, b []float64
	for i := 0; i <= m; i++ {
		for _, fld := range strings.Fields(lines[1+i]) {
			x, err := strconv.ParseFloat(fld, 64)
			if err != nil {
				t.Fatal(err)
			}
			if i < m {
				a = append(a, x)
			} else {
				b = append(b, x)
			}
		}
	}
	if len(a) != m*m || len(b) != m {
		t.Fatalf("%s: %d entries of A and %d of b for m = %d", path, len(a), len(b), m)
	}
	return &Problem{A: &DenseMatrix{N: m, Data: a}, B: b}
}

// csrMatrix is a RowMatrix built from a dense one (zeros dropped).
type csrMatrix struct {
	n        int
	ptr, col []int
	val      []float64
}

func toCSR(a Matrix) *csrMatrix {
	n := a.Dim()
	c := &csrMatrix{n: n, ptr: make([]int, 1, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v := a.At(i, j); v != 0 || i == j {
				c.col = append(c.col, j)
				c.val = append(c.val, v)
			}
		}
		c.ptr = append(c.ptr, len(c.col))
	}
	return c
}

func (c *csrMatrix) Dim() int { return c.n }
func (c *csrMatrix) MulVec(dst, x []float64) {
	for i := 0; i < c.n; i++ {
		var s float64
		for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
			s += c.val[k] * x[c.col[k]]
		}
		dst[i] = s
	}
}
func (c *csrMatrix) At(i, j int) float64 {
	for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
		if c.col[k] == j {
			return c.val[k]
		}
	}
	return 0
}
func (c *csrMatrix) Rows() (ptr, col []int, val []float64) { return c.ptr, c.col, c.val }

// TestInteriorMeshIslands runs the interior-point solver, and Auto with it,
// on the two captured degenerate mesh islands (signed-distance contacts,
// dozens of nearly dependent columns) as sparse matrices: KKT ≤ 1e-10 from
// Interior and ≤ 1e-10 from Auto, re-checked.
func TestInteriorMeshIslands(t *testing.T) {
	for _, path := range []string{"testdata/degenerate_mesh_island_47.txt", "testdata/stalled_mesh_island_366.txt.gz"} {
		p := loadProblem(t, path)
		p.A = toCSR(p.A)
		m := p.A.Dim()
		for _, s := range []Solver{&Interior{}, &Auto{}} {
			y := make([]float64, m)
			res, err := s.Solve(p, y)
			if err != nil {
				t.Errorf("%s, %T: %v", path, s, err)
				continue
			}
			if r := KKTResidual(p, y, make([]float64, m)); r > DefaultSparseTol {
				t.Errorf("%s, %T: KKT residual %.3g", path, s, r)
			}
			t.Logf("%s, %T: %s, %d iterations, residual %.3g", path, s, res.Method, res.Iterations, res.Residual)
		}
	}
}

// TestAutoDenseRowsSkipInterior: 250 contacts on one rigid body give a
// dense Delassus matrix of rank 6; Auto keeps the active set for it (the
// interior point's factorization would be O(m³)), though the matrix has
// rows.
func TestAutoDenseRowsSkipInterior(t *testing.T) {
	const m = 250
	g := make([]float64, 6*m)
	for i := range g {
		g[i] = math.Sin(1.3*float64(i)) + 0.1*float64(i%7)
	}
	a := &DenseMatrix{N: m, Data: make([]float64, m*m)}
	b := make([]float64, m)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			var s float64
			for k := 0; k < 6; k++ {
				s += g[6*i+k] * g[6*j+k]
			}
			a.Data[i*m+j] = s
		}
		b[i] = -1 - 0.01*float64(i%5)
	}
	p := &Problem{A: toCSR(a), B: b}
	y := make([]float64, m)
	res, err := (&Auto{}).Solve(p, y)
	if err != nil {
		t.Fatal(err)
	}
	if res.Method == MethodInterior {
		t.Errorf("dense rows went to the interior point")
	}
	if r := KKTResidual(p, y, make([]float64, m)); r > DefaultDenseTol {
		t.Errorf("KKT residual %.3g", r)
	}
}

// TestDenseBunnyIslandNotUnbounded is the 26-contact island, 19 of its
// contacts between two bunnies with normals up to 177° apart, on which the
// inelastic part of grr stopped a pile of 1,000 bunnies (impactsim bench
// pile --kind bunny --n 1000 --cor 0 --mu 0.5 --operator grr --dt 1e-3,
// step 340). A = GᵀM⁻¹G is singular and b = Gᵀv⁻ lies in its range, so
// the QP is bounded. The dense active set moved y 3.2e7 along a direction
// it had declared null (slope −9.4e-10, ‖q‖₁ = 5.1e3) and then reported
// ErrUnbounded on a ray whose slope came from (A d)ᵀy at ‖y‖ = 7.7e10 while
// bᵀd = −1.3e-9. Dense must not call it unbounded (it may stop short with a
// NotConvergedError that carries iterations and residual); Auto, which the
// impact operators use, must solve it to 1e-12. The unbounded cases stay
// ErrUnbounded: TestUnbounded and TestPinnedBall.
func TestDenseBunnyIslandNotUnbounded(t *testing.T) {
	p := loadProblem(t, "testdata/bunny_island_26_unbounded.txt")
	m := p.A.Dim()
	y := make([]float64, m)
	res, err := (&Dense{}).Solve(p, y)
	var nc *NotConvergedError
	if errors.Is(err, ErrUnbounded) || (err != nil && !errors.As(err, &nc)) {
		t.Errorf("Dense: %v", err)
	}
	t.Logf("Dense: %d iterations, residual %.3g, %v", res.Iterations, res.Residual, err)
	autoReachesDenseTol(t, p)
}

// TestBunnyIslandOpposedContactUnbounded keeps the unbounded case on the
// same ill-conditioned data: the bunny island gets a 27th contact that
// pushes against contact k along the opposite normal (column −G_k, so
// z = e_k + e₂₇ ≥ 0 has G z = 0) with half its restitution factor
// (b₂₇ = −½b_k). Then bᵀz = ½b_k < 0 and the QP is truly unbounded (the
// pinned-ball case of TestPinnedBall): Dense and Auto must say so. MPRGP
// (Sparse) does not detect this ray; it must at least fail (it stops at its
// iteration cap with KKT residual 0.355).
func TestBunnyIslandOpposedContactUnbounded(t *testing.T) {
	p := loadProblem(t, "testdata/bunny_island_26_unbounded.txt")
	m := p.A.Dim()
	k := -1
	for i, b := range p.B {
		if b < 0 && (k < 0 || b < p.B[k]) {
			k = i
		}
	}
	if k < 0 {
		t.Fatal("no approaching contact in the fixture")
	}
	n := m + 1
	a := make([]float64, n*n)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			a[i*n+j] = p.A.At(i, j)
		}
		a[i*n+m] = -p.A.At(i, k)
		a[m*n+i] = -p.A.At(k, i)
	}
	a[m*n+m] = p.A.At(k, k)
	b := append(append([]float64(nil), p.B...), -0.5*p.B[k])
	q := &Problem{A: &DenseMatrix{N: n, Data: a}, B: b}
	for _, s := range []Solver{&Dense{}, &Auto{}} {
		y := make([]float64, n)
		if _, err := s.Solve(q, y); !errors.Is(err, ErrUnbounded) {
			t.Errorf("%T: got %v, want ErrUnbounded", s, err)
		}
	}
	if _, err := (&Sparse{}).Solve(q, make([]float64, n)); err == nil {
		t.Error("Sparse solved an unbounded QP")
	}
}

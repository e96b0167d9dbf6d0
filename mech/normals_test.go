package mech

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// colsOnly is a Normals that is not *Cols (so that the generic paths run):
// the stored columns behind the interface.
type colsOnly struct{ c *Cols }

func (g colsOnly) NCols() int { return g.c.NCols() }
func (g colsOnly) AppendCol(j int, rows []int32, vals []float64) ([]int32, []float64) {
	return g.c.AppendCol(j, rows, vals)
}
func (g colsOnly) ColDots(dst, x []float64, lo, hi int) { g.c.ColDots(dst, x, lo, hi) }
func (g colsOnly) AddMulVec(dst, y []float64)           { g.c.AddMulVec(dst, y) }
func (g colsOnly) ColRuns(dst [][2]int, lo, hi, gap int) [][2]int {
	return g.c.ColRuns(dst, lo, hi, gap)
}
func (g colsOnly) AddMulVecRows(dst, y []float64, lo, hi int, runs [][2]int) {
	g.c.AddMulVecRows(dst, y, lo, hi, runs)
}

// TestNormalsAccessor: a problem whose G is given matrix-free (GNormals)
// has the stored problem's contacts, normal velocities, impulses' effect
// and sub-columns bit for bit through Normals and the methods built on it;
// the readers of G's storage refuse it (NeedStoredG); its G has no column
// pointers, so a direct read of a column panics; Reset clears GNormals.
func TestNormalsAccessor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ps := randomProblem(rng, 12, 3, 30)
	pf := *ps
	pf.G = Cols{NRows: ps.G.NRows}
	pf.GNormals = colsOnly{&ps.G}
	m, n := ps.NContacts(), ps.NDof()
	if pf.NContacts() != m || pf.G.NCols() != 0 {
		t.Fatalf("matrix-free: %d contacts (stored %d), %d stored columns", pf.NContacts(), m, pf.G.NCols())
	}
	if err := pf.Validate(); err != nil {
		t.Fatal(err)
	}
	same := func(what string, free, stored []float64) { t.Helper(); sameBits(t, what, free, stored) }
	uf, us := make([]float64, m), make([]float64, m)
	pf.RelNormalVelocities(uf, pf.V)
	ps.G.MulTVec(us, ps.V)
	same("Gᵀv", uf, us)
	lam := make([]float64, m)
	for k := range lam {
		if k%4 != 0 {
			lam[k] = rng.Float64()
		}
	}
	vf, vs := make([]float64, n), make([]float64, n)
	pf.ApplyImpulses(vf, pf.V, lam, nil, make([]float64, n))
	ps.ApplyImpulses(vs, ps.V, lam, nil, make([]float64, n))
	same("v⁺", vf, vs)
	idx := []int{4, 0, 17, 29, 4}
	var sf, ss Cols
	SubNormals(&sf, pf.Normals(), n, idx)
	ps.G.SubCols(&ss, idx)
	if sf.NRows != ss.NRows || len(sf.Ptr) != len(ss.Ptr) || len(sf.Row) != len(ss.Row) {
		t.Fatalf("sub-columns: %d rows, %d columns, %d entries; stored %d, %d, %d", sf.NRows, sf.NCols(), len(sf.Row), ss.NRows, ss.NCols(), len(ss.Row))
	}
	for e := range sf.Row {
		if sf.Row[e] != ss.Row[e] {
			t.Fatalf("sub-column entry %d: row %d, stored %d", e, sf.Row[e], ss.Row[e])
		}
	}
	same("sub-column values", sf.Val, ss.Val)
	for j := 0; j < m; j++ {
		rows, vals := pf.Normals().AppendCol(j, nil, nil)
		a, b := ps.G.Ptr[j], ps.G.Ptr[j+1]
		if got, want := EntriesMInvNorm(rows, vals, &pf.MInv), ColMInvNorm(&ps.G, j, &ps.MInv); math.Float64bits(got) != math.Float64bits(want) || len(rows) != b-a {
			t.Fatalf("column %d: gᵀM⁻¹g %v, stored %v", j, got, want)
		}
	}

	if err := pf.NeedStoredG("some law"); err == nil || !strings.Contains(err.Error(), "some law") {
		t.Fatalf("NeedStoredG on a matrix-free G: %v", err)
	}
	if err := ps.NeedStoredG("some law"); err != nil {
		t.Fatalf("NeedStoredG on stored columns: %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("a direct read of a matrix-free G's column did not panic")
			}
		}()
		pf.G.ColDot(0, pf.V)
	}()
	pf.Reset(2, n)
	if pf.GNormals != nil || pf.NContacts() != 0 {
		t.Fatalf("after Reset: GNormals %v, %d contacts", pf.GNormals, pf.NContacts())
	}
}

// sameBits fails t unless the matrix-free values got equal the stored ones
// bit for bit.
func sameBits(t *testing.T, what string, got, stored []float64) {
	t.Helper()
	for k := range stored {
		if math.Float64bits(got[k]) != math.Float64bits(stored[k]) {
			t.Fatalf("%s[%d] = %v, stored %v", what, k, got[k], stored[k])
		}
	}
}

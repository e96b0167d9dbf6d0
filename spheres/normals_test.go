package spheres

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"impactsim/mech"
)

// TestMatrixFreeNormalsAreExact: the islands' G given matrix-free
// (normals, mech.Normals) is the stored G bit for bit — every column's
// entries, Gᵀx, G y, the column runs of row ranges and G y on row ranges —
// and 40 steps of GR + Alg. 3 (and of LCP + Alg. 3) on it give the state
// of the stored columns bit for bit, on one goroutine and with every
// island built and solved on a pool of 2.
func TestMatrixFreeNormalsAreExact(t *testing.T) {
	for _, l := range []Law{
		{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5},
		{Operator: "lcp", Friction: "none", CoR: 0.7},
	} {
		storedMatchesFree(t, "matrix-free G", l, func(s *System, stored bool) { s.work.storedG = stored })
	}

	// the columns themselves: every contact of a step, as one problem
	s, cols, pf, ps := stepIslands(t, Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}, func(s *System, stored bool) { s.work.storedG = stored })
	if !s.work.freeG {
		t.Fatal("G not given matrix-free to GR + Alg. 3")
	}
	m := len(cols)
	if pf.GNormals == nil || ps.GNormals != nil || pf.G.NCols() != 0 || pf.NContacts() != m || ps.NContacts() != m {
		t.Fatalf("GNormals %v / %v, stored columns %d, contacts %d / %d", pf.GNormals != nil, ps.GNormals != nil, pf.G.NCols(), pf.NContacts(), ps.NContacts())
	}
	gf, gs := pf.Normals(), &ps.G
	same := func(what string, a, b []float64) {
		t.Helper()
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatalf("%s[%d] = %v, stored %v", what, k, a[k], b[k])
			}
		}
	}
	var rows []int32
	var vals []float64
	rng := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, m)
	for k := 0; k < m; k++ {
		rows, vals = gf.AppendCol(k, rows[:0], vals[:0])
		a, b := gs.Ptr[k], gs.Ptr[k+1]
		if len(rows) != b-a {
			t.Fatalf("column %d: %d entries, stored %d", k, len(rows), b-a)
		}
		for e := range rows {
			if rows[e] != gs.Row[a+e] || math.Float64bits(vals[e]) != math.Float64bits(gs.Val[a+e]) {
				t.Fatalf("column %d entry %d: (%d, %v), stored (%d, %v)", k, e, rows[e], vals[e], gs.Row[a+e], gs.Val[a+e])
			}
		}
		if k%3 != 0 {
			y[k] = rng.NormFloat64()
		}
	}
	n := pf.NDof()
	x := make([]float64, n)
	for r := range x {
		x[r] = rng.NormFloat64()
	}
	uf, us := make([]float64, m), make([]float64, m)
	gf.ColDots(uf, x, 0, m)
	gs.MulTVec(us, x)
	same("Gᵀx", uf, us)
	gf.ColDots(uf, x, 5, m-3) // a range: uf[k] is column 5 + k's
	same("Gᵀx on a range", uf[:m-8], us[5:m-3])
	df, ds := make([]float64, n), make([]float64, n)
	gf.AddMulVec(df, y)
	gs.AddMulVec(ds, y)
	same("G y", df, ds)
	// row ranges that cut spheres apart, gaps 1 and 64
	for _, gap := range []int{1, 64} {
		for _, cut := range [][2]int{{0, n}, {0, 7}, {7, n / 2}, {n / 2, n}, {13, 14}} {
			rf := gf.ColRuns(nil, cut[0], cut[1], gap)
			rs := gs.ColRuns(nil, cut[0], cut[1], gap)
			if fmt.Sprint(rf) != fmt.Sprint(rs) {
				t.Fatalf("rows %v, gap %d: runs %v, stored %v", cut, gap, rf, rs)
			}
			for r := range df {
				df[r], ds[r] = -1, -1 // sentinels outside the range
			}
			gf.AddMulVecRows(df, y, cut[0], cut[1], rf)
			gs.AddMulVecRows(ds, y, cut[0], cut[1], rs)
			same(fmt.Sprintf("G y on rows %v", cut), df, ds)
		}
	}

	// readers of G's storage refuse it, a direct read of a column panics
	if err := pf.NeedStoredG("test law"); err == nil || !strings.Contains(err.Error(), "test law") {
		t.Fatalf("NeedStoredG: %v", err)
	}
	if err := ps.NeedStoredG("test law"); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("a direct read of a matrix-free G's column did not panic")
			}
		}()
		pf.G.ColDot(0, x)
	}()
}

// TestMatrixFreeNormalsOnlyForReaders: G is given matrix-free only to laws
// whose every operator reads it through mech.Problem.Normals; the others
// (the boxed LCP, QCE-LCP, GRR) get the stored columns and still run.
func TestMatrixFreeNormalsOnlyForReaders(t *testing.T) {
	for _, c := range []struct {
		l    Law
		free bool
	}{
		{Law{Operator: "gr", Friction: "alg3", CoR: 0.7}, true},
		{Law{Operator: "gr", Friction: "none", CoR: 0.7}, true},
		{Law{Operator: "lcp", Friction: "alg3", CoR: 0.7}, true},
		{Law{Operator: "gr", Friction: "blcp", CoR: 0.7}, false},
		{Law{Operator: "qce_lcp", Friction: "alg3", CoR: 0.7}, false},
		{Law{Operator: "grr", Friction: "alg3", CoR: 0.7}, false},
	} {
		s := crate(60, 3)
		impactSteps(t, s, c.l, 5)
		if s.work.freeG != c.free {
			t.Errorf("%s: G matrix-free %v, want %v", c.l.Name(), s.work.freeG, c.free)
		}
		if got := s.work.iw[0].p.GNormals != nil; got != c.free {
			t.Errorf("%s: the island problem's GNormals set %v, want %v", c.l.Name(), got, c.free)
		}
	}
}

// TestNormalsInterface: the stored columns are a mech.Normals, and so is
// the islands' matrix-free G.
var _ = []mech.Normals{(*mech.Cols)(nil), (*normals)(nil)}

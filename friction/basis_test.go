package friction

import (
	"math"
	"strings"
	"testing"

	"impactsim/mech"
	"impactsim/par"
)

// colsBasis gives stored columns through mech.Basis, entry by entry.
type colsBasis struct {
	c       mech.Cols
	contact []int
}

func (b *colsBasis) NCols() int        { return b.c.NCols() }
func (b *colsBasis) Contact(k int) int { return b.contact[k] }
func (b *colsBasis) AppendCol(k int, rows []int32, vals []float64) ([]int32, []float64) {
	for e := b.c.Ptr[k]; e < b.c.Ptr[k+1]; e++ {
		rows, vals = append(rows, b.c.Row[e]), append(vals, b.c.Val[e])
	}
	return rows, vals
}
func (b *colsBasis) AddMulVec(dst, y []float64) { b.c.AddMulVec(dst, y) }

// TestMaxDissipationMatrixFreeBasis: Alg. 3 on a problem whose friction
// basis is given matrix-free (mech.Problem.DBasis, D left empty) returns
// the impulses of the stored basis bit for bit, on one goroutine and on a
// pool of 2 (the 2D balls' columns have 4 entries: mech.DotEntries sums
// them pairwise, as Cols.ColDot does); the laws that read D's storage
// refuse such a problem.
func TestMaxDissipationMatrixFreeBasis(t *testing.T) {
	stored, lambda := slidingPatch(10, 11)
	m := stored.NContacts()
	free := *stored
	free.DBasis = &colsBasis{c: stored.D, contact: stored.DContact}
	free.D, free.DContact = mech.Cols{}, nil
	free.D.Reset(stored.NDof())
	for _, nw := range []int{1, 2} {
		var pool *par.Pool
		if nw > 1 {
			pool = par.New(nw)
		}
		solve := func(p *mech.Problem) []float64 {
			o, err := NewMaxDissipation("sparse")
			if err != nil {
				t.Fatal(err)
			}
			o.SetPool(pool)
			o.poolFrom = 1
			beta := make([]float64, p.NTangents())
			if _, err := o.Resolve(p, lambda, beta); err != nil {
				t.Fatal(err)
			}
			return beta
		}
		ref, got := solve(stored), solve(&free)
		nz := 0
		for k := range ref {
			if math.Float64bits(got[k]) != math.Float64bits(ref[k]) {
				t.Fatalf("%d workers: β[%d] = %v, stored basis %v", nw, k, got[k], ref[k])
			}
			if ref[k] != 0 {
				nz++
			}
		}
		if nz < len(ref)/4 {
			t.Fatalf("%d of %d friction impulses nonzero", nz, len(ref))
		}
		n := stored.NDof()
		vs, vf, scr := make([]float64, n), make([]float64, n), make([]float64, n)
		stored.ApplyImpulses(vs, stored.V, lambda, ref, scr)
		free.ApplyImpulses(vf, free.V, lambda, got, scr)
		if r := bitDiff(vf, vs); r >= 0 {
			t.Fatalf("v⁺[%d] = %v, stored basis %v", r, vf[r], vs[r])
		}
		if pool != nil {
			pool.Close()
		}
	}
	beta := make([]float64, free.NTangents())
	lam := make([]float64, m)
	for _, l := range []interface {
		Solve(*mech.Problem, []float64, []float64) (mech.Stats, error)
	}{&BoxedLCP{}, &NBGS{}, &Coulomb{}} {
		if _, err := l.Solve(&free, lam, beta); err == nil || !strings.Contains(err.Error(), "matrix-free") {
			t.Errorf("%T on a matrix-free basis: error %v, want a refusal", l, err)
		}
	}
}

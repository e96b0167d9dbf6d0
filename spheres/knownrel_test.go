package spheres

import (
	"math"
	"strings"
	"testing"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
)

// TestMatrixFreeKnownRelIsExact: on the crate with its floor rising and
// sliding, the
// islands' known relative velocities given matrix-free (knownRel,
// mech.Problem.Known) are the stored NRel and DRel bit for bit, and 40
// steps of GR + Alg. 3 (with e(v)) on them give the stored path's state bit
// for bit, on one goroutine and with every island on a pool of 2. Laws
// with an operator that reads NRel or DRel's storage keep them stored,
// and those operators refuse a problem that gives them matrix-free
// instead of reading zeros.
func TestMatrixFreeKnownRelIsExact(t *testing.T) {
	l := Law{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}
	// the floor also slides (0.3, −0.2) besides rising, so that DRel ≠ 0
	sliding := func(s *System, stored bool) {
		s.work.storedRel = stored
		s.Planes[0].V = [3]float64{0.3, -0.2, 0.2}
	}
	storedMatchesFree(t, "matrix-free NRel, DRel", l, sliding)

	_, cols, pf, ps := stepIslands(t, l, sliding)
	if pf.Known == nil || ps.Known != nil || len(pf.NRel) != 0 || len(pf.DRel) != 0 {
		t.Fatalf("Known %v / %v, stored %d, %d", pf.Known != nil, ps.Known != nil, len(pf.NRel), len(pf.DRel))
	}
	if len(ps.NRel) != len(cols) || len(ps.DRel) != 2*len(cols) {
		t.Fatalf("stored NRel %d, DRel %d for %d contacts: the floor does not move", len(ps.NRel), len(ps.DRel), len(cols))
	}
	moving := 0
	for i := range cols {
		if math.Float64bits(pf.NRelAt(i)) != math.Float64bits(ps.NRel[i]) {
			t.Fatalf("NRel[%d] = %v, stored %v", i, pf.NRelAt(i), ps.NRel[i])
		}
		for c := 2 * i; c < 2*i+2; c++ {
			if math.Float64bits(pf.DRelAt(c)) != math.Float64bits(ps.DRel[c]) {
				t.Fatalf("DRel[%d] = %v, stored %v", c, pf.DRelAt(c), ps.DRel[c])
			}
		}
		if ps.NRel[i] != 0 && ps.DRel[2*i] != 0 && ps.DRel[2*i+1] != 0 {
			moving++
		}
	}
	if moving == 0 {
		t.Fatal("no contact has known normal and tangential velocities: nothing is compared")
	}

	// GR's fused pass (mech.RelColDotter) is ColDots then AddNRel bit for
	// bit, and writes nothing for a KnownRel that is not the island's own.
	g, ok := pf.Normals().(mech.RelColDotter)
	if !ok {
		t.Fatal("the islands' matrix-free G does not fuse the known velocities")
	}
	m, lo := len(cols), len(cols)/3
	x := make([]float64, len(pf.V))
	for i := range x {
		x[i] = math.Sin(float64(i) + 0.5)
	}
	fused, two := make([]float64, m-lo), make([]float64, m-lo)
	if !g.RelColDots(fused, x, pf.Known, lo, m) {
		t.Fatal("RelColDots refused the island's own known velocities")
	}
	pf.Normals().ColDots(two, x, lo, m)
	pf.AddNRel(two, lo, m)
	for i := range two {
		if math.Float64bits(fused[i]) != math.Float64bits(two[i]) {
			t.Fatalf("fused u[%d] = %v, ColDots + AddNRel %v", lo+i, fused[i], two[i])
		}
	}
	marked := make([]float64, m)
	for i := range marked {
		marked[i] = 7
	}
	if g.RelColDots(marked, x, otherKnown{}, 0, m) {
		t.Fatal("RelColDots fused a KnownRel that does not read the island's records")
	}
	for i, u := range marked {
		if u != 7 {
			t.Fatalf("a refused RelColDots wrote u[%d] = %v", i, u)
		}
	}

	// readers of the storage refuse
	beta := make([]float64, pf.NTangents())
	lambda := make([]float64, pf.NContacts())
	qce, err := impact.New(impact.Config{Name: "qce"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, af, as := stepIslands(t, l, func(s *System, stored bool) {
		s.work.storedRel, s.work.storedG, s.work.storedD = stored, stored, stored
	})
	pq := *as // stored G and D, matrix-free known velocities
	pq.NRel, pq.DRel, pq.Known = nil, nil, af.Known
	if _, err := qce.Resolve(as, lambda); err != nil {
		t.Fatalf("QCE on the stored problem: %v", err)
	}
	if _, err := qce.Resolve(&pq, lambda); err == nil || !strings.Contains(err.Error(), "known relative velocities") {
		t.Errorf("QCE on matrix-free known relative velocities: %v", err)
	}
	for _, fr := range []interface {
		Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error)
	}{&friction.Coulomb{}, &friction.NBGS{}} {
		if _, err := fr.Solve(&pq, lambda, beta); err == nil || !strings.Contains(err.Error(), "known relative velocities") {
			t.Errorf("%T on matrix-free known relative velocities: %v", fr, err)
		}
	}

	for _, c := range []struct {
		l    Law
		free bool
	}{
		{Law{Operator: "gr", Friction: "alg3", CoR: 0.7}, true},
		{Law{Operator: "lcp", Friction: "none", CoR: 0.7}, true},
		{Law{Operator: "gr", Friction: "blcp", CoR: 0.7}, false},
		{Law{Operator: "qce_lcp", Friction: "alg3", CoR: 0.7}, false},
	} {
		s := crate(60, 3)
		impactSteps(t, s, c.l, 5)
		if s.work.freeRel != c.free {
			t.Errorf("%s: NRel, DRel matrix-free %v, want %v", c.l.Name(), s.work.freeRel, c.free)
		}
		if got := s.work.iw[0].p.Known != nil; got != (c.free && s.work.moving) {
			t.Errorf("%s: the island problem's Known set %v, want %v", c.l.Name(), got, c.free)
		}
	}
}

// otherKnown is a KnownRel that is not an island's knownRel.
type otherKnown struct{}

func (otherKnown) NRel(int) float64 { return 1 }
func (otherKnown) DRel(int) float64 { return 1 }
func (otherKnown) AddNRel(dst []float64, lo, hi int) {
	for i := range dst[:hi-lo] {
		dst[i]++
	}
}

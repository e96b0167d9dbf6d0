package friction

import (
	"fmt"
	"math"
	"testing"

	"impactsim/par"
)

// TestMaxDissipationResolveAfterIsExact: Alg. 3 given v′ = v⁻ + M⁻¹Gλ
// (ResolveAfter, as GR.Velocity hands it over) returns Resolve's β bit for
// bit — general and scalar blocks, assembled and matrix-free, one
// goroutine and a pool of 2 — leaves the given v′ untouched, keeps no
// vector of its own for it when assembled, allocates nothing when
// repeated, and refuses a v′ of the wrong length.
func TestMaxDissipationResolveAfterIsExact(t *testing.T) {
	pool := par.New(2)
	defer pool.Close()
	for _, scalar := range []bool{false, true} {
		p, lambda := sphereLayer(20, 4, scalar)
		vt := make([]float64, p.NDof())
		p.ApplyImpulses(vt, p.V, lambda, nil, nil)
		vt0 := append([]float64(nil), vt...)
		for _, pl := range []*par.Pool{nil, pool} {
			for _, free := range []int{0, 1} {
				t.Run(fmt.Sprintf("scalar=%v/pool=%d/free=%d", scalar, pl.Workers(), free), func(t *testing.T) {
					want := make([]float64, p.NTangents())
					if _, err := mdp(t, 1e-10, pl, 16, free).Resolve(p, lambda, want); err != nil {
						t.Fatal(err)
					}
					o := mdp(t, 1e-10, pl, 16, free)
					got := make([]float64, p.NTangents())
					solve := func() {
						if _, err := o.ResolveAfter(p, lambda, vt, got); err != nil {
							t.Fatal(err)
						}
					}
					solve()
					sliding := 0
					for j := range want {
						if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
							t.Fatalf("β[%d] = %v, Resolve %v", j, got[j], want[j])
						}
						if want[j] != 0 {
							sliding++
						}
					}
					if sliding == 0 {
						t.Fatal("no friction impulse: nothing is compared")
					}
					if i := bitDiff(vt, vt0); i >= 0 {
						t.Fatalf("v′[%d] written: %v, was %v", i, vt[i], vt0[i])
					}
					if free == 0 && o.vp != nil {
						t.Fatalf("assembled Alg. 3 given v′ holds a vector of %d for it", len(o.vp))
					}
					if a := testing.AllocsPerRun(2, solve); a != 0 {
						t.Errorf("%v allocations per repeated solve, want 0", a)
					}
				})
			}
		}
		if _, err := mdp(t, 1e-10, nil, 0, 0).ResolveAfter(p, lambda, vt[1:], make([]float64, p.NTangents())); err == nil {
			t.Error("a v′ one entry short was accepted")
		}
	}
}

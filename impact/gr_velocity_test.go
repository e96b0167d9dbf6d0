package impact

import (
	"fmt"
	"math"
	"testing"

	"impactsim/mech"
	"impactsim/par"
	"impactsim/scratch"
)

// TestGRVelocityIsApplyImpulses: GR's final ṽ (GR.Velocity), serial and
// with Gλ scattered on pools of 1–3 workers, is bit for bit v⁻ + M⁻¹Gλ as
// mech.Problem.ApplyImpulses computes it from GR's λ, so Alg. 3 can take
// it instead of computing it; with no reflection (every contact
// separating) it is nil, because the copy of v⁻ keeps −0 entries that
// ApplyImpulses turns into +0.
func TestGRVelocityIsApplyImpulses(t *testing.T) {
	p := grPoolProblem(14, 3)
	m, n := p.NContacts(), p.NDof()
	want := make([]float64, n)
	for _, nw := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprint(nw), func(t *testing.T) {
			o, done := grOnPool(t, nw)
			defer done()
			lambda := resolveReflecting(t, o, p)
			p.ApplyImpulses(want, p.V, lambda, nil, nil)
			got := o.Velocity()
			if len(got) != n {
				t.Fatalf("Velocity has %d entries, want %d", len(got), n)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("ṽ[%d] = %v, ApplyImpulses %v", i, got[i], want[i])
				}
			}
		})
	}

	// Every contact separating, one velocity −0: no reflection, no ṽ.
	sep := ballsProblem([]float64{0, 1}, []float64{0, 0}, []float64{-1, 1}, []float64{math.Copysign(0, -1), 0}, []float64{1, 2})
	if sep.NContacts() == 0 {
		t.Fatal("the separating pair has no contact")
	}
	o, _ := NewGR(0, "")
	lambda := make([]float64, sep.NContacts())
	if _, err := o.Resolve(sep, lambda); err != nil {
		t.Fatal(err)
	}
	if v := o.Velocity(); v != nil {
		t.Fatalf("Velocity after no reflection = %v, want nil", v)
	}
	v := make([]float64, sep.NDof())
	sep.ApplyImpulses(v, sep.V, lambda, nil, nil)
	if !math.Signbit(sep.V[1]) || math.Signbit(v[1]) {
		t.Fatalf("v⁻[1] = %v, v⁻ + M⁻¹G·0 = %v: the −0 case is not exercised", sep.V[1], v[1])
	}

	// A failed Resolve leaves no ṽ either.
	o.cfg.MaxIter = 1
	lambda = make([]float64, m)
	if _, err := o.Resolve(p, lambda); err == nil {
		t.Fatal("GR capped at one iteration converged: the failure case is not exercised")
	}
	if o.Velocity() != nil {
		t.Fatal("Velocity after a failed Resolve is not nil")
	}
}

// TestGRLentArena: with its per-reflection arrays and its first-push
// record in a lent arena (GR.LendArena) holding garbage, GR gives the
// same λ, ṽ and record bits as with its own, serial and on a pool; a
// later Resolve without the arena does not write to it.
func TestGRLentArena(t *testing.T) {
	// serial on a small problem; on 2 workers with more than 2·4096
	// contacts, so that the violators come in two ranges (the arena
	// path's concatenation)
	for _, c := range []struct{ nw, side int }{{0, 14}, {2, 66}} {
		nw, p := c.nw, grPoolProblem(c.side, 3)
		m := p.NContacts()
		if nw > 0 && m <= 2*4096 {
			t.Fatalf("%d contacts: the pooled case needs more than %d", m, 2*4096)
		}
		t.Run(fmt.Sprint(nw), func(t *testing.T) {
			solve := func(ar *scratch.Arena) ([]float64, []float64, []int32) {
				o, done := grOnPool(t, nw)
				defer done()
				if ar != nil {
					o.LendArena(ar)
				}
				lambda := resolveReflecting(t, o, p)
				return lambda, append([]float64(nil), o.Velocity()...), append([]int32(nil), o.FirstPush()...)
			}
			l0, v0, f0 := solve(nil)
			var ar scratch.Arena
			ar.Floats(16) // short: Resolve grows it
			ar.Reset()
			l1, v1, f1 := solve(&ar)
			if ar.Words() <= 16 || ar.Used() == 0 {
				t.Fatalf("arena of %d words, %d used: not taken", ar.Words(), ar.Used())
			}
			// again in the grown arena, full of garbage
			ar.Reset()
			junk := ar.Floats(ar.Words())
			for i := range junk {
				junk[i] = math.NaN()
			}
			ar.Reset()
			l2, v2, f2 := solve(&ar)
			for k, got := range [][]float64{l1, l2} {
				if !equalBits(got, l0) || !equalBits([][]float64{v1, v2}[k], v0) {
					t.Fatalf("lent arena %d: λ or ṽ differs from GR's own storage", k+1)
				}
				f := [][]int32{f1, f2}[k]
				for i := range f0 {
					if f[i] != f0[i] {
						t.Fatalf("lent arena %d: first push of contact %d = %d, %d without", k+1, i, f[i], f0[i])
					}
				}
			}
			// a Resolve after a lent one, without it, leaves it alone
			o, _ := NewGR(0, "")
			o.LendArena(&ar)
			if _, err := o.Resolve(p, make([]float64, m)); err != nil {
				t.Fatal(err)
			}
			for i := range junk {
				junk[i] = math.NaN()
			}
			if _, err := o.Resolve(p, make([]float64, m)); err != nil {
				t.Fatal(err)
			}
			for i, x := range junk {
				if !math.IsNaN(x) {
					t.Fatalf("word %d of the arena written by a Resolve it was not lent to", i)
				}
			}
		})
	}
}

// grOnPool returns a GR on a new pool of nw workers that scatters Gλ on
// the pool from one contact on (nw = 0: serial, no pool), and the pool's
// Close.
func grOnPool(t *testing.T, nw int) (*GR, func()) {
	t.Helper()
	o, err := NewGR(0, "")
	if err != nil {
		t.Fatal(err)
	}
	if nw == 0 {
		return o, func() {}
	}
	pool := par.New(nw)
	o.SetPool(pool)
	o.scatterAt = 1
	return o, pool.Close
}

// resolveReflecting returns o's λ on p, failing unless it took two
// reflections or more.
func resolveReflecting(t *testing.T, o *GR, p *mech.Problem) []float64 {
	t.Helper()
	lambda := make([]float64, p.NContacts())
	st, err := o.Resolve(p, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if st.Iterations < 2 {
		t.Fatalf("only %d GR iterations", st.Iterations)
	}
	return lambda
}

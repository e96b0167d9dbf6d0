package impact

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"impactsim/mech"
	"impactsim/par"
)

// grPoolProblem is a jittered square patch of 2D balls (touching
// neighbours within 1 + 1e-9) with random velocities, so GR takes several
// iterations with many violators.
func grPoolProblem(side int, seed int64) *mech.Problem {
	rng := rand.New(rand.NewSource(seed))
	var x, y, vx, vy, m []float64
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			x = append(x, float64(i)+float64(j%2)*1e-10)
			y = append(y, float64(j))
			vx = append(vx, rng.NormFloat64())
			vy = append(vy, rng.NormFloat64())
			m = append(m, math.Exp(0.5*rng.NormFloat64()))
		}
	}
	return ballsProblem(x, y, vx, vy, m)
}

// TestGRPooledScatterIsExact: GR with Gλ summed by degree-of-freedom
// ranges on a pool of 1, 2 or 3 workers gives the serial impulses bit for
// bit, on a problem whose every row range is touched by many columns.
func TestGRPooledScatterIsExact(t *testing.T) {
	p := grPoolProblem(14, 3)
	m := p.NContacts()
	serial, err := NewGR(0, "")
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, m)
	stW, err := serial.Resolve(p, want)
	if err != nil {
		t.Fatal(err)
	}
	if stW.Iterations < 2 {
		t.Fatalf("only %d GR iterations: the scatter is not exercised", stW.Iterations)
	}
	for _, nw := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(nw), func(t *testing.T) {
			pool := par.New(nw)
			defer pool.Close()
			o, _ := NewGR(0, "")
			o.SetPool(pool)
			o.scatterAt = 1
			got := make([]float64, m)
			for rep := 0; rep < 2; rep++ { // the second Resolve reuses the spans' storage
				st, err := o.Resolve(p, got)
				if err != nil {
					t.Fatal(err)
				}
				if st.Iterations != stW.Iterations {
					t.Fatalf("%d iterations, serial %d", st.Iterations, stW.Iterations)
				}
				for j := range want {
					if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
						t.Fatalf("λ[%d] = %v, serial %v", j, got[j], want[j])
					}
				}
			}
		})
	}
}

// TestAddMulVecRowsIsExact: Gλ by row ranges (each over its ColRuns) equals
// clear + AddMulVec bit for bit for every split of the rows into 1–3
// ranges, including ranges that start inside a body's block.
func TestAddMulVecRowsIsExact(t *testing.T) {
	p := grPoolProblem(9, 5)
	g := &p.G
	rng := rand.New(rand.NewSource(1))
	y := make([]float64, g.NCols())
	for j := range y {
		if rng.Intn(4) != 0 { // some zero impulses, which AddMulVec skips
			y[j] = rng.NormFloat64()
		}
	}
	n := g.NRows
	want := make([]float64, n)
	g.AddMulVec(want, y)
	got := make([]float64, n)
	var runs [][2]int
	for _, nw := range []int{1, 2, 3} {
		for trial := 0; trial < 20; trial++ {
			cut := []int{0}
			for w := 1; w < nw; w++ {
				cut = append(cut, cut[w-1]+rng.Intn(n-cut[w-1]))
			}
			cut = append(cut, n)
			for w := 0; w < nw; w++ {
				// Each range on a vector of sentinels: it must write
				// exactly its rows, with AddMulVec's bits.
				lo, hi := cut[w], cut[w+1]
				for i := range got {
					got[i] = 7.25
				}
				runs = g.ColRuns(runs[:0], lo, hi, 1+trial%3)
				clear(got[lo:hi])
				g.AddMulVecRows(got, y, lo, hi, runs)
				for i := range want {
					if in := lo <= i && i < hi; in && math.Float64bits(got[i]) != math.Float64bits(want[i]) || !in && got[i] != 7.25 {
						t.Fatalf("%d ranges %v, range [%d, %d): row %d = %v, AddMulVec %v", nw, cut, lo, hi, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestVelocityRestitutionByRanges: e(v) taken a fixed range of contacts
// at a time (more contacts than its buffer holds, with known relative
// velocities), serially or by ranges on a pool of 2 or 3 workers, gives
// each contact e(−uᵢ) of the whole vector u = RelNormalVelocities bit for
// bit, and allocates nothing.
func TestVelocityRestitutionByRanges(t *testing.T) {
	for _, side := range []int{20, 48} {
		for _, nw := range []int{1, 2, 3} {
			p := grPoolProblem(side, 5)
			m := p.NContacts()
			vr := &VelocityRestitution{V0: 3}
			pool := par.New(nw)
			vr.SetPool(pool)
			if m <= 2*len(vr.u) || side == 48 && m < 4096 {
				t.Fatalf("%d contacts: not several ranges", m)
			}
			p.NRel = make([]float64, m)
			for i := range p.NRel {
				p.NRel[i] = 0.1 * float64(i%7-3)
			}
			for i := range p.CoR {
				p.CoR[i] = 0.5 + 0.4*float64(i%5)/4
			}
			u := make([]float64, m)
			p.RelNormalVelocities(u, p.V)
			want := make([]float64, m)
			for i := range want {
				want[i] = vr.E(p.CoR[i], -u[i])
			}
			vr.Apply(p)
			for i := range want {
				if math.Float64bits(p.CoR[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%d contacts, %d workers: contact %d: e = %v, want %v", m, nw, i, p.CoR[i], want[i])
				}
			}
			if a := testing.AllocsPerRun(3, func() { vr.Apply(p) }); a != 0 {
				t.Errorf("%d contacts, %d workers: %v allocations, want 0", m, nw, a)
			}
			pool.Close()
		}
	}
}

// TestGRPooledIslands: with Config.InteriorMax the islands of at least
// that many violators are solved on the caller with the pool (products by
// row ranges, MPRGP's loops by blocks): the impulses are the same bits
// without a pool and on pools of 1, 2 or 3 workers, twice in a row, and
// the velocities agree with GR's on the interior point to the tolerance.
func TestGRPooledIslands(t *testing.T) {
	// a jittered patch of balls converging on its centre: every contact
	// approaches, one island of them all
	rng := rand.New(rand.NewSource(7))
	var x, y, vx, vy, ms []float64
	const side = 24
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			x = append(x, float64(i)+float64(j%2)*1e-10)
			y = append(y, float64(j))
			vx = append(vx, -(float64(i)-side/2)+0.3*rng.NormFloat64())
			vy = append(vy, -(float64(j)-side/2)+0.3*rng.NormFloat64())
			ms = append(ms, math.Exp(0.5*rng.NormFloat64()))
		}
	}
	p := ballsProblem(x, y, vx, vy, ms)
	m := p.NContacts()
	ref, _ := NewGR(0, "")
	lref := make([]float64, m)
	if _, err := ref.Resolve(p, lref); err != nil {
		t.Fatal(err)
	}
	vref := append([]float64(nil), ref.Velocity()...)
	var want []float64
	for _, nw := range []int{0, 1, 2, 3} {
		o, err := newGR(Config{Name: "gr", InteriorMax: 200})
		if err != nil {
			t.Fatal(err)
		}
		if nw > 0 {
			pool := par.New(nw)
			defer pool.Close()
			o.SetPool(pool)
		}
		got := make([]float64, m)
		for rep := 0; rep < 2; rep++ {
			st, err := o.Resolve(p, got)
			if err != nil {
				t.Fatal(err)
			}
			if st.Largest < 200 || st.Method != "sparse" || o.ker.bigSolver == nil {
				t.Fatalf("largest island %d solved by %q: the pooled path is not exercised", st.Largest, st.Method)
			}
			if want == nil {
				want = append([]float64(nil), got...)
				v := o.Velocity()
				scale := 0.0
				for _, x := range vref {
					scale = math.Max(scale, math.Abs(x))
				}
				for i := range v {
					if d := math.Abs(v[i] - vref[i]); d > 1e-8*scale {
						t.Fatalf("v[%d] = %v, interior point's %v", i, v[i], vref[i])
					}
				}
				continue
			}
			for j := range want {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%d workers, pass %d: λ[%d] = %v, want %v", nw, rep, j, got[j], want[j])
				}
			}
		}
	}
}

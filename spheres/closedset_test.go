package spheres

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"impactsim/sim"
)

// column is k spheres of radius ½ (density 1000) stacked on the z axis with
// gaps gap (the first gap above the floor at z = 0, which rises at vf),
// sphere i at velocity vs[i] (vs may be shorter: the rest at rest), no
// gravity; floor false: no walls at all.
func column(k int, gap, vf float64, floor bool, vs ...float64) *System {
	s := &System{}
	if floor {
		s.Planes = []Plane{{N: [3]float64{0, 0, 1}, V: [3]float64{0, 0, vf}}}
	}
	for i := 0; i < k; i++ {
		var v float64
		if i < len(vs) {
			v = vs[i]
		}
		s.Add([3]float64{0, 0, 0.5 + gap + float64(i)*(1+gap)}, [3]float64{0, 0, v}, [3]float64{}, 0.5, 1000)
	}
	return s
}

// minGap is the smallest gap of consecutive spheres of a column (in the
// order of height: a step may reorder the arrays), and of the lowest with
// the floor (if any).
func minGap(s *System) float64 {
	k := make([]int, s.N())
	for i := range k {
		k[i] = i
	}
	slices.SortFunc(k, func(a, b int) int { return cmp.Compare(s.X[3*a+2], s.X[3*b+2]) })
	g := math.Inf(1)
	if len(s.Planes) > 0 {
		g = s.X[3*k[0]+2] - s.R[k[0]] - s.Planes[0].P[2]
	}
	for n := 1; n < len(k); n++ {
		i, j := k[n], k[n-1]
		g = math.Min(g, s.X[3*i+2]-s.X[3*j+2]-s.R[i]-s.R[j])
	}
	return g
}

// TestClosedActiveSetColumn: a floor rising at 1 m/s under a column of 5
// spheres at rest with gaps of 10⁻⁶ m, h = 0.1 s, inelastic LCP. Alg. 4 as
// published (one detection) finds only the floor contact: the bottom
// sphere leaves at the floor's speed and ends the step 0.1 m deep in the
// one above. The closed active set adds one contact of the column per
// round — the pair that touches at the end of the step under the last
// round's v⁺ — and closes after 5 solves (the sixth detection finds
// nothing new): the whole column leaves at the floor's speed, no gap
// closes, momentum gained is the floor's impulse. Capped at 3 solves the
// step goes on and reports the open set.
func TestClosedActiveSetColumn(t *testing.T) {
	law := Law{Operator: "lcp", Friction: "none", CoR: 0}
	const gap, h = 1e-6, 0.1
	s := column(5, gap, 1, true)
	st, err := s.StepImpact(&ImpactConfig{H: h, Law: law})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rounds != 1 || st.Contacts != 1 || st.Open {
		t.Errorf("Alg. 4: %d solves, %d contacts, open %v; want 1, 1, false", st.Rounds, st.Contacts, st.Open)
	}
	if g := minGap(s); !(g < -0.09) {
		t.Errorf("Alg. 4: smallest gap after the step %g, want about −0.1 (the missed contact)", g)
	}

	s = column(5, gap, 1, true)
	st, err = s.StepImpact(&ImpactConfig{H: h, Law: law, ActiveRounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rounds != 5 || st.Contacts != 5 || st.Open {
		t.Errorf("closed: %d solves, %d contacts, open %v; want 5, 5, false", st.Rounds, st.Contacts, st.Open)
	}
	for i := 0; i < s.N(); i++ {
		if v := s.VW[6*i+2]; math.Abs(v-1) > 1e-12 {
			t.Errorf("closed: sphere %d leaves at %.15g m/s, want 1 (the floor's)", i, v)
		}
	}
	if g := minGap(s); math.Abs(g-gap) > 1e-12 {
		t.Errorf("closed: smallest gap after the step %g, want %g (none closes)", g, gap)
	}

	s = column(5, gap, 1, true)
	st, err = s.StepImpact(&ImpactConfig{H: h, Law: law, ActiveRounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rounds != 3 || st.Contacts != 3 || !st.Open {
		t.Errorf("capped at 3: %d solves, %d contacts, open %v; want 3, 3, true", st.Rounds, st.Contacts, st.Open)
	}
}

// TestClosedActiveSetConserves: a sphere at 1 m/s striking a resting
// column of 4 with gaps of 10⁻⁶ m in free space (no walls, no gravity),
// elastic GR, h = 0.1 s. The closed set is the whole chain; the step keeps
// momentum and kinetic energy to 10⁻¹², and no gap closes beyond its
// start, which one detection does not achieve.
func TestClosedActiveSetConserves(t *testing.T) {
	law := Law{Operator: "gr", Friction: "none", CoR: 1}
	const gap = 1e-6
	for _, rounds := range []int{1, 10} {
		s := column(5, gap, 0, false, 1)
		p0, e0 := s.LinearMomentum()[2], s.KineticEnergy()
		st, err := s.StepImpact(&ImpactConfig{H: 0.1, Law: law, ActiveRounds: rounds})
		if err != nil {
			t.Fatal(err)
		}
		if p := s.LinearMomentum()[2]; math.Abs(p-p0) > 1e-12*math.Abs(p0) {
			t.Errorf("%d rounds: momentum %.17g, want %.17g", rounds, p, p0)
		}
		if e := s.KineticEnergy(); math.Abs(e-e0) > 1e-12*e0 {
			t.Errorf("%d rounds: kinetic energy %.17g, want %.17g", rounds, e, e0)
		}
		g := minGap(s)
		if rounds == 1 && !(g < -0.05) {
			t.Errorf("one detection: smallest gap %g, want a missed contact (< −0.05)", g)
		}
		if rounds > 1 && (st.Open || st.Contacts != 4 || g < -1e-12) {
			t.Errorf("closed: open %v, %d contacts, smallest gap %g; want closed, 4, ≥ 0", st.Open, st.Contacts, g)
		}
	}
}

// TestClosedActiveSetCrate: on the crate (150 spheres, rising floor, e(v),
// μ = 0.5) at h = 10⁻³ the closed set is bitwise the same for 1, 2 and 3
// workers and with every island on the pool, for GR + Alg. 3 and QCE +
// boxed LCP, with each round from the step's v and from the last round's
// (RoundsContinue); its steps close (none open at a cap of 50), the
// overlaps it leaves are no deeper than Alg. 4's, and a steady step
// allocates nothing.
func TestClosedActiveSetCrate(t *testing.T) {
	for k, l := range []Law{{Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}, {Operator: "qce", Friction: "blcp", CoR: 0.7, V0: 0.5}, {Operator: "gr", Friction: "alg3", CoR: 0.7, V0: 0.5}} {
		cfg := &ImpactConfig{H: 1e-3, Law: l, SortEvery: 7, ActiveRounds: 50, RoundsContinue: k == 2}
		name := l.Name()
		if cfg.RoundsContinue {
			name += " continuing"
		}
		steps := func(s *System, cfg *ImpactConfig) (rounds int, pen float64) {
			for k := 0; k < 40; k++ {
				st, err := s.StepImpact(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if st.Open {
					t.Fatalf("%s: step %d still open after %d solves", name, k, st.Rounds)
				}
				rounds, pen = max(rounds, st.Rounds), math.Max(pen, st.MaxPenetration)
			}
			return rounds, pen
		}
		acrossWorkers(t, name+" closed", func(s *System) { steps(s, cfg) })
		closed := crate(150, 2)
		rounds, pen := steps(closed, cfg)
		one := crate(150, 2)
		_, onePen := steps(one, &ImpactConfig{H: 1e-3, Law: l, SortEvery: 7})
		if pen > onePen {
			t.Errorf("%s: deepest sphere overlap %g with the closed set, %g with one detection", name, pen, onePen)
		}
		t.Logf("%s: at most %d solves a step; deepest overlap %.3g m closed, %.3g m one detection", name, rounds, pen, onePen)
		a := testing.AllocsPerRun(5, func() {
			if _, err := closed.StepImpact(cfg); err != nil {
				t.Fatal(err)
			}
		})
		if a != 0 {
			t.Errorf("%s: %v allocations per closed step, want 0", name, a)
		}
	}
}

// TestClosedActiveSetCheck: the options the closed set excludes are
// refused, by Check and by StepImpact.
func TestClosedActiveSetCheck(t *testing.T) {
	law := Law{Operator: "gr", Friction: "none", CoR: 1}
	for _, c := range []struct {
		cfg  ImpactConfig
		want string
	}{
		{ImpactConfig{H: 0.1, Law: law, ActiveRounds: -1}, "want ≥ 0"},
		{ImpactConfig{H: 0.1, Law: law, ActiveRounds: 2, Canonical: true}, "decomposed"},
		{ImpactConfig{H: 0.1, Law: law, ActiveRounds: 2, Correction: &sim.Correction{Project: true, Tol: 1e-6}}, "position correction"},
	} {
		if err := c.cfg.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check: %v, want an error with %q", err, c.want)
		}
		s := column(2, 1e-3, 0, false, 1)
		if _, err := s.StepImpact(&c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StepImpact: %v, want an error with %q", err, c.want)
		}
	}
}

// TestClosedActiveSetPeriodic: the elastic chain of
// TestClosedActiveSetConserves laid along x across a periodic side (period
// 20 m, the chain from x = 17.5 to 21.5) closes over the same 4 contacts
// and gives the velocities of the chain in open space to 10⁻¹².
func TestClosedActiveSetPeriodic(t *testing.T) {
	law := Law{Operator: "gr", Friction: "none", CoR: 1}
	const gap = 1e-6
	chain := func(x0 float64, periodic bool) *System {
		s := &System{}
		if periodic {
			s.Periodic = Periodic{L: [2]float64{20, 20}}
		}
		for i := 0; i < 5; i++ {
			v := 0.0
			if i == 0 {
				v = 1
			}
			s.Add([3]float64{x0 + float64(i)*(1+gap), 10, 0}, [3]float64{v, 0, 0}, [3]float64{}, 0.5, 1000)
		}
		return s
	}
	open, wrapped := chain(5, false), chain(17.5, true)
	cfg := &ImpactConfig{H: 0.1, Law: law, ActiveRounds: 10}
	so, err := open.StepImpact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := wrapped.StepImpact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if so.Open || sw.Open || so.Contacts != 4 || sw.Contacts != 4 {
		t.Fatalf("open space: %d contacts (open %v); periodic: %d (open %v); want 4 and closed", so.Contacts, so.Open, sw.Contacts, sw.Open)
	}
	at := map[int64]int{} // the step may reorder the spheres: compare by ID
	for i, id := range wrapped.ID {
		at[id] = i
	}
	for i, id := range open.ID {
		for k := 0; k < 6; k++ {
			if a, b := wrapped.VW[6*at[id]+k], open.VW[6*i+k]; math.Abs(a-b) > 1e-12 {
				t.Errorf("sphere %d, VW[%d]: %.17g across the side, %.17g in open space", id, k, a, b)
			}
		}
	}
}

// TestClosedActiveSetContinue: with RoundsContinue each later round
// starts from the last round's v⁺, so the contacts an impulse drives
// together collide after it, in the same step. A sphere at 1 m/s striking a
// resting column of 4 with gaps of 10⁻⁶ m (free space, elastic GR, h =
// 0.1 s) then gives the sequential answer of an event-driven simulation —
// each sphere stops and passes its velocity on, the last leaves at 1 m/s —
// over 4 solves, momentum and energy kept to 10⁻¹², no gap closed. Under
// the rising floor of TestClosedActiveSetColumn (inelastic LCP) every
// round leaves its contacts at the floor's speed, so the column leaves at
// 1 m/s after 5 solves, as when each round restarts from the step's v.
func TestClosedActiveSetContinue(t *testing.T) {
	const gap = 1e-6
	s := column(5, gap, 0, false, 1)
	p0, e0 := s.LinearMomentum()[2], s.KineticEnergy()
	cfg := &ImpactConfig{H: 0.1, Law: Law{Operator: "gr", Friction: "none", CoR: 1}, ActiveRounds: 10, RoundsContinue: true}
	st, err := s.StepImpact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Open || st.Rounds != 4 || st.Contacts != 4 {
		t.Errorf("chain: %d solves, %d contacts, open %v; want 4, 4, closed", st.Rounds, st.Contacts, st.Open)
	}
	top := 0 // the highest sphere: the last of the column
	for i := range s.N() {
		if s.X[3*i+2] > s.X[3*top+2] {
			top = i
		}
	}
	for i := range s.N() {
		want := 0.0
		if i == top {
			want = 1
		}
		if v := s.VW[6*i+2]; math.Abs(v-want) > 1e-12 {
			t.Errorf("chain: sphere at height %.6g leaves at %.15g m/s, want %g", s.X[3*i+2], v, want)
		}
	}
	if p := s.LinearMomentum()[2]; math.Abs(p-p0) > 1e-12*math.Abs(p0) {
		t.Errorf("chain: momentum %.17g, want %.17g", p, p0)
	}
	if e := s.KineticEnergy(); math.Abs(e-e0) > 1e-12*e0 {
		t.Errorf("chain: kinetic energy %.17g, want %.17g", e, e0)
	}
	if g := minGap(s); g < -1e-12 {
		t.Errorf("chain: smallest gap %g, want ≥ 0", g)
	}

	s = column(5, gap, 1, true)
	cfg = &ImpactConfig{H: 0.1, Law: Law{Operator: "lcp", Friction: "none", CoR: 0}, ActiveRounds: 10, RoundsContinue: true}
	if st, err = s.StepImpact(cfg); err != nil {
		t.Fatal(err)
	}
	if st.Rounds != 5 || st.Contacts != 5 || st.Open {
		t.Errorf("floor: %d solves, %d contacts, open %v; want 5, 5, false", st.Rounds, st.Contacts, st.Open)
	}
	for i := range s.N() {
		if v := s.VW[6*i+2]; math.Abs(v-1) > 1e-12 {
			t.Errorf("floor: sphere %d leaves at %.15g m/s, want 1 (the floor's)", i, v)
		}
	}
	if g := minGap(s); math.Abs(g-gap) > 1e-12 {
		t.Errorf("floor: smallest gap after the step %g, want %g (none closes)", g, gap)
	}
}

package frame2d

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// rigidVel sets the velocities of body b to the rigid motion V + ω×(p − c).
func rigidVel(f *Framework, vel []Vec, b int, v Vec, omega float64) {
	c := f.Centre(b)
	for _, p := range f.Bodies[b].Points {
		r := f.Pos[p].Sub(c)
		vel[p] = v.Add(r.Perp().Scale(omega))
	}
}

// randomFramework: brick A on the ground sliding horizontally, brick B on
// top of A (inside A's top face) sliding horizontally, brick C tumbling in
// the air far away. Every contact is closed with zero normal velocity, so
// the active set of (S2⁺) is determined exactly, and the velocities are
// rigid, so they satisfy (L1⁺).
func randomFramework(rng *rand.Rand) (*Framework, []Vec) {
	model := Model(rng.IntN(2))
	f := &Framework{Ground: true, G: Vec{0, -9.81}}
	wa, ha := 1.5+rng.Float64(), 0.3+0.5*rng.Float64()
	xa := rng.NormFloat64()
	wb, hb := 0.4+0.5*rng.Float64(), 0.2+0.4*rng.Float64()
	xb := xa + 0.1 + (wa-wb-0.2)*rng.Float64()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(f.AddBrick("A", 0, xa, 0, wa, ha, 0, 0.5+rng.Float64(), false, model))
	must(f.AddBrick("B", 0, xb, ha, wb, hb, 0, 0.5+rng.Float64(), false, model))
	must(f.AddBrick("C", 0, xa+8, 3, 1+rng.Float64(), 0.2+rng.Float64(), rng.Float64(), 0.5+rng.Float64(), false, model))
	vel := make([]Vec, len(f.Pos))
	rigidVel(f, vel, 0, Vec{rng.NormFloat64(), 0}, 0)
	rigidVel(f, vel, 1, Vec{rng.NormFloat64(), 0}, 0)
	rigidVel(f, vel, 2, Vec{rng.NormFloat64(), rng.NormFloat64()}, 3*rng.NormFloat64())
	return f, vel
}

// TestTheorem51: one acceleration-based step (Fig. 6) and one position
// step (Fig. 7) with (L') give the same positions.
func TestTheorem51(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 1))
	worst := 0.0
	for trial := 0; trial < 50; trial++ {
		f, vel := randomFramework(rng)
		dt := []float64{1e-3, 5e-3, 1e-2}[trial%3]
		g := f.Clone()
		sa, err := NewSim(f, dt)
		if err != nil {
			t.Fatal(err)
		}
		sp, _ := NewSim(g, dt)
		sp.Length = LPrime
		sa.SetVelocities(vel)
		sp.SetVelocities(vel)
		if err := sa.AccelStep(); err != nil {
			t.Fatal(err)
		}
		if err := sp.Step(); err != nil {
			t.Fatal(err)
		}
		if len(sa.Triples) == 0 || sa.Stats.Active == 0 {
			t.Fatalf("trial %d: no active contact (%d triples)", trial, len(sa.Triples))
		}
		for i := range f.Pos {
			d := f.Pos[i].Sub(g.Pos[i]).Norm()
			worst = math.Max(worst, d)
			if d > 1e-10 {
				t.Fatalf("trial %d: point %d: acceleration step %v, position step %v (|Δ| = %g)", trial, i, f.Pos[i], g.Pos[i], d)
			}
		}
	}
	t.Logf("Theorem 5.1: max position difference %.3g over 50 random frameworks", worst)
}

// TestTheorem71Collision: with g = 0, the velocities implied by a position
// step at the moment two isolated bricks touch are those of the classical
// perfectly inelastic collision.
func TestTheorem71Collision(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 1))
	for trial := 0; trial < 20; trial++ {
		const dt = 1e-3
		f := &Framework{}
		ma, mb := 0.5+rng.Float64(), 0.5+rng.Float64()
		wa, ha, wb, hb := 0.5+rng.Float64(), 0.3+rng.Float64(), 0.5+rng.Float64(), 0.3+rng.Float64()
		theta := 0.0
		if trial%2 == 1 {
			theta = 0.2 + 0.5*rng.Float64() // corner of A hits the face of B
		}
		f.AddBrick("A", 0, 0, 0, wa, ha, theta, ma, false, Corners)
		// the rightmost corner of A, and B's left face through it
		var pk Vec
		pk.X = math.Inf(-1)
		for _, p := range f.Bodies[0].Hull {
			if f.Pos[p].X > pk.X {
				pk = f.Pos[p]
			}
		}
		yb := pk.Y - hb*(0.2+0.6*rng.Float64())
		if theta == 0 { // centres at the same height: no rotation
			yb = ha/2 - hb/2
		}
		f.AddBrick("B", 0, pk.X, yb, wb, hb, 0, mb, false, Corners)
		u := 0.5 + rng.Float64()
		vel := make([]Vec, len(f.Pos))
		rigidVel(f, vel, 0, Vec{u, 0}, 0)
		ca0, cb0 := f.Centre(0), f.Centre(1)
		s, err := NewSim(f, dt)
		if err != nil {
			t.Fatal(err)
		}
		s.Length = LPrime
		s.SetVelocities(vel)
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		// classical: impulse J along n = (1, 0) at the contact point P.
		n := Vec{1, 0}
		var p Vec
		var ia, ib float64
		if theta == 0 {
			p = Vec{pk.X, yb} // any point of the contact: no rotation
		} else {
			p = pk
		}
		ia = ma * (wa*wa + ha*ha) / 4
		ib = mb * (wb*wb + hb*hb) / 4
		ra, rb := p.Sub(ca0), p.Sub(cb0)
		var J, wA, wB float64
		var vA, vB Vec
		if theta == 0 {
			J = u * ma * mb / (ma + mb)
		} else {
			J = u / (1/ma + 1/mb + sq(ra.Cross(n))/ia + sq(rb.Cross(n))/ib)
		}
		vA = Vec{u - J/ma, 0}
		vB = Vec{J / mb, 0}
		if theta != 0 {
			wA = -ra.Cross(n) * J / ia
			wB = rb.Cross(n) * J / ib
		}
		// velocities implied by the step: v = (p⁽ℓ⁺¹⁾ − p⁽ℓ⁾)/Δt
		for b, want := range []struct {
			v Vec
			w float64
			c Vec
		}{{vA, wA, ca0}, {vB, wB, cb0}} {
			for _, q := range f.Bodies[b].Points {
				exp := want.v.Add(s.Prev[q].Sub(want.c).Perp().Scale(want.w))
				if !vecNear(s.Vel[q], exp, 1e-10) {
					t.Fatalf("trial %d (θ = %.3f): body %d point %d velocity %v, classical %v", trial, theta, b, q, s.Vel[q], exp)
				}
			}
		}
	}
}

func sq(x float64) float64 { return x * x }

// mirrorAsymmetry compares the corners of each left brick with the mirror
// image (x → −x) of its right twin (bricks come in L/R pairs).
func mirrorAsymmetry(f *Framework) float64 {
	var worst float64
	for b := 0; b+1 < len(f.Bodies); b += 2 {
		l, r := f.Corners(b), f.Corners(b+1)
		// mirror maps corners 0↔1, 2↔3
		for k, m := range [4]int{1, 0, 3, 2} {
			d := Vec{-r[m].X, r[m].Y}.Sub(l[k])
			worst = math.Max(worst, math.Max(math.Abs(d.X), math.Abs(d.Y)))
		}
	}
	return worst
}

// TestSymmetricCollapse: the symmetric tower stays mirror-symmetric to
// 1e-9 over 1,000 position steps.
func TestSymmetricCollapse(t *testing.T) {
	f, err := Symmetric().Framework()
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stable(); st.Stable {
		t.Fatal("symmetric tower is stable")
	}
	s, err := NewSim(f, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	start := f.Clone()
	worst := 0.0
	for i := 0; i < 1000; i++ {
		if err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		worst = math.Max(worst, mirrorAsymmetry(f))
	}
	moved := 0.0
	for i := range f.Pos {
		moved = math.Max(moved, f.Pos[i].Sub(start.Pos[i]).Norm())
	}
	t.Logf("symmetric tower: max mirror asymmetry %.3g over 1000 steps; max displacement %.3g", worst, moved)
	if worst > 1e-9 {
		t.Errorf("mirror asymmetry %g > 1e-9", worst)
	}
	if moved < 0.5 {
		t.Errorf("tower hardly moved (%g)", moved)
	}
}

// TestLengthDrift: a brick tumbling in the air (ωΔt = 0.012) for 10,000
// steps. With (L″) the relative bar-length error stays at the per-step
// level O((ωΔt)²) and does not grow; with (L') and no correction it
// drifts: it grows without bound (the run diverges after a few thousand
// steps).
func TestLengthDrift(t *testing.T) {
	const steps = 10000
	run := func(mode LengthMode) (errAt map[int]float64, broke int) {
		f := &Framework{G: Vec{0, -9.81}}
		f.AddBrick("t", 0, 0, 0, 2, 0.5, 0.3, 1, false, Corners)
		s, _ := NewSim(f, 0.002)
		s.Length = mode
		vel := make([]Vec, len(f.Pos))
		rigidVel(f, vel, 0, Vec{1, 5}, 6) // ωΔt = 0.012
		s.SetVelocities(vel)
		errAt = map[int]float64{}
		worst := 0.0
		for i := 1; i <= steps; i++ {
			if err := s.Step(); err != nil {
				return errAt, i
			}
			worst = math.Max(worst, f.MaxLengthError())
			if worst > 1 {
				return errAt, i
			}
			switch i {
			case 10, 100, 1000, 10000:
				errAt[i] = worst
			}
		}
		return errAt, 0
	}
	l2, b2 := run(LDoublePrime)
	l1, b1 := run(LPrime)
	t.Logf("(L″): max rel. length error after 10, 100, 1000, 10000 steps: %.3g %.3g %.3g %.3g ((ωΔt)² = %.3g)", l2[10], l2[100], l2[1000], l2[10000], 0.012*0.012)
	t.Logf("(L'):  max rel. length error after 10, 100, 1000 steps: %.3g %.3g %.3g; error > 100%% or solver failure at step %d", l1[10], l1[100], l1[1000], b1)
	if b2 != 0 {
		t.Fatalf("(L″) run failed at step %d", b2)
	}
	if l2[10000] > 1.01*l2[100] || l2[10000] > 0.012*0.012 {
		t.Errorf("(L″) length error grows: %g after 100 steps, %g after 10,000", l2[100], l2[10000])
	}
	if !(l1[1000] > 10*l2[10000]) || b1 == 0 {
		t.Errorf("(L') error %g after 1000 steps does not drift beyond (L″) %g (diverged at %d)", l1[1000], l2[10000], b1)
	}
}

// TestTheorem71QStar: with g = 0 and translating bricks (so that (L')
// reduces to (L1) exactly), the velocities (p⁽ℓ⁺¹⁾ − p⁽ℓ⁾)/Δt of a position
// step equal the solution of (Q*): minimise Σ mᵢ‖vᵢ − vᵢᵒˡᵈ‖² subject to
// (L1) ⟨vᵢ − vⱼ, pᵢ − pⱼ⟩ = 0 and (S1) ⟨v_k − [(1−t)vᵢ + t vⱼ], n⟩ ≥ 0 for
// the closed contacts, built here independently of Sim.
func TestTheorem71QStar(t *testing.T) {
	rng := rand.New(rand.NewPCG(72, 1))
	for trial := 0; trial < 30; trial++ {
		f, _ := randomFramework(rng)
		f.G = Vec{}
		vel := make([]Vec, len(f.Pos))
		// A slides and falls onto the ground, B hits A from above, C flies.
		rigidVel(f, vel, 0, Vec{rng.NormFloat64(), -rng.Float64()}, 0)
		rigidVel(f, vel, 1, Vec{rng.NormFloat64(), -1 - rng.Float64()}, 0)
		rigidVel(f, vel, 2, Vec{rng.NormFloat64(), rng.NormFloat64()}, 0)
		const dt = 1e-3
		s, err := NewSim(f, dt)
		if err != nil {
			t.Fatal(err)
		}
		s.Length = LPrime
		s.SetVelocities(vel)
		pos0 := append([]Vec(nil), f.Pos...)
		closed := f.triples(nil, pos0, s.margin())
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		// (Q*) in the velocities of the movable points.
		n := 2 * len(pos0)
		p := &qpDiag{M: make([]float64, n), X0: make([]float64, n)}
		for i := range pos0 {
			p.M[2*i], p.M[2*i+1] = f.Mass[i], f.Mass[i]
			p.X0[2*i], p.X0[2*i+1] = vel[i].X, vel[i].Y
		}
		for _, b := range f.Bars {
			d := pos0[b.I].Sub(pos0[b.J])
			p.eq([]int{2 * b.I, 2*b.I + 1, 2 * b.J, 2*b.J + 1}, []float64{d.X, d.Y, -d.X, -d.Y}, 0)
		}
		nc := 0
		for _, tr := range closed {
			if math.Abs(tr.Gap) > 1e-12 || tr.T < 0 || tr.T > 1 {
				continue
			}
			nc++
			if tr.I < 0 {
				p.in([]int{2*tr.K + 1}, []float64{1}, 0)
				continue
			}
			a, c := -(1 - tr.T), -tr.T
			p.in([]int{2 * tr.K, 2*tr.K + 1, 2 * tr.I, 2*tr.I + 1, 2 * tr.J, 2*tr.J + 1},
				[]float64{tr.N.X, tr.N.Y, a * tr.N.X, a * tr.N.Y, c * tr.N.X, c * tr.N.Y}, 0)
		}
		v, err := p.solve()
		if err != nil {
			t.Fatal(err)
		}
		change := 0.0
		for i := range pos0 {
			change = math.Max(change, s.Vel[i].Sub(vel[i]).Norm())
		}
		if nc == 0 || change < 0.1 {
			t.Fatalf("trial %d: %d closed contacts, velocity change %g: no collision", trial, nc, change)
		}
		for i := range pos0 {
			if !vecNear(s.Vel[i], Vec{v[2*i], v[2*i+1]}, 1e-10) {
				t.Fatalf("trial %d: point %d: position step %v, (Q*) %v", trial, i, s.Vel[i], Vec{v[2*i], v[2*i+1]})
			}
		}
	}
}

// TestPenaltyOverbraced: bricks with both diagonals are refused by the
// exact step (naming the redundant bar) and run with the penalty variant
// of sec. 8.4 (M = 100): the symmetric tower stays symmetric and the bars
// keep their lengths to the discretisation level.
func TestPenaltyOverbraced(t *testing.T) {
	tw := Symmetric()
	tw.Diagonals = 2
	f, err := tw.Framework()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Bars) != 6*6 {
		t.Fatalf("%d bars, want 36", len(f.Bars))
	}
	s, err := NewSim(f, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(); err == nil || !strings.Contains(err.Error(), "brick pillarL: bar 5 (points 1–3) is redundant") {
		t.Fatalf("exact step on an over-braced framework: %v", err)
	}
	if _, err := InitialCollapse(f); err == nil {
		t.Fatal("initial collapse accepted an over-braced framework")
	}
	s.Penalty = 100
	worst, worstLen := 0.0, 0.0
	for i := 0; i < 1000; i++ {
		if err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		worst = math.Max(worst, mirrorAsymmetry(f))
		worstLen = math.Max(worstLen, f.MaxLengthError())
	}
	t.Logf("penalty M = 100, both diagonals: mirror asymmetry %.3g, max rel. bar length error %.3g over 1000 steps", worst, worstLen)
	if worst > 1e-9 {
		t.Errorf("asymmetry %g", worst)
	}
	if worstLen > 1e-2 {
		t.Errorf("length error %g", worstLen)
	}
}

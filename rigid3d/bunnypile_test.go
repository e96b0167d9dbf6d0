package rigid3d

import (
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/sim"
)

// sharedBunny reads the shared bunny at 16 cm (the file is in cm), as
// the command's built-in scene does.
func sharedBunny(t *testing.T) (*Mesh, Quat) {
	t.Helper()
	f, err := os.Open(sharedMeshes + "bunny.obj")
	if err != nil {
		t.Skipf("shared meshes not available: %v", err)
	}
	vs, fs, err := ReadOBJ(f, "bunny.obj")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for i := range vs {
		vs[i] = r3.Scale(0.01, vs[i])
	}
	m, _, q, err := NewMesh(vs, fs, 24, "bunny.obj")
	if err != nil {
		t.Fatal(err)
	}
	return m, q
}

// runBunnyPile steps a pile of n bunnies with grr (and Alg. 3 friction when
// mu > 0) and returns the total energy before and after each step, the
// number of steps with contacts and the final state.
func runBunnyPile(t *testing.T, m *Mesh, frame Quat, n, steps int, cor, mu float64) (energy []float64, withContacts int, q []float64) {
	t.Helper()
	s, err := BunnyPile(m, frame, n, cor, mu, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ov := s.Overlaps(s.Q); len(ov) > 0 {
		t.Fatalf("n = %d: %d overlaps at the start, first %+v", n, len(ov), ov[0])
	}
	o, err := impact.New(impact.Config{Name: "grr"})
	if err != nil {
		t.Fatal(err)
	}
	law := &sim.Staggered{Impact: o}
	if mu > 0 {
		if law.Friction, err = friction.NewMaxDissipation("auto"); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sim.NewStepper(s, law, BunnyPileDt, s.Q, s.V)
	if err != nil {
		t.Fatal(err)
	}
	energy = append(energy, s.Energy(st.Q, st.V))
	for k := 0; k < steps; k++ {
		if err := st.Step(); err != nil {
			t.Fatalf("c = %g, μ = %g, step %d: %v", cor, mu, k+1, err)
		}
		if st.Last.Contacts > 0 {
			withContacts++
		}
		energy = append(energy, s.Energy(st.Q, st.V))
	}
	return energy, withContacts, append([]float64(nil), st.Q...)
}

// TestBunnyPile is Fig. 9 (sec. 10.4) small: 27 bunnies start without
// overlap; with c < 1 (with and without friction) the total energy never
// rises by more than rounding (1e-12 of the start) in a step; with c = 1
// and no friction GR and DMV conserve it (1e-10 relative: GR preserves
// the kinetic energy of every impact, DMV the energy of free flight under
// linear gravity); the same input gives bitwise the same state.
func TestBunnyPile(t *testing.T) {
	m, frame := sharedBunny(t)
	const n, steps = 27, 60
	for _, c := range []struct{ cor, mu float64 }{{0, 0.5}, {0.5, 0.5}, {0.5, 0}, {1, 0.5}, {1, 0}} {
		e, hits, _ := runBunnyPile(t, m, frame, n, steps, c.cor, c.mu)
		if hits < 5 {
			t.Fatalf("c = %g, μ = %g: only %d steps with contacts: the test checks nothing", c.cor, c.mu, hits)
		}
		tol := 1e-12 * e[0]
		worst, drift := 0.0, 0.0
		for k := 1; k < len(e); k++ {
			worst = math.Max(worst, e[k]-e[k-1])
			drift = math.Max(drift, math.Abs(e[k]-e[0]))
		}
		t.Logf("c = %g, μ = %g: %d of %d steps with contacts, E %.6g → %.6g, largest rise %.3g, largest drift %.3g", c.cor, c.mu, hits, steps, e[0], e[len(e)-1], worst, drift)
		if worst > tol {
			t.Errorf("c = %g, μ = %g: energy rose by %.3g in a step (tolerance %.3g)", c.cor, c.mu, worst, tol)
		}
		if c.cor == 1 && c.mu == 0 && drift > 1e-10*e[0] {
			t.Errorf("c = 1, μ = 0: energy drifted by %.3g of %.6g", drift, e[0])
		}
		if c.cor < 1 && !(e[len(e)-1] < e[0]) {
			t.Errorf("c = %g, μ = %g: no dissipation (E %v → %v)", c.cor, c.mu, e[0], e[len(e)-1])
		}
	}
	_, _, q1 := runBunnyPile(t, m, frame, n, steps, 0.5, 0.5)
	_, _, q2 := runBunnyPile(t, m, frame, n, steps, 0.5, 0.5)
	for i := range q1 {
		if q1[i] != q2[i] {
			t.Fatalf("not deterministic: q[%d] = %v and %v", i, q1[i], q2[i])
		}
	}
}

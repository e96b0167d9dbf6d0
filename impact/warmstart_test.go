package impact

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"impactsim/mech"
)

// hexPatch is a hexagonal patch of touching balls (rings around a centre
// ball) all moving towards the centre: one island of many contacts.
func hexPatch(rings int) *mech.Problem {
	var x, y, vx, vy, m []float64
	for q := -rings; q <= rings; q++ {
		for r := -rings; r <= rings; r++ {
			if s := -q - r; s < -rings || s > rings {
				continue
			}
			px, py := float64(q)+0.5*float64(r), float64(r)*math.Sqrt(3)/2
			x, y = append(x, px), append(y, py)
			vx, vy = append(vx, -0.3*px+0.01*py), append(vy, -0.3*py)
			m = append(m, 1+0.1*float64(len(m)%3))
		}
	}
	return ballsProblem(x, y, vx, vy, m)
}

// islandGuess returns the warm start of all of p's columns, island by island
// as the kernel asks for it, in column order.
func islandGuess(w *warmStart, p *mech.Problem) []float64 {
	var isl islands
	m := p.NContacts()
	isl.split(m, p.MInv.NumBlocks(), p.Bodies, nil)
	out := make([]float64, m)
	w.prepare(p.MInv.NumBlocks())
	for c := 0; c < isl.n(); c++ {
		cols := isl.cols(c)
		y := make([]float64, len(cols))
		w.guess(p.Bodies, p.MInv.NumBlocks(), cols, y)
		for a, j := range cols {
			out[j] = y[a]
		}
	}
	return out
}

// TestWarmStartRepeatsImpulses: after a solve, the warm start of every
// contact is its impulse; a second solve of the same problem from it needs
// fewer solver iterations and gives the same velocities; a step without
// contacts keeps the guesses one more step, a second one drops them.
func TestWarmStartRepeatsImpulses(t *testing.T) {
	for _, solver := range []string{"dense", "sparse"} {
		p := hexPatch(3)
		for i := range p.CoR {
			p.CoR[i] = 0
		}
		m := p.NContacts()
		op, err := newLCP(Config{Name: "lcp", Solver: solver, WarmStart: true})
		if err != nil {
			t.Fatal(err)
		}
		l1, l2 := make([]float64, m), make([]float64, m)
		s1, err := op.Resolve(p, l1)
		if err != nil {
			t.Fatal(err)
		}
		g := islandGuess(&op.warm, p)
		active := 0
		for j := range l1 {
			if g[j] != l1[j] {
				t.Fatalf("%s: guess of contact %d is %v, its impulse %v", solver, j, g[j], l1[j])
			}
			if l1[j] > 0 {
				active++
			}
		}
		if active < 20 {
			t.Fatalf("%s: only %d of %d contacts push: not a test of the warm start", solver, active, m)
		}
		s2, err := op.Resolve(p, l2)
		if err != nil {
			t.Fatal(err)
		}
		if s2.SolverIterations >= s1.SolverIterations {
			t.Errorf("%s: warm solve took %d iterations, the cold one %d", solver, s2.SolverIterations, s1.SolverIterations)
		}
		v1, v2 := make([]float64, p.NDof()), make([]float64, p.NDof())
		scr := make([]float64, p.NDof())
		p.ApplyImpulses(v1, p.V, l1, nil, scr)
		p.ApplyImpulses(v2, p.V, l2, nil, scr)
		for i := range v1 {
			if d := math.Abs(v1[i] - v2[i]); d > 1e-10 {
				t.Errorf("%s: velocity %d differs by %.3g between the cold and the warm solve", solver, i, d)
			}
		}
		t.Logf("%s: %d contacts, %d pushing; solver iterations cold %d, warm %d", solver, m, active, s1.SolverIterations, s2.SolverIterations)

		empty := &mech.Problem{}
		empty.Reset(2, p.NDof())
		for range p.NDof() / 2 {
			empty.MInv.AppendScalarBlock(2, 1)
		}
		op.Resolve(empty, nil)
		if g := islandGuess(&op.warm, p); !equalBits(g, l2) {
			t.Errorf("%s: one step without contacts lost the guesses", solver)
		}
		op.Resolve(empty, nil)
		for j, x := range islandGuess(&op.warm, p) {
			if x != 0 {
				t.Fatalf("%s: contact %d guessed %v two steps after its impulse", solver, j, x)
			}
		}
	}
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestWarmStartRanks: two contacts of one pair of bodies (a manifold) and a
// contact with static geometry keep their own impulses, whichever order the
// pair's bodies are listed in.
func TestWarmStartRanks(t *testing.T) {
	// Contacts: (0,1), (1,0), (2,−1), (−1,1), (1,2).
	bodies := []int{0, 1, 1, 0, 2, -1, -1, 1, 1, 2}
	y := []float64{0.5, 0.25, 2, 3, 0}
	var isl islands
	isl.split(5, 3, bodies, nil)
	var w warmStart
	w.record(&isl, nil, bodies, 3, y)
	cols := isl.cols(0)
	if len(cols) != 5 {
		t.Fatalf("one island expected, got %d columns in the first", len(cols))
	}
	g := make([]float64, 5)
	w.guess(bodies, 3, cols, g)
	for a, j := range cols {
		if g[a] != y[j] {
			t.Errorf("contact %d guessed %v, want %v", j, g[a], y[j])
		}
	}
	// A system of another size gets no guesses.
	w.guess(bodies, 4, cols, g)
	for a := range g {
		if g[a] != 0 {
			t.Errorf("guess %d for another system: %v", a, g[a])
		}
	}
}

// TestWarmStartSerialization: a read-back warm start gives the same guesses
// bit for bit; corrupt data is rejected and leaves the warm start as it was.
func TestWarmStartSerialization(t *testing.T) {
	p := hexPatch(2)
	op, err := newGR(Config{Name: "gr", WarmStart: true})
	if err != nil {
		t.Fatal(err)
	}
	lam := make([]float64, p.NContacts())
	if _, err := op.Resolve(p, lam); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := op.WriteWarmStart(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	var back GR
	if err := back.ReadWarmStart(good); err != nil {
		t.Fatal(err)
	}
	want := islandGuess(&op.warm, p)
	if !equalBits(islandGuess(&back.warm, p), want) {
		t.Fatal("read-back warm start guesses differently")
	}
	nonzero := 0
	for _, x := range want {
		if x > 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("no guesses: not a test")
	}
	// The first entry of generation 0 starts after the magic and two counts.
	e0 := len(warmMagic) + 16
	set := func(off int, b ...byte) []byte {
		d := append([]byte(nil), good...)
		copy(d[off:], b)
		return d
	}
	negative := set(e0+12, 0, 0, 0, 0, 0, 0, 0xf0, 0xbf)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"magic", []byte("warm9"), "header"},
		{"truncated", good[:e0+30], "entries in"},
		{"trailing", append(append([]byte(nil), good...), 1), "after the last entry"},
		{"body out of range", set(e0, 0xff, 0xff, 0, 0), "out of order or range"},
		{"partner out of range", set(e0+4, 0, 0, 0, 0, 0, 0, 0x7f), "out of range"},
		{"negative impulse", negative, "want a finite y > 0"},
		{"huge count", set(len(warmMagic)+8, 0xff, 0xff, 0xff, 0xff), "entries in"},
	}
	for _, c := range cases {
		err := back.ReadWarmStart(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if !equalBits(islandGuess(&back.warm, p), want) {
			t.Errorf("%s: a rejected warm start changed the guesses", c.name)
		}
	}
	back.ResetWarmStart()
	for _, x := range islandGuess(&back.warm, p) {
		if x != 0 {
			t.Fatal("guesses after ResetWarmStart")
		}
	}
}

// FuzzReadWarmStart: no input panics; a rejected one changes nothing, an
// accepted one writes back to the same bytes.
func FuzzReadWarmStart(f *testing.F) {
	p := hexPatch(1)
	op, _ := newGR(Config{Name: "gr", WarmStart: true})
	op.Resolve(p, make([]float64, p.NContacts()))
	var buf bytes.Buffer
	op.WriteWarmStart(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(warmMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		var w GR
		if err := w.ReadWarmStart(data); err != nil {
			if w.warm.gen[0].nb != 0 || w.warm.gen[1].nb != 0 {
				t.Fatal("rejected data changed the warm start")
			}
			return
		}
		var out bytes.Buffer
		if err := w.WriteWarmStart(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatal("accepted data does not write back to itself")
		}
		islandGuess(&w.warm, p)
	})
}

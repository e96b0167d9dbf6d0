package frame2d

import (
	"math"
	"strings"
	"testing"
)

// TestNineMoments: the 9-point distribution of Fig. 10 integrates 1, x, y,
// x², xy, y² like the homogeneous rectangle (sec. 8.1), also rotated.
func TestNineMoments(t *testing.T) {
	for _, angle := range []float64{0, 0.3, -1.2} {
		f := &Framework{}
		const x, y, w, h, m = 1.5, -0.25, 2.0, 0.7, 3.0
		if err := f.AddBrick("b", 0, x, y, w, h, angle, m, false, Nine); err != nil {
			t.Fatal(err)
		}
		var s [6]float64
		for i, p := range f.Pos {
			mi := f.Mass[i]
			for k, v := range []float64{1, p.X, p.Y, p.X * p.X, p.X * p.Y, p.Y * p.Y} {
				s[k] += mi * v
			}
		}
		// exact: centre c, second central moments m·R diag(w²/12, h²/12) Rᵀ
		cx, cy := x+w/2, y+h/2
		cs, sn := math.Cos(angle), math.Sin(angle)
		a, b := w*w/12, h*h/12
		ixx := a*cs*cs + b*sn*sn
		ixy := (a - b) * cs * sn
		iyy := a*sn*sn + b*cs*cs
		want := [6]float64{m, m * cx, m * cy, m * (ixx + cx*cx), m * (ixy + cx*cy), m * (iyy + cy*cy)}
		for k := range s {
			if math.Abs(s[k]-want[k]) > 1e-12*math.Max(1, math.Abs(want[k])) {
				t.Errorf("angle %v: moment %d = %.16g, want %.16g", angle, k, s[k], want[k])
			}
		}
		if err := f.Check(); err != nil {
			t.Errorf("nine-point brick not minimally rigid: %v", err)
		}
		if len(f.Bars) != 15 {
			t.Errorf("%d bars, want 15 = 2·9 − 3", len(f.Bars))
		}
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct{ text, want string }{
		{"brick 0 0 1 1\nbrick 0.5 0.5 1 1\n", "t.txt:2: brick #2 overlaps brick #1"},
		{"brick 0 0 0 1\n", "t.txt:1: brick #1: zero-length bar"},
		{"brick 0 0 1 1 mass=-1\n", "t.txt:1: brick #1: mass -1 must be positive"},
		{"brick 0 0 1 1 mass=0\n", "mass 0 must be positive"},
		{"# c\nbrock 0 0 1 1\n", "t.txt:2: unknown keyword \"brock\""},
		{"brick 0 0 x 1\n", "t.txt:1: W: expected a finite number"},
		{"brick 0 -1 1 1\n", "t.txt:1: brick #1: corner"},
		{"brick 0 0 1 1 name=a\nbrick 2 0 1 1 name=a\n", "t.txt:2: brick name \"a\" already used on line 1"},
		{"dt 0\n", "t.txt:1: dt: must be positive"},
		{"", "no bricks"},
	}
	for _, c := range cases {
		tw, err := Parse(strings.NewReader(c.text), "t.txt")
		if err == nil {
			_, err = tw.Framework()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	// A valid file with every keyword.
	tw, err := Parse(strings.NewReader("model nine\ngravity 9.8\ndt 0.001\nground yes\nsupport -2 0 2 1\nbrick -0.5 1 2 0.5 mass=2 name=top # comment\n"), "ok.txt")
	if err != nil {
		t.Fatal(err)
	}
	f, err := tw.Framework()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Bodies) != 2 || f.Bodies[1].Name != "top" || tw.Model != Nine || tw.Dt != 0.001 {
		t.Errorf("parsed %+v", tw)
	}
}

// TestRigidity: a redundant bar (both diagonals) and a missing one are
// reported with the brick's name; zero-length bars and masses too.
func TestRigidity(t *testing.T) {
	f := &Framework{}
	if err := f.AddBrick("w", 0, 0, 0, 1, 1, 0, 1, false, Corners); err != nil {
		t.Fatal(err)
	}
	g := f.Clone()
	g.Bars = append(g.Bars, Bar{1, 3, math.Sqrt2})
	g.Bodies[0].Bars = append(g.Bodies[0].Bars, 5)
	if err := g.Check(); err == nil || !strings.Contains(err.Error(), "brick w: bar 5 (points 1–3) is redundant") {
		t.Errorf("redundant: %v", err)
	}
	g = f.Clone()
	g.Bodies[0].Bars = g.Bodies[0].Bars[:4]
	if err := g.Check(); err == nil || !strings.Contains(err.Error(), "brick w: not rigid") {
		t.Errorf("not rigid: %v", err)
	}
	g = f.Clone()
	g.Bars[2].L0 = 0
	if err := g.Check(); err == nil || !strings.Contains(err.Error(), "zero-length bar") {
		t.Errorf("zero bar: %v", err)
	}
	g = f.Clone()
	g.Mass[3] = 0
	if err := g.Check(); err == nil || !strings.Contains(err.Error(), "point 3 (brick w): mass 0") {
		t.Errorf("mass: %v", err)
	}
}

func stable(t *testing.T, tw *Tower) *Stability {
	t.Helper()
	f, err := tw.Framework()
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stable()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestHarmonicStability: overhang Σ_{k≤n} 1/(2k) is stable, 1% further out
// is not, and the top brick is the one reported.
func TestHarmonicStability(t *testing.T) {
	for n := 1; n <= 12; n++ {
		st := stable(t, Harmonic(n, 0))
		if !st.Stable {
			t.Errorf("n = %d: harmonic stack unstable (residual %g)", n, st.Residual)
		}
		// forces: brick k from the top carries k weights at the lower
		// brick's edge, nothing at the other end.
		for _, c := range st.Contacts {
			if c.F < -1e-12 {
				t.Errorf("n = %d: negative force %g", n, c.F)
			}
		}
		st = stable(t, Harmonic(n, 0.01))
		if st.Stable {
			t.Errorf("n = %d: top brick 1%% further out still stable", n)
		}
		if st.Unbalanced != n { // bodies: table, b_n … b_1
			t.Errorf("n = %d: unbalanced body %d, want the top brick %d", n, st.Unbalanced, n)
		}
		if math.Abs(st.Residual-0.01) > 1e-9 && n == 1 {
			t.Errorf("n = 1: residual %g, want 0.01 (torque of the weight 0.01 beyond the edge)", st.Residual)
		}
	}
}

func TestSingleBrickStability(t *testing.T) {
	for _, c := range []struct {
		centre float64
		stable bool
	}{{-0.9, true}, {-1e-6, true}, {0, true}, {1e-6, false}, {0.5, false}, {0.99, false}} {
		if st := stable(t, Single(c.centre)); st.Stable != c.stable {
			t.Errorf("centre %v: stable = %v, want %v", c.centre, st.Stable, c.stable)
		}
	}
	// Off the support entirely: no contact at all.
	if st := stable(t, Single(1.5)); st.Stable {
		t.Error("brick off the support stable")
	}
}

// TestInitialCollapseSingle: a brick (4 corner masses, I = m(w²+h²)/4)
// whose centre is c beyond the support's edge pivots about the edge:
// frictionless, so ẍ = 0 and ÿ = −g c²/(c² + I/m), the support corner
// stays closed and the brick's own corner lifts off.
func TestInitialCollapseSingle(t *testing.T) {
	for _, c := range []float64{0.1, 0.3, 0.8} {
		f, err := Single(c).Framework()
		if err != nil {
			t.Fatal(err)
		}
		col, err := InitialCollapse(f)
		if err != nil {
			t.Fatal(err)
		}
		const w, h, g = 2.0, 0.5, 9.81
		ay := -g * c * c / (c*c + (w*w+h*h)/4)
		a := col.BodyAcc[1]
		if math.Abs(a.X) > 1e-12 || math.Abs(a.Y-ay) > 1e-12 {
			t.Errorf("c = %v: centre acceleration %v, want (0, %.15g)", c, a, ay)
		}
		if !col.Moving[1] || col.Moving[0] {
			t.Errorf("c = %v: moving %v", c, col.Moving)
		}
		var closed, open int
		for _, cs := range col.Contacts {
			if cs.Closed {
				closed++
				if cs.A != 1 || cs.Force <= 0 { // the support's corner on the brick's edge
					t.Errorf("c = %v: closed contact %+v", c, cs)
				}
			} else {
				open++
			}
		}
		if closed != 1 || open != 1 {
			t.Errorf("c = %v: %d closed, %d open contacts", c, closed, open)
		}
	}
	// Stable tower: nothing moves.
	f, _ := Harmonic(6, 0).Framework()
	col, err := InitialCollapse(f)
	if err != nil {
		t.Fatal(err)
	}
	for b, m := range col.Moving {
		if m {
			t.Errorf("harmonic stack: brick %s moves", f.Bodies[b].Name)
		}
	}
	// Top brick 1% out: only the top brick moves.
	f, _ = Harmonic(6, 0.01).Framework()
	col, _ = InitialCollapse(f)
	for b, m := range col.Moving {
		if m != (b == 6) {
			t.Errorf("harmonic +1%%: brick %s moving = %v", f.Bodies[b].Name, m)
		}
	}
}

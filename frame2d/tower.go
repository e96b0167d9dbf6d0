package frame2d

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"impactsim/bounded"
)

// Brick is one brick of a tower description.
type Brick struct {
	Name       string
	Line       int     // line in the file (0 if built in code)
	X, Y, W, H float64 // lower-left corner, width, height (before rotation)
	Angle      float64 // radians, counter-clockwise about the centre
	Mass       float64
	Fixed      bool
}

// Tower is a stack of bricks on the ground y = 0.
type Tower struct {
	Name    string
	Bricks  []Brick
	Model   Model
	Gravity float64 // magnitude, pointing to −y (default 9.81)
	Dt      float64 // time step for the motion (default 0.005)
	Ground  bool
	// Diagonals is 1 (minimally rigid bricks, default) or 2 (over-braced:
	// both diagonals, or Fig. 10's 16th bar; needs Sim.Penalty).
	Diagonals int
}

// Framework builds the bar-and-joint framework of t and validates it
// (positive sizes and masses, no overlapping bricks, no brick below the
// ground, rigid minimally braced bricks).
func (t *Tower) Framework() (*Framework, error) {
	f := &Framework{Ground: t.Ground, G: Vec{0, -t.Gravity}, BothDiagonals: t.Diagonals == 2}
	for _, b := range t.Bricks {
		if err := f.AddBrick(b.Name, b.Line, b.X, b.Y, b.W, b.H, b.Angle, b.Mass, b.Fixed, t.Model); err != nil {
			return nil, t.at(b, err)
		}
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	scale := 0.0
	for _, b := range t.Bricks {
		scale = math.Max(scale, math.Max(b.W, b.H))
	}
	tol := 1e-9 * scale
	for i, bi := range f.Bodies {
		if f.Ground && !bi.Fixed {
			for _, p := range bi.Hull {
				if f.Pos[p].Y < -tol {
					return nil, t.at(t.Bricks[i], fmt.Errorf("brick %s: corner %v is below the ground", bi.Name, f.Pos[p]))
				}
			}
		}
		for j := 0; j < i; j++ {
			if bi.Fixed && f.Bodies[j].Fixed {
				continue
			}
			if s, _, _ := separation(f.Corners(i), f.Corners(j)); s < -tol {
				return nil, t.at(t.Bricks[i], fmt.Errorf("brick %s overlaps brick %s (penetration %.3g)", bi.Name, f.Bodies[j].Name, -s))
			}
		}
	}
	return f, nil
}

func (t *Tower) at(b Brick, err error) error {
	if b.Line > 0 && t.Name != "" {
		return fmt.Errorf("%s:%d: %w", t.Name, b.Line, err)
	}
	return err
}

// ParseFile reads a tower file (format in the package documentation).
func ParseFile(path string) (*Tower, error) {
	fh, err := bounded.OpenText(path, bounded.Small, "tower file")
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return Parse(fh, path)
}

// Parse reads a tower description; name prefixes error messages
// ("name:line: …").
func Parse(r io.Reader, name string) (*Tower, error) {
	t := &Tower{Name: name, Gravity: 9.81, Dt: 0.005, Ground: true}
	sc := bufio.NewScanner(r)
	line := 0
	seen := map[string]int{}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	num := func(key, s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fail("%s: expected a finite number, got %q", key, s)
		}
		return v, nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fs := strings.Fields(text)
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "gravity", "dt":
			if len(fs) != 2 {
				return nil, fail("%s: expected one number", fs[0])
			}
			v, err := num(fs[0], fs[1])
			if err != nil {
				return nil, err
			}
			if fs[0] == "dt" {
				if !(v > 0) {
					return nil, fail("dt: must be positive, got %v", v)
				}
				t.Dt = v
			} else {
				t.Gravity = v
			}
		case "model":
			if len(fs) != 2 || (fs[1] != "corners" && fs[1] != "nine") {
				return nil, fail("model: expected corners or nine")
			}
			t.Model = Corners
			if fs[1] == "nine" {
				t.Model = Nine
			}
		case "diagonals":
			if len(fs) != 2 || (fs[1] != "1" && fs[1] != "2") {
				return nil, fail("diagonals: expected 1 or 2")
			}
			t.Diagonals = int(fs[1][0] - '0')
		case "ground":
			if len(fs) != 2 || (fs[1] != "yes" && fs[1] != "no") {
				return nil, fail("ground: expected yes or no")
			}
			t.Ground = fs[1] == "yes"
		case "brick", "support":
			if len(fs) < 5 {
				return nil, fail("%s: expected X Y W H [mass=M] [angle=DEG] [name=NAME]", fs[0])
			}
			b := Brick{Line: line, Mass: 1, Fixed: fs[0] == "support", Name: fmt.Sprintf("#%d", len(t.Bricks)+1)}
			var v [4]float64
			for k, key := range []string{"X", "Y", "W", "H"} {
				x, err := num(key, fs[1+k])
				if err != nil {
					return nil, err
				}
				v[k] = x
			}
			b.X, b.Y, b.W, b.H = v[0], v[1], v[2], v[3]
			for _, kv := range fs[5:] {
				key, val, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, fail("expected key=value, got %q", kv)
				}
				switch key {
				case "mass":
					x, err := num(key, val)
					if err != nil {
						return nil, err
					}
					b.Mass = x
				case "angle":
					x, err := num(key, val)
					if err != nil {
						return nil, err
					}
					b.Angle = x * math.Pi / 180
				case "name":
					b.Name = val
				default:
					return nil, fail("unknown attribute %q (mass, angle, name)", key)
				}
			}
			if !(b.W > 0) || !(b.H > 0) {
				return nil, fail("%s %s: zero-length bar: width %v and height %v must be positive", fs[0], b.Name, b.W, b.H)
			}
			if !b.Fixed && !(b.Mass > 0) {
				return nil, fail("brick %s: mass %v must be positive", b.Name, b.Mass)
			}
			if l, dup := seen[b.Name]; dup {
				return nil, fail("brick name %q already used on line %d", b.Name, l)
			}
			seen[b.Name] = line
			t.Bricks = append(t.Bricks, b)
		default:
			return nil, fail("unknown keyword %q (brick, support, model, diagonals, gravity, dt, ground)", fs[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(t.Bricks) == 0 {
		return nil, fmt.Errorf("%s: no bricks", name)
	}
	movable := false
	for _, b := range t.Bricks {
		movable = movable || !b.Fixed
	}
	if !movable {
		return nil, fmt.Errorf("%s: no brick, only supports: nothing can move", name)
	}
	return t, nil
}

// Builtin returns a built-in tower by name (see Builtins).
func Builtin(name string) (*Tower, error) {
	if name == "harmonic" {
		return Harmonic(5, 0), nil
	}
	if strings.HasPrefix(name, "harmonic") {
		n, err := strconv.Atoi(strings.TrimPrefix(name, "harmonic"))
		if err == nil && n > 0 && n <= 200 {
			return Harmonic(n, 0), nil
		}
	}
	g, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("unknown built-in tower %q (have %s)", name, strings.Join(Builtins(), ", "))
	}
	return g(), nil
}

// Builtins lists the names accepted by Builtin.
func Builtins() []string {
	var s []string
	for k := range builtins {
		s = append(s, k)
	}
	s = append(s, "harmonicN")
	sort.Strings(s)
	return s
}

var builtins = map[string]func() *Tower{
	"tower5x5":  func() *Tower { return Tower5x5() },
	"single":    func() *Tower { return Single(0.3) },
	"symmetric": func() *Tower { return Symmetric() },
}

func newTower(name string) *Tower {
	return &Tower{Name: name, Gravity: 9.81, Dt: 0.005, Ground: true}
}

// Tower5x5 is an unstable 5×5 tower in the spirit of Fig. 2: five layers
// of five bricks (2 × 1), alternate layers shifted by half a brick to
// the right, the top three layers overhang a gap so the tower cannot stand.
func Tower5x5() *Tower {
	t := newTower("builtin:tower5x5")
	const w, h = 2.0, 1.0
	// Layers 0..4, with a missing brick under the right part of layer 1
	// (two bricks removed in layer 0) so the upper right part collapses.
	for l := 0; l < 5; l++ {
		off := 0.0
		if l%2 == 1 {
			off = w / 2
		}
		for k := 0; k < 5; k++ {
			if l == 0 && k >= 3 {
				continue // missing bricks: the right part hangs over a gap
			}
			t.Bricks = append(t.Bricks, Brick{Name: fmt.Sprintf("L%dB%d", l, k), X: off + w*float64(k), Y: h * float64(l), W: w, H: h, Mass: 1})
		}
	}
	return t
}

// Harmonic is the harmonic stack of n unit bricks (length 1, height
// 0.2) on a fixed table whose right edge is at x = 0: brick k from the top
// (k = 1…n) has its right end at Σ_{j≥k} 1/(2j) (k ≤ n) so that the top
// brick overhangs the table by H_n/2 = Σ_{k≤n} 1/(2k). The top brick is
// shifted by extra (in brick lengths) further out.
func Harmonic(n int, extra float64) *Tower {
	t := newTower(fmt.Sprintf("builtin:harmonic%d", n))
	const h = 0.2
	t.Bricks = append(t.Bricks, Brick{Name: "table", X: -3, Y: 0, W: 3, H: h, Fixed: true})
	right := 0.0
	rights := make([]float64, n+1) // rights[k] = right end of brick k from the top
	for k := n; k >= 1; k-- {
		right += 1 / (2 * float64(k))
		rights[k] = right
	}
	for i := 0; i < n; i++ { // bottom-up: brick k = n − i
		k := n - i
		x := rights[k] - 1
		if k == 1 {
			x += extra
		}
		t.Bricks = append(t.Bricks, Brick{Name: fmt.Sprintf("b%d", k), X: x, Y: h * float64(i+1), W: 1, H: h, Mass: 1})
	}
	return t
}

// Single is one brick (2 × 0.5) on a fixed support whose right edge is at
// x = 0; the brick's centre of mass is at x = centre.
func Single(centre float64) *Tower {
	t := newTower("builtin:single")
	t.Bricks = []Brick{
		{Name: "support", X: -2, Y: 0, W: 2, H: 0.5, Fixed: true},
		{Name: "brick", X: centre - 1, Y: 0.5, W: 2, H: 0.5, Mass: 1},
	}
	return t
}

// Symmetric is a left–right symmetric unstable tower: a central pillar
// carrying two bricks that overhang outwards so far that each tips over
// its supporting edge, with two more bricks on top of each. Bricks that
// touch across the axis x = 0 do not exist, so the mirror image of every
// contact is another contact.
func Symmetric() *Tower {
	t := newTower("builtin:symmetric")
	add := func(name string, x, y, w, h float64) {
		t.Bricks = append(t.Bricks, Brick{Name: name, X: x, Y: y, W: w, H: h, Mass: 1})
	}
	add("pillarL", -1.0, 0, 0.8, 1)
	add("pillarR", 0.2, 0, 0.8, 1)
	add("armL", -2.6, 1, 2.0, 0.5)
	add("armR", 0.6, 1, 2.0, 0.5)
	add("topL", -2.9, 1.5, 1.2, 0.5)
	add("topR", 1.7, 1.5, 1.2, 0.5)
	return t
}

package frame2d

import (
	"fmt"
	"math"
)

// Vec is a point or vector of the plane.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec              { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec              { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(s float64) Vec        { return Vec{s * a.X, s * a.Y} }
func (a Vec) Dot(b Vec) float64          { return a.X*b.X + a.Y*b.Y }
func (a Vec) Cross(b Vec) float64        { return a.X*b.Y - a.Y*b.X }
func (a Vec) Perp() Vec                  { return Vec{-a.Y, a.X} } // rotated by +90°
func (a Vec) Norm() float64              { return math.Hypot(a.X, a.Y) }
func area2(a, b, c Vec) float64          { return b.Sub(a).Cross(c.Sub(a)) } // A(a, b, c) of sec. 2
func lerp(a, b Vec, t float64) Vec       { return a.Scale(1 - t).Add(b.Scale(t)) }
func (a Vec) String() string             { return fmt.Sprintf("(%.6g, %.6g)", a.X, a.Y) }
func vecNear(a, b Vec, tol float64) bool { return math.Abs(a.X-b.X) <= tol && math.Abs(a.Y-b.Y) <= tol }

// Bar is a rigid bar between points I and J of rest length L0.
type Bar struct {
	I, J int
	L0   float64
}

// Body is a convex rigid polygon (a brick) made of points and bars.
type Body struct {
	Name   string
	Line   int    // line in the tower file, 0 if built in code
	Fixed  bool   // supports and tables do not move
	Hull   [4]int // corner points, counter-clockwise
	Points []int  // all points of the body (corners first)
	Bars   []int  // indices into Framework.Bars
	Mass   float64
}

// Framework is a bar-and-joint framework of point masses (sec. 2) grouped
// into convex bodies, above an optional fixed ground y ≥ 0.
type Framework struct {
	Pos    []Vec     // current positions p⁽ℓ⁾
	Mass   []float64 // point masses (0 for points of fixed bodies)
	Fixed  []bool
	Bars   []Bar
	Bodies []Body
	Ground bool  // the half-plane y ≤ 0 is a fixed obstacle
	G      Vec   // gravity acceleration
	Owner  []int // the body of each point
	// BothDiagonals makes AddBrick over-brace the bricks it adds: both
	// diagonals (Corners), or the 16th bar of Fig. 10 (Nine). Such
	// frameworks need the penalty variant of sec. 8.4 (Sim.Penalty).
	BothDiagonals bool
}

// Model selects the mass distribution of a brick.
type Model int

const (
	// Corners puts a quarter of the mass at each corner (the paper's
	// animation, sec. 8.3 footnote); 5 bars (one diagonal).
	Corners Model = iota
	// Nine is the 9-point distribution of Fig. 10 (sec. 8.1): masses
	// m/36 at the corners, 4m/36 at the edge midpoints, 16m/36 at the
	// centre, the tensor product of Simpson's rule, which integrates
	// every polynomial of degree ≤ 3 in each coordinate exactly; 15 bars,
	// a minimally rigid subset of Fig. 10's 16 (sec. 8.4).
	Nine
)

// AddBrick appends a rectangle with lower-left corner (x, y), width w,
// height h and mass m, rotated by angle (radians) about its centre.
func (f *Framework) AddBrick(name string, line int, x, y, w, h, angle, m float64, fixed bool, model Model) error {
	if !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return fmt.Errorf("brick %s: zero-length bar: width %v and height %v must be positive", name, w, h)
	}
	if !fixed && (!(m > 0) || math.IsInf(m, 0)) {
		return fmt.Errorf("brick %s: mass %v must be positive", name, m)
	}
	c := Vec{x + w/2, y + h/2}
	cs, sn := math.Cos(angle), math.Sin(angle)
	at := func(u, v float64) Vec { // u, v ∈ {−1, 0, 1}
		lx, ly := u*w/2, v*h/2
		return Vec{c.X + cs*lx - sn*ly, c.Y + sn*lx + cs*ly}
	}
	b := Body{Name: name, Line: line, Fixed: fixed, Mass: m}
	base := len(f.Pos)
	bi := len(f.Bodies)
	add := func(p Vec, mass float64) int {
		f.Pos = append(f.Pos, p)
		if fixed {
			mass = 0
		}
		f.Mass = append(f.Mass, mass)
		f.Fixed = append(f.Fixed, fixed)
		f.Owner = append(f.Owner, bi)
		b.Points = append(b.Points, len(f.Pos)-1)
		return len(f.Pos) - 1
	}
	bar := func(i, j int) {
		b.Bars = append(b.Bars, len(f.Bars))
		f.Bars = append(f.Bars, Bar{i, j, f.Pos[i].Sub(f.Pos[j]).Norm()})
	}
	switch model {
	case Corners:
		for k, uv := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			b.Hull[k] = add(at(uv[0], uv[1]), m/4)
		}
		if !fixed {
			bar(base, base+1)
			bar(base+1, base+2)
			bar(base+2, base+3)
			bar(base+3, base)
			bar(base, base+2)
			if f.BothDiagonals {
				bar(base+1, base+3)
			}
		}
	case Nine:
		// corners first (counter-clockwise), then edge midpoints, centre.
		for k, uv := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			b.Hull[k] = add(at(uv[0], uv[1]), m/36)
		}
		idx := map[[2]int]int{{-1, -1}: base, {1, -1}: base + 1, {1, 1}: base + 2, {-1, 1}: base + 3}
		for _, uv := range [5][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {0, 0}} {
			mass := 4 * m / 36
			if uv == [2]int{0, 0} {
				mass = 16 * m / 36
			}
			idx[uv] = add(at(float64(uv[0]), float64(uv[1])), mass)
		}
		if !fixed {
			// Henneberg construction: a triangle, then every further point
			// attached by two non-collinear bars: 3 + 2·6 = 15 = 2·9 − 3.
			p := func(u, v int) int { return idx[[2]int{u, v}] }
			bar(p(-1, -1), p(0, -1))
			bar(p(-1, -1), p(-1, 0))
			bar(p(0, -1), p(-1, 0))
			for _, q := range [][3][2]int{
				{{0, 0}, {0, -1}, {-1, 0}},
				{{1, -1}, {0, -1}, {0, 0}},
				{{1, 0}, {0, 0}, {1, -1}},
				{{-1, 1}, {-1, 0}, {0, 0}},
				{{0, 1}, {0, 0}, {-1, 1}},
				{{1, 1}, {0, 1}, {1, 0}},
			} {
				bar(p(q[0][0], q[0][1]), p(q[1][0], q[1][1]))
				bar(p(q[0][0], q[0][1]), p(q[2][0], q[2][1]))
			}
			if f.BothDiagonals {
				bar(p(1, 1), p(0, 0))
			}
		}
	default:
		return fmt.Errorf("brick %s: unknown mass model %d", name, model)
	}
	f.Bodies = append(f.Bodies, b)
	return nil
}

// Check validates the framework: positive masses of movable points,
// non-zero bar lengths, and every movable body rigid (length constraints
// of rank 2n − 3) and, unless BothDiagonals is set, minimally rigid (its
// bars independent). Redundant bars make the equality constraints of (Q')
// inconsistent under rounding (sec. 8.4); they are reported by name.
func (f *Framework) Check() error { return f.check(f.BothDiagonals) }

// Overbraced reports the first redundant bar (nil if every movable body is
// minimally rigid).
func (f *Framework) Overbraced() error {
	for _, b := range f.Bodies {
		if !b.Fixed {
			if err := f.checkRigid(b, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func (f *Framework) check(allowRedundant bool) error {
	n := len(f.Pos)
	if len(f.Mass) != n || len(f.Fixed) != n || len(f.Owner) != n {
		return fmt.Errorf("frame2d: %d points but %d masses, %d fixed flags, %d owners", n, len(f.Mass), len(f.Fixed), len(f.Owner))
	}
	for i, p := range f.Pos {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("point %d (brick %s): position %v is not finite", i, f.Bodies[f.Owner[i]].Name, p)
		}
		if !f.Fixed[i] && !(f.Mass[i] > 0 && !math.IsInf(f.Mass[i], 0)) {
			return fmt.Errorf("point %d (brick %s): mass %v must be positive", i, f.Bodies[f.Owner[i]].Name, f.Mass[i])
		}
	}
	for k, b := range f.Bars {
		if b.I < 0 || b.I >= n || b.J < 0 || b.J >= n {
			return fmt.Errorf("bar %d: points %d, %d out of range", k, b.I, b.J)
		}
		if !(b.L0 > 1e-12) {
			return fmt.Errorf("bar %d (%d–%d, brick %s): zero-length bar", k, b.I, b.J, f.Bodies[f.Owner[b.I]].Name)
		}
	}
	for _, b := range f.Bodies {
		if b.Fixed {
			continue
		}
		if err := f.checkRigid(b, allowRedundant); err != nil {
			return err
		}
	}
	return nil
}

// checkRigid eliminates the rigidity matrix of body b row by row (bars in
// order); a row that becomes zero is a redundant bar, a rank below 2n − 3
// means the body is not rigid.
func (f *Framework) checkRigid(b Body, allowRedundant bool) error {
	loc := map[int]int{}
	for k, p := range b.Points {
		loc[p] = k
	}
	cols := 2 * len(b.Points)
	var basis [][]float64
	var pivots []int
	for _, bk := range b.Bars {
		bar := f.Bars[bk]
		i, ok1 := loc[bar.I]
		j, ok2 := loc[bar.J]
		if !ok1 || !ok2 {
			return fmt.Errorf("bar %d of brick %s joins points of another body", bk, b.Name)
		}
		d := f.Pos[bar.I].Sub(f.Pos[bar.J]).Scale(1 / bar.L0)
		r := make([]float64, cols)
		r[2*i], r[2*i+1] = d.X, d.Y
		r[2*j], r[2*j+1] = -d.X, -d.Y
		for q, piv := range pivots {
			if c := r[piv]; c != 0 {
				for t := range r {
					r[t] -= c * basis[q][t]
				}
			}
		}
		best, bi := 0.0, -1
		for t, v := range r {
			if math.Abs(v) > best {
				best, bi = math.Abs(v), t
			}
		}
		if best < 1e-9 {
			if allowRedundant {
				continue
			}
			return fmt.Errorf("brick %s: bar %d (points %d–%d) is redundant: rank-deficient length constraints (sec. 8.4: remove it or use the penalty variant)", b.Name, bk, bar.I, bar.J)
		}
		inv := 1 / r[bi]
		for t := range r {
			r[t] *= inv
		}
		for q := range basis {
			if c := basis[q][bi]; c != 0 {
				for t := range r {
					basis[q][t] -= c * r[t]
				}
			}
		}
		basis = append(basis, r)
		pivots = append(pivots, bi)
	}
	if want := 2*len(b.Points) - 3; len(basis) < want {
		return fmt.Errorf("brick %s: not rigid: %d independent bars, need %d", b.Name, len(basis), want)
	}
	return nil
}

// Corners returns the current corner positions of body b (counter-clockwise).
func (f *Framework) Corners(b int) [4]Vec {
	var c [4]Vec
	for k, p := range f.Bodies[b].Hull {
		c[k] = f.Pos[p]
	}
	return c
}

// Centre returns the centre of mass of body b.
func (f *Framework) Centre(b int) Vec {
	body := f.Bodies[b]
	if body.Fixed {
		var s Vec
		for _, p := range body.Hull {
			s = s.Add(f.Pos[p])
		}
		return s.Scale(0.25)
	}
	var s Vec
	var m float64
	for _, p := range body.Points {
		s = s.Add(f.Pos[p].Scale(f.Mass[p]))
		m += f.Mass[p]
	}
	return s.Scale(1 / m)
}

// Clone returns a deep copy of f (bodies share nothing with f).
func (f *Framework) Clone() *Framework {
	g := *f
	g.Pos = append([]Vec(nil), f.Pos...)
	g.Mass = append([]float64(nil), f.Mass...)
	g.Fixed = append([]bool(nil), f.Fixed...)
	g.Bars = append([]Bar(nil), f.Bars...)
	g.Owner = append([]int(nil), f.Owner...)
	g.Bodies = make([]Body, len(f.Bodies))
	for i, b := range f.Bodies {
		b.Points = append([]int(nil), b.Points...)
		b.Bars = append([]int(nil), b.Bars...)
		g.Bodies[i] = b
	}
	return &g
}

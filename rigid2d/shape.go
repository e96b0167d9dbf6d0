package rigid2d

import (
	"fmt"
	"math"
)

// ShapeKind says what a body is.
type ShapeKind uint8

const (
	// Circle of radius R.
	Circle ShapeKind = iota
	// Box of half extents Half (along the body's x and y axes).
	Box
)

func (k ShapeKind) String() string {
	if k == Box {
		return "box"
	}
	return "circle"
}

// Shape is a body's geometry in its own frame, centred on its centre of
// mass.
type Shape struct {
	Kind ShapeKind
	R    float64    // circle radius
	Half [2]float64 // box half extents
}

// Validate checks that the dimensions are positive and finite.
func (sh Shape) Validate() error {
	switch sh.Kind {
	case Circle:
		if !(sh.R > 0) || math.IsInf(sh.R, 0) {
			return fmt.Errorf("circle radius %v, want a positive finite radius", sh.R)
		}
	case Box:
		for _, h := range sh.Half {
			if !(h > 0) || math.IsInf(h, 0) {
				return fmt.Errorf("box half extents %v, want two positive finite numbers", sh.Half)
			}
		}
	default:
		return fmt.Errorf("unknown shape kind %d", sh.Kind)
	}
	return nil
}

// MassInertia returns the mass and the moment of inertia about the centre
// of a body of density rho (per unit area): a circle has m = ρπr² and
// I = m r²/2, a box m = 4ρ a b and I = m (a² + b²)/3 (half extents a, b),
// computed in SCISim's order of operations.
func (sh Shape) MassInertia(rho float64) (m, inertia float64) {
	if sh.Kind == Box {
		a, b := sh.Half[0], sh.Half[1]
		m = rho * 4 * a * b
		return m, m * (a*a + b*b) / 3
	}
	m = rho * math.Pi * sh.R * sh.R
	return m, 0.5 * m * sh.R * sh.R
}

// aabb is an axis-aligned box [lo, hi].
type aabb struct{ lo, hi [2]float64 }

// overlaps reports whether two closed boxes intersect.
func (a aabb) overlaps(b aabb) bool {
	return !(a.hi[0] < b.lo[0] || a.hi[1] < b.lo[1] || b.hi[0] < a.lo[0] || b.hi[1] < a.lo[1])
}

// box returns the shape's bounding box at centre x and angle theta.
func (sh Shape) box(x [2]float64, theta float64) aabb {
	e := [2]float64{sh.R, sh.R}
	if sh.Kind == Box {
		c, s := math.Abs(math.Cos(theta)), math.Abs(math.Sin(theta))
		e = [2]float64{c*sh.Half[0] + s*sh.Half[1], s*sh.Half[0] + c*sh.Half[1]}
	}
	return aabb{[2]float64{x[0] - e[0], x[1] - e[1]}, [2]float64{x[0] + e[0], x[1] + e[1]}}
}

// swept returns the bounding box of the motion from (x0, θ0) to (x1, θ1)
// that the broad phase uses: a circle's box covers both positions, a box's
// is taken at the end (its contacts are found there).
func (sh Shape) swept(x0 [2]float64, t0 float64, x1 [2]float64, t1 float64) aabb {
	if sh.Kind == Box {
		return sh.box(x1, t1)
	}
	r := sh.R
	return aabb{
		[2]float64{math.Min(x0[0], x1[0]) - r, math.Min(x0[1], x1[1]) - r},
		[2]float64{math.Max(x0[0], x1[0]) + r, math.Max(x0[1], x1[1]) + r},
	}
}

// rot returns the rotation matrix columns (cos θ, sin θ) and (−sin θ, cos θ).
func rot(theta float64) (c0, c1 [2]float64) {
	c, s := math.Cos(theta), math.Sin(theta)
	return [2]float64{c, s}, [2]float64{-s, c}
}

func cross(a, b [2]float64) float64 { return a[0]*b[1] - a[1]*b[0] }
func dot(a, b [2]float64) float64   { return a[0]*b[0] + a[1]*b[1] }

package geom2d

import "math"

// CirclesMeet reports whether circles a and b, moving linearly from (a0, b0)
// at t = 0 to (a1, b1) at t = 1, touch or overlap at some t ∈ [0, 1]. It
// solves
// |Δ₀ + t(Δ₁ − Δ₀)|² = (ra + rb)² as SCISim's
// CollisionDetectionUtilities::ballBallCCDCollisionHappens, with the same
// numerically stable root formulas.
func CirclesMeet(a0, a1 [2]float64, ra float64, b0, b1 [2]float64, rb float64) bool {
	d0x, d0y := a0[0]-b0[0], a0[1]-b0[1]
	ddx, ddy := a1[0]-b1[0]-d0x, a1[1]-b1[1]-d0y
	rs := ra + rb
	c0 := d0x*d0x + d0y*d0y - rs*rs
	c1 := 2.0 * (d0x*ddx + d0y*ddy)
	c2 := ddx*ddx + ddy*ddy
	if c2 == 0 {
		// No relative motion: collide iff overlapping already.
		return c0 <= 0
	}
	c1c1 := c1 * c1
	fc2c0 := 4 * c2 * c0
	if c1c1 < fc2c0 {
		return false // no real root: never touch
	}
	s := math.Sqrt(c1c1 - fc2c0)
	var root1 float64 // larger root
	if c1 > 0 {
		root1 = (2.0 * c0) / (-c1 - s)
	} else {
		root1 = (-c1 + s) / (2.0 * c2)
	}
	if root1 < 0 {
		return false // contact interval lies before the step
	}
	var root0 float64 // smaller root
	if c1 >= 0 {
		root0 = (-c1 - s) / (2.0 * c2)
	} else {
		root0 = (2.0 * c0) / (-c1 + s)
	}
	return !(root0 > 1) // false only when the contact interval starts after the step
}

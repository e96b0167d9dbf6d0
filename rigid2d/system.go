package rigid2d

import (
	"fmt"
	"math"

	"impactsim/geom2d"
)

// Integrator is a free-flight integrator of SCISim's rigidbody2d.
type Integrator uint8

const (
	// Verlet: v½ = v₀ + h/2 M⁻¹F, q₁ = q₀ + h v½, v₁ = v½ + h/2 M⁻¹F.
	Verlet Integrator = iota
	// SymplecticEuler: v₁ = v₀ + h M⁻¹F, q₁ = q₀ + h v₁.
	SymplecticEuler
)

func (i Integrator) String() string {
	if i == SymplecticEuler {
		return "symplectic_euler"
	}
	return "verlet"
}

// ParseIntegrator maps SCISim's integrator names to an Integrator.
func ParseIntegrator(name string) (Integrator, error) {
	switch name {
	case "verlet":
		return Verlet, nil
	case "symplectic_euler":
		return SymplecticEuler, nil
	}
	return 0, fmt.Errorf("unknown integrator %q (verlet, symplectic_euler)", name)
}

// Plane is a static half-plane (geom2d.Plane): the admissible side is
// n·(x − P) ≥ 0 for every point of a body.
type Plane = geom2d.Plane

// Portal is a planar or Lees–Edwards portal (geom2d.Portal).
type Portal = geom2d.Portal

// System is a set of 2D rigid bodies (circles and boxes) with static
// half-planes and portals under uniform gravity. Body i has position and
// angle Q[3i:3i+3] = (x, y, θ) and velocity V[3i:3i+3] = (vx, vy, ω).
//
// Fixed bodies are kinematic, as in SCISim: no force or impulse acts on
// them (zero M and M⁻¹ blocks) and they move with their initial velocity.
//
// A System holds workspaces for contact detection; it must not be used from
// several goroutines at once.
type System struct {
	Q, V    []float64 // len 3n
	Shapes  []Shape   // len n
	M, I    []float64 // len n: mass and moment of inertia
	Fixed   []bool    // len n
	Planes  []Plane
	Portals []Portal

	Gravity    [2]float64 // acceleration
	Integrator Integrator

	// CoR and Mu are given to every contact.
	CoR, Mu float64

	det detector
}

// N returns the number of bodies.
func (s *System) N() int { return len(s.Shapes) }

// NDof returns 3n.
func (s *System) NDof() int { return 3 * len(s.Shapes) }

// AddBody appends a body of the given shape and density at position x,
// angle theta, velocity v and angular velocity omega, and returns its
// index.
func (s *System) AddBody(sh Shape, rho float64, x [2]float64, theta float64, v [2]float64, omega float64, fixed bool) int {
	m, inertia := sh.MassInertia(rho)
	s.Shapes = append(s.Shapes, sh)
	s.M = append(s.M, m)
	s.I = append(s.I, inertia)
	s.Fixed = append(s.Fixed, fixed)
	s.Q = append(s.Q, x[0], x[1], theta)
	s.V = append(s.V, v[0], v[1], omega)
	return len(s.Shapes) - 1
}

// DeleteBodies removes the bodies whose indices del lists (distinct, in
// [0, n); any order) from the system's arrays, and returns the state (q,
// v), of 3n entries each, without them: the rest keep their order.
func (s *System) DeleteBodies(del []int, q, v []float64) (q1, v1 []float64) {
	gone := make([]bool, s.N())
	for _, i := range del {
		gone[i] = true
	}
	keep := func(i int) bool { return !gone[i] }
	s.Shapes = filterBodies(s.Shapes, 1, keep)
	s.M, s.I = filterBodies(s.M, 1, keep), filterBodies(s.I, 1, keep)
	s.Fixed = filterBodies(s.Fixed, 1, keep)
	s.Q, s.V = filterBodies(s.Q, 3, keep), filterBodies(s.V, 3, keep)
	return filterBodies(q, 3, keep), filterBodies(v, 3, keep)
}

// filterBodies returns the blocks of k entries of x (one per body) whose
// body keep accepts, in a new slice.
func filterBodies[T any](x []T, k int, keep func(i int) bool) []T {
	out := make([]T, 0, len(x))
	for i := 0; i < len(x)/k; i++ {
		if keep(i) {
			out = append(out, x[k*i:k*i+k]...)
		}
	}
	return out
}

// Validate checks the system's data: lengths, finite state, positive finite
// masses, inertias and dimensions, unit plane normals, portals between
// distinct planes, and no boxes with portals (SCISim images only circles
// through portals).
func (s *System) Validate() error {
	n := len(s.Shapes)
	if len(s.Q) != 3*n || len(s.V) != 3*n || len(s.M) != n || len(s.I) != n || len(s.Fixed) != n {
		return fmt.Errorf("rigid2d: %d shapes but %d positions, %d velocities, %d masses, %d inertias, %d fixed flags", n, len(s.Q), len(s.V), len(s.M), len(s.I), len(s.Fixed))
	}
	for i, sh := range s.Shapes {
		if err := sh.Validate(); err != nil {
			return fmt.Errorf("rigid2d: body %d: %v", i, err)
		}
		if !(s.M[i] > 0) || math.IsInf(s.M[i], 0) || !(s.I[i] > 0) || math.IsInf(s.I[i], 0) {
			return fmt.Errorf("rigid2d: body %d: mass %v and inertia %v, want positive finite values", i, s.M[i], s.I[i])
		}
		for k := 0; k < 3; k++ {
			if !finite(s.Q[3*i+k]) || !finite(s.V[3*i+k]) {
				return fmt.Errorf("rigid2d: body %d: state (%v, %v) is not finite", i, s.Q[3*i:3*i+3], s.V[3*i:3*i+3])
			}
		}
		if sh.Kind == Box && len(s.Portals) > 0 {
			return fmt.Errorf("rigid2d: body %d is a box: portals image circles only (as SCISim)", i)
		}
	}
	unitPlane := func(pl Plane) bool {
		nn := math.Hypot(pl.N[0], pl.N[1])
		return finite(pl.P[0]) && finite(pl.P[1]) && math.Abs(nn-1) <= 1e-9
	}
	for i, pl := range s.Planes {
		if !unitPlane(pl) {
			return fmt.Errorf("rigid2d: plane %d: point %v and normal %v, want a finite point and a unit normal", i, pl.P, pl.N)
		}
	}
	for i, po := range s.Portals {
		if !unitPlane(po.A) || !unitPlane(po.B) {
			return fmt.Errorf("rigid2d: portal %d: planes must have finite points and unit normals", i)
		}
		if !finite(po.V) || po.Bounds < 0 || !finite(po.Bounds) || (po.V != 0 && po.Bounds == 0) {
			return fmt.Errorf("rigid2d: portal %d: shear %v and bounds %v, want finite values and bounds > 0 with shear", i, po.V, po.Bounds)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// KineticEnergy returns Σ ½ m |v|² + ½ I ω² over the free bodies.
func (s *System) KineticEnergy(v []float64) float64 {
	var e float64
	for i := range s.Shapes {
		if s.Fixed[i] {
			continue
		}
		vx, vy, w := v[3*i], v[3*i+1], v[3*i+2]
		e += 0.5*s.M[i]*(vx*vx+vy*vy) + 0.5*s.I[i]*w*w
	}
	return e
}

// PotentialEnergy returns −Σ m g·x over the free bodies.
func (s *System) PotentialEnergy(q []float64) float64 {
	var u float64
	for i := range s.Shapes {
		if !s.Fixed[i] {
			u -= s.M[i] * (s.Gravity[0]*q[3*i] + s.Gravity[1]*q[3*i+1])
		}
	}
	return u
}

// LinearMomentum returns Σ m v over the free bodies.
func (s *System) LinearMomentum(v []float64) [2]float64 {
	var p [2]float64
	for i := range s.Shapes {
		if !s.Fixed[i] {
			p[0] += s.M[i] * v[3*i]
			p[1] += s.M[i] * v[3*i+1]
		}
	}
	return p
}

// AngularMomentum returns Σ (m x × v + I ω) about the origin over the free
// bodies.
func (s *System) AngularMomentum(q, v []float64) float64 {
	var l float64
	for i := range s.Shapes {
		if !s.Fixed[i] {
			l += s.M[i]*(q[3*i]*v[3*i+1]-q[3*i+1]*v[3*i]) + s.I[i]*v[3*i+2]
		}
	}
	return l
}

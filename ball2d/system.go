package ball2d

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/geom2d"
	"impactsim/motion"
	"impactsim/par"
	"impactsim/scene"
)

// Integrator selects the free-flight map.
type Integrator int

const (
	// Verlet is velocity Verlet: v½ = v₀ + h/2·a(q₀), q₁ = q₀ + h·v½,
	// v₁ = v½ + h/2·a(q₁).
	Verlet Integrator = iota
	// SymplecticEuler is v₁ = v₀ + h·a(q₀), q₁ = q₀ + h·v₁.
	SymplecticEuler
)

func (i Integrator) String() string {
	switch i {
	case Verlet:
		return "verlet"
	case SymplecticEuler:
		return "symplectic_euler"
	}
	return fmt.Sprintf("Integrator(%d)", int(i))
}

// Plane is a static half-plane: the admissible side is n·(x − P) ≥ r for a
// ball of radius r. N must be a unit vector. (The type is geom2d's, shared
// with the other 2D systems.)
type Plane = geom2d.Plane

// NewPlane returns the plane through p with normal n scaled to unit length
// (as SCISim and the scene reader normalize it). It panics if n is zero or
// not finite.
func NewPlane(p, n [2]float64) Plane {
	nx, ny, ok := scene.Normalize(n[0], n[1])
	if !ok {
		panic(fmt.Sprintf("ball2d: plane normal %v cannot be normalized", n))
	}
	return Plane{P: p, N: [2]float64{nx, ny}}
}

// Drum is a circle that balls stay inside: |x − C| ≤ R − r. V and W are
// its velocity (the centre's velocity and the angular velocity, as a
// geom2d.Plane's); zero for a static drum.
type Drum struct {
	C [2]float64
	R float64
	V [2]float64
	W float64
}

// Moved returns the drum moved by the state s of a prescribed motion
// (package motion) from its pose d at the motion's reference.
func (d Drum) Moved(s *motion.State) Drum {
	c := s.Point(r3.Vec{X: d.C[0], Y: d.C[1]})
	v := s.VelocityAt(c)
	return Drum{C: [2]float64{c.X, c.Y}, R: d.R, V: [2]float64{v.X, v.Y}, W: s.W.Z}
}

// Moving reports whether the drum has a velocity.
func (d *Drum) Moving() bool { return d.V != [2]float64{} || d.W != 0 }

// Portal is a periodic boundary (SCISim's planar_portal, or
// lees_edwards_portal when V ≠ 0) between two planes A and B whose normals
// point into the domain. A ball whose centre crosses plane A
// (n_A·(x − P_A) < 0) re-enters behind plane B at the mirrored distance and
// the same tangential offset (shifted by the Lees–Edwards offset), and vice
// versa; balls within one radius of a plane also collide with the images of
// balls near the other plane. Portal planes are not collision planes. See
// package geom2d.
type Portal = geom2d.Portal

// System is a set of 2D balls with static half-planes, drums and planar
// portals, under uniform gravity. Its state is flat: ball i has position
// Q[2i:2i+2] and velocity V[2i:2i+2].
//
// A System holds workspaces for contact detection, so BuildProblem does not
// allocate once warmed up; it must not be used from several goroutines at
// once.
type System struct {
	Q, V  []float64 // len 2n
	M, R  []float64 // len n: mass and radius
	Fixed []bool    // len n: fixed balls never move and have zero M and M⁻¹ blocks

	Planes  []Plane
	Drums   []Drum
	Portals []Portal

	Gravity    [2]float64 // acceleration (SCISim's gravity force is m·Gravity)
	Integrator Integrator
	Dt         float64 // time step h > 0

	// CoR and Mu are the restitution and friction coefficients given to every
	// contact.
	CoR, Mu float64

	// NoFrictionBasis makes BuildProblem leave the friction basis D empty,
	// saving its memory and time when no friction law will read it.
	NoFrictionBasis bool

	// MirrorOrder makes BuildProblem list the step's contacts in the
	// mirror-invariant order of their keys (contactorder.go: the sum of
	// the balls' heights, then the distance of their horizontal offsets'
	// sum from the mirror axis, the detection's order breaking ties)
	// instead of the detection's (I, J) order, so that the law's and the
	// stepper's sums over a ball's contacts run in corresponding orders on
	// both sides of a mirror-symmetric state.
	MirrorOrder bool

	det      detector
	miss     missed
	sweep    sweeper
	clo      closure
	ff       freeFlight
	massFill massFill
}

// SetPool makes detection and free flight run on the workers of pool (nil:
// on the calling goroutine). Results are bitwise the same for every pool
// size.
func (s *System) SetPool(pool *par.Pool) { s.det.g.pool = pool }

// N returns the number of balls.
func (s *System) N() int { return len(s.M) }

// AddBall appends a ball and returns its index.
func (s *System) AddBall(x, y, vx, vy, m, r float64, fixed bool) int {
	s.Q = append(s.Q, x, y)
	s.V = append(s.V, vx, vy)
	s.M = append(s.M, m)
	s.R = append(s.R, r)
	s.Fixed = append(s.Fixed, fixed)
	return len(s.M) - 1
}

// OverlapTol is the relative tolerance for overlapping balls at start:
// balls i and j may interpenetrate by at most OverlapTol·(rᵢ + rⱼ). SCISim's
// scenes place balls of radius 0.500001 at unit spacing (overlap 2·10⁻⁶).
const OverlapTol = 1e-4

// FieldError is a validation failure of one field of one object of a System.
type FieldError struct {
	Kind  string  // "ball", "plane", "drum", "portal" or "system"
	Index int     // index of the object (-1 for "system")
	Field string  // field name, using SCISim's attribute names (m, r, x, vx, n, dt, …)
	Value float64 // offending value (NaN when not a single number)
	Want  string  // what was expected
	// Other is the second ball of an overlap (-1 otherwise); Value is then
	// the overlap depth.
	Other int
	// Wall is "plane" or "drum" for a ball that penetrates (or lies
	// outside) static plane or drum WallIndex; Value is then the depth.
	Wall      string
	WallIndex int
}

func (e *FieldError) Error() string {
	if e.Wall != "" {
		return fmt.Sprintf("ball2d: ball %d field %s: penetrates %s %d by %.6g, %s", e.Index, e.Field, e.Wall, e.WallIndex, e.Value, e.Want)
	}
	if e.Other >= 0 {
		return fmt.Sprintf("ball2d: ball %d field %s: overlaps ball %d by %.6g, %s", e.Index, e.Field, e.Other, e.Value, e.Want)
	}
	if e.Index < 0 {
		return fmt.Sprintf("ball2d: %s %s: expected %s, got %v", e.Kind, e.Field, e.Want, e.Value)
	}
	return fmt.Sprintf("ball2d: %s %d field %s: expected %s, got %v", e.Kind, e.Index, e.Field, e.Want, e.Value)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks shapes and values: finite positions and velocities,
// positive finite masses and radii, unit plane normals, positive drum radii,
// a positive time step, 0 ≤ CoR ≤ 1, finite μ ≥ 0, no free ball penetrating a
// static plane or reaching out of its drum (a ball larger than its drum)
// by more than OverlapTol·2r, and no two balls overlapping by more than
// OverlapTol·(rᵢ + rⱼ). Value errors are *FieldError.
func (s *System) Validate() error {
	n := len(s.M)
	if len(s.Q) != 2*n || len(s.V) != 2*n || len(s.R) != n || len(s.Fixed) != n {
		return fmt.Errorf("ball2d: inconsistent state lengths: len(Q)=%d len(V)=%d len(M)=%d len(R)=%d len(Fixed)=%d", len(s.Q), len(s.V), n, len(s.R), len(s.Fixed))
	}
	sysErr := func(field string, v float64, want string) error {
		return &FieldError{Kind: "system", Index: -1, Field: field, Value: v, Want: want, Other: -1}
	}
	if !finite(s.Dt) || s.Dt <= 0 {
		return sysErr("dt", s.Dt, "a positive finite time step")
	}
	if !finite(s.Gravity[0]) {
		return sysErr("fx", s.Gravity[0], "a finite gravity")
	}
	if !finite(s.Gravity[1]) {
		return sysErr("fy", s.Gravity[1], "a finite gravity")
	}
	if !(s.CoR >= 0 && s.CoR <= 1) {
		return sysErr("CoR", s.CoR, "a restitution coefficient in [0, 1]")
	}
	if !finite(s.Mu) || s.Mu < 0 {
		return sysErr("mu", s.Mu, "a finite friction coefficient ≥ 0")
	}
	if s.Integrator != Verlet && s.Integrator != SymplecticEuler {
		return fmt.Errorf("ball2d: unknown integrator %v", s.Integrator)
	}
	ballErr := func(i int, field string, v float64, want string) error {
		return &FieldError{Kind: "ball", Index: i, Field: field, Value: v, Want: want, Other: -1}
	}
	for i := 0; i < n; i++ {
		for k, f := range [4]string{"x", "y", "vx", "vy"} {
			v := s.Q[2*i+k%2]
			if k >= 2 {
				v = s.V[2*i+k%2]
			}
			if !finite(v) {
				return ballErr(i, f, v, "a finite number")
			}
		}
		if !finite(s.M[i]) || s.M[i] <= 0 {
			return ballErr(i, "m", s.M[i], "a positive finite mass")
		}
		if !finite(s.R[i]) || s.R[i] <= 0 {
			return ballErr(i, "r", s.R[i], "a positive finite radius")
		}
	}
	checkPlane := func(kind string, idx int, pl Plane) error {
		for k := 0; k < 2; k++ {
			if !finite(pl.P[k]) {
				return &FieldError{Kind: kind, Index: idx, Field: "x", Value: pl.P[k], Want: "a finite point", Other: -1}
			}
		}
		nn := math.Hypot(pl.N[0], pl.N[1])
		if !finite(nn) || math.Abs(nn-1) > 1e-9 {
			return &FieldError{Kind: kind, Index: idx, Field: "n", Value: nn, Want: "a unit normal (|n| = 1)", Other: -1}
		}
		return nil
	}
	for i, pl := range s.Planes {
		if err := checkPlane("plane", i, pl); err != nil {
			return err
		}
	}
	for i, po := range s.Portals {
		if err := checkPlane("portal", i, po.A); err != nil {
			return err
		}
		if err := checkPlane("portal", i, po.B); err != nil {
			return err
		}
	}
	for i, d := range s.Drums {
		if !finite(d.C[0]) || !finite(d.C[1]) {
			return &FieldError{Kind: "drum", Index: i, Field: "x", Value: math.NaN(), Want: "a finite centre", Other: -1}
		}
		if !finite(d.R) || d.R <= 0 {
			return &FieldError{Kind: "drum", Index: i, Field: "r", Value: d.R, Want: "a positive finite radius", Other: -1}
		}
	}
	// a ball inside a wall (or behind it), or not inside its drum (or
	// larger than it), by more than the overlap tolerance
	for i := 0; i < n; i++ {
		if s.Fixed[i] { // never moves: no contact with walls
			continue
		}
		x, r := pos(s.Q, i), s.R[i]
		tol := OverlapTol * 2 * r
		for k, pl := range s.Planes {
			if d := r - (pl.N[0]*(x[0]-pl.P[0]) + pl.N[1]*(x[1]-pl.P[1])); d > tol {
				return &FieldError{Kind: "ball", Index: i, Field: "x", Value: d, Other: -1, Wall: "plane", WallIndex: k,
					Want: fmt.Sprintf("more than the tolerance %g·2r = %.6g", OverlapTol, tol)}
			}
		}
		for k, dr := range s.Drums {
			if d := math.Hypot(x[0]-dr.C[0], x[1]-dr.C[1]) - (dr.R - r); d > tol {
				return &FieldError{Kind: "ball", Index: i, Field: "x", Value: d, Other: -1, Wall: "drum", WallIndex: k,
					Want: fmt.Sprintf("more than the tolerance %g·2r = %.6g", OverlapTol, tol)}
			}
		}
	}
	if i, j, depth := s.det.firstOverlap(s); i >= 0 {
		return &FieldError{Kind: "ball", Index: i, Other: j, Field: "x", Value: depth,
			Want: fmt.Sprintf("more than the tolerance %g·(rᵢ+rⱼ) = %.6g", OverlapTol, OverlapTol*(s.R[i]+s.R[j]))}
	}
	return nil
}

// KineticEnergy returns ½ Σ mᵢ|vᵢ|² over the free (non-fixed) balls.
func (s *System) KineticEnergy(v []float64) float64 {
	var e float64
	for i, m := range s.M {
		if s.Fixed[i] {
			continue
		}
		vx, vy := v[2*i], v[2*i+1]
		e += 0.5 * m * (vx*vx + vy*vy)
	}
	return e
}

// PotentialEnergy returns the gravitational potential −Σ mᵢ g·xᵢ of the free
// balls (zero on the line through the origin orthogonal to g), as SCISim's
// Ball2DGravityForce.
func (s *System) PotentialEnergy(q []float64) float64 {
	var u float64
	g := s.Gravity
	for i, m := range s.M {
		if s.Fixed[i] {
			continue
		}
		u -= m * (g[0]*q[2*i] + g[1]*q[2*i+1])
	}
	return u
}

// Energy returns KineticEnergy(v) + PotentialEnergy(q).
func (s *System) Energy(q, v []float64) float64 { return s.KineticEnergy(v) + s.PotentialEnergy(q) }

// LinearMomentum returns Σ mᵢ vᵢ over the free balls.
func (s *System) LinearMomentum(v []float64) [2]float64 {
	var p [2]float64
	for i, m := range s.M {
		if s.Fixed[i] {
			continue
		}
		p[0] += m * v[2*i]
		p[1] += m * v[2*i+1]
	}
	return p
}

// NDof returns the number of generalized degrees of freedom, 2 per ball.
func (s *System) NDof() int { return 2 * len(s.M) }

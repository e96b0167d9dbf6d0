package rigid3d

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/motion"
)

// ShapeKind enumerates the supported geometries.
type ShapeKind int

const (
	Sphere ShapeKind = iota
	Box
	MeshShape
)

func (k ShapeKind) String() string {
	switch k {
	case Sphere:
		return "sphere"
	case Box:
		return "box"
	case MeshShape:
		return "mesh"
	}
	return fmt.Sprintf("ShapeKind(%d)", int(k))
}

// Shape is a body's geometry in its body frame (centred at the centre of
// mass, principal axes along the body axes).
type Shape struct {
	Kind ShapeKind
	R    float64 // sphere radius
	Half r3.Vec  // box half widths (SCISim's r)
	Mesh *Mesh   // triangle mesh (MeshShape)
}

// MassProperties returns the mass and the body-frame principal moments of
// inertia of the shape filled with density rho:
//
//	sphere: m = ρ·4/3·πr³, I = 2/5·m r² (three times);
//	box:    m = ρ·8abc,     I = m/3·(b²+c², a²+c², a²+b²) for half widths a, b, c.
func (s Shape) MassProperties(rho float64) (m float64, inertia r3.Vec) {
	switch s.Kind {
	case Sphere:
		m = rho * 4.0 / 3.0 * math.Pi * s.R * s.R * s.R
		i := 0.4 * m * s.R * s.R
		return m, r3.Vec{X: i, Y: i, Z: i}
	case Box:
		a, b, c := s.Half.X, s.Half.Y, s.Half.Z
		m = rho * 8 * a * b * c
		return m, r3.Vec{X: m / 3 * (b*b + c*c), Y: m / 3 * (a*a + c*c), Z: m / 3 * (a*a + b*b)}
	case MeshShape:
		return rho * s.Mesh.Volume, r3.Scale(rho, s.Mesh.Moments)
	}
	return 0, r3.Vec{}
}

// BoundingRadius returns the radius of the smallest centred ball holding
// the shape.
func (s Shape) BoundingRadius() float64 {
	switch s.Kind {
	case Box:
		return r3.Norm(s.Half)
	case MeshShape:
		return s.Mesh.Radius
	}
	return s.R
}

// Plane is a half-space {x : N·(x − P) ≥ 0}; bodies stay on the side N
// points to. V and W are its velocity (package documentation, "Moving
// geometry"): the velocity of P and the angular velocity; zero for a
// static plane.
type Plane struct{ P, N, V, W r3.Vec }

// Cylinder is an infinite cylinder (axis through P along the unit vector
// A, radius R); bodies stay inside. V and W are its velocity, as a
// Plane's.
type Cylinder struct {
	P, A r3.Vec
	R    float64
	V, W r3.Vec
}

// Moving reports whether the plane has a velocity.
func (pl *Plane) Moving() bool { return pl.V != (r3.Vec{}) || pl.W != (r3.Vec{}) }

// Moving reports whether the cylinder has a velocity.
func (c *Cylinder) Moving() bool { return c.V != (r3.Vec{}) || c.W != (r3.Vec{}) }

// Moved returns the plane moved by the state s of a prescribed motion
// from its pose pl at the motion's reference.
func (pl Plane) Moved(s *motion.State) Plane {
	p := s.Point(pl.P)
	return Plane{P: p, N: s.Rotate(pl.N), V: s.VelocityAt(p), W: s.W}
}

// Moved returns the cylinder moved by the state s of a prescribed motion
// from its pose c at the motion's reference.
func (c Cylinder) Moved(s *motion.State) Cylinder {
	p := s.Point(c.P)
	return Cylinder{P: p, A: s.Rotate(c.A), R: c.R, V: s.VelocityAt(p), W: s.W}
}

// pointVelocity returns v + w × r.
func pointVelocity(v, w, r r3.Vec) r3.Vec { return r3.Add(v, r3.Cross(w, r)) }

// Integrator selects the free-flight map.
type Integrator int

const (
	DMV             Integrator = iota // discrete Moser–Veselov (energy-momentum)
	SplitHam                          // kick–split free rotation–kick (SCISim's split_ham)
	SymplecticEuler                   // symplectic Euler
)

func (i Integrator) String() string {
	switch i {
	case DMV:
		return "dmv"
	case SplitHam:
		return "split_ham"
	case SymplecticEuler:
		return "symplectic_euler"
	}
	return fmt.Sprintf("Integrator(%d)", int(i))
}

// ParseIntegrator maps SCISim's integrator names onto Integrator.
func ParseIntegrator(name string) (Integrator, error) {
	switch name {
	case "dmv":
		return DMV, nil
	case "split_ham":
		return SplitHam, nil
	case "symplectic_euler":
		return SymplecticEuler, nil
	}
	return 0, fmt.Errorf("unknown integrator %q (want dmv, split_ham or symplectic_euler)", name)
}

// RestitutionMap is a body's coefficient of restitution at a contact: x
// the contact point and n the body's outward unit normal there, both in
// the body frame (a Bounce Map, package bouncemap).
type RestitutionMap interface {
	Restitution(x, n r3.Vec) float64
}

// System is a set of rigid bodies with static planes and cylinders, uniform
// gravity, and one restitution and friction coefficient for all contacts.
//
// State layout (see the package documentation): q has 7 entries per body
// (x, y, z, qw, qx, qy, qz: centre of mass and unit orientation quaternion,
// body → world), v has 6 (vx, vy, vz, ωx, ωy, ωz: linear and world-frame
// angular velocity). NQ() = 7N, NDof() = 6N.
type System struct {
	Shapes  []Shape   // per body
	Mass    []float64 // per body
	Inertia []r3.Vec  // per body, body-frame principal moments
	Fixed   []bool    // per body
	Planes  []Plane
	Cyls    []Cylinder
	Portals []Portal // periodic boundaries (spheres only)
	Gravity r3.Vec

	CoR, Mu    float64
	Integrator Integrator

	// Maps, if set (one entry per body, nil for bodies without one), gives
	// bodies a restitution that depends on where and how they are hit (a
	// Bounce Map); Combine merges two bodies' values (nil: the arithmetic
	// mean). See contactRestitution for the rule.
	Maps    []RestitutionMap
	Combine func(a, b float64) float64

	// Q and V are the initial state built by AddBody.
	Q, V []float64

	det      detector
	cellSize float64 // broad-phase grid cell (0: automatic); for tests
}

// N returns the number of bodies.
func (s *System) N() int { return len(s.Mass) }

// NDof returns 6N.
func (s *System) NDof() int { return 6 * len(s.Mass) }

// NQ returns 7N (sim.PositionSizer).
func (s *System) NQ() int { return 7 * len(s.Mass) }

// AddBody appends a body of shape sh and density rho at x with orientation
// o, velocity v and world angular velocity w, and returns its index. A fixed
// body never moves (its mass is still recorded for output).
func (s *System) AddBody(sh Shape, rho float64, x r3.Vec, o Quat, v, w r3.Vec, fixed bool) int {
	m, in := sh.MassProperties(rho)
	s.Shapes = append(s.Shapes, sh)
	s.Mass = append(s.Mass, m)
	s.Inertia = append(s.Inertia, in)
	s.Fixed = append(s.Fixed, fixed)
	o = o.Normalized()
	s.Q = append(s.Q, x.X, x.Y, x.Z, o.W, o.X, o.Y, o.Z)
	if fixed {
		v, w = r3.Vec{}, r3.Vec{}
	}
	s.V = append(s.V, v.X, v.Y, v.Z, w.X, w.Y, w.Z)
	return len(s.Mass) - 1
}

// Validate checks masses, shapes and the initial state.
func (s *System) Validate() error {
	for i, sh := range s.Shapes {
		switch sh.Kind {
		case Sphere:
			if !(sh.R > 0) || !finite(sh.R) {
				return fmt.Errorf("body %d: sphere radius %v, want r > 0", i, sh.R)
			}
		case Box:
			if !(sh.Half.X > 0 && sh.Half.Y > 0 && sh.Half.Z > 0) || !finiteVec(sh.Half) {
				return fmt.Errorf("body %d: box half widths %v, want all > 0", i, sh.Half)
			}
		case MeshShape:
			if sh.Mesh == nil || sh.Mesh.SDF == nil {
				return fmt.Errorf("body %d: mesh shape without a mesh (use NewMesh)", i)
			}
		default:
			return fmt.Errorf("body %d: unsupported shape %v", i, sh.Kind)
		}
		if !s.Fixed[i] && (!(s.Mass[i] > 0) || !finite(s.Mass[i])) {
			return fmt.Errorf("body %d: mass %v, want m > 0 (check rho)", i, s.Mass[i])
		}
	}
	for i, x := range s.Q {
		if !finite(x) {
			return fmt.Errorf("body %d: position/orientation coordinate %v", i/7, x)
		}
	}
	for i, x := range s.V {
		if !finite(x) {
			return fmt.Errorf("body %d: velocity component %v", i/6, x)
		}
	}
	for i, pl := range s.Planes {
		if math.Abs(r3.Norm(pl.N)-1) > 1e-12 {
			return fmt.Errorf("plane %d: normal %v is not unit", i, pl.N)
		}
	}
	for i, c := range s.Cyls {
		if math.Abs(r3.Norm(c.A)-1) > 1e-12 || !(c.R > 0) {
			return fmt.Errorf("cylinder %d: axis %v radius %v, want unit axis and R > 0", i, c.A, c.R)
		}
	}
	if err := s.validatePortals(); err != nil {
		return err
	}
	if !(s.CoR >= 0 && s.CoR <= 1) {
		return fmt.Errorf("restitution %v, want 0 ≤ c ≤ 1", s.CoR)
	}
	if s.Maps != nil && len(s.Maps) != s.N() {
		return fmt.Errorf("%d restitution maps for %d bodies", len(s.Maps), s.N())
	}
	if !(s.Mu >= 0) || math.IsInf(s.Mu, 0) {
		return fmt.Errorf("friction coefficient %v, want finite μ ≥ 0", s.Mu)
	}
	return nil
}

// NewPlane returns the plane through p with normal n (normalized).
func NewPlane(p, n r3.Vec) Plane { return Plane{P: p, N: r3.Unit(n)} }

// Pose returns body i's position and orientation from q.
func Pose(q []float64, i int) (r3.Vec, Quat) {
	b := q[7*i : 7*i+7]
	return r3.Vec{X: b[0], Y: b[1], Z: b[2]}, Quat{b[3], b[4], b[5], b[6]}
}

// Vel returns body i's linear and world angular velocity from v.
func Vel(v []float64, i int) (r3.Vec, r3.Vec) {
	b := v[6*i : 6*i+6]
	return r3.Vec{X: b[0], Y: b[1], Z: b[2]}, r3.Vec{X: b[3], Y: b[4], Z: b[5]}
}

func setPose(q []float64, i int, x r3.Vec, o Quat) {
	b := q[7*i : 7*i+7]
	b[0], b[1], b[2], b[3], b[4], b[5], b[6] = x.X, x.Y, x.Z, o.W, o.X, o.Y, o.Z
}

func setVel(v []float64, i int, u, w r3.Vec) {
	b := v[6*i : 6*i+6]
	b[0], b[1], b[2], b[3], b[4], b[5] = u.X, u.Y, u.Z, w.X, w.Y, w.Z
}

// WorldInertia returns I_world = R diag(I) Rᵀ of body i at orientation o.
func (s *System) WorldInertia(i int, o Quat) Mat3 {
	r := o.Matrix()
	return congruence(&r, s.Inertia[i])
}

// KineticEnergy returns Σ ½ m|u|² + ½ ωᵀ I_world ω over the free bodies.
func (s *System) KineticEnergy(q, v []float64) float64 {
	var e float64
	for i := range s.Mass {
		if s.Fixed[i] {
			continue
		}
		_, o := Pose(q, i)
		u, w := Vel(v, i)
		wb := o.Matrix()
		wb2 := wb.MulTVec(w)
		in := s.Inertia[i]
		e += 0.5*s.Mass[i]*r3.Dot(u, u) + 0.5*(in.X*wb2.X*wb2.X+in.Y*wb2.Y*wb2.Y+in.Z*wb2.Z*wb2.Z)
	}
	return e
}

// PotentialEnergy returns −Σ m g·x over the free bodies.
func (s *System) PotentialEnergy(q []float64) float64 {
	var e float64
	for i := range s.Mass {
		if s.Fixed[i] {
			continue
		}
		x, _ := Pose(q, i)
		e -= s.Mass[i] * r3.Dot(s.Gravity, x)
	}
	return e
}

// Energy returns the Hamiltonian (kinetic + gravitational potential).
func (s *System) Energy(q, v []float64) float64 { return s.KineticEnergy(q, v) + s.PotentialEnergy(q) }

// LinearMomentum returns Σ m u over the free bodies.
func (s *System) LinearMomentum(v []float64) r3.Vec {
	var p r3.Vec
	for i := range s.Mass {
		if !s.Fixed[i] {
			u, _ := Vel(v, i)
			p = r3.Add(p, r3.Scale(s.Mass[i], u))
		}
	}
	return p
}

// AngularMomentum returns Σ (x × m u + I_world ω) about the origin over the
// free bodies.
func (s *System) AngularMomentum(q, v []float64) r3.Vec {
	var l r3.Vec
	for i := range s.Mass {
		if s.Fixed[i] {
			continue
		}
		x, o := Pose(q, i)
		u, w := Vel(v, i)
		iw := s.WorldInertia(i, o)
		l = r3.Add(l, r3.Add(r3.Cross(x, r3.Scale(s.Mass[i], u)), iw.MulVec(w)))
	}
	return l
}

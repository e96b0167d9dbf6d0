package spheres

import (
	"fmt"
	"math"

	"impactsim/par"
)

// System is a set of spheres with static and moving walls, uniform gravity
// and one friction coefficient, stored as flat arrays indexed by sphere.
// Spheres may be added and removed between steps (Add, Remove); their
// order changes when the broad phase sorts them by cell (Config.SortEvery),
// and ID follows each sphere through both.
type System struct {
	// Per sphere i: X[3i:3i+3] the centre, Q[4i:4i+4] the unit quaternion
	// (w, x, y, z) of its orientation (body → world), VW[6i:6i+6] the
	// linear and world angular velocity, R[i] the radius, InvM[i] and
	// InvI[i] the inverse mass and inverse moment of inertia (I = ⅖mr²),
	// ID[i] a label that stays with the sphere.
	X, Q, VW      []float64
	R, InvM, InvI []float64
	ID            []int64
	Gravity       [3]float64
	Mu            float64
	Planes        []Plane
	Boxes         []Box
	Cylinders     []Cylinder
	// Periodic makes x and y periodic (periodic.go); zero: open.
	Periodic        Periodic
	nextID          int64
	work            workspace
	pool            *par.Pool
	stepsSinceOrder int
	corr            *correction // the position correction (Config.Correction)
}

// N returns the number of spheres.
func (s *System) N() int { return len(s.R) }

// Add appends a sphere of radius r and density rho at x with velocity v
// and angular velocity w (identity orientation) and returns its index. The
// sphere's ID is the number of spheres added before it.
func (s *System) Add(x, v, w [3]float64, r, rho float64) int {
	return s.AddID(s.nextID, x, v, w, r, rho)
}

// AddID is Add with the sphere's ID given: a part of a larger system (the
// spheres of one MPI rank's subdomain, package domain) keeps the IDs the
// whole system gives its spheres. The next ID Add gives becomes at least
// id+1.
func (s *System) AddID(id int64, x, v, w [3]float64, r, rho float64) int {
	invM, invI := Inverses(r, rho)
	return s.Put(Sphere{X: x, Q: [4]float64{1, 0, 0, 0}, VW: [6]float64{v[0], v[1], v[2], w[0], w[1], w[2]},
		R: r, InvM: invM, InvI: invI, ID: id})
}

// Sphere is one sphere's row of System's arrays.
type Sphere struct {
	X             [3]float64
	Q             [4]float64
	VW            [6]float64
	R, InvM, InvI float64
	ID            int64
}

// Put appends sphere p as it is and returns its index; the next ID Add
// gives becomes at least p.ID+1.
func (s *System) Put(p Sphere) int {
	s.X = append(s.X, p.X[:]...)
	s.Q = append(s.Q, p.Q[:]...)
	s.VW = append(s.VW, p.VW[:]...)
	s.R = append(s.R, p.R)
	s.InvM = append(s.InvM, p.InvM)
	s.InvI = append(s.InvI, p.InvI)
	s.ID = append(s.ID, p.ID)
	s.nextID = max(s.nextID, p.ID+1)
	return s.N() - 1
}

// Inverses returns the inverse mass and inverse moment of inertia
// (I = ⅖mr²) of a solid sphere of radius r and density rho, as Add
// computes them.
func Inverses(r, rho float64) (invM, invI float64) {
	m := rho * 4 / 3 * math.Pi * r * r * r
	return 1 / m, 1 / (0.4 * m * r * r)
}

// NextID returns the ID the next Add gives; SetNextID sets it (a system
// whose spheres were assembled elsewhere, as package domain gathers a
// distributed one, continues the numbering).
func (s *System) NextID() int64 { return s.nextID }

// SetNextID sets the ID the next Add gives.
func (s *System) SetNextID(id int64) { s.nextID = id }

// Remove deletes every sphere i with drop(i) true, keeping the order of the
// others, and returns how many it removed. It does not allocate.
func (s *System) Remove(drop func(i int) bool) int {
	n, k := s.N(), 0
	for i := 0; i < n; i++ {
		if drop(i) {
			continue
		}
		if k != i {
			s.move(k, i)
		}
		k++
	}
	s.truncate(k)
	return n - k
}

// move copies sphere i's data to slot k.
func (s *System) move(k, i int) {
	copy(s.X[3*k:3*k+3], s.X[3*i:3*i+3])
	copy(s.Q[4*k:4*k+4], s.Q[4*i:4*i+4])
	copy(s.VW[6*k:6*k+6], s.VW[6*i:6*i+6])
	s.R[k], s.InvM[k], s.InvI[k], s.ID[k] = s.R[i], s.InvM[i], s.InvI[i], s.ID[i]
}

func (s *System) truncate(k int) {
	s.X, s.Q, s.VW = s.X[:3*k], s.Q[:4*k], s.VW[:6*k]
	s.R, s.InvM, s.InvI, s.ID = s.R[:k], s.InvM[:k], s.InvI[:k], s.ID[:k]
}

// SetPool makes steps run on the workers of pool (nil: the calling
// goroutine). Results do not depend on it, bit for bit.
func (s *System) SetPool(pool *par.Pool) {
	s.pool = pool
	if s.corr != nil {
		s.corr.k.SetPool(pool)
	}
}

// Validate checks radii, masses, walls and the state for finite, positive
// values.
func (s *System) Validate() error {
	n := s.N()
	if len(s.X) != 3*n || len(s.Q) != 4*n || len(s.VW) != 6*n || len(s.InvM) != n || len(s.InvI) != n || len(s.ID) != n {
		return fmt.Errorf("spheres: arrays of %d spheres have inconsistent lengths", n)
	}
	for i := 0; i < n; i++ {
		if !(s.R[i] > 0) || !(s.InvM[i] > 0) || math.IsInf(s.InvM[i], 0) || !(s.InvI[i] > 0) || math.IsInf(s.InvI[i], 0) {
			return fmt.Errorf("spheres: sphere %d has radius %v and inverse mass %v (want both > 0, finite)", i, s.R[i], s.InvM[i])
		}
	}
	for _, a := range [][]float64{s.X, s.Q, s.VW} {
		for k, x := range a {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("spheres: non-finite state component %d (%v)", k, x)
			}
		}
	}
	if !(s.Mu >= 0) || math.IsInf(s.Mu, 0) {
		return fmt.Errorf("spheres: friction coefficient %v, want finite μ ≥ 0", s.Mu)
	}
	for k, c := range s.Cylinders {
		if !(c.R > 0) {
			return fmt.Errorf("spheres: cylinder %d has radius %v, want > 0", k, c.R)
		}
	}
	for k, b := range s.Boxes {
		if !(b.Half[0] > 0 && b.Half[1] > 0 && b.Half[2] > 0) {
			return fmt.Errorf("spheres: box %d has half widths %v, want all > 0", k, b.Half)
		}
	}
	return nil
}

// KineticEnergy returns Σ ½m|v|² + ½I|ω|².
func (s *System) KineticEnergy() float64 {
	e := 0.0
	for i := range s.R {
		v := s.VW[6*i : 6*i+6]
		e += 0.5 * ((v[0]*v[0]+v[1]*v[1]+v[2]*v[2])/s.InvM[i] + (v[3]*v[3]+v[4]*v[4]+v[5]*v[5])/s.InvI[i])
	}
	return e
}

// PotentialEnergy returns −Σ m g·x.
func (s *System) PotentialEnergy() float64 {
	e := 0.0
	g := s.Gravity
	for i := range s.R {
		x := s.X[3*i : 3*i+3]
		e -= (g[0]*x[0] + g[1]*x[1] + g[2]*x[2]) / s.InvM[i]
	}
	return e
}

// LinearMomentum returns Σ m v.
func (s *System) LinearMomentum() [3]float64 {
	var p [3]float64
	for i := range s.R {
		for d := 0; d < 3; d++ {
			p[d] += s.VW[6*i+d] / s.InvM[i]
		}
	}
	return p
}

package patterns

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/motion"
	"impactsim/par"
	"impactsim/sim"
	"impactsim/spheres"
)

// Point is a point of the phase diagram of Fig. 12 (Smith et al.) with the
// pattern it should show and the number of peaks of that pattern on the
// ring of the power spectrum.
type Point struct {
	Name         string
	FStar, Gamma float64
	Peaks        int
}

// Fig12 lists the three points of Fig. 12 of Smith et al. (and Table 2 of
// Zhang et al.).
var Fig12 = []Point{
	{Name: "hexagons", FStar: 0.38, Gamma: 4.0, Peaks: 6},
	{Name: "squares", FStar: 0.27, Gamma: 3.0, Peaks: 4},
	{Name: "stripes", FStar: 0.44, Gamma: 3.0, Peaks: 2},
}

// PointByName returns the Fig. 12 point of that name.
func PointByName(name string) (Point, error) {
	for _, p := range Fig12 {
		if p.Name == name {
			return p, nil
		}
	}
	return Point{}, fmt.Errorf("patterns: unknown pattern %q (want hexagons, squares or stripes)", name)
}

// Config is a vibrated layer (package documentation, "The layer").
type Config struct {
	Point Point
	// N is the number of spheres (Bizon et al.: 60,000).
	N int
	// Sigma is the spheres' diameter σ (m) and Depth the layer depth H/σ,
	// the H of f* = f√(H/g) and of λ/H (Bizon et al.: 5.42).
	Sigma, Depth float64
	// PerArea is the number of spheres per σ² of floor, Nσ²/(L_x L_y):
	// the periodic cell's area is Nσ²/PerArea (Bizon et al.: 60,000 in
	// 100σ × 100σ, 6.0). 0: Depth, the "cubic" depth H = Nσ³/(L_x L_y) of
	// the first sessions, whose layer has 10 % fewer spheres per area
	// than Bizon et al.'s at the same H.
	PerArea float64
	// Aspect is the periodic cell's L_y/L_x (0 or 1: a square cell). A
	// hexagonal pattern's three wave vectors fit a periodic cell only if
	// L_y/L_x is √3/2 (times a rational): HexAspect.
	Aspect float64
	// CoR is e₀ of the velocity-dependent restitution, with v₀ = √(gσ);
	// Mu the friction coefficient; Rho the density (it cancels out of the
	// impacts; bronze); G the gravitational acceleration.
	CoR, Mu, Rho, G float64
	// ConstantCoR makes every impact's coefficient e₀ (Smith et al.'s
	// single restitution coefficient of generalized restitution, §5, §12)
	// instead of Bizon et al.'s e(v) = 1 − (1 − e₀)(v/v₀)^{3/4} below v₀.
	ConstantCoR bool
	// H is the time step.
	H float64
	// Operator is the impact operator (gr, grr, qce, qce_lcp, lcp) and
	// Friction the friction law (alg3 or blcp).
	Operator, Friction string
	// Solver names the QP solver of the operators' exact solves ("" or
	// "auto": dense active set for small islands, interior point or MPRGP
	// for large ones; "sparse": MPRGP; see package qp).
	Solver string
	// BoxedTol and BoxedMaxIter are the boxed LCP's tolerance and sweep
	// cap (Friction "blcp"; 0: friction.BoxedLCP's defaults, 1e-12 and
	// 10⁵ sweeps, which islands of 10⁵ contacts do not reach in minutes:
	// the run goes on at the cap and counts the capped solves).
	BoxedTol     float64
	BoxedMaxIter int
	// Beta0 is Walton's tangential restitution β₀ on Alg. 3's friction
	// (spheres.Law.Beta0; Bizon et al.: 0.35); 0: Alg. 3 as published.
	Beta0 float64
	// MatrixFreeFrom is spheres.Law.MatrixFreeFrom: Alg. 3's QP by the
	// generic matrix-free form from that many sliding directions of an
	// island instead of the default compact assembly (0: never).
	MatrixFreeFrom int
	// Seed seeds the jitter of the initial lattice and velocities.
	Seed uint64
	// Correction, when set, projects the centres out of penetration as
	// the last stage of every step (spheres.ImpactConfig.Correction; the
	// velocities, hence the impacts, are untouched). Nil: Alg. 4 as
	// published, whose resting spheres sink into the floor and each other
	// by ½gh² per step.
	Correction *sim.Correction
	// ActiveRounds closes the active set of every step
	// (spheres.ImpactConfig.ActiveRounds): up to that many solves of the
	// law, until no contact outside the set touches at the end of the
	// step. 0 or 1: Alg. 4 as published.
	ActiveRounds int
	// RoundsContinue starts each later round from the last round's v⁺
	// (spheres.ImpactConfig.RoundsContinue) instead of the step's v.
	RoundsContinue bool
}

// BizonDepth and BizonPerArea are the layer of Bizon et al.'s simulation:
// depth H = 5.42σ, and 60,000 spheres in a 100σ × 100σ box, 6.0 spheres
// per σ² (package documentation, "The layer").
const (
	BizonDepth   = 5.42
	BizonPerArea = 6.0
)

// DefaultConfig returns Bizon et al.'s layer at point p: 60,000 spheres of
// σ = 1 mm, 6.0 per σ² (a 100σ × 100σ cell), H = 5.42σ, e₀ = 0.7 with
// e(v), μ = 0.5, GR and Alg. 3 at h = 3·10⁻⁴ s.
func DefaultConfig(p Point) Config {
	return Config{Point: p, N: 60000, Sigma: 1e-3, Depth: BizonDepth, PerArea: BizonPerArea, CoR: 0.7, Mu: 0.5, Rho: 8900, G: 9.81,
		H: 3e-4, Operator: "gr", Friction: "alg3", Seed: 1}
}

// Cover returns the spheres per σ² of floor, Nσ²/(L_x L_y): PerArea, or
// Depth when PerArea is 0.
func (c *Config) Cover() float64 {
	if c.PerArea == 0 {
		return c.Depth
	}
	return c.PerArea
}

// Check validates the configuration.
func (c *Config) Check() error {
	pos := func(name string, x float64) error {
		if !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("patterns: %s = %v, want a positive finite number", name, x)
		}
		return nil
	}
	for _, e := range []error{pos("f*", c.Point.FStar), pos("Γ", c.Point.Gamma), pos("σ", c.Sigma), pos("depth", c.Depth),
		pos("spheres per σ²", c.Cover()), pos("ρ", c.Rho), pos("g", c.G), pos("h", c.H)} {
		if e != nil {
			return e
		}
	}
	if c.N < 1 {
		return fmt.Errorf("patterns: %d spheres, want at least 1", c.N)
	}
	if !(c.CoR >= 0 && c.CoR <= 1) || !(c.Mu >= 0) || math.IsInf(c.Mu, 0) {
		return fmt.Errorf("patterns: e₀ = %v, μ = %v, want 0 ≤ e₀ ≤ 1 and finite μ ≥ 0", c.CoR, c.Mu)
	}
	if !(c.Aspect >= 0) || math.IsInf(c.Aspect, 0) {
		return fmt.Errorf("patterns: aspect L_y/L_x = %v, want a positive finite number (0: square)", c.Aspect)
	}
	if lx, ly := c.Sides(); min(lx, ly) < 6*c.Sigma {
		return fmt.Errorf("patterns: %d spheres at %g per σ² make a cell of %.3gσ × %.3gσ, want at least 6σ a side", c.N, c.Cover(), lx/c.Sigma, ly/c.Sigma)
	}
	imp := spheres.ImpactConfig{H: c.H, Law: c.Law(), Correction: c.Correction, ActiveRounds: c.ActiveRounds, RoundsContinue: c.RoundsContinue}
	if err := imp.Check(); err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	return nil
}

// HexAspect is the aspect L_y/L_x = √3/2 of a periodic cell that holds
// hexagons whose wave vectors are k(1, 0) and k(±½, ±√3/2) with L_x = 4λ
// and L_y = 3·(2λ/√3): the cell's allowed wave vectors (2πa/L_x, 2πb/L_y)
// contain all six, (±4, 0) and (±2, ±3).
var HexAspect = math.Sqrt(3) / 2

// Sides returns the periodic cell's sides L_x and L_y (L_x L_y =
// Nσ²/Cover(), L_y/L_x = Aspect).
func (c *Config) Sides() (lx, ly float64) {
	a := c.Aspect
	if a == 0 {
		a = 1
	}
	lx = c.Sigma * math.Sqrt(float64(c.N)/(c.Cover()*a))
	return lx, a * lx
}

// LatticeTop returns the height of the highest centres of New's lattice
// (layers 1.05σ apart over the floor z = 0).
func (c *Config) LatticeTop() float64 {
	nx, ny := c.lattice()
	return c.Sigma/2 + 0.02*c.Sigma + 1.05*c.Sigma*float64((c.N-1)/(nx*ny))
}

// lattice returns the number of lattice sites of New's layers along x and y.
func (c *Config) lattice() (nx, ny int) {
	lx, ly := c.Sides()
	return int(lx / (1.05 * c.Sigma)), int(ly / (1.05 * c.Sigma))
}

// LayerDepth returns H = Depth·σ.
func (c *Config) LayerDepth() float64 { return c.Depth * c.Sigma }

// Frequency returns the drive frequency f = f*√(g/H).
func (c *Config) Frequency() float64 {
	return motion.FrequencyFromFStar(c.Point.FStar, c.LayerDepth(), c.G)
}

// Amplitude returns the floor's amplitude A = Γg/(2πf)².
func (c *Config) Amplitude() float64 {
	return motion.AmplitudeFromGamma(c.Point.Gamma, c.Frequency(), c.G)
}

// Law returns the contact law of the layer.
func (c *Config) Law() spheres.Law {
	v0 := math.Sqrt(c.G * c.Sigma)
	if c.ConstantCoR {
		v0 = 0 // spheres.Law: constant restitution
	}
	return spheres.Law{Operator: c.Operator, Friction: c.Friction, Solver: c.Solver, CoR: c.CoR, V0: v0,
		BoxedTol: c.BoxedTol, BoxedMaxIter: c.BoxedMaxIter, Beta0: c.Beta0, MatrixFreeFrom: c.MatrixFreeFrom}
}

// Layer is a vibrated layer being simulated.
type Layer struct {
	Cfg    Config
	Sys    *spheres.System
	Motion motion.Motion
	// N is the number of steps taken and T the time.
	N     int
	T     float64
	floor spheres.Plane // the floor at the motion's reference
	imp   spheres.ImpactConfig
	// Remote, when set, takes the layer's steps in Sys's place (the layer
	// split over MPI ranks, impactsim patterns under mpirun): Step moves
	// the floor as always and hands it to Remote.Step; Run calls
	// Remote.Sync before every sample and at the end.
	Remote Remote
}

// Remote steps a layer whose spheres live elsewhere (package domain's
// Spheres across ranks). Step advances the spheres by one step of
// Alg. 4 with the floor given (its pose and velocity over the step,
// spheres.Plane.Follow). Sync brings the whole state into sys on the
// process that writes the results and reports true there; the other
// processes get false and skip the analysis and the files.
type Remote interface {
	Step(floor spheres.Plane) error
	Sync(sys *spheres.System) (bool, error)
}

// New builds the layer: the spheres on a jittered square lattice a little
// apart (at most 1.05σ between neighbours' centres, layers 1.05σ apart)
// over the floor z = 0, with random velocities of 0.05√(gσ), periodic in x
// and y, the floor following z = A sin(2πf t).
func New(c Config) (*Layer, error) { return NewPart(c, nil) }

// NewPart builds the part of New's layer whose centres keep accepts (nil:
// all of it): the same spheres, bit for bit, with New's IDs, in ID order,
// and no others created — one MPI rank builds its subdomain's spheres
// (plus whatever else keep accepts), not the whole layer. Its time is
// that of New (the random sequence is drawn for every sphere, 5 or a few
// more draws each, in New's order); its memory is that of the part.
// Cfg.N stays the whole layer's count.
func NewPart(c Config, keep func(x [3]float64) bool) (*Layer, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	lx, ly := c.Sides()
	nx, ny := c.lattice()
	perLayer := nx * ny
	s := &spheres.System{Gravity: [3]float64{0, 0, -c.G}, Mu: c.Mu, Periodic: spheres.Periodic{L: [2]float64{lx, ly}}}
	ref := spheres.Plane{N: [3]float64{0, 0, 1}}
	s.Planes = []spheres.Plane{ref}
	rng := rand.New(rand.NewPCG(c.Seed, 16))
	r := c.Sigma / 2
	dx, dy := lx/float64(nx), ly/float64(ny)
	vs := 0.05 * math.Sqrt(c.G*c.Sigma)
	jit := 0.2 * (min(dx, dy) - c.Sigma)
	for k := 0; k < c.N; k++ {
		i, j, z := k%nx, (k/nx)%ny, k/perLayer
		x := [3]float64{
			(float64(i)+0.5)*dx + jit*(rng.Float64()-0.5),
			(float64(j)+0.5)*dy + jit*(rng.Float64()-0.5),
			r + 0.02*c.Sigma + 1.05*c.Sigma*float64(z),
		}
		v := [3]float64{vs * rng.NormFloat64(), vs * rng.NormFloat64(), vs * rng.NormFloat64()}
		if keep == nil || keep(x) {
			s.AddID(int64(k), x, v, [3]float64{}, r, c.Rho)
		}
	}
	m := motion.Motion{Terms: []motion.Term{{Kind: motion.Oscillation, Axis: r3.Vec{Z: 1}, Amplitude: c.Amplitude(), Frequency: c.Frequency()}}}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Layer{Cfg: c, Sys: s, Motion: m, floor: ref, imp: spheres.ImpactConfig{H: c.H, Law: c.Law(), Correction: c.Correction, ActiveRounds: c.ActiveRounds, RoundsContinue: c.RoundsContinue}}, nil
}

// Tiled returns a layer of k × k copies of y side by side in a periodic
// cell k times longer in x and in y (Config.N multiplied by k²) at y's
// time and step count: a larger layer at the same phase of its motion,
// for scaling measurements from one warmed state (bench patterns --tile).
// Copy (a, b) is y's spheres shifted by a periods in x and b in y, with
// their velocities, orientations and spins; the spheres' order and
// identifiers are the new layer's. The floor is y's.
func (y *Layer) Tiled(k int) (*Layer, error) {
	if k < 1 {
		return nil, fmt.Errorf("patterns: tiling by %d, want k ≥ 1", k)
	}
	c := y.Cfg
	c.N *= k * k
	z, err := New(c)
	if err != nil {
		return nil, err
	}
	s, t := y.Sys, z.Sys
	n := s.N()
	lx, ly := s.Periodic.L[0], s.Periodic.L[1]
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			o := (a*k + b) * n
			for i := 0; i < n; i++ {
				d := o + i
				t.X[3*d] = s.X[3*i] + float64(a)*lx
				t.X[3*d+1] = s.X[3*i+1] + float64(b)*ly
				t.X[3*d+2] = s.X[3*i+2]
				copy(t.Q[4*d:4*d+4], s.Q[4*i:4*i+4])
				copy(t.VW[6*d:6*d+6], s.VW[6*i:6*i+6])
				t.R[d], t.InvM[d], t.InvI[d] = s.R[i], s.InvM[i], s.InvI[i]
			}
		}
	}
	t.Planes[0] = s.Planes[0]
	z.T, z.N = y.T, y.N
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("patterns: tiled layer: %w", err)
	}
	return z, nil
}

// SetPool makes the steps run on pool (results do not depend on it).
func (y *Layer) SetPool(pool *par.Pool) { y.Sys.SetPool(pool) }

// Time returns the simulated time.
func (y *Layer) Time() float64 { return y.T }

// SetStep changes the time step for the following steps (Table 3's
// timings from one warmed-up state).
func (y *Layer) SetStep(h float64) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("patterns: time step %v, want h > 0", h)
	}
	y.Cfg.H, y.imp.H = h, h
	return nil
}

// Cycles returns the number of drive periods simulated, f·t.
func (y *Layer) Cycles() float64 { return y.Cfg.Frequency() * y.Time() }

// Step advances the layer by one step: the floor follows its motion over
// the step (spheres.Plane.Follow), then the collision integrator.
func (y *Layer) Step() (spheres.ImpactStats, error) {
	t := y.Time()
	y.Sys.Planes[0].Follow(y.floor, y.Motion, t, y.Cfg.H)
	var st spheres.ImpactStats
	var err error
	if y.Remote != nil {
		err = y.Remote.Step(y.Sys.Planes[0])
	} else {
		st, err = y.Sys.StepImpact(&y.imp)
	}
	if err != nil {
		return st, fmt.Errorf("patterns: step %d (t = %.6g s): %w", y.N+1, t, err)
	}
	y.N++
	y.T = t + y.Cfg.H
	return st, nil
}

// FloorHeight returns the floor's height now.
func (y *Layer) FloorHeight() float64 { return y.Sys.Planes[0].P[2] }

// MeanHeight returns the mean height of the centres above the floor, in
// units of σ.
func (y *Layer) MeanHeight() float64 {
	s := y.Sys
	z := 0.0
	for i := 0; i < s.N(); i++ {
		z += s.X[3*i+2]
	}
	return (z/float64(s.N()) - y.FloorHeight()) / y.Cfg.Sigma
}

package channelflow

import (
	"fmt"
	"math"
	"math/rand/v2"

	"impactsim/friction"
	"impactsim/spheres"
)

// Config is a channel flow: a channel [0, Length] × [0, Width] ×
// [0, Height] (m) with walls at y = 0, Width and z = 0, Height, open at
// x = Length, fed at x = 0 by a plane moving at Speed that spawns a layer
// of spheres each time it has moved one diameter, with an obstacle, gravity
// −Gravity ẑ and friction Mu on every contact, stepped by the
// impulse-velocity scheme (H, Epsilon) with the NBGS law (Law).
type Config struct {
	Length, Width, Height float64
	Radius, Density       float64
	// Spacing is the lattice spacing of the initial fill and of a layer.
	Spacing float64
	// Speed is the inflow plane's speed and the spheres' initial x
	// velocity; Perturb the half range of their uniform y and z velocity.
	Speed, Perturb float64
	Obstacle       Obstacle
	Gravity        float64
	Mu             float64
	H, Epsilon     float64
	Law            friction.NBGS
	// Fill starts with the channel filled on the lattice (outside the
	// obstacle); otherwise it starts empty.
	Fill bool
	Seed uint64
	// SampleEvery is the number of steps between the statistics samples
	// (Table 2: 1000).
	SampleEvery int
	// Cell is the side of the velocity maps' cells (1 mm); RDFX0, RDFX1
	// the x range of the radial distribution function's region.
	Cell         float64
	RDFX0, RDFX1 float64
	// SortEvery is spheres.Config.SortEvery.
	SortEvery int
}

// Obstacle is a static cylinder of radius R along z through (X, Y) whose
// half x > X is replaced by the box [X, X + R] × [Y − R, Y + R]; R = 0 means
// none.
type Obstacle struct{ X, Y, R float64 }

// Volume returns the obstacle's volume inside a channel of height h.
func (o Obstacle) Volume(h float64) float64 { return (0.5*math.Pi*o.R*o.R + 2*o.R*o.R) * h }

// Paper is the experiment of Preclik et al. (sec. 4.3) with the checklist's
// resolutions: a 15 × 6.5 × 2 cm channel, radius 0.47 mm (the paper's
// "diameter 0.47 mm" contradicts its solid fraction, penetration
// percentages and inflow rate), density 2650 kg/m³, 1 mm lattice, 1 m/s
// with a ±0.5 m/s uniform perturbation, the obstacle at (4, 4) cm of
// radius 1 cm, μ = 0.4 everywhere (wall friction is not given), δt = 10 µs,
// error reduction 0.7 (waLBerla's default; not given), 10 sweeps on 16
// domains along x with relaxation 0.75 (waLBerla's configuration: the
// paper gives neither), samples every 1000 steps, RDF over x ∈ [12, 14] cm.
func Paper() Config {
	return Config{
		Length: 0.15, Width: 0.065, Height: 0.02,
		Radius: 0.47e-3, Density: 2650, Spacing: 1e-3,
		Speed: 1, Perturb: 0.5,
		Obstacle: Obstacle{X: 0.04, Y: 0.04, R: 0.01},
		Gravity:  9.81, Mu: 0.4,
		H: 1e-5, Epsilon: 0.7,
		Law:  friction.NBGS{MaxIter: 10, Tol: 1e-6, Domains: 16, Relax: 0.75},
		Fill: true, Seed: 1, SampleEvery: 1000,
		Cell: 1e-3, RDFX0: 0.12, RDFX1: 0.14,
	}
}

// Narrow is Paper in a channel 2 cm wide and 0.5 cm high with an obstacle
// of radius 0.4 cm at (4, 1) cm: 1/13 of the particles, the same flow
// length. It jams at the inflow: the spheres in front of the inflow plane
// slow to 0.3 m/s while it pushes at 1 m/s, and overlaps grow to 159 % of r
// by 0.08 s (measured; BENCHMARKS.md) — presumably wall friction holding
// the column, as its ratio of length to hydraulic radius is four times the
// paper's. Half, with the paper's ratio, is the scaled channel to use.
func Narrow() Config {
	c := Paper()
	c.Width, c.Height = 0.02, 0.005
	c.Obstacle = Obstacle{X: 0.04, Y: 0.01, R: 0.004}
	c.Law.Domains = 4
	return c
}

// Half is Paper with every length of the channel halved (7.5 × 3.25 × 1
// cm, the obstacle of radius 0.5 cm at (2, 2) cm, the RDF over x ∈ [6, 7]
// cm, 8 domains) and the spheres, time step and inflow unchanged: about
// 2.3·10⁴ spheres, and the same ratio of channel length to hydraulic
// radius (wall friction against inertia) as the paper's channel. Narrow,
// with four times that ratio, jams at its inflow (see BENCHMARKS.md).
func Half() Config {
	c := Paper()
	c.Length, c.Width, c.Height = 0.075, 0.0325, 0.01
	c.Obstacle = Obstacle{X: 0.02, Y: 0.02, R: 0.005}
	c.RDFX0, c.RDFX1 = 0.06, 0.07
	c.Law.Domains = 8
	return c
}

// Medium is Paper in a channel 4 cm wide and 1.5 cm high with an obstacle
// of radius 0.6 cm at (4, 2) cm: about 10⁵ spheres (a benchmark size).
func Medium() Config {
	c := Paper()
	c.Width, c.Height = 0.04, 0.015
	c.Obstacle = Obstacle{X: 0.04, Y: 0.02, R: 0.006}
	c.Law.Domains = 8
	return c
}

// Tiny is a 2 × 1 × 0.4 cm channel with an obstacle of radius 0.15 cm at
// (0.6, 0.5) cm (about 700 spheres; the test suite's version). A narrower
// gap beside the obstacle jams: with the inflow plane pushing at 1 m/s
// the sweeps cannot keep the jammed spheres apart (measured with a 0.8 cm
// channel and a 0.2 cm obstacle: overlaps up to 1.6 r even with 100
// sweeps).
func Tiny() Config {
	c := Paper()
	c.Length, c.Width, c.Height = 0.02, 0.01, 0.004
	c.Obstacle = Obstacle{X: 0.006, Y: 0.005, R: 0.0015}
	c.SampleEvery = 100
	c.RDFX0, c.RDFX1 = 0.012, 0.018
	c.Law.Domains = 2
	return c
}

// Check validates the configuration.
func (c *Config) Check() error {
	pos := func(name string, x float64) error {
		if !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("channelflow: %s = %v, want > 0", name, x)
		}
		return nil
	}
	for _, p := range []struct {
		n string
		x float64
	}{{"length", c.Length}, {"width", c.Width}, {"height", c.Height}, {"radius", c.Radius}, {"density", c.Density},
		{"spacing", c.Spacing}, {"speed", c.Speed}, {"time step", c.H}, {"map cell", c.Cell}} {
		if err := pos(p.n, p.x); err != nil {
			return err
		}
	}
	if c.Spacing < 2*c.Radius {
		return fmt.Errorf("channelflow: lattice spacing %v is below the diameter %v", c.Spacing, 2*c.Radius)
	}
	if c.Width < c.Spacing || c.Height < c.Spacing {
		return fmt.Errorf("channelflow: a %v × %v cross-section holds no lattice site of spacing %v", c.Width, c.Height, c.Spacing)
	}
	if !(c.Perturb >= 0) || !(c.Gravity >= 0) || !(c.Mu >= 0) || math.IsInf(c.Mu, 0) {
		return fmt.Errorf("channelflow: perturbation %v, gravity %v, friction %v: want finite values ≥ 0", c.Perturb, c.Gravity, c.Mu)
	}
	if !(c.Epsilon >= 0 && c.Epsilon < 1) {
		return fmt.Errorf("channelflow: error reduction ε = %v, want 0 ≤ ε < 1", c.Epsilon)
	}
	if c.SampleEvery < 1 {
		return fmt.Errorf("channelflow: sample interval %d, want ≥ 1", c.SampleEvery)
	}
	if o := c.Obstacle; o.R < 0 || o.R > 0 && (o.X-o.R < 0 || o.X+o.R > c.Length || o.Y-o.R < 0 || o.Y+o.R > c.Width) {
		return fmt.Errorf("channelflow: obstacle %+v does not fit the channel", o)
	}
	if !(c.RDFX1 > c.RDFX0) || c.RDFX0 < 0 || c.RDFX1 > c.Length {
		return fmt.Errorf("channelflow: RDF region [%v, %v] not inside [0, %v]", c.RDFX0, c.RDFX1, c.Length)
	}
	return c.Law.Check()
}

// Flow is a running channel flow.
type Flow struct {
	Cfg   Config
	Sys   *spheres.System
	Steps int
	Stats Stats
	step  spheres.Config
	src   *rand.PCG
	rng   *rand.Rand
	ranks *ranks // the decomposition across MPI ranks (Distribute), or nil
}

// New builds the channel, its walls, obstacle and inflow plane (plane 0),
// and the initial fill.
func New(cfg Config) (*Flow, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	s := &spheres.System{Gravity: [3]float64{0, 0, -cfg.Gravity}, Mu: cfg.Mu}
	s.Planes = []spheres.Plane{
		{N: [3]float64{1, 0, 0}, V: [3]float64{cfg.Speed, 0, 0}}, // inflow
		{N: [3]float64{0, 1, 0}},
		{P: [3]float64{0, cfg.Width, 0}, N: [3]float64{0, -1, 0}},
		{N: [3]float64{0, 0, 1}},
		{P: [3]float64{0, 0, cfg.Height}, N: [3]float64{0, 0, -1}},
	}
	if o := cfg.Obstacle; o.R > 0 {
		s.Cylinders = []spheres.Cylinder{{P: [3]float64{o.X, o.Y, 0}, A: [3]float64{0, 0, 1}, R: o.R}}
		s.Boxes = []spheres.Box{{C: [3]float64{o.X + o.R/2, o.Y, cfg.Height / 2}, Half: [3]float64{o.R / 2, o.R, cfg.Height/2 + cfg.Radius}}}
	}
	src := rand.NewPCG(cfg.Seed, 0x636861)
	f := &Flow{Cfg: cfg, Sys: s, src: src, rng: rand.New(src)}
	f.step = spheres.Config{H: cfg.H, Epsilon: cfg.Epsilon, Law: cfg.Law, SortEvery: cfg.SortEvery}
	if cfg.Fill {
		for x := cfg.Spacing / 2; x < cfg.Length; x += cfg.Spacing {
			f.layer(x) // no error in one process
		}
	}
	f.Stats.reset()
	return f, s.Validate()
}

// layer adds a lattice layer of spheres at x, skipping sites that overlap
// the obstacle. The random draws do not depend on which sites are kept,
// so every rank of a distributed flow draws the same velocities.
func (f *Flow) layer(x float64) error {
	c := &f.Cfg
	ny, nz := int(c.Width/c.Spacing+1e-9), int(c.Height/c.Spacing+1e-9)
	for iy := 0; iy < ny; iy++ {
		for iz := 0; iz < nz; iz++ {
			p := [3]float64{x, (float64(iy) + 0.5) * c.Spacing, (float64(iz) + 0.5) * c.Spacing}
			v := [3]float64{c.Speed, c.Perturb * (2*f.rng.Float64() - 1), c.Perturb * (2*f.rng.Float64() - 1)}
			if f.inObstacle(p, c.Radius) {
				continue
			}
			if err := f.add(p, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// inObstacle reports whether a sphere of radius r at p overlaps the
// obstacle.
func (f *Flow) inObstacle(p [3]float64, r float64) bool {
	o := f.Cfg.Obstacle
	if o.R == 0 {
		return false
	}
	dx, dy := p[0]-o.X, p[1]-o.Y
	if math.Hypot(dx, dy) < o.R+r {
		return true
	}
	return p[0] > o.X-r && p[0] < o.X+o.R+r && p[1] > o.Y-o.R-r && p[1] < o.Y+o.R+r
}

// Step advances one step: the spheres, then the inflow (when the plane has
// moved a diameter it moves back by one and a layer is spawned in front of
// it) and the outflow (spheres beyond x = Length are deleted). A
// distributed flow (Distribute) steps across its ranks (collective); a
// failure of the ranks is the statistics' Err.
func (f *Flow) Step() spheres.StepStats {
	var st spheres.StepStats
	if f.ranks != nil {
		if st = f.stepRanks(); st.Err != nil {
			return st
		}
	} else {
		st = f.Sys.Step(&f.step)
		f.Steps++
		f.inflow() // no error in one process
		L := f.Cfg.Length
		x := f.Sys.X
		f.Sys.Remove(func(i int) bool { return x[3*i] > L })
	}
	if err := f.Stats.add(f, &st); err != nil && st.Err == nil {
		st.Err = err
	}
	return st
}

// inflow moves the inflow plane back by a diameter and spawns a layer in
// front of it once it has travelled one.
func (f *Flow) inflow() error {
	c := &f.Cfg
	pl := f.inflowPlane()
	if d := 2 * c.Radius; pl.P[0] >= d*(1-1e-9) {
		pl.P[0] -= d
		if err := f.setInflowPlane(pl); err != nil {
			return err
		}
		return f.layer(pl.P[0] + c.Radius)
	}
	return nil
}

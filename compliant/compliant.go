package compliant

import (
	"errors"
	"fmt"
	"math"
)

// Ball is one ball at the instant of impact.
type Ball struct {
	X, Y, VX, VY, M, R float64
}

// Law selects the contact force law.
type Law int

// Contact laws.
const (
	Hertz  Law = iota // f = k δ^{3/2}
	Linear            // f = k δ
)

func (l Law) String() string {
	switch l {
	case Hertz:
		return "hertz"
	case Linear:
		return "linear"
	}
	return fmt.Sprintf("Law(%d)", int(l))
}

// Options configures Resolve. Zero values select the defaults.
type Options struct {
	Law Law
	// Stiffness k (default DefaultStiffness).
	Stiffness float64
	// RTol is the relative tolerance of the integrator (default 1e-14).
	RTol float64
	// Horizon is the free-flight look-ahead, in units of the elapsed
	// contact time, within which an approaching pair still counts as part
	// of the impact (default 10).
	Horizon float64
	// MaxSteps caps the integrator's steps (default 10⁶).
	MaxSteps int
}

// Defaults for Options.
const (
	DefaultStiffness = 1e8
	DefaultRTol      = 1e-14
	DefaultHorizon   = 10
	DefaultMaxSteps  = 1000000
)

// Result is the state after the impact.
type Result struct {
	// Balls holds the final positions and velocities.
	Balls []Ball
	// Duration is the simulated time from first contact to separation.
	Duration float64
	// Steps and Rejected count accepted and rejected integrator steps.
	Steps, Rejected int
}

// ErrNoSeparation is returned (wrapped) when the cap is reached before the
// balls separate.
var ErrNoSeparation = errors.New("compliant: balls did not separate within the step cap")

// Resolve integrates the compliant impact of balls (see the package
// documentation) and returns the post-impact state.
func Resolve(balls []Ball, opt Options) (Result, error) {
	if err := validate(balls); err != nil {
		return Result{}, err
	}
	if opt.Law != Hertz && opt.Law != Linear {
		return Result{}, fmt.Errorf("compliant: unknown law %v", opt.Law)
	}
	k := opt.Stiffness
	if k == 0 {
		k = DefaultStiffness
	}
	rtol := opt.RTol
	if rtol == 0 {
		rtol = DefaultRTol
	}
	horizon := opt.Horizon
	if horizon == 0 {
		horizon = DefaultHorizon
	}
	maxSteps := opt.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps
	}
	if !(k > 0) || math.IsInf(k, 0) || !(rtol > 0) || !(horizon > 0) || maxSteps < 0 {
		return Result{}, fmt.Errorf("compliant: invalid options (stiffness %v, rtol %v, horizon %v, max steps %d)", k, rtol, horizon, maxSteps)
	}
	s := newSystem(balls, opt.Law, k)
	res := Result{Balls: append([]Ball(nil), balls...)}
	// Natural scales.
	var vscale, mmin float64
	mmin = math.Inf(1)
	for i, a := range balls {
		mmin = math.Min(mmin, a.M)
		for _, b := range balls[i+1:] {
			vscale = math.Max(vscale, math.Hypot(a.VX-b.VX, a.VY-b.VY))
		}
	}
	if vscale == 0 || len(balls) < 2 {
		return res, nil // nothing moves relative to anything
	}
	eta := s.eta
	dscale := math.Pow(mmin*vscale*vscale/k, 1/(eta+1))
	n := len(balls)
	atol := make([]float64, 4*n)
	for i := 0; i < 2*n; i++ {
		atol[i] = rtol * dscale
		atol[2*n+i] = rtol * vscale
	}
	y := make([]float64, 4*n) // displacements, velocities
	for i, b := range balls {
		y[2*n+2*i], y[2*n+2*i+1] = b.VX, b.VY
	}
	d := newDopri(y, s.rhs)
	h := 0.01 * dscale / vscale
	t := 0.0
	for {
		if d.steps+d.rejected >= maxSteps {
			return res, fmt.Errorf("%w (%d steps, t = %g)", ErrNoSeparation, maxSteps, t)
		}
		hNext, ok := d.step(h, rtol, atol)
		if ok {
			t += h
			if s.done(d.y, t*horizon) {
				break
			}
		}
		h = hNext
	}
	for i := range res.Balls {
		b := &res.Balls[i]
		b.X += d.y[2*i]
		b.Y += d.y[2*i+1]
		b.VX, b.VY = d.y[2*n+2*i], d.y[2*n+2*i+1]
	}
	res.Duration = t
	res.Steps, res.Rejected = d.steps, d.rejected
	return res, nil
}

func validate(balls []Ball) error {
	for i, b := range balls {
		for _, x := range []float64{b.X, b.Y, b.VX, b.VY, b.M, b.R} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("compliant: ball %d has a non-finite value %v", i, x)
			}
		}
		if !(b.M > 0) || !(b.R > 0) {
			return fmt.Errorf("compliant: ball %d has mass %v and radius %v, want both > 0", i, b.M, b.R)
		}
	}
	return nil
}

// Energy returns the kinetic energy Σ ½ m|v|² of balls (the contact
// potential is zero once they have separated).
func Energy(balls []Ball) float64 {
	var e float64
	for _, b := range balls {
		e += 0.5 * b.M * (b.VX*b.VX + b.VY*b.VY)
	}
	return e
}

// Momentum returns the total linear momentum of balls.
func Momentum(balls []Ball) (px, py float64) {
	for _, b := range balls {
		px += b.M * b.VX
		py += b.M * b.VY
	}
	return px, py
}

// system evaluates the equations of motion.
type system struct {
	x0, y0, m, r []float64
	k, eta       float64
}

func newSystem(balls []Ball, law Law, k float64) *system {
	n := len(balls)
	s := &system{x0: make([]float64, n), y0: make([]float64, n), m: make([]float64, n), r: make([]float64, n), k: k, eta: 1.5}
	if law == Linear {
		s.eta = 1
	}
	for i, b := range balls {
		s.x0[i], s.y0[i], s.m[i], s.r[i] = b.X, b.Y, b.M, b.R
	}
	return s
}

func (s *system) force(delta float64) float64 {
	if s.eta == 1 {
		return s.k * delta
	}
	return s.k * delta * math.Sqrt(delta)
}

// rhs sets dy = (v, a) for y = (displacements, v). Pairs are visited in
// O(N²): the package is for chains and small clusters.
func (s *system) rhs(dy, y []float64) {
	n := len(s.m)
	copy(dy[:2*n], y[2*n:])
	acc := dy[2*n:]
	for i := range acc {
		acc[i] = 0
	}
	for i := 0; i < n; i++ {
		xi, yi := s.x0[i]+y[2*i], s.y0[i]+y[2*i+1]
		for j := i + 1; j < n; j++ {
			dx, dyy := xi-(s.x0[j]+y[2*j]), yi-(s.y0[j]+y[2*j+1])
			dist := math.Hypot(dx, dyy)
			delta := s.r[i] + s.r[j] - dist
			if delta <= 0 {
				continue
			}
			f := s.force(delta)
			fx, fy := f*dx/dist, f*dyy/dist
			acc[2*i] += fx / s.m[i]
			acc[2*i+1] += fy / s.m[i]
			acc[2*j] -= fx / s.m[j]
			acc[2*j+1] -= fy / s.m[j]
		}
	}
}

// done reports whether no pair overlaps and no approaching pair would touch
// within time horizon of free flight.
func (s *system) done(y []float64, horizon float64) bool {
	n := len(s.m)
	for i := 0; i < n; i++ {
		xi, yi := s.x0[i]+y[2*i], s.y0[i]+y[2*i+1]
		for j := i + 1; j < n; j++ {
			dx, dyy := xi-(s.x0[j]+y[2*j]), yi-(s.y0[j]+y[2*j+1])
			dist := math.Hypot(dx, dyy)
			gap := dist - s.r[i] - s.r[j]
			if gap <= 0 {
				return false
			}
			w := ((y[2*n+2*i]-y[2*n+2*j])*dx + (y[2*n+2*i+1]-y[2*n+2*j+1])*dyy) / dist
			if w < 0 && gap < -w*horizon {
				return false
			}
		}
	}
	return true
}

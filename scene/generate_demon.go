package scene

import (
	"fmt"
	"math/rand/v2"

	"impactsim/motion"
)

// DemonParams sets up the granular Maxwell's demon of Smith et al. 2012,
// §11.3 (Fig. 11; van der Weele et al. 2001): two identical grids of
// unit-mass balls in a box split by a fence of partial height, the floor
// and the fence shaken vertically together at one frequency and
// amplitude.
type DemonParams struct {
	PerSide   int     // balls on each side (144: Fig. 11's 288 in all)
	Cols      int     // columns of each side's grid
	R         float64 // ball radius
	CoR       float64 // restitution (0.6 in Fig. 11)
	HalfWidth float64 // width of each compartment
	Fence     float64 // height of the fence's top above the floor
	Gravity   float64 // g
	Frequency float64 // shaking frequency f
	Amplitude float64 // shaking amplitude A (Γ = A(2πf)²/g)
	Speed     float64 // standard deviation of the initial velocities' components
	Seed      uint64
	Dt        float64
}

// DefaultDemon returns Fig. 11's set-up in units of the ball diameter d:
// 288 unit-mass balls of diameter 1 (144 per side, 28 columns of 6 rows
// spaced 1.2), c = 0.6, compartments 36 wide, a fence 8 high, g = 9.81,
// shaking at f = 5 (f√(d/g) = 1.6) with amplitude 0.8 (Γ ≈ 80, where
// the balls cluster), initial velocities N(0, 1), h = 0.002.
func DefaultDemon() DemonParams {
	return DemonParams{PerSide: 144, Cols: 28, R: 0.5, CoR: 0.6, HalfWidth: 36, Fence: 8, Gravity: 9.81,
		Frequency: 5, Amplitude: 0.8, Speed: 1, Seed: 1, Dt: 0.002}
}

// Gamma returns the dimensionless shaking acceleration Γ = A(2πf)²/g.
func (p DemonParams) Gamma() float64 { return motion.Gamma(p.Amplitude, p.Frequency, p.Gravity) }

// MaxwellDemon builds the scene: the floor y = 0, side walls at
// x = ±(HalfWidth + R), a lid at 8 fence heights, and the fence, a column
// of fixed balls of radius R at x = 0 from the floor to height Fence. The
// floor and the fence follow y = A sin(2πf t) (<motion>); the free balls
// start on two mirror-image grids (spacing 2.4R, the lowest row at 2R)
// with independent velocities drawn from N(0, Speed²) per component (a
// mirror-symmetric start would stay symmetric under GR, which preserves
// symmetry: the random velocities are what may break it); the left side's
// balls come first, then the right side's, then the fence's. GR resolves the contacts.
func MaxwellDemon(p DemonParams) *Ball2DScene {
	if p.PerSide < 1 || p.Cols < 1 || !(p.R > 0) || !(p.Frequency > 0) || !(p.Dt > 0) {
		panic(fmt.Sprintf("scene: MaxwellDemon: bad parameters %+v", p))
	}
	op := grOperator()
	op.CoR = p.CoR
	s := &Ball2DScene{
		Source:         fmt.Sprintf("generated:MaxwellDemon(A=%g,f=%g,seed=%d)", p.Amplitude, p.Frequency, p.Seed),
		Integrator:     Integrator{Type: "verlet", Dt: p.Dt},
		ImpactOperator: op,
		Gravity:        Gravity{Y: -p.Gravity},
	}
	w := p.HalfWidth + p.R // wall planes touch the fence's outer balls' line
	s.Planes = []Plane{{X: 0, Y: 0, NX: 0, NY: 1}, {X: -w, Y: 0, NX: 1, NY: 0}, {X: w, Y: 0, NX: -1, NY: 0}, {X: 0, Y: 8 * p.Fence, NX: 0, NY: -1}}
	rng := rand.New(rand.NewPCG(p.Seed, 0xde70_11a2_b5a1_0001))
	sp := 2.4 * p.R
	x0 := 2*p.R + sp/2 // first column's distance from the fence
	var right []Ball
	for k := 0; k < p.PerSide; k++ {
		row, col := k/p.Cols, k%p.Cols
		x := x0 + float64(col)*sp
		y := 2*p.R + float64(row)*sp
		s.Balls = append(s.Balls, Ball{X: -x, Y: y, VX: p.Speed * rng.NormFloat64(), VY: p.Speed * rng.NormFloat64(), M: 1, R: p.R})
		right = append(right, Ball{X: x, Y: y, VX: p.Speed * rng.NormFloat64(), VY: p.Speed * rng.NormFloat64(), M: 1, R: p.R})
	}
	s.Balls = append(s.Balls, right...)
	osc := MotionTerm{Kind: "oscillation", Axis: [3]float64{0, 1, 0}, Amplitude: p.Amplitude, Frequency: p.Frequency}
	s.Motions = []Motion{{Target: "static_plane", Index: 0, Terms: []MotionTerm{osc}}}
	for y := p.R; y <= p.Fence-p.R+1e-9; y += 2 * p.R {
		s.Motions = append(s.Motions, Motion{Target: "ball", Index: len(s.Balls), Terms: []MotionTerm{osc}})
		s.Balls = append(s.Balls, Ball{X: 0, Y: y, M: 1, R: p.R, Fixed: true})
	}
	s.Camera = &Camera{CX: 0, CY: 0.7 * w, ScaleFactor: 1.1 * w, FPS: 50, RenderAtFPS: true}
	return s
}

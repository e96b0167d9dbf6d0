package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ShockParams sets up the shock wave after one shake of Zhang et al.
// (Fig. 8, after Jaeger et al. 1996): grains settled in a container, then
// the container (floor and walls) given a single vertical shake.
type ShockParams struct {
	N         int     // grains (4,000 in Fig. 8)
	Width     float64 // inside width of the container, in grain diameters
	R         float64 // mean grain radius (radii uniform in [0.9R, 1.1R])
	CoR, Mu   float64 // restitution and friction (0.3 and 0.2 in Fig. 8)
	Gravity   float64 // g
	Amplitude float64 // amplitude of the shake
	Frequency float64 // frequency of the shake (one period)
	Start     float64 // time the shake starts
	Seed      uint64
	Dt        float64
}

// DefaultShock returns Fig. 8's set-up in units of the grain diameter:
// 4,000 grains of radius 0.45…0.55 in a container 80 wide, c = 0.3,
// μ = 0.2, g = 9.81, one smooth shake of height 1 at f = 2 from t = 0
// (peak acceleration A/2·(2πf)² ≈ 8g), h = 0.001.
func DefaultShock() ShockParams {
	return ShockParams{N: 4000, Width: 80, R: 0.5, CoR: 0.3, Mu: 0.2, Gravity: 9.81, Amplitude: 1, Frequency: 2, Start: 0, Seed: 1, Dt: 0.001}
}

// ShockGrains returns the grains of the pile before settling: rows of
// grains of random radius in [0.9R, 1.1R] spaced 2.3R, every other row
// offset by half a spacing (so that they nest as they settle), with a
// small random offset, from the floor up, at rest; mass ∝ radius².
func ShockGrains(p ShockParams) []Ball {
	rng := rand.New(rand.NewPCG(p.Seed, 0x5ec0_c4a7_0000_0001))
	sp := 2.3 * p.R
	cols := int(math.Floor((p.Width-2.3*p.R)/sp - 0.5)) // odd rows are offset by half a spacing
	var b []Ball
	for k := 0; k < p.N; k++ {
		row, col := k/cols, k%cols
		x := -p.Width/2 + 1.15*p.R + (float64(col)+0.5*float64(row%2))*sp + 0.1*p.R*rng.Float64()
		y := 1.15*p.R + float64(row)*sp + 0.1*p.R*rng.Float64()
		b = append(b, Ball{X: x, Y: y, M: 1, R: p.R * (0.9 + 0.2*rng.Float64())})
	}
	for i := range b { // mass ∝ area
		b[i].M = (b[i].R / p.R) * (b[i].R / p.R)
	}
	return b
}

// ShockContainer returns the scene of grains in the container (floor
// y = 0, walls at x = ±Width/2) with gravity and, if shake, the container's
// one smooth shake (it starts and ends at rest): its three walls rise by A
// and come back down, y(t) = (A/2)(1 − cos 2πf(t − Start)) from Start to
// Start + 1/f (an oscillation of amplitude A/2 and phase −π/2).
// Restitution and friction are the caller's (options and law).
func ShockContainer(p ShockParams, grains []Ball, shake bool) *Ball2DScene {
	if !(p.Dt > 0) || !(p.Frequency > 0) || !(p.Width > 4*p.R) {
		panic(fmt.Sprintf("scene: ShockContainer: bad parameters %+v", p))
	}
	s := &Ball2DScene{
		Source:     fmt.Sprintf("generated:ShockWave(N=%d,A=%g,f=%g)", len(grains), p.Amplitude, p.Frequency),
		Integrator: Integrator{Type: "verlet", Dt: p.Dt},
		Gravity:    Gravity{Y: -p.Gravity},
		Balls:      append([]Ball(nil), grains...),
	}
	w := p.Width / 2
	s.Planes = []Plane{{X: 0, Y: 0, NX: 0, NY: 1}, {X: -w, Y: 0, NX: 1, NY: 0}, {X: w, Y: 0, NX: -1, NY: 0}}
	if shake {
		osc := MotionTerm{Kind: "oscillation", Axis: [3]float64{0, 1, 0}, Amplitude: p.Amplitude / 2, Frequency: p.Frequency, Phase: -math.Pi / 2,
			Start: p.Start, Stop: p.Start + 1/p.Frequency}
		for i := range s.Planes {
			s.Motions = append(s.Motions, Motion{Target: "static_plane", Index: i, Terms: []MotionTerm{osc}})
		}
	}
	var top float64
	for _, b := range grains {
		top = math.Max(top, b.Y)
	}
	s.Camera = &Camera{CX: 0, CY: 0.5 * top, ScaleFactor: 0.55 * math.Max(p.Width, 4*top/3), FPS: 50, RenderAtFPS: true}
	return s
}

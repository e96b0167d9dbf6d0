package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// grOperator is the impact operator of SCISim's examples_gr scenes:
// Generalized Reflections with an Ipopt-solved inner LCP.
func grOperator() ImpactOperatorConfig {
	return ImpactOperatorConfig{
		Type: "gr", CoR: 1, VTol: 1e-9, Solver: "ipopt",
		SolverConfig: &SolverConfig{
			Name: "ipopt", Tol: 1e-12,
			LinearSolvers: []string{"ma97", "ma57", "mumps", "ma27", "ma86"},
		},
	}
}

// rackX holds the x coordinates of the columns of SCISim's pool rack, exactly
// as pool_break_standard.xml spells them (they are not k·√3/2 rounded).
var rackX = [5]float64{
	0,
	0.86602540378443870761060452423407696187496185302734375,
	1.7320508075688774152212090484681539237499237060546875,
	2.598076211353316011809511110186576843261718750,
	3.464101615137754830442418096936307847499847412109375,
}

// PoolBreak returns SCISim's examples_gr/pool_break_standard.xml: a
// triangular rack of 15 balls in five columns (r = 0.500001 at unit spacing,
// so neighbours overlap by 2·10⁻⁶) hit by a cue ball from x = −4 moving at
// +1 — 16 balls in all — with Verlet, h = 0.1, elastic GR.
func PoolBreak() *Ball2DScene {
	s := &Ball2DScene{
		Source:         "generated:PoolBreak",
		Integrator:     Integrator{Type: "verlet", Dt: 0.1},
		ImpactOperator: grOperator(),
		Camera:         &Camera{CX: 1.52627, CY: 0, ScaleFactor: 6.19968, FPS: 10},
	}
	const r = 0.500001
	s.Balls = append(s.Balls, Ball{X: -4, VX: 1, M: 1, R: r})
	for k := 0; k < 5; k++ {
		for j := 0; j <= k; j++ {
			y := float64(k)/2 - float64(j)
			if y == 0 && j > 0 {
				y = math.Copysign(0, -1) // the file writes "-0.0" here
			}
			s.Balls = append(s.Balls, Ball{X: rackX[k], Y: y, M: 1, R: r})
		}
	}
	return s
}

// NewtonsCradle returns a row of n ≥ 2 touching balls (r = 0.500001 at unit
// spacing) of which the first, at x = −2, moves at +2 toward the others at
// rest on x = 0, 1, …, n−2. NewtonsCradle(3) is SCISim's
// examples_gr/newtons_cradle.xml (Verlet, h = 10⁻³, elastic GR).
func NewtonsCradle(n int) *Ball2DScene {
	if n < 2 {
		panic(fmt.Sprintf("scene: NewtonsCradle needs at least 2 balls, got %d", n))
	}
	s := &Ball2DScene{
		Source:         "generated:NewtonsCradle",
		Integrator:     Integrator{Type: "verlet", Dt: 0.001},
		ImpactOperator: grOperator(),
	}
	if n == 3 {
		s.Camera = &Camera{CX: 0.726622, ScaleFactor: 3.45072, FPS: 50, RenderAtFPS: true}
	} else {
		lo, hi := -2.5, float64(n-2)+0.5
		s.Camera = &Camera{CX: (lo + hi) / 2, ScaleFactor: (hi - lo) / 2 * 1.15, FPS: 50, RenderAtFPS: true}
	}
	const r = 0.500001
	s.Balls = append(s.Balls, Ball{X: -2, VX: 2, M: 1, R: r})
	for i := 0; i < n-1; i++ {
		s.Balls = append(s.Balls, Ball{X: float64(i), M: 1, R: r})
	}
	return s
}

// Bernoulli returns SCISim's examples_gr/bernoullis_problem.xml: a ball moving
// at +2 along the x axis toward two touching balls stacked symmetrically about
// it (r = 0.5), Verlet with h = 10⁻², elastic GR.
func Bernoulli() *Ball2DScene {
	return &Ball2DScene{
		Source:         "generated:Bernoulli",
		Integrator:     Integrator{Type: "verlet", Dt: 0.01},
		ImpactOperator: grOperator(),
		Camera:         &Camera{CX: 0.775488, ScaleFactor: 3.69532, FPS: 50, RenderAtFPS: true},
		Balls: []Ball{
			{X: -2, VX: 2, M: 1, R: 0.5},
			{X: 0, Y: 0.5, M: 1, R: 0.5},
			{X: 0, Y: -0.5, M: 1, R: 0.5},
		},
	}
}

// DrumGridSpacing is the centre-to-centre spacing of the unit balls of
// DrumGrid (Smith et al. 2012, §11.2, Table 2).
const DrumGridSpacing = 2.25

// DrumGrid returns the drum-scaling setup of Smith et al. 2012, §11.2 and
// Table 2: n unit-radius, unit-mass balls on a square grid of spacing 2.25
// inside a circular drum centred on the origin, elastic (CoR = 1) GR, Verlet
// with h = 0.01.
//
// The grid has side k = ⌈√n⌉ and is centred on the origin; the balls fill its
// first n cells row by row from the bottom-left (so a non-square n leaves the
// top row partly empty). The drum radius is ⌈d + 2⌉ where d is the distance
// from the origin to the farthest ball centre.
//
// mode "drop": balls at rest under gravity (0, −10). mode "gas": no gravity,
// every ball gets a unit-speed velocity in a uniformly random direction drawn
// from a math/rand/v2 PCG source seeded with seed (ignored for "drop").
//
// DrumGrid panics if n < 1 or mode is neither "drop" nor "gas".
func DrumGrid(n int, mode string, seed int64) *Ball2DScene {
	if n < 1 {
		panic(fmt.Sprintf("scene: DrumGrid needs n ≥ 1, got %d", n))
	}
	if mode != "drop" && mode != "gas" {
		panic(fmt.Sprintf("scene: DrumGrid mode must be \"drop\" or \"gas\", got %q", mode))
	}
	s := &Ball2DScene{
		Source:         fmt.Sprintf("generated:DrumGrid(%d,%s,%d)", n, mode, seed),
		Integrator:     Integrator{Type: "verlet", Dt: 0.01},
		ImpactOperator: grOperator(),
	}
	k := int(math.Ceil(math.Sqrt(float64(n))))
	for k*k < n { // guard against rounding in Sqrt
		k++
	}
	for (k-1)*(k-1) >= n && k > 1 {
		k--
	}
	half := float64(k-1) / 2
	var dmax float64
	for c := 0; c < n; c++ {
		row, col := c/k, c%k
		x := (float64(col) - half) * DrumGridSpacing
		y := (float64(row) - half) * DrumGridSpacing
		dmax = math.Max(dmax, math.Hypot(x, y))
		s.Balls = append(s.Balls, Ball{X: x, Y: y, M: 1, R: 1})
	}
	R := math.Ceil(dmax + 2)
	s.Drums = []Drum{{R: R}}
	s.Camera = &Camera{ScaleFactor: 1.1 * R, FPS: 50, RenderAtFPS: true}
	switch mode {
	case "drop":
		s.Gravity = Gravity{Y: -10}
	case "gas":
		rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed_ba11_d8a3_0001))
		for i := range s.Balls {
			th := 2 * math.Pi * rng.Float64()
			s.Balls[i].VX, s.Balls[i].VY = math.Cos(th), math.Sin(th)
		}
	}
	return s
}

// DrumRandom9x9 returns the long-term energy test of Smith et al. 2012, §9
// ("Long-term kinetic energy conservation"): a 9×9 grid of unit balls in a
// drum with random unit-speed velocities, zero gravity, h = 0.01, elastic GR.
// It is DrumGrid(81, "gas", seed) under its own name.
func DrumRandom9x9(seed int64) *Ball2DScene {
	s := DrumGrid(81, "gas", seed)
	s.Source = fmt.Sprintf("generated:DrumRandom9x9(%d)", seed)
	return s
}

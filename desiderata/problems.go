package desiderata

import (
	"fmt"
	"math"

	"impactsim/mech"
)

// Ball is a 2D ball at the instant of impact.
type Ball struct {
	X, Y, VX, VY, M, R float64
}

// TouchTol is how far apart (in units of length) two balls may be and still
// count as touching when Balls2D builds contacts.
const TouchTol = 1e-9

// Balls2D builds the instantaneous problem of 2D balls at an instant of
// contact: one contact for every pair with |xᵢ − xⱼ| ≤ rᵢ + rⱼ + TouchTol,
// ordered by (i, j), gradient +n on ball i and −n on ball j with
// n = (xᵢ − xⱼ)/|xᵢ − xⱼ|, one tangent column each, restitution cor and
// friction mu. Each ball is one 2×2 block of M⁻¹.
func Balls2D(balls []Ball, cor, mu float64) *mech.Problem {
	p := &mech.Problem{}
	n := 2 * len(balls)
	p.Reset(2, n)
	for i, b := range balls {
		p.M.AppendScalarBlock(2, b.M)
		p.MInv.AppendScalarBlock(2, 1/b.M)
		p.V[2*i], p.V[2*i+1] = b.VX, b.VY
	}
	for i := range balls {
		for j := i + 1; j < len(balls); j++ {
			dx, dy := balls[i].X-balls[j].X, balls[i].Y-balls[j].Y
			d := math.Hypot(dx, dy)
			if d > balls[i].R+balls[j].R+TouchTol {
				continue
			}
			nx, ny := dx/d, dy/d
			p.G.Append(2*i, nx)
			p.G.Append(2*i+1, ny)
			p.G.Append(2*j, -nx)
			p.G.Append(2*j+1, -ny)
			p.G.EndCol()
			p.D.Append(2*i, -ny)
			p.D.Append(2*i+1, nx)
			p.D.Append(2*j, ny)
			p.D.Append(2*j+1, -nx)
			p.D.EndCol()
			p.DContact = append(p.DContact, p.NContacts()-1)
			p.CoR = append(p.CoR, cor)
			p.Mu = append(p.Mu, mu)
			p.Bodies = append(p.Bodies, i, j)
		}
	}
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("desiderata: built an invalid problem: %v", err))
	}
	return p
}

// NewtonsCradle returns n unit balls (r = 0.5) touching in a line along x,
// the first moving at speed v towards the rest (the paper's §3 example with
// n = 3, v = 2).
func NewtonsCradle(n int, v, cor float64) *mech.Problem {
	balls := make([]Ball, n)
	for i := range balls {
		balls[i] = Ball{X: float64(i), M: 1, R: 0.5}
	}
	balls[0].VX = v
	return Balls2D(balls, cor, 0)
}

// Bernoulli returns Bernoulli's problem: unit balls of radius 0.5, ball 0
// moving at speed 2 along x into balls 1 and 2, which touch each other and
// sit symmetrically about the x axis; ball 0 touches both.
func Bernoulli(cor float64) *mech.Problem {
	balls := []Ball{
		{X: -math.Sqrt(0.75), Y: 0, VX: 2, M: 1, R: 0.5},
		{X: 0, Y: 0.5, M: 1, R: 0.5},
		{X: 0, Y: -0.5, M: 1, R: 0.5},
	}
	return Balls2D(balls, cor, 0)
}

// ThreeBallChain returns the three-ball chain of Zhang et al. §5.1 (Fig. 2):
// unit balls A, B, C of radius 0.5 touching in a line along x, B at rest,
// A moving right at va and C moving left at v0, restitution cor.
func ThreeBallChain(va, v0, cor float64) *mech.Problem {
	balls := []Ball{
		{X: 0, VX: va, M: 1, R: 0.5},
		{X: 1, M: 1, R: 0.5},
		{X: 2, VX: -v0, M: 1, R: 0.5},
	}
	return Balls2D(balls, cor, 0)
}

// DisturbedCradle returns Newton's cradle of Zhang et al. Fig. 12: n unit
// balls (r = 0.5) touching in a line, the first moving at v0 towards the
// rest, with a random disturbance of size eps·v0 added to every relative
// velocity: ball i ≥ 1 gets vᵢ = eps·v0·Σ_{j≤i} ξⱼ with ξⱼ uniform in
// [−1, 1) from rng, so the relative velocity of contact (i−1, i) changes by
// eps·v0·ξᵢ. The ideal outcome is (0, …, 0, v0).
func DisturbedCradle(n int, v0, eps float64, rng interface{ Float64() float64 }) *mech.Problem {
	balls := make([]Ball, n)
	acc := 0.0
	for i := range balls {
		balls[i] = Ball{X: float64(i), M: 1, R: 0.5}
		if i > 0 {
			acc += eps * v0 * (2*rng.Float64() - 1)
			balls[i].VX = acc
		}
	}
	balls[0].VX = v0
	return Balls2D(balls, 1, 0)
}

package friction

import (
	"fmt"
	"math"

	"impactsim/mech"
)

// TangentialRestitution turns a friction solution β that stops the
// sliding — Alg. 3 (MaxDissipation): a sticking contact's tangential
// velocity along its friction direction becomes 0 — into one that
// reverses it by b0, the tangential restitution of Walton's collision
// model that Bizon et al. use for the vibrated layer (β₀ = 0.35): every
// contact's friction impulse is scaled by 1 + b0 and clipped to its
// Coulomb bound μλ, so that a contact whose impulse was already at the
// bound (sliding) is unchanged. Walton: the tangential velocity after a
// binary collision is −β v_t with β = min(β₀, the Coulomb-limited
// value); for a single contact (or an island whose contacts all stick)
// this is that law exactly, for coupled contacts of which some slide an
// approximation. With b0 ≤ 1 and no clipping the friction impulses still
// dissipate energy (the kinetic energy along s·β is convex in s, least at
// s = 1 and back at its s = 0 value at s = 2). b0 = 0 leaves β unchanged.
func TangentialRestitution(p *mech.Problem, lambda, beta []float64, b0 float64) error {
	if !(b0 >= 0 && b0 <= 1) {
		return fmt.Errorf("friction: tangential restitution β₀ = %v, want 0 ≤ β₀ ≤ 1", b0)
	}
	if b0 == 0 {
		return nil
	}
	nd := p.NTangents() // stored D or the matrix-free basis
	for c0 := 0; c0 < nd; {
		k := p.TangentContact(c0)
		c1 := c0
		for c1 < nd && p.TangentContact(c1) == k {
			c1++
		}
		var n2 float64
		for j := c0; j < c1; j++ {
			n2 += beta[j] * beta[j]
		}
		if bound := p.Mu[k] * lambda[k]; n2 > 0 && bound > 0 {
			norm := math.Sqrt(n2)
			if s := math.Min(1+b0, bound/norm); s > 1 {
				for j := c0; j < c1; j++ {
					beta[j] *= s
				}
			}
		}
		c0 = c1
	}
	return nil
}

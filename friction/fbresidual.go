package friction

import "math"

// fbError is so-bogus's error of one contact of the Coulomb problem
// (Daviet et al., the residual SCISim's sobogus_friction_solver compares
// with its tol): with the impulse x = s·(λ, β) scaled by
// s = max(1, tr(W_kk)/d), the relative velocity y = (u_n, u_t) after De
// Saxcé's change of variable y_n ← u_n + μ‖u_t‖, and
// x̂ = (μ x_n, x_t), ŷ = (y_n, μ y_t),
//
//	FB(x̂, ŷ) = x̂ + ŷ − (x̂² + ŷ²)^½   (Jordan algebra of the second-order cone),
//
// the error is ‖FB‖² (for μ = 0: (x_n + y_n − √(x_n² + y_n²))² + ‖x_t‖²).
// It is zero exactly when (λ, β, u) satisfy Coulomb's law. The square root
// of z = (z₀, z_t) is √λ₁ ω₁ + √λ₂ ω₂ with λ₁,₂ = z₀ ∓ 2‖z_t‖ and
// ω₁,₂ = ½(1, ∓z_t/‖z_t‖), where z₀ = ‖x̂‖² + ‖ŷ‖² and z_t = x̂_n x̂_t + ŷ_n ŷ_t.
// x and y hold d = 1, 2 or 3 entries (normal first).
func fbError(x, y []float64, mu float64) float64 {
	d := len(x)
	var xt, yt [2]float64
	copy(xt[:], x[1:d])
	copy(yt[:], y[1:d])
	ynt := math.Hypot(yt[0], yt[1])
	yn := y[0] + mu*ynt
	if mu == 0 {
		f := x[0] + yn - math.Hypot(x[0], yn)
		return f*f + xt[0]*xt[0] + xt[1]*xt[1]
	}
	xn := mu * x[0]
	yt[0], yt[1] = mu*yt[0], mu*yt[1]
	z0 := xn*xn + xt[0]*xt[0] + xt[1]*xt[1] + yn*yn + yt[0]*yt[0] + yt[1]*yt[1]
	zt := [2]float64{xn*xt[0] + yn*yt[0], xn*xt[1] + yn*yt[1]}
	nz := math.Hypot(zt[0], zt[1])
	var e [2]float64 // unit direction of z_t (first tangent if z_t = 0)
	if nz == 0 {
		e[0] = 1
	} else {
		e[0], e[1] = zt[0]/nz, zt[1]/nz
	}
	l1 := math.Sqrt(math.Max(0, z0-2*nz))
	l2 := math.Sqrt(z0 + 2*nz)
	fn := xn + yn - 0.5*(l1+l2)
	f1 := xt[0] + yt[0] - 0.5*(l2-l1)*e[0]
	f2 := xt[1] + yt[1] - 0.5*(l2-l1)*e[1]
	if d == 2 {
		f2 = 0
	}
	return fn*fn + f1*f1 + f2*f2
}

package singlecontact

import "math"

// Problem is the canonical single-contact frictional impact problem of
// Preclik et al. (sec. 3.2): in the contact frame (n, t, o), find the
// impulse x = (x_n, x_t, x_o) that minimizes the kinetic-energy change
//
//	f(x) = ½ xᵀA x − xᵀb
//
// subject to the friction cone ‖(x_t, x_o)‖ ≤ μ x_n, Signorini's condition
// with inelastic impact (Aᵀx − b)_n ≥ 0 ⊥ x_n ≥ 0, and (A x)_n ≥ 0. The
// post-impulse relative velocity is A x − b.
type Problem struct {
	// A is the contact's Delassus block (eq. 2), symmetric positive
	// definite. Only the upper triangle is read.
	A [3][3]float64
	// B is the negated predicted relative velocity, b = −Wᵀ(u⁻ + M⁻¹Δp).
	// B[0] > 0 means the contact is colliding.
	B [3]float64
	// Mu is the friction coefficient, μ ≥ 0.
	Mu float64
}

// Objective returns f(x) = ½xᵀAx − xᵀb, the change of kinetic energy the
// impulse x causes.
func (p *Problem) Objective(x [3]float64) float64 {
	a := &p.A
	ax0 := a[0][0]*x[0] + a[0][1]*x[1] + a[0][2]*x[2]
	ax1 := a[0][1]*x[0] + a[1][1]*x[1] + a[1][2]*x[2]
	ax2 := a[0][2]*x[0] + a[1][2]*x[1] + a[2][2]*x[2]
	return 0.5*(x[0]*ax0+x[1]*ax1+x[2]*ax2) - (x[0]*p.B[0] + x[1]*p.B[1] + x[2]*p.B[2])
}

// Velocity returns the post-impulse relative velocity A x − b in the
// contact frame.
func (p *Problem) Velocity(x [3]float64) [3]float64 {
	a := &p.A
	return [3]float64{
		a[0][0]*x[0] + a[0][1]*x[1] + a[0][2]*x[2] - p.B[0],
		a[0][1]*x[0] + a[1][1]*x[1] + a[1][2]*x[2] - p.B[1],
		a[0][2]*x[0] + a[1][2]*x[1] + a[2][2]*x[2] - p.B[2],
	}
}

// Sticking returns x₀ = A⁻¹b, the impulse that brings the contact to rest,
// and whether it is admissible (P1 of Fig. 3: x₀,n ≥ 0 and
// ‖x₀,to‖ ≤ μ x₀,n).
func (p *Problem) Sticking() ([3]float64, bool) {
	x := solveSPD3(&p.A, p.B)
	return x, x[0] >= 0 && math.Sqrt(x[1]*x[1]+x[2]*x[2]) <= p.Mu*x[0]
}

// solveSPD3 solves A x = b for a symmetric positive definite 3×3 A (upper
// triangle) by the factorization A = LDLᵀ, which is backward stable (the
// residual is O(ε‖A‖‖x‖) even for ill-conditioned blocks).
func solveSPD3(a *[3][3]float64, b [3]float64) [3]float64 {
	d0 := a[0][0]
	l10 := a[0][1] / d0
	l20 := a[0][2] / d0
	d1 := a[1][1] - l10*a[0][1]
	e := a[1][2] - l20*a[0][1]
	l21 := e / d1
	d2 := a[2][2] - l20*a[0][2] - l21*e
	y1 := b[1] - l10*b[0]
	y2 := b[2] - l20*b[0] - l21*y1
	x2 := y2 / d2
	x1 := y1/d1 - l21*x2
	x0 := b[0]/d0 - l10*x1 - l20*x2
	return [3]float64{x0, x1, x2}
}

// conic holds the data of the sliding problem on the plane of maximum
// compression a_nᵀx = b_n (sec. 3.2): the boundary of the cone on that
// plane is the conic γ(α) = r(α)(cos α, sin α), r = μ b_n / f_r(α),
// f_r(α) = A_nn + μ s cos(α − α₀), s = ‖(A_nt, A_no)‖, α₀ = atan2(A_no,
// A_nt); x_n = (b_n − A_nt γ_t − A_no γ_o)/A_nn. On the plane the
// objective is f_obj(γ) = ½γᵀÂγ − γᵀb̂ − b_n²/(2A_nn) with the Schur
// complement Â and the reduced b̂.
type conic struct {
	ann, ant, ano float64
	iann          float64 // 1/A_nn
	bn            float64
	mu            float64
	s             float64
	htt, hto, hoo float64 // Â
	bt, bo        float64 // b̂
}

// newConic returns the conic of A and b (b_n = b[0]) for friction μ.
func newConic(a *[3][3]float64, b *[3]float64, mu float64) conic {
	bn := b[0]
	c := conic{ann: a[0][0], ant: a[0][1], ano: a[0][2], bn: bn, mu: mu}
	c.s = math.Sqrt(c.ant*c.ant + c.ano*c.ano)
	inv := 1 / c.ann
	c.iann = inv
	at, ao := c.ant*inv, c.ano*inv
	c.htt = a[1][1] - c.ant*at
	c.hto = a[1][2] - c.ano*at
	c.hoo = a[2][2] - c.ano*ao
	c.bt = b[1] - bn*at
	c.bo = b[2] - bn*ao
	return c
}

// ellipse reports whether the conic is bounded (A_nn > μ s): then every
// direction α is admissible; otherwise α must lie in
// I = ]α₀ − Δα, α₀ + Δα[, Δα = acos(−A_nn/(μ s)) (eq. 6).
func (c *conic) ellipse() bool { return c.ann > c.mu*c.s }

// a0 returns α₀ = atan2(A_no, A_nt).
func (c *conic) a0() float64 { return math.Atan2(c.ano, c.ant) }

// fr returns f_r(α) = A_nn + μ s cos(α − α₀) = A_nn + μ(A_nt cos α +
// A_no sin α) at u = (cos α, sin α); α ∈ I iff f_r(α) > 0.
func (c *conic) fr(u unit) float64 { return c.ann + c.mu*(c.ant*u.c+c.ano*u.s) }

// point returns the impulse on the conic in direction u (f_r > 0).
func (c *conic) point(u unit) [3]float64 {
	r := c.mu * c.bn / c.fr(u)
	return c.fromTangential(r*u.c, r*u.s)
}

// angle returns the unit vector of angle α.
func angle(al float64) unit {
	s, c := math.Sincos(al)
	return unit{c, s}
}

// fromTangential returns the impulse on the plane a_nᵀx = b_n with
// tangential part (gt, go).
func (c *conic) fromTangential(gt, gto float64) [3]float64 {
	return [3]float64{(c.bn - c.ant*gt - c.ano*gto) * c.iann, gt, gto}
}

// fobj returns ½γᵀÂγ − γᵀb̂ for the tangential impulse γ.
func (c *conic) fobj(gt, gto float64) float64 {
	return 0.5*(c.htt*gt*gt+2*c.hto*gt*gto+c.hoo*gto*gto) - (gt*c.bt + gto*c.bo)
}

// rayDirs returns the directions α₀ ∓ Δα of the cone's boundary on the
// plane through the origin (b_n = 0, hyperbola or parabola).
func (c *conic) rayDirs() (float64, float64) {
	da := math.Acos(math.Max(-1, math.Min(1, -c.ann/(c.mu*c.s))))
	a0 := c.a0()
	return a0 - da, a0 + da
}

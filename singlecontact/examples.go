package singlecontact

import "math"

// The single-contact examples of Preclik et al. (sec. 4): the academic
// six-mass body of Table 1 and the Painlevé rod.

// SixMassBody returns Table 1's problem: a body of six point masses at
// ±d_x e_x, ±d_y e_y, ±d_z e_z (each pair of mass m_x, m_y, m_z), so with
// inertia I = 2 diag(m_y d_y² + m_z d_z², m_x d_x² + m_z d_z², m_x d_x² +
// m_y d_y²), touching a static plane at +d_x e_x with normal n̂, pre-
// impact relative velocity −v at the contact (b = Qᵀv), friction μ:
//
//	A = Qᵀ(E/(2(m_x+m_y+m_z)) − d_x² e_x× I⁻¹ e_x×)Q,   Q = [n t o],
//	t = n × e_x,  o = n × t.
//
// As in the paper, t is not normalized (|t| = |o| = sin∠(n, e_x)): Table 1
// is reproduced only with this literal frame (checklist §2).
func SixMassBody(dx, dy, dz, mx, my, mz float64, nhat, v [3]float64, mu float64) *Problem {
	in := [3]float64{2 * (my*dy*dy + mz*dz*dz), 2 * (mx*dx*dx + mz*dz*dz), 2 * (mx*dx*dx + my*dy*dy)}
	minv := 1 / (2 * (mx + my + mz))
	// −e_x× I⁻¹ e_x× = diag(0, 1/I_z, 1/I_y) in the body frame
	aw := [3]float64{minv, minv + dx*dx/in[2], minv + dx*dx/in[1]}
	l := math.Sqrt(nhat[0]*nhat[0] + nhat[1]*nhat[1] + nhat[2]*nhat[2])
	n := [3]float64{nhat[0] / l, nhat[1] / l, nhat[2] / l}
	t := [3]float64{0, n[2], -n[1]} // n × e_x
	o := [3]float64{n[1]*t[2] - n[2]*t[1], n[2]*t[0] - n[0]*t[2], n[0]*t[1] - n[1]*t[0]}
	q := [3][3]float64{n, t, o}
	p := &Problem{Mu: mu}
	for a := 0; a < 3; a++ {
		for c := 0; c < 3; c++ {
			for i := 0; i < 3; i++ {
				p.A[a][c] += q[a][i] * aw[i] * q[c][i]
			}
		}
		p.B[a] = q[a][0]*v[0] + q[a][1]*v[1] + q[a][2]*v[2]
	}
	return p
}

// Table1 returns SixMassBody with Table 1's data: d = (10, 1, 1), m =
// (0.03, 65, 50), n̂ = (0.25, 0.36, −0.9), v = (0.06, 0.7, 0.23), μ = 3.7.
func Table1() *Problem {
	return SixMassBody(10, 1, 1, 0.03, 65, 50, [3]float64{0.25, 0.36, -0.9}, [3]float64{0.06, 0.7, 0.23}, 3.7)
}

// PainleveRod returns the single-contact problem of the Painlevé rod
// (sec. 4.2): a uniform rod of mass m (any length; I = ml²/12 about its
// centre, axial inverse 0) at angle θ ∈ (0, π/2) to the floor y = 0 with
// its lower tip on it, sliding with v⁻ = −v₀e_x, ω⁻ = 0, friction μ; bn is
// the normal velocity to remove (g δt in a time step, 0 for the impact).
// The frame (n, t, o) is (e_y, e_x, e_z), so b = (bn, v₀, 0) and
//
//	A = m⁻¹[[1 + 3cos²θ, −3 sinθ cosθ, 0], [·, 1 + 3 sin²θ, 0], [0, 0, 4]]
//
// (A_zz = 4/m by eq. 2; the paper prints (1+3cos²2θ)/m, a typo).
func PainleveRod(m, theta, v0, bn, mu float64) *Problem {
	c, s := math.Cos(theta), math.Sin(theta)
	return &Problem{
		A:  [3][3]float64{{(1 + 3*c*c) / m, -3 * s * c / m, 0}, {-3 * s * c / m, (1 + 3*s*s) / m, 0}, {0, 0, 4 / m}},
		B:  [3]float64{bn, v0, 0},
		Mu: mu,
	}
}

// PainleveMuStar returns μ*(θ) = (5 + 3cos 2θ)/(3 sin 2θ): below it the rod's
// contact has a non-impulsive solution and the impact gives zero impulse;
// at and above it the impact is the sticking impulse PainleveLambda0.
// Its minimum is 4/3 at θ = ½ acos(−3/5) = atan 2.
func PainleveMuStar(theta float64) float64 {
	return (5 + 3*math.Cos(2*theta)) / (3 * math.Sin(2*theta))
}

// PainleveLambda0 returns the sticking impulse (m v₀/8)(5 + 3cos 2θ,
// 3 sin 2θ, 0) in world (x, y, z), in the contact frame (n, t, o).
func PainleveLambda0(m, theta, v0 float64) [3]float64 {
	k := m * v0 / 8
	return [3]float64{k * 3 * math.Sin(2*theta), k * (5 + 3*math.Cos(2*theta)), 0}
}

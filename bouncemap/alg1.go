package bouncemap

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Alg1Options control Alg1.
type Alg1Options struct {
	// Dt is the time step; ω_m·Dt must not exceed MaxOmegaDt (symplectic
	// Euler is unstable from ω·Δt = 2 and inaccurate long before).
	Dt float64
	// MaxSteps caps the loop (default 10⁶); a capped sample returns the
	// last cached ε with Outcome.Capped set (ε ≈ 0 samples never leave the
	// bound: the paper's misprint-free Alg. 1 has no cap).
	MaxSteps int
	// Elastic applies 2λ (Fig. 23's conservative variant) instead of the
	// inelastic breaking impulse λ.
	Elastic bool
	// Damping is the stiffness-proportional damping β of §6 with the sign
	// that damps: q̈ᵢ = −ωᵢ²(qᵢ + βq̇ᵢ).
	Damping float64
	// Speed is |v_n⁻| (default 1 m/s, line 2).
	Speed float64
}

// MaxOmegaDt is the largest ω_m·Δt Alg1 accepts.
const MaxOmegaDt = 0.1

// Workspace holds the per-analysis buffers of one worker; the zero value is
// ready, and reusing it makes Alg1 and Exact allocation-free.
type Workspace struct {
	q, qd, dR, om2, mod []float64
	pairOm, pairG       []float64
	ex                  exactWork
}

func (w *Workspace) size(m int) {
	if cap(w.q) < m {
		w.q, w.qd, w.dR, w.om2, w.mod = make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	}
	w.q, w.qd, w.dR, w.om2, w.mod = w.q[:m], w.qd[:m], w.dR[:m], w.om2[:m], w.mod[:m]
}

// Alg1 is the fast restitution analysis of Wang et al. (Alg. 1) at one
// site, with the checklist's resolutions: the position update runs every
// step (line 12), damping has the damping sign, the step count is capped.
// The rigid part is the full rigid body (c, R, body-frame ω with the
// gyroscopic term −ω×(Iω)); positions by symplectic Euler,
// R ← R exp(Δt[ω]×).
func (w *Workspace) Alg1(b *Body, s *Site, opt Alg1Options) (Outcome, error) {
	var out Outcome
	if err := validateSite(b, s); err != nil {
		return out, err
	}
	m := b.Modes()
	dt := opt.Dt
	if m > 0 && !(dt > 0 && b.Omega[m-1]*dt <= MaxOmegaDt) {
		return out, fmt.Errorf("bouncemap: Alg. 1 time step %v: ω_m·Δt = %v, want 0 < ω_m·Δt ≤ %v", dt, b.Omega[m-1]*dt, MaxOmegaDt)
	}
	if !(dt > 0) {
		return out, fmt.Errorf("bouncemap: Alg. 1 time step %v, want > 0", dt)
	}
	maxSteps := opt.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 1_000_000
	}
	speed := opt.Speed
	if speed == 0 {
		speed = 1
	}
	w.size(m)
	q, qd, dR, om2, mod := w.q, w.qd, w.dR, w.om2, w.mod
	for i := 0; i < m; i++ {
		q[i], qd[i] = 0, 0
		om2[i] = b.Omega[i] * b.Omega[i]
		dR[i] = math.Sqrt2 * r3.Norm(s.Mode(i)) / b.Omega[i]
	}
	U := s.U
	X := s.X
	n := r3.Scale(-1, s.N)
	nX := r3.Dot(n, X)
	inv := [3]float64{1 / b.Inertia[0], 1 / b.Inertia[1], 1 / b.Inertia[2]}
	I := b.Inertia
	invM := 1 / b.Mass
	vnMinus := -speed
	var c r3.Vec
	cd := r3.Scale(vnMinus, n)
	var om r3.Vec // body-frame angular velocity
	R := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	rBound := 1.0
	vnPlus := 0.0
	beta := opt.Damping
	impulse := 1.0
	if opt.Elastic {
		impulse = 2
	}
	lastHit := -1 << 30
	steps := 0
	for ; ; steps++ {
		// Line 4: the rigidly moving point against the bound.
		xr := r3.Add(c, mulR(&R, X))
		if r3.Dot(n, xr)-nX >= rBound {
			break
		}
		if steps >= maxSteps {
			out.Capped = true
			break
		}
		// Line 5: predictor (gyroscopic term, modal oscillators).
		Iw := r3.Vec{X: I[0] * om.X, Y: I[1] * om.Y, Z: I[2] * om.Z}
		tq := r3.Cross(om, Iw)
		om = r3.Vec{X: om.X - dt*tq.X*inv[0], Y: om.Y - dt*tq.Y*inv[1], Z: om.Z - dt*tq.Z*inv[2]}
		px, py, pz := X.X, X.Y, X.Z
		if beta == 0 {
			for i := 0; i < m; i++ {
				qi := q[i]
				qd[i] -= dt * om2[i] * qi
				px += U[3*i] * qi
				py += U[3*i+1] * qi
				pz += U[3*i+2] * qi
			}
		} else {
			for i := 0; i < m; i++ {
				qi := q[i]
				qd[i] -= dt * om2[i] * (qi + beta*qd[i])
				px += U[3*i] * qi
				py += U[3*i+1] * qi
				pz += U[3*i+2] * qi
			}
		}
		p := r3.Vec{X: px, Y: py, Z: pz}
		// Line 6: the deformed point against the plane.
		x := r3.Add(c, mulR(&R, p))
		if r3.Dot(n, x)-nX <= 0 {
			// Line 7: v = ċ + R(ω × p) + R U q̇.
			var ux, uy, uz float64
			for i := 0; i < m; i++ {
				ux += U[3*i] * qd[i]
				uy += U[3*i+1] * qd[i]
				uz += U[3*i+2] * qd[i]
			}
			vb := r3.Add(r3.Cross(om, p), r3.Vec{X: ux, Y: uy, Z: uz})
			vn := r3.Dot(cd, n) + r3.Dot(mulR(&R, vb), n)
			if vn < 0 {
				// Line 8: λ = −v·n / (n_gᵀ M⁻¹ n_g), n_g = (n, p × Rᵀn, UᵀRᵀn).
				nb := mulRT(&R, n)
				ang := r3.Cross(p, nb)
				den := invM + ang.X*ang.X*inv[0] + ang.Y*ang.Y*inv[1] + ang.Z*ang.Z*inv[2]
				for i := 0; i < m; i++ {
					mi := U[3*i]*nb.X + U[3*i+1]*nb.Y + U[3*i+2]*nb.Z
					mod[i] = mi
					den += mi * mi
				}
				lam := -vn / den * impulse
				// Line 9.
				cd = r3.Add(cd, r3.Scale(lam*invM, n))
				om = r3.Vec{X: om.X + lam*ang.X*inv[0], Y: om.Y + lam*ang.Y*inv[1], Z: om.Z + lam*ang.Z*inv[2]}
				var rb float64
				for i := 0; i < m; i++ {
					qd[i] += lam * mod[i]
					// Line 11: R_bound = Σ ΔRᵢ √Eᵢ.
					rb += dR[i] * math.Sqrt(0.5*(qd[i]*qd[i]+om2[i]*q[i]*q[i]))
				}
				rBound = rb
				// Line 10: rigid normal velocity of the point.
				vnPlus = r3.Dot(cd, n) + r3.Dot(mulR(&R, r3.Cross(om, p)), n)
				if steps-lastHit > 3 {
					out.Collisions++
				}
				lastHit = steps
				out.TauLast = float64(steps) * dt
			}
		}
		// Line 12, every step: symplectic Euler positions.
		c = r3.Add(c, r3.Scale(dt, cd))
		rotate(&R, om, dt)
		for i := 0; i < m; i++ {
			q[i] += dt * qd[i]
		}
	}
	out.Steps = steps
	out.TauSim = float64(steps) * dt
	out.Eps = clamp01(-vnPlus / vnMinus)
	return out, nil
}

func mulR(r *[3][3]float64, v r3.Vec) r3.Vec {
	return r3.Vec{
		X: r[0][0]*v.X + r[0][1]*v.Y + r[0][2]*v.Z,
		Y: r[1][0]*v.X + r[1][1]*v.Y + r[1][2]*v.Z,
		Z: r[2][0]*v.X + r[2][1]*v.Y + r[2][2]*v.Z,
	}
}

func mulRT(r *[3][3]float64, v r3.Vec) r3.Vec {
	return r3.Vec{
		X: r[0][0]*v.X + r[1][0]*v.Y + r[2][0]*v.Z,
		Y: r[0][1]*v.X + r[1][1]*v.Y + r[2][1]*v.Z,
		Z: r[0][2]*v.X + r[1][2]*v.Y + r[2][2]*v.Z,
	}
}

// rotate sets R ← R exp(dt[ω]×) (Rodrigues; sin θ and 1 − cos θ by their
// series below θ = 10⁻³, where five terms are exact in double precision).
func rotate(r *[3][3]float64, om r3.Vec, dt float64) {
	th2 := (om.X*om.X + om.Y*om.Y + om.Z*om.Z) * dt * dt
	if th2 == 0 {
		return
	}
	var s, c float64 // sin θ/θ, (1 − cos θ)/θ²
	if th2 < 1e-6 {
		s = 1 - th2/6*(1-th2/20*(1-th2/42))
		c = 0.5 * (1 - th2/12*(1-th2/30*(1-th2/56)))
	} else {
		th := math.Sqrt(th2)
		s = math.Sin(th) / th
		c = (1 - math.Cos(th)) / th2
	}
	kx, ky, kz := om.X*dt, om.Y*dt, om.Z*dt
	// E = I + s K + c K², K = [k]×.
	var e [3][3]float64
	e[0][0] = 1 - c*(ky*ky+kz*kz)
	e[1][1] = 1 - c*(kx*kx+kz*kz)
	e[2][2] = 1 - c*(kx*kx+ky*ky)
	e[0][1] = -s*kz + c*kx*ky
	e[1][0] = s*kz + c*kx*ky
	e[0][2] = s*ky + c*kx*kz
	e[2][0] = -s*ky + c*kx*kz
	e[1][2] = -s*kx + c*ky*kz
	e[2][1] = s*kx + c*ky*kz
	var out [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			out[i][j] = r[i][0]*e[0][j] + r[i][1]*e[1][j] + r[i][2]*e[2][j]
		}
	}
	*r = out
}

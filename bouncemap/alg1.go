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
	bodies        [2]alg1Body
	mod           []float64
	pairOm, pairG []float64
	ex            exactWork
}

func (w *Workspace) size(m int) {
	if cap(w.mod) < m {
		w.mod = make([]float64, m)
	}
	w.mod = w.mod[:m]
}

// alg1Body is one body's state in Algorithm 1: its site (X, U), rigid
// state (c, ċ, body-frame ω, R), modal state and cached ΔRᵢ, and sign
// +1 for body A (and the one-body problem), −1 for body B in
// C = n·(x_A − x_B).
type alg1Body struct {
	U                   []float64
	X                   r3.Vec
	I, inv              [3]float64
	invM, sign          float64
	q, qd, dR, om2, mod []float64
	c, cd, om, p        r3.Vec
	R                   [3][3]float64
}

func (ab *alg1Body) init(b *Body, s *Site, sign float64) {
	m := b.Modes()
	if cap(ab.q) < m {
		ab.q, ab.qd, ab.dR, ab.om2, ab.mod = make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	}
	ab.q, ab.qd, ab.dR, ab.om2, ab.mod = ab.q[:m], ab.qd[:m], ab.dR[:m], ab.om2[:m], ab.mod[:m]
	for i := 0; i < m; i++ {
		ab.q[i], ab.qd[i] = 0, 0
		ab.om2[i] = b.Omega[i] * b.Omega[i]
		ab.dR[i] = math.Sqrt2 * r3.Norm(s.Mode(i)) / b.Omega[i]
	}
	ab.U, ab.X, ab.I, ab.sign = s.U, s.X, b.Inertia, sign
	ab.inv = [3]float64{1 / b.Inertia[0], 1 / b.Inertia[1], 1 / b.Inertia[2]}
	ab.invM = 1 / b.Mass
	ab.c, ab.cd, ab.om = r3.Vec{}, r3.Vec{}, r3.Vec{}
	ab.R = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
}

// predict is line 5 (gyroscopic term and modal oscillators, with
// damping β) and returns the deformed point x = c + R(X + Uq) in the
// world, keeping p = X + Uq.
func (ab *alg1Body) predict(dt, beta float64) r3.Vec {
	om, inv, I := ab.om, ab.inv, ab.I
	Iw := r3.Vec{X: I[0] * om.X, Y: I[1] * om.Y, Z: I[2] * om.Z}
	tq := r3.Cross(om, Iw)
	ab.om = r3.Vec{X: om.X - dt*tq.X*inv[0], Y: om.Y - dt*tq.Y*inv[1], Z: om.Z - dt*tq.Z*inv[2]}
	U, q, qd, om2 := ab.U, ab.q, ab.qd, ab.om2
	px, py, pz := ab.X.X, ab.X.Y, ab.X.Z
	if beta == 0 {
		for i := range q {
			qi := q[i]
			qd[i] -= dt * om2[i] * qi
			px += U[3*i] * qi
			py += U[3*i+1] * qi
			pz += U[3*i+2] * qi
		}
	} else {
		for i := range q {
			qi := q[i]
			qd[i] -= dt * om2[i] * (qi + beta*qd[i])
			px += U[3*i] * qi
			py += U[3*i+1] * qi
			pz += U[3*i+2] * qi
		}
	}
	ab.p = r3.Vec{X: px, Y: py, Z: pz}
	return r3.Add(ab.c, mulR(&ab.R, ab.p))
}

// pointVelocity is line 7's v = ċ + R(ω × p) + RUq̇ in the world.
func (ab *alg1Body) pointVelocity() r3.Vec {
	U, qd := ab.U, ab.qd
	var ux, uy, uz float64
	for i := range qd {
		ux += U[3*i] * qd[i]
		uy += U[3*i+1] * qd[i]
		uz += U[3*i+2] * qd[i]
	}
	vb := r3.Add(r3.Cross(ab.om, ab.p), r3.Vec{X: ux, Y: uy, Z: uz})
	return r3.Add(ab.cd, mulR(&ab.R, vb))
}

// inverseMass returns the body's part n_gᵀM⁻¹n_g of line 8's denominator
// for world normal sign·n, caching the angular and modal parts.
func (ab *alg1Body) inverseMass(n r3.Vec) (den float64, ang r3.Vec) {
	nb := mulRT(&ab.R, r3.Scale(ab.sign, n))
	ang = r3.Cross(ab.p, nb)
	den = ab.invM + ang.X*ang.X*ab.inv[0] + ang.Y*ang.Y*ab.inv[1] + ang.Z*ang.Z*ab.inv[2]
	U := ab.U
	for i := range ab.mod {
		mi := U[3*i]*nb.X + U[3*i+1]*nb.Y + U[3*i+2]*nb.Z
		ab.mod[i] = mi
		den += mi * mi
	}
	return den, ang
}

// apply is line 9 for impulse λ·sign·n and returns the body's part of
// line 11's bound, Σ ΔRᵢ √Eᵢ.
func (ab *alg1Body) apply(n, ang r3.Vec, lam float64) float64 {
	ab.cd = r3.Add(ab.cd, r3.Scale(ab.sign*lam*ab.invM, n))
	ab.om = r3.Vec{X: ab.om.X + lam*ang.X*ab.inv[0], Y: ab.om.Y + lam*ang.Y*ab.inv[1], Z: ab.om.Z + lam*ang.Z*ab.inv[2]}
	var rb float64
	qd, q, om2, dR, mod := ab.qd, ab.q, ab.om2, ab.dR, ab.mod
	for i := range qd {
		qd[i] += lam * mod[i]
		rb += dR[i] * math.Sqrt(0.5*(qd[i]*qd[i]+om2[i]*q[i]*q[i]))
	}
	return rb
}

// rigidVelocity is n·J q̇_rigid at the deformed point (line 10).
func (ab *alg1Body) rigidVelocity(n r3.Vec) float64 {
	return r3.Dot(ab.cd, n) + r3.Dot(mulR(&ab.R, r3.Cross(ab.om, ab.p)), n)
}

// advance is line 12: symplectic Euler positions.
func (ab *alg1Body) advance(dt float64) {
	ab.c = r3.Add(ab.c, r3.Scale(dt, ab.cd))
	rotate(&ab.R, ab.om, dt)
	for i := range ab.q {
		ab.q[i] += dt * ab.qd[i]
	}
}

// Alg1 is the fast restitution analysis of Wang et al. (Alg. 1) at one
// site, with the checklist's resolutions: the position update runs every
// step (line 12), damping has the damping sign, the step count is capped.
// The rigid part is the full rigid body (c, R, body-frame ω with the
// gyroscopic term −ω×(Iω)); positions by symplectic Euler,
// R ← R exp(Δt[ω]×).
func (w *Workspace) Alg1(b *Body, s *Site, opt Alg1Options) (Outcome, error) {
	if err := validateSite(b, s); err != nil {
		return Outcome{}, err
	}
	if err := checkDt(b, opt.Dt); err != nil {
		return Outcome{}, err
	}
	w.bodies[0].init(b, s, 1)
	return w.alg1(w.bodies[:1], r3.Scale(-1, s.N), opt), nil
}

// Alg1Pair is the two-body Algorithm 1 of §5.1 (eq. 11): A at rest frame,
// B turned (by the smallest rotation) so that its outward normal opposes
// A's and placed so that the two sites coincide; n = −N_A, A moves at
// v_n⁻ along −n, B is at rest; C = n·(x_A − x_B), the impulse acts on both
// through J = [J_A −J_B], and the bound is R_A + R_B.
func (w *Workspace) Alg1Pair(ba *Body, sa *Site, bb *Body, sb *Site, opt Alg1Options) (Outcome, error) {
	if err := validateSite(ba, sa); err != nil {
		return Outcome{}, fmt.Errorf("body A: %w", err)
	}
	if err := validateSite(bb, sb); err != nil {
		return Outcome{}, fmt.Errorf("body B: %w", err)
	}
	if err := checkDt(ba, opt.Dt); err != nil {
		return Outcome{}, err
	}
	if err := checkDt(bb, opt.Dt); err != nil {
		return Outcome{}, err
	}
	w.bodies[0].init(ba, sa, 1)
	w.bodies[1].init(bb, sb, -1)
	B := &w.bodies[1]
	B.R = turn(sb.N, r3.Scale(-1, sa.N))
	B.c = r3.Sub(sa.X, mulR(&B.R, sb.X))
	return w.alg1(w.bodies[:2], r3.Scale(-1, sa.N), opt), nil
}

func checkDt(b *Body, dt float64) error {
	m := b.Modes()
	if !(dt > 0) || (m > 0 && !(b.Omega[m-1]*dt <= MaxOmegaDt)) {
		wdt := 0.0
		if m > 0 {
			wdt = b.Omega[m-1] * dt
		}
		return fmt.Errorf("bouncemap: Alg. 1 time step %v: ω_m·Δt = %v, want Δt > 0 and ω_m·Δt ≤ %v", dt, wdt, MaxOmegaDt)
	}
	return nil
}

// turn returns the smallest rotation taking unit a to unit b.
func turn(a, b r3.Vec) [3][3]float64 {
	v := r3.Cross(a, b)
	c := r3.Dot(a, b)
	if c < -1+1e-12 {
		// Half turn about any axis perpendicular to a.
		e := r3.Vec{X: 1}
		if math.Abs(a.X) > 0.9 {
			e = r3.Vec{Y: 1}
		}
		k := r3.Unit(r3.Cross(a, e))
		var r [3][3]float64
		kk := [3]float64{k.X, k.Y, k.Z}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				r[i][j] = 2 * kk[i] * kk[j]
				if i == j {
					r[i][j]--
				}
			}
		}
		return r
	}
	// R = I + [v]× + [v]×²/(1 + c).
	k := [3][3]float64{{0, -v.Z, v.Y}, {v.Z, 0, -v.X}, {-v.Y, v.X, 0}}
	var r [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			var k2 float64
			for l := 0; l < 3; l++ {
				k2 += k[i][l] * k[l][j]
			}
			r[i][j] = k[i][j] + k2/(1+c)
			if i == j {
				r[i][j]++
			}
		}
	}
	return r
}

// alg1 runs Algorithm 1 for one body against the proxy plane through its
// site (len(bodies) = 1) or for two bodies (eq. 11); n is the fixed
// contact normal.
func (w *Workspace) alg1(bodies []alg1Body, n r3.Vec, opt Alg1Options) Outcome {
	var out Outcome
	dt := opt.Dt
	maxSteps := opt.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 1_000_000
	}
	speed := opt.Speed
	if speed == 0 {
		speed = 1
	}
	A := &bodies[0]
	vnMinus := -speed
	A.cd = r3.Scale(vnMinus, n)
	// The plane (one body) is B's point fixed at A's site.
	xB := A.X
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
		// Line 4: the rigidly moving points against the bound.
		gap := r3.Dot(n, r3.Add(A.c, mulR(&A.R, A.X)))
		if len(bodies) == 2 {
			B := &bodies[1]
			gap -= r3.Dot(n, r3.Add(B.c, mulR(&B.R, B.X)))
		} else {
			gap -= r3.Dot(n, xB)
		}
		if gap >= rBound {
			break
		}
		if steps >= maxSteps {
			out.Capped = true
			break
		}
		// Lines 5–6: predictor, then the deformed points against each other.
		x := A.predict(dt, beta)
		if len(bodies) == 2 {
			xB = bodies[1].predict(dt, beta)
		}
		if r3.Dot(n, r3.Sub(x, xB)) <= 0 {
			// Line 7: the relative normal velocity.
			vn := r3.Dot(A.pointVelocity(), n)
			if len(bodies) == 2 {
				vn -= r3.Dot(bodies[1].pointVelocity(), n)
			}
			if vn < 0 {
				// Lines 8–11.
				var den float64
				var ang [2]r3.Vec
				for k := range bodies {
					d, a := bodies[k].inverseMass(n)
					den += d
					ang[k] = a
				}
				lam := -vn / den * impulse
				rBound, vnPlus = 0, 0
				for k := range bodies {
					rBound += bodies[k].apply(n, ang[k], lam)
					vnPlus += bodies[k].sign * bodies[k].rigidVelocity(n)
				}
				if steps-lastHit > 3 {
					out.Collisions++
				}
				lastHit = steps
				out.TauLast = float64(steps) * dt
			}
		}
		// Line 12, every step.
		for k := range bodies {
			bodies[k].advance(dt)
		}
	}
	out.Steps = steps
	out.TauSim = float64(steps) * dt
	out.Eps = clamp01(-vnPlus / vnMinus)
	return out
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

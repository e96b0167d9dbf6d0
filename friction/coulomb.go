package friction

import (
	"fmt"
	"math"

	"impactsim/mech"
)

// Coulomb solves normal and friction impulses together: the impulsive
// Coulomb friction problem with Newton restitution that SCISim's
// sobogus_friction_solver scenes ask for. For contact k with normal ∇g_k,
// tangent t_k, restitution c_k and friction μ_k, with u⁻ = ∇g_kᵀv⁻ and
// post-impact relative velocities u_n = ∇g_kᵀv⁺, u_t = t_kᵀv⁺:
//
//	0 ≤ λ_k ⊥ u_n + c_k min(u⁻, 0) ≥ 0,
//	|β_k| ≤ μ_k λ_k,  and  β_k = −μ_k λ_k sign(u_t) whenever u_t ≠ 0.
//
// It is solved by projected block Gauss–Seidel over contacts, each 2×2
// block solved exactly by enumerating take-off, stick and the two slip
// directions (this is the 2D analogue of the per-contact solves of the
// So-bogus library). Iteration stops when a full sweep changes no contact's
// normal or tangential relative velocity by more than Tol relative to the
// largest relative speed before or after; reaching MaxIter is an error. Only one
// tangent column per contact (2D systems) is supported; three-dimensional
// contacts get an error until the disk-constrained local solve exists.
type Coulomb struct {
	Tol     float64 // default 1e-12
	MaxIter int     // sweeps, default 5000

	wg, wd mech.Cols // M⁻¹G, M⁻¹D
	v      []float64
	un0    []float64
	wkk    []float64 // per contact 2×2 block W_kk = [nn nt; tn tt] stored as nn, nt, tt
	x      []float64 // (λ, β) per contact
	vprev  []float64
	tcol   []int // tangent column of each contact, −1 if none
}

// Name returns "coulomb".
func (o *Coulomb) Name() string { return "coulomb" }

// sparseDot returns aᵢᵀ bⱼ for columns of two matrices on the same rows.
func sparseDot(a *mech.Cols, i int, b *mech.Cols, j int) float64 {
	var s float64
	for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
		for q := b.Ptr[j]; q < b.Ptr[j+1]; q++ {
			if a.Row[p] == b.Row[q] {
				s += a.Val[p] * b.Val[q]
			}
		}
	}
	return s
}

// Solve computes λ (len m) and β (len D.NCols()).
func (o *Coulomb) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	var st mech.Stats
	m, n, nd := p.NContacts(), p.NDof(), p.D.NCols()
	clear(lambda[:m])
	clear(beta[:nd])
	if m == 0 {
		return st, nil
	}
	tol := o.Tol
	if tol <= 0 {
		tol = 1e-12
	}
	maxIter := o.MaxIter
	if maxIter <= 0 {
		maxIter = 5000
	}
	o.tcol = o.tcol[:0]
	for k := 0; k < m; k++ {
		o.tcol = append(o.tcol, -1)
	}
	for j := 0; j < nd; j++ {
		k := p.DContact[j]
		if o.tcol[k] >= 0 {
			return st, fmt.Errorf("friction: coulomb supports one tangent per contact (2D); contact %d has more", k)
		}
		o.tcol[k] = j
	}
	mech.MulMInvCols(&o.wg, &p.G, &p.MInv)
	mech.MulMInvCols(&o.wd, &p.D, &p.MInv)
	o.v = grow(o.v, n)
	copy(o.v, p.V)
	o.un0 = grow(o.un0, m)
	p.NormalVelocities(o.un0, p.V)
	o.wkk = grow(o.wkk, 3*m)
	o.x = grow(o.x, 2*m)
	clear(o.x)
	var scale float64
	for k := 0; k < m; k++ {
		scale = math.Max(scale, math.Abs(o.un0[k]))
		if j := o.tcol[k]; j >= 0 {
			scale = math.Max(scale, math.Abs(p.D.ColDot(j, p.V)))
		}
		o.wkk[3*k] = sparseDot(&p.G, k, &o.wg, k)
		if j := o.tcol[k]; j >= 0 {
			o.wkk[3*k+1] = sparseDot(&p.G, k, &o.wd, j)
			o.wkk[3*k+2] = sparseDot(&p.D, j, &o.wd, j)
		}
	}
	if scale == 0 {
		scale = math.SmallestNonzeroFloat64
	}
	o.vprev = grow(o.vprev, n)
	for sweep := 1; ; sweep++ {
		copy(o.vprev, o.v)
		for k := 0; k < m; k++ {
			nn, nt, tt := o.wkk[3*k], o.wkk[3*k+1], o.wkk[3*k+2]
			if nn <= 0 {
				continue // both bodies fixed: nothing can move
			}
			j := o.tcol[k]
			l0, b0 := o.x[2*k], o.x[2*k+1]
			// Free velocities r = u(v) − W_kk x_k (+ restitution shift).
			rn := p.G.ColDot(k, o.v) - nn*l0 - nt*b0 + p.CoR[k]*math.Min(o.un0[k], 0)
			var rt float64
			if j >= 0 {
				rt = p.D.ColDot(j, o.v) - nt*l0 - tt*b0
			}
			l, b := localCoulomb(nn, nt, tt, rn, rt, p.Mu[k], j >= 0)
			dl, db := l-l0, b-b0
			if dl != 0 || db != 0 {
				o.wg.AddScaledCol(o.v, k, dl)
				if j >= 0 {
					o.wd.AddScaledCol(o.v, j, db)
				}
				o.x[2*k], o.x[2*k+1] = l, b
			}
		}
		// Converged when a full sweep no longer changes any contact's
		// relative velocity. The velocity, not the impulse, is the unique
		// part of the answer: a jammed configuration (a ball wedged between
		// a wall and another ball) admits a whole line of impulses, along
		// which Gauss–Seidel drifts while v⁺ stays put.
		var change, vel float64
		for k := 0; k < m; k++ {
			un := p.G.ColDot(k, o.v)
			change = math.Max(change, math.Abs(un-p.G.ColDot(k, o.vprev)))
			vel = math.Max(vel, math.Abs(un))
			if j := o.tcol[k]; j >= 0 {
				ut := p.D.ColDot(j, o.v)
				change = math.Max(change, math.Abs(ut-p.D.ColDot(j, o.vprev)))
				vel = math.Max(vel, math.Abs(ut))
			}
		}
		st.Iterations = sweep
		st.Residual = change / math.Max(scale, vel)
		if st.Residual <= tol {
			break
		}
		if sweep >= maxIter {
			return st, fmt.Errorf("friction: coulomb Gauss–Seidel did not converge: %d sweeps, last change %.3g (relative) > tolerance %.3g", sweep, st.Residual, tol)
		}
	}
	for k := 0; k < m; k++ {
		lambda[k] = o.x[2*k]
		if j := o.tcol[k]; j >= 0 {
			beta[j] = o.x[2*k+1]
		}
	}
	return st, nil
}

// localCoulomb solves one contact exactly: find (λ, β) with
// u = W (λ, β) + r, W = [nn nt; nt tt], satisfying take-off, stick or slip.
func localCoulomb(nn, nt, tt, rn, rt, mu float64, hasT bool) (float64, float64) {
	if rn >= 0 {
		return 0, 0 // take-off: no impulse needed
	}
	if !hasT || mu == 0 {
		return -rn / nn, 0
	}
	// Stick: W x = −r.
	det := nn*tt - nt*nt
	if det > 0 {
		l := (-rn*tt + rt*nt) / det
		b := (-rt*nn + rn*nt) / det
		if l >= 0 && math.Abs(b) <= mu*l*(1+1e-14) {
			return l, b
		}
	}
	// Slip with β = −s μ λ: (nn − s μ nt) λ = −rn, u_t = (nt − s μ tt) λ + rt
	// must have sign s. Prefer the direction of the free tangential velocity.
	s0 := 1.0
	if rt < 0 {
		s0 = -1
	}
	for _, s := range [2]float64{s0, -s0} {
		den := nn - s*mu*nt
		if den <= 0 {
			continue
		}
		l := -rn / den
		ut := (nt-s*mu*tt)*l + rt
		if s*ut >= 0 {
			return l, -s * mu * l
		}
	}
	// Not reached for a positive definite block; fall back to frictionless.
	return -rn / nn, 0
}

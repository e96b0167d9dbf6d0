package friction

import (
	"fmt"
	"math"

	"impactsim/mech"
)

// Coulomb solves normal and friction impulses together: the impulsive
// Coulomb friction problem with Newton restitution that SCISim's
// sobogus_friction_solver scenes ask for, in two and three dimensions.
// Contact k has a normal column ∇g_k of G, restitution c_k, friction μ_k
// and the tangent columns of D that DContact assigns to it: none
// (frictionless), one t_k (2D) or two orthonormal t₁, t₂ (3D, as rigid3d
// builds them). With u⁻ = ∇g_kᵀv⁻, u_n = ∇g_kᵀv⁺ and the post-impact
// tangential velocity u_t = t_kᵀv⁺, respectively u_t = (t₁ᵀv⁺, t₂ᵀv⁺),
//
//	0 ≤ λ_k ⊥ u_n + c_k min(u⁻, 0) ≥ 0,
//	|β_k| ≤ μ_k λ_k,  and  β_k = −μ_k λ_k u_t/|u_t|  whenever u_t ≠ 0:
//
// the friction set is the interval |β_k| ≤ μ_k λ_k with β_k = −μ_k λ_k
// sign(u_t) when sliding (one column), or the disk of radius μ_k λ_k
// with β_k = (β₁, β₂) opposing u_t (two columns).
//
// It is solved by projected block Gauss–Seidel over contacts, each block
// solved exactly (this is the analogue of the per-contact solves of the
// So-bogus library): a 2×2 block by enumerating take-off, stick and the two
// slip directions (localInterval); a 3×3 block by take-off, stick
// (W x = −r) or slip on the circle (localDisk). Tol, MaxIter and EvalEvery
// mean what SCISim's sobogus_friction_solver tol, max_iters and eval_every
// mean: the error is so-bogus's, the largest over the contacts of the
// squared Fischer–Burmeister residual of Coulomb's law (fbError, zero
// exactly at a solution); it is evaluated for the zero initial iterate and
// after every EvalEvery-th sweep, and the solve stops at the first error
// below Tol (Stats.Residual, Stats.Iterations). Reaching MaxIter is not an
// error, as in SCISim (whose so-bogus solver warns and goes on): the best
// evaluated iterate is returned and the Stats report the capped solve and
// its error (Capped, CappedResidual, CappedTol). A contact with more than
// two tangent columns is an error.
type Coulomb struct {
	Tol     float64 // default 1e-12, on so-bogus's error (fbError)
	MaxIter int     // sweeps, default 5000
	// EvalEvery is the number of sweeps between evaluations of the error
	// (SCISim's eval_every), default 1.
	EvalEvery int

	wg, wd mech.Cols // M⁻¹G, M⁻¹D
	v      []float64
	un0    []float64
	w      []float64 // per contact the symmetric block W_kk over (n, t₁, t₂), 3×3 row-major; absent tangents give zero rows
	x      []float64 // (λ, β₁, β₂) per contact
	xbest  []float64
	nrel   []float64 // per contact, Problem.NRel or 0
	drel   []float64 // per column of D, Problem.DRel or 0
	tcol   []int     // per contact its tangent columns (t₁, t₂), −1 where absent
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
	if err := p.NeedStoredD("friction: Coulomb"); err != nil {
		return st, err
	}
	if err := p.NeedStoredG("friction: Coulomb"); err != nil {
		return st, err
	}
	if err := p.NeedStoredRel("friction: Coulomb"); err != nil {
		return st, err
	}
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
	for k := 0; k < 2*m; k++ {
		o.tcol = append(o.tcol, -1)
	}
	for j := 0; j < nd; j++ {
		k := p.DContact[j]
		switch {
		case o.tcol[2*k] < 0:
			o.tcol[2*k] = j
		case o.tcol[2*k+1] < 0:
			o.tcol[2*k+1] = j
		default:
			return st, fmt.Errorf("friction: coulomb supports one (2D) or two (3D) tangent columns per contact; contact %d has more", k)
		}
	}
	mech.MulMInvCols(&o.wg, &p.G, &p.MInv)
	mech.MulMInvCols(&o.wd, &p.D, &p.MInv)
	o.v = grow(o.v, n)
	copy(o.v, p.V)
	o.un0 = grow(o.un0, m)
	p.NormalVelocities(o.un0, p.V)
	// Known relative velocities of moving geometry (zero when absent).
	o.nrel, o.drel = grow(o.nrel, m), grow(o.drel, nd)
	clear(o.nrel)
	clear(o.drel)
	if len(p.NRel) == m {
		copy(o.nrel, p.NRel)
	}
	if len(p.DRel) == nd {
		copy(o.drel, p.DRel)
	}
	for k := range o.un0[:m] {
		o.un0[k] += o.nrel[k]
	}
	o.w = grow(o.w, 9*m)
	o.x = grow(o.x, 3*m)
	clear(o.x)
	for k := 0; k < m; k++ {
		j1, j2 := o.tcol[2*k], o.tcol[2*k+1]
		w := o.w[9*k : 9*k+9]
		clear(w)
		w[0] = sparseDot(&p.G, k, &o.wg, k)
		if j1 >= 0 {
			w[1] = sparseDot(&p.G, k, &o.wd, j1)
			w[4] = sparseDot(&p.D, j1, &o.wd, j1)
		}
		if j2 >= 0 {
			w[2] = sparseDot(&p.G, k, &o.wd, j2)
			w[5] = sparseDot(&p.D, j1, &o.wd, j2)
			w[8] = sparseDot(&p.D, j2, &o.wd, j2)
		}
		w[3], w[6], w[7] = w[1], w[2], w[5]
	}
	evalEvery := max(o.EvalEvery, 1)
	// As so-bogus: the error of the initial (zero) iterate is evaluated
	// first, then after every evalEvery-th sweep; the solve stops at the
	// first error below tol, or at maxIter with the best evaluated iterate.
	best := o.fbResidual(p)
	st.Residual = best
	o.xbest = grow(o.xbest, 3*m)
	copy(o.xbest, o.x)
	for sweep := 1; best >= tol; sweep++ {
		for k := 0; k < m; k++ {
			w := o.w[9*k : 9*k+9]
			if w[0] <= 0 {
				continue // both bodies fixed: nothing can move
			}
			j1, j2 := o.tcol[2*k], o.tcol[2*k+1]
			x0 := [3]float64{o.x[3*k], o.x[3*k+1], o.x[3*k+2]}
			var x [3]float64
			if j2 < 0 {
				// Interval (or frictionless): free velocities
				// r = u(v) − W_kk x_k (+ restitution shift).
				nn, nt, tt := w[0], w[1], w[4]
				rn := p.G.ColDot(k, o.v) + o.nrel[k] - nn*x0[0] - nt*x0[1] + p.CoR[k]*math.Min(o.un0[k], 0)
				var rt float64
				if j1 >= 0 {
					rt = p.D.ColDot(j1, o.v) + o.drel[j1] - nt*x0[0] - tt*x0[1]
				}
				x[0], x[1] = localInterval(nn, nt, tt, rn, rt, p.Mu[k], j1 >= 0)
			} else {
				// Disk: r = u(v) + restitution shift − W_kk x_k.
				u := [3]float64{
					p.G.ColDot(k, o.v) + o.nrel[k] + p.CoR[k]*math.Min(o.un0[k], 0),
					p.D.ColDot(j1, o.v) + o.drel[j1],
					p.D.ColDot(j2, o.v) + o.drel[j2],
				}
				var r [3]float64
				for a := 0; a < 3; a++ {
					r[a] = u[a] - (w[3*a]*x0[0] + w[3*a+1]*x0[1] + w[3*a+2]*x0[2])
				}
				x = localDisk(w, r, p.Mu[k])
			}
			if x != x0 {
				o.wg.AddScaledCol(o.v, k, x[0]-x0[0])
				if j1 >= 0 {
					o.wd.AddScaledCol(o.v, j1, x[1]-x0[1])
				}
				if j2 >= 0 {
					o.wd.AddScaledCol(o.v, j2, x[2]-x0[2])
				}
				o.x[3*k], o.x[3*k+1], o.x[3*k+2] = x[0], x[1], x[2]
			}
		}
		st.Iterations = sweep
		if sweep%evalEvery == 0 {
			res := o.fbResidual(p)
			st.Residual = res
			if res < best {
				best = res
				copy(o.xbest, o.x)
			}
			if res < tol {
				break
			}
		}
		if sweep >= maxIter {
			// As SCISim's so-bogus solver: the cap is the user's, not a
			// failure; the best evaluated iterate is the answer and the
			// caller records its error (mech.Stats.Capped).
			copy(o.x, o.xbest)
			st.Residual = best
			st.Capped, st.CappedResidual, st.CappedTol, st.CappedIterations = 1, best, tol, sweep
			break
		}
	}
	for k := 0; k < m; k++ {
		lambda[k] = o.x[3*k]
		for c, j := range o.tcol[2*k : 2*k+2] {
			if j >= 0 {
				beta[j] = o.x[3*k+1+c]
			}
		}
	}
	return st, nil
}

// fbResidual returns so-bogus's error of the current iterate: the largest
// fbError over the contacts (package documentation of fbError).
func (o *Coulomb) fbResidual(p *mech.Problem) float64 {
	var worst float64
	m := p.NContacts()
	for k := 0; k < m; k++ {
		w := o.w[9*k : 9*k+9]
		j1, j2 := o.tcol[2*k], o.tcol[2*k+1]
		d := 1
		y := [3]float64{p.G.ColDot(k, o.v) + o.nrel[k] + p.CoR[k]*math.Min(o.un0[k], 0)}
		tr := w[0]
		if j1 >= 0 {
			y[1] = p.D.ColDot(j1, o.v) + o.drel[j1]
			tr += w[4]
			d = 2
		}
		if j2 >= 0 {
			y[2] = p.D.ColDot(j2, o.v) + o.drel[j2]
			tr += w[8]
			d = 3
		}
		sc := math.Max(1, tr/float64(d))
		x := [3]float64{sc * o.x[3*k], sc * o.x[3*k+1], sc * o.x[3*k+2]}
		worst = math.Max(worst, fbError(x[:d], y[:d], p.Mu[k]))
	}
	return worst
}

// localInterval solves one contact with at most one tangent column
// exactly: find (λ, β) with u = W (λ, β) + r, W = [nn nt; nt tt],
// satisfying take-off, stick or slip.
func localInterval(nn, nt, tt, rn, rt, mu float64, hasT bool) (float64, float64) {
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

package impact

import "impactsim/mech"

// Pairwise is pairwise propagation (§3.2 of Smith et al. 2012): each
// approaching contact k is resolved in isolation by the single-impact law (2),
//
//	α_k = −(1 + c_k) ∇g_kᵀv / (∇g_kᵀ M⁻¹ ∇g_k),   v ← v + M⁻¹∇g_k α_k,
//
// and sweeps repeat until no contact approaches (∇g_kᵀv ≥ −v_tol for all k).
// The Gauss–Seidel variant applies each impulse immediately, in contact
// order; the Jacobi variant computes every impulse of a sweep from the same
// velocity and then applies them all.
type Pairwise struct {
	firstPush
	cfg         Config
	jacobi      bool
	restitution float64

	w     mech.Cols // M⁻¹ G
	v     []float64
	diag  []float64
	alpha []float64
}

func newPairwise(c Config, jacobi bool) *Pairwise {
	return &Pairwise{cfg: c, jacobi: jacobi, restitution: -1}
}

// NewGaussSeidel returns the Gauss–Seidel pairwise operator.
func NewGaussSeidel(vtol float64) *Pairwise {
	return newPairwise(Config{Name: "gauss_seidel", VTol: vtol}, false)
}

// NewJacobi returns the Jacobi pairwise operator.
func NewJacobi(vtol float64) *Pairwise { return newPairwise(Config{Name: "jacobi", VTol: vtol}, true) }

// Name returns "gauss_seidel" or "jacobi".
func (o *Pairwise) Name() string {
	if o.jacobi {
		return "jacobi"
	}
	return "gauss_seidel"
}

func (o *Pairwise) cor(p *mech.Problem, k int) float64 {
	if o.restitution >= 0 {
		return o.restitution
	}
	return p.CoR[k]
}

// Resolve sweeps until no contact approaches or the sweep cap is reached.
func (o *Pairwise) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	if err := p.NeedStoredG("impact: pairwise"); err != nil {
		return mech.Stats{}, err
	}
	m, n := p.NContacts(), p.NDof()
	var st mech.Stats
	for i := range lambda[:m] {
		lambda[i] = 0
	}
	o.resetPush(m)
	if m == 0 {
		return st, nil
	}
	vtol := o.cfg.vtol()
	maxIter := o.cfg.maxIter()
	mech.MulMInvCols(&o.w, &p.G, &p.MInv)
	o.diag = grow(o.diag, m)
	for k := 0; k < m; k++ {
		o.diag[k] = p.DelassusDiag(k)
	}
	o.v = grow(o.v, n)
	copy(o.v, p.V)
	o.alpha = grow(o.alpha, m)
	for sweep := 0; ; sweep++ {
		changed := false
		if o.jacobi {
			for k := 0; k < m; k++ {
				o.alpha[k] = 0
				if u := p.G.ColDot(k, o.v) + p.NRelAt(k); u < -vtol && o.diag[k] > 0 {
					o.alpha[k] = -(1 + o.cor(p, k)) * u / o.diag[k]
					o.pushOne(k, sweep+1)
					changed = true
				}
			}
			if changed {
				for k := 0; k < m; k++ {
					if o.alpha[k] != 0 {
						o.w.AddScaledCol(o.v, k, o.alpha[k])
						lambda[k] += o.alpha[k]
					}
				}
			}
		} else {
			for k := 0; k < m; k++ {
				if u := p.G.ColDot(k, o.v) + p.NRelAt(k); u < -vtol && o.diag[k] > 0 {
					a := -(1 + o.cor(p, k)) * u / o.diag[k]
					o.w.AddScaledCol(o.v, k, a)
					lambda[k] += a
					o.pushOne(k, sweep+1)
					changed = true
				}
			}
		}
		if !changed {
			return st, nil
		}
		st.Iterations++
		if st.Iterations >= maxIter {
			o.alpha = grow(o.alpha, m)
			p.RelNormalVelocities(o.alpha, o.v)
			w, k := worst(o.alpha)
			if w >= -vtol {
				return st, nil
			}
			return st, &NotConvergedError{Operator: o.Name(), Iterations: st.Iterations, WorstViolation: w, Contact: k}
		}
	}
}

package impact

import (
	"fmt"

	"impactsim/mech"
	"impactsim/par"
)

// Projection is the position projection (post-stabilization) of a
// problem's contacts: given their gaps g at positions q (negative:
// penetration) and the gradients G = [∇g₁ … ∇gₘ] and M⁻¹ of the problem,
// the smallest mass-weighted displacement that makes every linearized gap
// non-negative,
//
//	min ½ ΔqᵀMΔq   s.t.   gᵢ + ∇gᵢᵀΔq ≥ 0   (i = 1…m),             (P1)
//
// is Δq = M⁻¹Gμ with μ the solution of the dual
//
//	min ½ μᵀAμ + μᵀg, μ ≥ 0   ⇔   0 ≤ μ ⊥ Aμ + g ≥ 0,   A = GᵀM⁻¹G,  (P2)
//
// the LCP of Alg. 1 (inelastic impact) with the gaps in the place of the
// normal velocities Gᵀv: the same island splitter, Delassus assembly and
// exact QP solvers (qp.Auto by default), bitwise independent of the number
// of workers. Δq is unique (M is positive definite on the moving bodies)
// even where μ is not. An island whose contacts all have gᵢ ≥ 0 gets
// μ = 0 without a solve. The position correction of package sim
// (sim.Correction) iterates it with gaps re-evaluated after each
// displacement.
type Projection struct {
	ker  lcpSolve
	ones []float64
}

// NewProjection returns the projection with the named QP solver
// (qp.New: auto, dense, sparse, interior; "" is auto).
func NewProjection(solver string) (*Projection, error) {
	c := Config{Name: "projection", Solver: solver}
	s, err := c.solver()
	if err != nil {
		return nil, err
	}
	return &Projection{ker: lcpSolve{solver: s, mk: c.solver, skipFeasible: true}}, nil
}

// SetPool makes the projection solve independent islands concurrently on
// the workers of pool (nil: one by one); the result does not depend on it.
func (pr *Projection) SetPool(pool *par.Pool) { pr.ker.setPool(pool) }

// Solve writes the multipliers μ ≥ 0 of (P2) for the contacts of p (its
// G, MInv and Bodies; V, CoR, Mu, D and the known relative velocities are
// not read) and gaps gap (len m) into mu (len m). Stats.Solves is 1;
// SolverIterations and Residual are those of the island solves. It does
// not allocate once its workspaces have grown.
func (pr *Projection) Solve(p *mech.Problem, gap, mu []float64) (mech.Stats, error) {
	m := p.NContacts()
	if len(gap) != m || len(mu) != m {
		return mech.Stats{}, fmt.Errorf("impact: projection: %d gaps and %d multipliers for %d contacts", len(gap), len(mu), m)
	}
	if m == 0 {
		return mech.Stats{}, nil
	}
	if len(pr.ones) < m {
		pr.ones = grow(pr.ones, m)
		for i := range pr.ones {
			pr.ones[i] = 1
		}
	}
	st, err := pr.ker.solve(&p.G, &p.MInv, p.Bodies, gap, pr.ones[:m], mu)
	st.Iterations = 1
	if err != nil {
		return st, fmt.Errorf("impact: position projection on %d contacts: %w", m, err)
	}
	return st, nil
}

package impact

import (
	"fmt"

	"impactsim/mech"
	"impactsim/qp"
)

// lcpSolve is the shared kernel of LCP and GR: for the columns G of a
// problem, velocity v and restitution factors eps (εᵢ = 1 + cᵢ), it solves
//
//	min ½ ‖G y + ε∘p‖²_{M⁻¹}, y ≥ 0   ⇔   0 ≤ y ⊥ A y + ε∘(Gᵀv) ≥ 0
//
// (Alg. 1 line 2 and Alg. 2 line 13 of Smith et al. 2012) with A = GᵀM⁻¹G.
// The product form ε∘(Gᵀv) applies a per-contact restitution: the KKT
// conditions say ∇gᵢᵀv⁺ ≥ −cᵢ ∇gᵢᵀv, the Signorini–Fischera condition (3).
type lcpSolve struct {
	solver qp.Solver
	isl    islands
	A      mech.Delassus
	sub    mech.Cols
	b      []float64
	y      []float64
	bodies []int
	prob   qp.Problem
}

// solve writes y for columns g (bodies[2j], bodies[2j+1] touched by column
// j, nb bodies) island by island. It returns the summed iterations and the
// largest residual of the island solves.
func (s *lcpSolve) solve(g *mech.Cols, minv *mech.BlockDiag, bodies []int, u, eps, y []float64) (qp.Result, error) {
	m := g.NCols()
	var res qp.Result
	s.isl.split(m, minv.NumBlocks(), bodies)
	for c := 0; c < s.isl.n(); c++ {
		cols := s.isl.cols(c)
		if len(cols) == 1 {
			// One contact: the LCP is scalar, y = max(0, −εu/A).
			j := cols[0]
			a := mech.ColMInvNorm(g, j, minv)
			y[j] = 0
			if bj := eps[j] * u[j]; bj < 0 && a > 0 {
				y[j] = -bj / a
			}
			continue
		}
		g.SubCols(&s.sub, cols)
		s.A.Assemble(&s.sub, minv)
		k := len(cols)
		s.b = grow(s.b, k)
		s.y = grow(s.y, k)
		for a, j := range cols {
			s.b[a] = eps[j] * u[j]
			s.y[a] = 0
		}
		s.prob = qp.Problem{A: &s.A, B: s.b}
		r, err := s.solver.Solve(&s.prob, s.y)
		res.Iterations += r.Iterations
		res.Method = r.Method
		if r.Residual > res.Residual {
			res.Residual = r.Residual
		}
		if err != nil {
			return res, fmt.Errorf("island of %d contacts: %w", k, err)
		}
		for a, j := range cols {
			y[j] = s.y[a]
		}
	}
	return res, nil
}

// LCP is the Signorini–Fischera impact model (eq. 3) with Newton
// restitution cᵢ per contact, solved exactly as the equivalent convex QP. At
// c = 0 it is the maximally dissipative inelastic impact of Alg. 1.
type LCP struct {
	cfg Config
	// restitution overrides every cᵢ when ≥ 0 (GRR's inelastic part uses 0).
	restitution float64
	ker         lcpSolve
	u           []float64
	eps         []float64
}

func newLCP(c Config) (*LCP, error) {
	s, err := c.solver()
	if err != nil {
		return nil, err
	}
	return &LCP{cfg: c, restitution: -1, ker: lcpSolve{solver: s}}, nil
}

// NewLCP returns the LCP operator with the given QP solver name ("" = auto).
func NewLCP(solver string) (*LCP, error) { return newLCP(Config{Name: "lcp", Solver: solver}) }

// Name returns "lcp".
func (o *LCP) Name() string { return "lcp" }

// Resolve solves (3) on all contacts of p.
func (o *LCP) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	m := p.NContacts()
	var st mech.Stats
	if m == 0 {
		return st, nil
	}
	o.u = grow(o.u, m)
	o.eps = grow(o.eps, m)
	p.NormalVelocities(o.u, p.V)
	for i := 0; i < m; i++ {
		c := p.CoR[i]
		if o.restitution >= 0 {
			c = o.restitution
		}
		o.eps[i] = 1 + c
	}
	r, err := o.ker.solve(&p.G, &p.MInv, p.Bodies, o.u, o.eps, lambda)
	st.Iterations = 1
	st.Solves = 1
	st.SolverIterations = r.Iterations
	st.Residual = r.Residual
	if err != nil {
		return st, fmt.Errorf("impact: lcp on %d contacts: %w", m, err)
	}
	return st, nil
}

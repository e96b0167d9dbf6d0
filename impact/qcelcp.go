package impact

import (
	"fmt"

	"impactsim/mech"
	"impactsim/par"
)

// QCELCP is the QCE-LCP operator (eq. 19 of Zhang et al.): the
// Signorini–Fischera LCP whose restitution target is QCE's elastic
// post-impact velocity instead of −v⁻,
//
//	0 ≤ λ ⊥ Aλ + Gᵀv⁻ − cᵢ (Gᵀv_c⁺)ᵢ ≥ 0,   v_c⁺ = v⁻ + M⁻¹G λ_c,
//
// where λ_c is the QCE impulse and cᵢ the per-contact restitution. It is
// solved exactly, island by island, as the equivalent convex QP (the kernel
// shared with LCP and GR). At c = 0 the right-hand side is Gᵀv⁻ and the
// operator is the inelastic LCP (QCE is then not run at all); at c = 1,
// λ_c solves the LCP (the appendix's lemma: λ_c ≥ 0 and Aλ_c + Gᵀv⁻ =
// Gᵀv_c⁺ ≥ 0, with equality wherever λ_c > 0 up to v_tol), so the
// post-impact velocity is QCE's. For a uniform 0 ≤ c ≤ 1 the solution is
// λ_r = (1−c)λ_l + cλ_c, so v⁺ = (1−c)v_l⁺ + c v_c⁺ and, by convexity of
// the kinetic energy, K(v⁺) ≤ (1−c)K(v_l⁺) + cK(v_c⁺) ≤ K(v⁻) (the
// appendix's theorem).
//
// Starting point. When QCE runs (some cᵢ > 0), the LCP's solver (MPRGP
// or the active set, by island) starts from λ = (1 + cᵢ)/2 · λ_c instead
// of 0: for an isolated contact, λ_c = −2uᵢ/Aᵢᵢ and the answer is
// −(1 + cᵢ)uᵢ/Aᵢᵢ, exactly that; in a pile it is a close guess. The
// solvers meet the same KKT tolerance from any start, so only the
// answer's rounding depends on it. On the 60k layer's landing window
// (spheres, 2 workers) the normal solve's summed island time fell from
// 10.5 to 4.9 s over 30 steps (BENCHMARKS.md, qcespeed).
type QCELCP struct {
	cfg Config
	qce *QCE
	ker lcpSolve

	lc    []float64 // λ_c
	vc    []float64 // v_c⁺
	u     []float64 // Gᵀv⁻
	uc    []float64 // Gᵀv_c⁺
	b     []float64
	ones  []float64
	scr   []float64
	guess []float64 // the LCP's starting point
	// noGuess (tests) starts the LCP from zero, as before the guess
	noGuess bool
}

func newQCELCP(c Config) (*QCELCP, error) {
	s, err := c.solver()
	if err != nil {
		return nil, err
	}
	q := c
	q.Name = "qce"
	return &QCELCP{cfg: c, qce: newQCE(q), ker: lcpSolve{solver: s, mk: c.solver}}, nil
}

// NewQCELCP returns the QCE-LCP operator with the given QP solver name
// ("" = auto); QCE runs with the default tolerance and cap.
func NewQCELCP(solver string) (*QCELCP, error) {
	return newQCELCP(Config{Name: "qce_lcp", Solver: solver})
}

// FirstPush implements Propagation: the order of the QCE stage (nil
// when every contact has c = 0 and QCE did not run).
func (o *QCELCP) FirstPush() []int32 { return o.qce.FirstPush() }

// Name returns "qce_lcp".
func (o *QCELCP) Name() string { return "qce_lcp" }

// Resolve solves eq. (19) on all contacts of p.
func (o *QCELCP) Resolve(p *mech.Problem, lambda []float64) (mech.Stats, error) {
	if err := p.NeedStoredG("impact: qce_lcp"); err != nil {
		return mech.Stats{}, err
	}
	m, n := p.NContacts(), p.NDof()
	var st mech.Stats
	o.qce.resetPush(m)
	if m == 0 {
		return st, nil
	}
	if err := checkFinite(p); err != nil {
		return st, fmt.Errorf("impact: qce_lcp: %w", err)
	}
	o.u = grow(o.u, m)
	o.uc = grow(o.uc, m)
	o.b = grow(o.b, m)
	o.ones = grow(o.ones, m)
	p.RelNormalVelocities(o.u, p.V)
	elastic := false
	for i := 0; i < m; i++ {
		o.ones[i] = 1
		if p.CoR[i] > 0 {
			elastic = true
		}
	}
	copy(o.b, o.u)
	if elastic {
		o.lc = grow(o.lc, m)
		o.vc = grow(o.vc, n)
		o.scr = grow(o.scr, n)
		qs, err := o.qce.Resolve(p, o.lc)
		st.Add(qs)
		if err != nil {
			return st, fmt.Errorf("impact: qce_lcp: %w", err)
		}
		p.ApplyImpulses(o.vc, p.V, o.lc, nil, o.scr)
		p.RelNormalVelocities(o.uc, o.vc)
		for i := 0; i < m; i++ {
			o.b[i] -= p.CoR[i] * o.uc[i]
		}
		if !o.noGuess {
			// the LCP's start: (1 + cᵢ)/2 · λ_c (see QCELCP)
			o.guess = grow(o.guess, m)
			for i := 0; i < m; i++ {
				o.guess[i] = (1 + p.CoR[i]) / 2 * o.lc[i]
			}
			o.ker.guess = o.guess
		}
	}
	r, err := o.ker.solve(&p.G, &p.MInv, p.Bodies, o.b, o.ones, lambda)
	o.ker.guess = nil
	st.Iterations++
	st.Add(r)
	if err != nil {
		return st, fmt.Errorf("impact: qce_lcp on %d contacts: %w", m, err)
	}
	return st, nil
}

// SetPool makes the LCP stage solve independent islands concurrently.
func (o *QCELCP) SetPool(pool *par.Pool) { o.ker.setPool(pool) }

package frame2d

import (
	"fmt"
	"math"
	"time"

	"impactsim/qp"
)

// LengthMode selects the linearised length constraint of the position step.
type LengthMode int

const (
	// LDoublePrime is (L″) of sec. 8.3: ⟨p_i − p_j, d⟩ = L0·‖d‖ with
	// d = p_i⁽ℓ⁾ − p_j⁽ℓ⁾: the projection on the old bar is the original
	// length, which corrects length errors instead of accumulating them.
	LDoublePrime LengthMode = iota
	// LPrime is (L') of Theorem 5.1: ⟨p_i − p_j, d⟩ = ‖d‖² − ‖Δ_i − Δ_j‖²
	// with Δ = p⁽ℓ⁾ − p⁽ℓ⁻¹⁾.
	LPrime
)

// StepStats describes the QP of the last step.
type StepStats struct {
	Vars, Eq, In int     // QP size
	Active       int     // inequalities with a positive multiplier
	Iterations   int     // dual active-set pivots
	Residual     float64 // dual KKT residual
	Primal       float64 // relative primal violation
	Seconds      float64 // wall time of assembly and solve
}

// Sim advances a Framework in time. The zero Margin means a tenth of the
// smallest brick dimension.
type Sim struct {
	F      *Framework
	Prev   []Vec // p⁽ℓ⁻¹⁾ (position step); nil means at rest
	Vel    []Vec // velocities (acceleration step)
	Dt     float64
	Length LengthMode
	Margin float64
	// ActiveTol is the relative tolerance with which the acceleration step
	// decides that a vertex lies on an edge and does not move off it
	// (conditions of (S2⁺)); 0 means 1e-9.
	ActiveTol float64
	// Tol is the dual KKT residual the QP solver must reach; 0 means
	// 1e-12 (qp.DefaultDenseTol). Most steps reach 1e-15; a brick wedged
	// between neighbours (nearly dependent contact rows) reaches a few
	// 1e-13 (5×5 tower, 1,000 steps: at most 6.2e-13).
	Tol float64
	// Penalty > 0 selects the penalty variant of sec. 8.4 for over-braced
	// frameworks: the length equalities of the position step become the
	// term Penalty·Σ_bars [⟨pᵢ − pⱼ, d⟩ − L⁰‖d‖]² of the objective (the paper
	// uses 100). It is implemented exactly as a DiagProblem with one extra
	// variable z per bar of weight Penalty (halving the paper's objective
	// Σ mᵢ‖pᵢ − p̃ᵢ‖² + M Σ z² gives ½Σ mᵢ‖·‖² + ½ M Σ z²) and the equality
	// ⟨pᵢ − pⱼ, d⟩ − z = L⁰‖d‖. Only the position step supports it.
	Penalty float64

	Triples []Triple  // the sidedness constraints of the last step
	Lambda  []float64 // their multipliers (after the bar multipliers)
	Stats   StepStats

	solver     qp.DiagQP
	overbraced error // the first redundant bar, if any
	vi         []int // point → first variable, −1 for fixed points
	nv         int
	prob       qp.DiagProblem
	x          []float64
	lam        []float64
	rows       rowPool
}

// NewSim prepares a simulation of f starting at rest.
func NewSim(f *Framework, dt float64) (*Sim, error) {
	if !(dt > 0) {
		return nil, fmt.Errorf("frame2d: time step %v must be positive", dt)
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	s := &Sim{F: f, Dt: dt, overbraced: f.Overbraced()}
	s.vi = make([]int, len(f.Pos))
	for i := range f.Pos {
		if f.Fixed[i] {
			s.vi[i] = -1
		} else {
			s.vi[i] = s.nv
			s.nv += 2
		}
	}
	s.Prev = append([]Vec(nil), f.Pos...)
	s.Vel = make([]Vec, len(f.Pos))
	s.prob.M = make([]float64, s.nv)
	s.prob.X0 = make([]float64, s.nv)
	s.x = make([]float64, s.nv)
	for i, v := range s.vi {
		if v >= 0 {
			s.prob.M[v], s.prob.M[v+1] = f.Mass[i], f.Mass[i]
		}
	}
	return s, nil
}

// setVars sizes the QP for the point unknowns plus extra penalty variables.
func (s *Sim) setVars(extra int) {
	n := s.nv + extra
	if cap(s.prob.M) < n {
		m, x0 := make([]float64, n), make([]float64, n)
		copy(m, s.prob.M[:s.nv])
		s.prob.M, s.prob.X0 = m, x0
	}
	s.prob.M, s.prob.X0 = s.prob.M[:n], s.prob.X0[:n]
	s.x = resizeF(s.x, n)
}

func (s *Sim) needMinimal() error {
	if s.overbraced != nil {
		return fmt.Errorf("%w; the exact length constraints are inconsistent under rounding", s.overbraced)
	}
	return nil
}

func (s *Sim) margin() float64 {
	if s.Margin > 0 {
		return s.Margin
	}
	d := math.Inf(1)
	for _, b := range s.F.Bars {
		d = math.Min(d, b.L0)
	}
	return d / 10
}

// rowPool hands out reusable sparse rows.
type rowPool struct {
	rows []qp.SparseRow
	n    int
}

func (p *rowPool) reset() { p.n = 0 }
func (p *rowPool) next() *qp.SparseRow {
	if p.n == len(p.rows) {
		p.rows = append(p.rows, qp.SparseRow{})
	}
	r := &p.rows[p.n]
	p.n++
	r.Idx, r.Val = r.Idx[:0], r.Val[:0]
	return r
}

// term adds c·q to row r, where q is the unknown of point i (new position
// or acceleration); for a fixed point q = fixedVal, moved to the rhs.
func (s *Sim) term(r *qp.SparseRow, rhs *float64, i int, c Vec, fixedVal Vec) {
	if v := s.vi[i]; v >= 0 {
		r.Idx = append(r.Idx, v, v+1)
		r.Val = append(r.Val, c.X, c.Y)
		return
	}
	*rhs -= c.Dot(fixedVal)
}

func (s *Sim) begin() {
	s.rows.reset()
	s.prob.Eq, s.prob.EqRHS = s.prob.Eq[:0], s.prob.EqRHS[:0]
	s.prob.In, s.prob.InRHS = s.prob.In[:0], s.prob.InRHS[:0]
}

// solve runs the QP and records statistics; x holds the unknowns.
func (s *Sim) solve(start time.Time) error {
	// The rows live in the pool: copy the headers into the problem.
	m := len(s.prob.Eq) + len(s.prob.In)
	s.lam = resizeF(s.lam, m)
	clear(s.lam)
	s.solver.Dense.Tol = s.Tol
	if s.Tol <= 0 {
		s.solver.Dense.Tol = 1e-12
	}
	res, err := s.solver.Solve(&s.prob, s.x, s.lam)
	s.Stats = StepStats{Vars: len(s.prob.M), Eq: len(s.prob.Eq), In: len(s.prob.In), Iterations: res.Iterations, Residual: res.Residual, Primal: res.Primal}
	s.Lambda = s.lam[len(s.prob.Eq):]
	for _, l := range s.Lambda {
		if l > 0 {
			s.Stats.Active++
		}
	}
	s.Stats.Seconds = time.Since(start).Seconds()
	return err
}

func resizeF(v []float64, n int) []float64 {
	if cap(v) < n {
		return make([]float64, n)
	}
	return v[:n]
}

// normalize scales a row to unit Euclidean norm (better conditioned dual).
func normalize(r *qp.SparseRow, rhs float64) float64 {
	var n float64
	for _, v := range r.Val {
		n += v * v
	}
	if n == 0 {
		return rhs
	}
	inv := 1 / math.Sqrt(n)
	for k := range r.Val {
		r.Val[k] *= inv
	}
	return rhs * inv
}

func (s *Sim) addEq(r *qp.SparseRow, rhs float64) {
	rhs = normalize(r, rhs)
	s.prob.Eq = append(s.prob.Eq, *r)
	s.prob.EqRHS = append(s.prob.EqRHS, rhs)
}

func (s *Sim) addIn(r *qp.SparseRow, rhs float64) {
	rhs = normalize(r, rhs)
	s.prob.In = append(s.prob.In, *r)
	s.prob.InRHS = append(s.prob.InRHS, rhs)
}

// movableBars calls fn for every bar of a movable body.
func (f *Framework) movableBars(fn func(k int, b Bar)) {
	for _, body := range f.Bodies {
		if body.Fixed {
			continue
		}
		for _, k := range body.Bars {
			fn(k, f.Bars[k])
		}
	}
}

// Step performs the position-based step of Fig. 7: extrapolate
// p̄ = 2p⁽ℓ⁾ − p⁽ℓ⁻¹⁾, add g·Δt², and minimise Σ mᵢ‖pᵢ − p̃ᵢ‖² (Q')
// subject to the length constraints (L″) (or (L'), see Length) and the
// sidedness constraints (S') of the critical edges (sec. 8.5). On error
// the framework is left unchanged.
func (s *Sim) Step() error {
	start := time.Now()
	f, dt := s.F, s.Dt
	cur, prev := f.Pos, s.Prev
	nz := 0
	if s.Penalty > 0 {
		f.movableBars(func(int, Bar) { nz++ })
	} else if err := s.needMinimal(); err != nil {
		return err
	}
	s.setVars(nz)
	for z := s.nv; z < s.nv+nz; z++ {
		s.prob.M[z], s.prob.X0[z] = s.Penalty, 0
	}
	zi := s.nv
	// The unknowns are the displacements u = p − p⁽ℓ⁾: every right-hand
	// side below is then a small quantity computed without cancellation
	// against the (large) coordinates, so the QP's relative accuracy is
	// relative to the motion of one step.
	for i, v := range s.vi {
		if v < 0 {
			continue
		}
		u := cur[i].Sub(prev[i]).Add(f.G.Scale(dt * dt)) // p̃ − p⁽ℓ⁾
		s.prob.X0[v], s.prob.X0[v+1] = u.X, u.Y
	}
	s.begin()
	f.movableBars(func(_ int, b Bar) {
		d := cur[b.I].Sub(cur[b.J])
		var rhs float64
		if s.Length == LPrime {
			// (L'): ⟨p_i − p_j, d⟩ = ‖d‖² − ‖Δ_i − Δ_j‖²
			dd := cur[b.I].Sub(prev[b.I]).Sub(cur[b.J].Sub(prev[b.J]))
			rhs = -dd.Dot(dd)
		} else {
			// (L″): ⟨p_i − p_j, d⟩ = L0·‖d‖
			l := d.Norm()
			rhs = l * (b.L0 - l)
		}
		r := s.rows.next()
		s.term(r, &rhs, b.I, d, Vec{})
		s.term(r, &rhs, b.J, d.Scale(-1), Vec{})
		if nz > 0 { // penalty: ⟨uᵢ − uⱼ, d⟩ − z = rhs, z weighted by the penalty
			r.Idx = append(r.Idx, zi)
			r.Val = append(r.Val, -1)
			zi++
		}
		s.addEq(r, rhs)
	})
	s.Triples = f.triples(s.Triples[:0], cur, s.margin())
	for _, tr := range s.Triples {
		r := s.rows.next()
		// (S'): ⟨p_k − [(1−t)p_i + t p_j], n⟩ ≥ −2·A(Δ_i, Δ_j, Δ_k), i.e.
		// ⟨u_k − [(1−t)u_i + t u_j], n⟩ ≥ −2·A(Δ_i, Δ_j, Δ_k) − A(p_i, p_j, p_k).
		rhs := -tr.Gap
		s.term(r, &rhs, tr.K, tr.N, Vec{})
		if tr.I >= 0 {
			s.term(r, &rhs, tr.I, tr.N.Scale(-(1 - tr.T)), Vec{})
			s.term(r, &rhs, tr.J, tr.N.Scale(-tr.T), Vec{})
			rhs -= 2 * area2(cur[tr.I].Sub(prev[tr.I]), cur[tr.J].Sub(prev[tr.J]), cur[tr.K].Sub(prev[tr.K]))
		}
		s.addIn(r, rhs)
	}
	if err := s.solve(start); err != nil {
		return fmt.Errorf("position step: %w", err)
	}
	copy(s.Prev, cur)
	for i, v := range s.vi {
		if v >= 0 {
			u := Vec{s.x[v], s.x[v+1]}
			s.Vel[i] = u.Scale(1 / dt)
			cur[i] = cur[i].Add(u)
		}
	}
	return nil
}

// activeTriples selects the sidedness constraints of (S2⁺) at positions
// pos and velocities vel: vertex on the edge segment (|A| ≤ tol·‖n‖²,
// −tol ≤ T ≤ 1 + tol) and not moving off it (|dA/dt| ≤ tol·‖n‖·vscale).
func (s *Sim) activeTriples(pos, vel []Vec) []Triple {
	tol := s.ActiveTol
	if tol <= 0 {
		tol = 1e-9
	}
	all := s.F.triples(nil, pos, s.margin())
	vs := 0.0
	for _, v := range vel {
		vs = math.Max(vs, v.Norm())
	}
	vs = math.Max(vs, 1)
	out := all[:0]
	for _, tr := range all {
		nn := tr.N.Norm()
		var vn float64
		if tr.I < 0 {
			vn = vel[tr.K].Y
		} else {
			vn = vel[tr.K].Sub(lerp(vel[tr.I], vel[tr.J], tr.T)).Dot(tr.N)
		}
		if math.Abs(tr.Gap) <= tol*nn*nn && math.Abs(vn) <= tol*nn*vs && tr.T >= -tol && tr.T <= 1+tol {
			out = append(out, tr)
		}
	}
	return out
}

// accelQP solves (Q): minimise Σ mᵢ‖aᵢ − g‖² subject to (L2⁺) and the
// (S2⁺) of the active triples, at the current positions and velocities
// s.Vel. The accelerations are returned in acc.
func (s *Sim) accelQP(acc []Vec) error {
	start := time.Now()
	if err := s.needMinimal(); err != nil {
		return err
	}
	s.setVars(0)
	f := s.F
	pos, vel := f.Pos, s.Vel
	for _, v := range s.vi {
		if v >= 0 {
			s.prob.X0[v], s.prob.X0[v+1] = f.G.X, f.G.Y
		}
	}
	s.begin()
	f.movableBars(func(_ int, b Bar) {
		d := pos[b.I].Sub(pos[b.J])
		dv := vel[b.I].Sub(vel[b.J])
		rhs := -dv.Dot(dv)
		r := s.rows.next()
		s.term(r, &rhs, b.I, d, Vec{})
		s.term(r, &rhs, b.J, d.Scale(-1), Vec{})
		s.addEq(r, rhs)
	})
	s.Triples = s.activeTriples(pos, vel)
	for _, tr := range s.Triples {
		r := s.rows.next()
		var rhs float64
		s.term(r, &rhs, tr.K, tr.N, Vec{})
		if tr.I >= 0 {
			s.term(r, &rhs, tr.I, tr.N.Scale(-(1 - tr.T)), Vec{})
			s.term(r, &rhs, tr.J, tr.N.Scale(-tr.T), Vec{})
			rhs -= 2 * area2(vel[tr.I], vel[tr.J], vel[tr.K])
		}
		s.addIn(r, rhs)
	}
	if err := s.solve(start); err != nil {
		return err
	}
	for i, v := range s.vi {
		if v >= 0 {
			acc[i] = Vec{s.x[v], s.x[v+1]}
		} else {
			acc[i] = Vec{}
		}
	}
	return nil
}

// AccelStep performs the classical acceleration-based step of Fig. 6:
// solve (Q) for the accelerations, then vᵢ += aᵢΔt, pᵢ += vᵢΔt (3.1).
// Prev is kept consistent (p⁽ℓ⁾ before the step), so position and
// acceleration steps can be mixed.
func (s *Sim) AccelStep() error {
	acc := make([]Vec, len(s.F.Pos))
	if err := s.accelQP(acc); err != nil {
		return fmt.Errorf("acceleration step: %w", err)
	}
	f := s.F
	copy(s.Prev, f.Pos)
	for i, v := range s.vi {
		if v < 0 {
			continue
		}
		s.Vel[i] = s.Vel[i].Add(acc[i].Scale(s.Dt))
		f.Pos[i] = f.Pos[i].Add(s.Vel[i].Scale(s.Dt))
	}
	return nil
}

// SetVelocities sets the current velocities and the previous positions
// p⁽ℓ⁻¹⁾ = p⁽ℓ⁾ − vΔt that the position step uses to extrapolate.
func (s *Sim) SetVelocities(v []Vec) {
	copy(s.Vel, v)
	for i := range s.F.Pos {
		if s.vi[i] >= 0 {
			s.Prev[i] = s.F.Pos[i].Sub(v[i].Scale(s.Dt))
		} else {
			s.Prev[i] = s.F.Pos[i]
			s.Vel[i] = Vec{}
		}
	}
}

// MaxLengthError returns max over bars |‖p_i − p_j‖ − L0| / L0.
func (f *Framework) MaxLengthError() float64 {
	var e float64
	f.movableBars(func(_ int, b Bar) {
		e = math.Max(e, math.Abs(f.Pos[b.I].Sub(f.Pos[b.J]).Norm()-b.L0)/b.L0)
	})
	return e
}

package sim

import (
	"fmt"
	"time"

	"impactsim/friction"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
)

// System is a mechanical system that builds impact problems.
type System interface {
	// NDof returns the number of generalized degrees of freedom.
	NDof() int
	// FreeFlight integrates the unconstrained motion from (q0, v0) over h
	// into (q1, v1).
	FreeFlight(q0, v0 []float64, h float64, q1, v1 []float64)
	// BuildProblem fills p with the contacts active along the motion from q0
	// to the prediction q1, with gradients evaluated at q0 and velocity v0.
	BuildProblem(q0, q1, v0 []float64, p *mech.Problem)
	// AfterStep applies end-of-step maps (e.g. periodic portals).
	AfterStep(q, v []float64)
}

// StepStarter is implemented by systems whose geometry depends on time
// (Lees–Edwards portals): the stepper calls StartStep(t) before each step
// with the time t = (N+1)·h at its end, when SCISim updates its moving
// portals.
type StepStarter interface {
	StartStep(t float64)
}

// PositionSizer is implemented by systems whose position vector q is not
// the same length as the velocity v, e.g. rigid bodies whose orientation is
// a unit quaternion (7 coordinates per body, 6 velocity dofs). The stepper
// then sizes q as NQ() and v as NDof(); otherwise len(q) = len(v) = NDof().
type PositionSizer interface {
	NQ() int
}

// ContactLaw resolves the normal impulses λ (len m) and friction impulses β
// (len D.NCols()) of one problem.
type ContactLaw interface {
	Name() string
	Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error)
}

// Staggered applies an impact operator and then, if set, a friction
// operator given the impact's λ — the single pass of Alg. 4 lines 3–6.
type Staggered struct {
	Impact   impact.Operator
	Friction friction.Operator
}

// Name returns the impact operator's name, with "+friction" appended.
func (s *Staggered) Name() string {
	if s.Friction == nil {
		return s.Impact.Name()
	}
	return s.Impact.Name() + "+" + s.Friction.Name()
}

// Solve runs the impact operator then the friction operator; both act on
// the relative velocities, known terms of moving geometry included
// (mech.Problem.NRel, DRel).
func (s *Staggered) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	st, err := s.Impact.Resolve(p, lambda)
	if err != nil {
		return st, err
	}
	clear(beta[:p.D.NCols()])
	if s.Friction == nil || p.D.NCols() == 0 {
		return st, nil
	}
	fs, err := s.Friction.Resolve(p, lambda, beta)
	st.Add(fs)
	return st, err
}

// SetPool passes pool to the impact and friction operators that can use it.
func (s *Staggered) SetPool(pool *par.Pool) {
	setPool(s.Impact, pool)
	setPool(s.Friction, pool)
}

// PoolUser is implemented by systems and laws that can spread their work
// over the workers of a pool.
type PoolUser interface{ SetPool(*par.Pool) }

func setPool(x any, pool *par.Pool) {
	if pu, ok := x.(PoolUser); ok {
		pu.SetPool(pool)
	}
}

// SetPool makes the system and the law run on the workers of pool (nil:
// everything on the calling goroutine). For the ball systems and the
// GR/LCP operators the states are bitwise the same for every pool size.
func (s *Stepper) SetPool(pool *par.Pool) {
	setPool(s.Sys, pool)
	setPool(s.Law, pool)
	if s.corr != nil {
		s.corr.SetPool(pool)
	}
	s.pool = pool
}

// applyImpulses sets s.vp = V + M⁻¹(Gλ + Dβ) as Problem.ApplyImpulses does
// (same arithmetic), with the block products on the pool's workers. It runs
// once the problem is solved, when the free-flight prediction (q̃, ṽ) is no
// longer needed: Gλ + Dβ is summed in ṽ's storage and v⁺ is written over q̃
// (len(q̃) ≥ n), which saves two state vectors.
func (s *Stepper) applyImpulses() {
	p := &s.Problem
	n := len(s.V)
	s.scr, s.vp = s.vt[:n], s.qt[:n]
	clear(s.scr)
	p.G.AddMulVec(s.scr, s.Lambda)
	if s.Beta != nil {
		p.D.AddMulVec(s.scr, s.Beta)
	}
	if s.self != s {
		s.self, s.fVel = s, s.velocityChunk
	}
	s.pool.For(p.MInv.NumBlocks(), 2048, s.fVel)
}

func (s *Stepper) velocityChunk(w, lo, hi int) {
	base := s.V
	if s.base != nil {
		base = s.base
	}
	s.Problem.MInv.MulVecAddBlocks(s.vp, s.scr, base, lo, hi)
}

// StepStats describes the last step.
type StepStats struct {
	Contacts    int
	Law         mech.Stats
	Integration time.Duration // both free-flight passes
	Detection   time.Duration // broad + narrow phase and problem assembly
	Impact      time.Duration // contact law and impulse application
	// WallWork is the work that moving geometry did on the bodies through
	// the step's impulses: mech.KnownWork of the known relative
	// velocities the system put into the problem (moving walls,
	// Lees–Edwards images; not the stepper's own gap and kick terms) plus
	// mech.Problem.FixedWork of kinematic bodies. Zero for static scenes.
	WallWork float64
	// Correction is the position correction's record (zero without one,
	// or in a step without contacts).
	Correction CorrectionStats
	// Closure is the closed active set's record (zero without one, or in
	// a step without contacts).
	Closure ClosureStats
}

// Stepper advances a System with Alg. 4. Q and V hold the current state;
// they change only when a step succeeds, so after an error they are the last
// good state.
type Stepper struct {
	Sys  System
	Law  ContactLaw
	H    float64
	Q, V []float64
	T    float64
	N    int // steps taken

	// Check, if set, is called with the new state after every step; an
	// error refuses the step: the state before it is restored (Q, V, T and
	// N: the last good state) and Step returns a *CheckError (CheckFinite
	// stops a run at its first NaN or ±Inf). The stepper then keeps a copy
	// of the state, two more vectors.
	Check func(q, v []float64) error
	// OnPhase, if set, is told each phase of a step as it starts ("free
	// flight", "contact detection", "contact law"), for progress displays
	// of steps that take seconds.
	OnPhase func(phase string)
	keepQ   []float64
	keepV   []float64

	// Strict makes a step whose contact law stopped at a user-set
	// iteration cap (mech.Stats.Capped) fail with a *mech.CapError,
	// leaving the state unchanged; otherwise such a step goes on and
	// Last.Law records it.
	Strict bool

	Last    StepStats
	Problem mech.Problem // the last step's problem (valid until the next step)
	Lambda  []float64    // the last step's normal impulses
	Beta    []float64    // the last step's friction impulses

	// qt and vt hold the free-flight prediction (q̃, ṽ); vp (v⁺) and scr
	// alias them while the impulses are applied. qn holds the new positions
	// when len(q) ≠ len(v); otherwise they go into V's storage (see Step),
	// so the stepper keeps four state vectors, not eight.
	qt, vt, qn []float64
	vp, scr    []float64

	// Scheme is the time-stepping scheme (NewImpulseVelocityStepper sets
	// ImpulseVelocity), ErrorReduction its ε.
	Scheme         Scheme
	ErrorReduction float64
	ivs            ImpulseVelocitySystem
	gaps           []float64
	base           []float64 // the velocity the impulses are added to (nil: V)

	pool *par.Pool
	fVel func(w, lo, hi int)
	self *Stepper

	// staggering (SetStaggering) and what it needs from the system
	staggering Staggering
	stabilize  bool
	threshold  float64
	cfg        ConfigurationUpdater
	kick       ForceKicker
	gapper     GapEvaluator
	dv, gap    []float64
	scr2       []float64

	// the system's known relative velocities of the step (keepWall)
	wallN, wallD []float64

	hooks []Hook

	// External, if set, takes the step in place of the stepper's own
	// scheme: it advances Q, V (the whole system's state), N and T and
	// fills Last, for a step taken elsewhere — across the ranks of an MPI
	// job (package domain) — while drivers such as package runner go on
	// calling Step. Hooks and Check still run around it.
	External func(s *Stepper) error

	corr          *Corrector // the position correction (SetCorrection), nil: none
	closure       *Closure   // the closed active set (SetClosure), nil: Alg. 4's
	overlapSearch float64    // MeasureOverlap's search distance
}

// keepWall copies the known relative velocities the system put into the
// step's problem (moving geometry), before the stepper adds its own terms,
// for the step's WallWork.
func (s *Stepper) keepWall(p *mech.Problem) {
	if p.Known != nil {
		s.wallN, s.wallD = s.wallN[:0], s.wallD[:0]
		for i := range p.NContacts() {
			s.wallN = append(s.wallN, p.NRelAt(i))
		}
		for k := range p.NTangents() {
			s.wallD = append(s.wallD, p.DRelAt(k))
		}
		return
	}
	s.wallN = append(s.wallN[:0], p.NRel...)
	s.wallD = append(s.wallD[:0], p.DRel...)
}

// wallWork is the step's StepStats.WallWork once λ and β are known.
func (s *Stepper) wallWork() float64 {
	p := &s.Problem
	return mech.KnownWork(s.wallN, s.wallD, s.Lambda, s.Beta) + p.FixedWork(s.Lambda, s.Beta)
}

// NewStepper returns a stepper at time zero for state (q, v), which it copies.
func NewStepper(sys System, law ContactLaw, h float64, q, v []float64) (*Stepper, error) {
	if !(h > 0) {
		return nil, fmt.Errorf("sim: time step h = %v, want h > 0", h)
	}
	n := sys.NDof()
	nq := n
	if ps, ok := sys.(PositionSizer); ok {
		nq = ps.NQ()
	}
	if len(q) != nq || len(v) != n {
		return nil, fmt.Errorf("sim: state has %d positions and %d velocities, want %d and %d", len(q), len(v), nq, n)
	}
	s := &Stepper{Sys: sys, Law: law, H: h,
		Q: append([]float64(nil), q...), V: append([]float64(nil), v...)}
	s.qt = make([]float64, nq)
	s.vt = make([]float64, n)
	if nq != n {
		s.qn = make([]float64, nq)
	}
	return s, nil
}

// SetState replaces the state by (q, v), which it keeps, after the system
// changed its number of bodies (a hook inserted or removed some): the
// stepper's buffers are resized to the system's NQ and NDof, which q and v
// must match.
func (s *Stepper) SetState(q, v []float64) error {
	n := s.Sys.NDof()
	nq := n
	if ps, ok := s.Sys.(PositionSizer); ok {
		nq = ps.NQ()
	}
	if len(q) != nq || len(v) != n {
		return fmt.Errorf("sim: state has %d positions and %d velocities, want %d and %d", len(q), len(v), nq, n)
	}
	s.Q, s.V = q, v
	s.qt = growF(s.qt, nq)
	s.vt = growF(s.vt, n)
	if nq != n || s.qn != nil {
		// (a correction or closure keeps the new positions apart too)
		s.qn = growF(s.qn, nq)
	}
	return nil
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4+8)
	}
	return s[:n]
}

// Step advances one time step, running the hooks (AddHook) at its start,
// once its contacts are known and at its end. On error the state is
// unchanged (but for what a Begin hook changed) and the error names the
// step, the time and the law's diagnostics; an End hook's error comes
// after the step was taken.
func (s *Stepper) Step() error {
	if s.Check != nil {
		return s.checkedStep()
	}
	return s.step()
}

func (s *Stepper) step() error {
	s.phase("free flight")
	for i := range s.hooks {
		if h := &s.hooks[i]; h.Begin != nil {
			if err := h.Begin(s); err != nil {
				return s.hookError(h, err)
			}
		}
	}
	var err error
	if s.External != nil {
		err = s.External(s)
	} else if s.Scheme == ImpulseVelocity {
		err = s.stepImpulseVelocity()
	} else {
		err = s.stepAlg4()
	}
	if err != nil {
		return err
	}
	for i := range s.hooks {
		if h := &s.hooks[i]; h.End != nil {
			if err := h.End(s); err != nil {
				return fmt.Errorf("sim: after step %d (t = %.10g): hook %s: %w", s.N, s.T, h.Name, err)
			}
		}
	}
	return nil
}

// Hook is a callback the stepper runs in every step: the user's own Go
// code, a scene's prescribed motions (package scenario), a SCISim script.
// Hooks run in the order they were added; nil fields are skipped. The
// time of the step being taken is s.T → s.T + s.H.
type Hook struct {
	// Name names the hook in errors.
	Name string
	// Begin runs before the step. It may move the system's geometry to
	// its pose at the end of the step, s.T + s.H, with its velocity there
	// (as SCISim's scripts and Lees–Edwards portals do), and set
	// kinematic bodies' positions and velocities in s.Q and s.V.
	Begin func(s *Stepper) error
	// Coefficients runs once the step's contacts are in p (after the
	// system built the problem, before the law): it may change the
	// per-contact coefficients p.CoR[i] and p.Mu[i].
	Coefficients func(s *Stepper, p *mech.Problem) error
	// End runs after the step; s.T is its end time.
	End func(s *Stepper) error
}

// AddHook adds h to the hooks run in every step.
func (s *Stepper) AddHook(h Hook) { s.hooks = append(s.hooks, h) }

// AddFirstHook adds h before the hooks added so far: an observer that
// must see the state before the others change it (the run driver measures
// what a script's endOfStep inserted or deleted).
func (s *Stepper) AddFirstHook(h Hook) { s.hooks = append([]Hook{h}, s.hooks...) }

func (s *Stepper) hookError(h *Hook, err error) error {
	return fmt.Errorf("sim: step %d (t = %.10g → %.10g): hook %s: %w", s.N+1, s.T, s.T+s.H, h.Name, err)
}

// coefficients runs the Coefficients hooks on the step's problem.
func (s *Stepper) coefficients(p *mech.Problem) error {
	for i := range s.hooks {
		if h := &s.hooks[i]; h.Coefficients != nil {
			if err := h.Coefficients(s, p); err != nil {
				return s.hookError(h, err)
			}
		}
	}
	return nil
}

// stepAlg4 is Step for Alg. 4 and its staggerings.
func (s *Stepper) stepAlg4() error {
	h := s.H
	t0 := time.Now()
	if ss, ok := s.Sys.(StepStarter); ok {
		ss.StartStep(float64(s.N+1) * h)
	}
	if s.staggering != Geometric {
		if err := s.stepStaggered(h, t0); err != nil {
			return err
		}
		s.N++
		s.T = float64(s.N) * h
		return nil
	}
	s.Sys.FreeFlight(s.Q, s.V, h, s.qt, s.vt)
	if s.corr != nil {
		s.corr.Prepare(s.qt)
	}
	t1 := time.Now()
	s.phase("contact detection")
	s.Sys.BuildProblem(s.Q, s.qt, s.V, &s.Problem)
	t2 := time.Now()
	p := &s.Problem
	s.keepWall(p)
	m := p.NContacts()
	s.Last = StepStats{Contacts: m, Integration: t1.Sub(t0), Detection: t2.Sub(t1)}
	if err := s.coefficients(p); err != nil {
		return err
	}
	if m == 0 {
		// The prediction is the new state.
		s.Sys.AfterStep(s.qt, s.vt)
		s.Q, s.qt = s.qt, s.Q
		s.V, s.vt = s.vt, s.V
	} else {
		if err := s.solveLaw(); err != nil {
			return err
		}
		s.Last.WallWork = s.wallWork()
		s.applyImpulses()
		t3 := time.Now()
		s.Last.Impact = t3.Sub(t2)
		// v⁺ is in qt and ṽ is no longer needed: the new velocity goes
		// into vt, and the new positions into qn, or into V's storage
		// (v⁻ is not read again; the problem holds its own copy).
		qn := s.qn
		if qn == nil {
			qn = s.V
		}
		s.Sys.FreeFlight(s.Q, s.vp, h, qn, s.vt)
		s.Last.Integration += time.Since(t3)
		s.vp, s.scr = nil, nil
		if s.closure != nil {
			if err := s.closeActiveSet(qn); err != nil {
				return err
			}
		}
		return s.finish(qn)
	}
	s.N++
	s.T = float64(s.N) * h
	return nil
}

// solveLaw runs the contact law on the step's problem into Lambda and
// Beta; a capped solve is an error under Strict.
func (s *Stepper) solveLaw() error {
	p := &s.Problem
	m := p.NContacts()
	s.Lambda = growF(s.Lambda, m)
	s.Beta = growF(s.Beta, p.D.NCols())
	s.phase("contact law")
	st, err := s.Law.Solve(p, s.Lambda, s.Beta)
	s.Last.Law = st
	if err == nil && s.Strict && st.Capped > 0 {
		err = &mech.CapError{Iterations: st.CappedIterations, Residual: st.CappedResidual, Tol: st.CappedTol}
	}
	if err != nil {
		return fmt.Errorf("sim: step %d (t = %.10g → %.10g), %d contacts, law %s: %w", s.N+1, s.T, s.T+s.H, m, s.Law.Name(), err)
	}
	return nil
}

// finish corrects the new positions qn (SetCorrection), applies AfterStep
// to the new state (positions in qn, velocity in vt), makes it the current
// one and counts the step. After a failed correction the state is the last
// good one.
func (s *Stepper) finish(qn []float64) error {
	if err := s.correct(qn); err != nil {
		return err
	}
	s.Sys.AfterStep(qn, s.vt)
	if s.qn == nil {
		s.Q, s.V, s.qt, s.vt = s.V, s.vt, s.Q, s.qt
	} else {
		s.Q, s.qn = s.qn, s.Q
		s.V, s.vt = s.vt, s.V
	}
	s.N++
	s.T = float64(s.N) * s.H
	return nil
}

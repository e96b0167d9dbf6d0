package sim

import (
	"errors"
	"fmt"
	"math"
	"time"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
)

// Correction configures the position correction, the last stage of a
// step (see the package documentation, "Position correction"): after the
// velocity step, the positions alone are projected so that no contact of
// the step penetrates by more than Tol. Velocities are never changed.
type Correction struct {
	// Project enables the projection; without it the stage only measures
	// the step's worst overlap (CorrectionStats.Overlap) and changes
	// nothing.
	Project bool
	// Tol (> 0, a length) is the overlap that starts a projection, and
	// the overlap every contact must be within after it: a step whose
	// contacts all have gaps ≥ −Tol at its end is left as it is, bit for
	// bit.
	Tol float64
	// MaxPasses caps the linearize–project passes of one step (0:
	// DefaultCorrectionPasses). A step that still has an overlap above
	// Tol after them goes on and is recorded (CorrectionStats.Capped);
	// Stepper.Strict makes it an error.
	MaxPasses int
	// Solver names the QP solver of the projection's islands (qp.New;
	// "" is auto).
	Solver string
	// Method is the correction's scheme: "" or MethodProjection, the
	// minimal mass-weighted displacement (P2) by the projection (P1) of
	// package impact; MethodNGS, the nonlinear Gauss–Seidel position
	// projection of a ContactSweeper system (not the minimal displacement;
	// see the package documentation).
	Method string
	// MaxSweeps caps MethodNGS's sweeps over the contacts in one step (0:
	// DefaultCorrectionSweeps). A step that still has an overlap above Tol
	// after them goes on and is recorded (CorrectionStats.Capped).
	MaxSweeps int
	// Search (a length ≥ 0; 0: no search) makes systems that implement
	// MissedContactFinder look, around every body that ended the step
	// (or a projection pass) more than Search from where the step's
	// contacts were found, for contacts the step missed: a body whose
	// path the impulses bent can end inside one that the active set never
	// met. A missed contact between two bodies that moved less than
	// Search overlaps by less than 2·Search + Tol; it is in the next
	// step's active set.
	Search float64
}

// DefaultCorrectionPasses is the default of Correction.MaxPasses.
const DefaultCorrectionPasses = 8

// DefaultCorrectionSweeps is the default of Correction.MaxSweeps.
const DefaultCorrectionSweeps = 1000

// The position correction's methods (Correction.Method).
const (
	MethodProjection = "projection"
	MethodNGS        = "ngs"
)

// ContactSweeper is implemented by systems that can run the nonlinear
// Gauss–Seidel position projection (Correction.Method MethodNGS) on their
// current contacts (those of the last BuildProblem, then those FindMissed
// appended).
type ContactSweeper interface {
	// SweepContacts makes up to maxSweeps sweeps over the contacts in a
	// fixed order of the system's, pushing every contact whose gap at the
	// current q is below target back to target along its normal at the
	// current q, the push shared by the inverse masses; it stops after the
	// first sweep in which no contact overlapped by more than tol when it
	// came up, and returns the sweeps made and the largest overlap seen in
	// the last (exact wherever it is above min(−target, tol); a system may
	// skip contacts it knows to be below that).
	SweepContacts(q []float64, target, tol float64, maxSweeps int) (sweeps int, worst float64)
}

// MissedContactFinder is implemented by systems that can find the contacts
// a step missed (Correction.Search).
type MissedContactFinder interface {
	// FindMissed looks around every movable body whose position in q is
	// more than search from its position in ref for contacts that overlap
	// at q by more than tol and are neither contacts of the last
	// BuildProblem nor found before since; it sets those bodies' entries of
	// ref to q. It appends each contact found to the system's contact
	// list, after the last BuildProblem's (so that Gaps covers it), and
	// its column (gradient at q) with its coefficients and bodies to p
	// (AppendContact), and returns how many it appended. BuildProblem
	// forgets them.
	FindMissed(ref, q []float64, search, tol float64, p *mech.Problem) int
}

// ContactKeyer is implemented by systems that can give each current
// contact a key that a mirror image of the state leaves unchanged (ball2d:
// height along −g, then distance from the mirror axis). The projection
// then lists its working set, hence every island's columns, and sums
// Δq = M⁻¹Gμ in the order of the keys (impact.Projection.Keys), so that a
// mirror pair of islands is the same QP bit for bit and a
// mirror-symmetric state is corrected to a mirror-symmetric one (only the
// rounding depends on the order).
type ContactKeyer interface {
	// ContactKeys returns keys (reused) holding the key at q of each
	// current contact (those of the last BuildProblem, then those
	// FindMissed appended), in the contacts' order.
	ContactKeys(q []float64, keys [][2]float64) [][2]float64
}

// Relinearizer is implemented by systems that can evaluate the gradients
// of their current contacts (those of the last BuildProblem, then those
// FindMissed appended) at other positions.
type Relinearizer interface {
	// Relinearize overwrites the values of p's columns of G, one per
	// contact in the system's order, with the gradients at q; the sparsity
	// (rows and entries per column) is that of the columns as built.
	Relinearize(q []float64, p *mech.Problem)
}

// MovedReevaluator is implemented by systems that can re-evaluate the gaps
// and gradients of only the contacts touching some bodies. After the
// first pass of a step the correction moves the bodies of the islands it
// solved, not the whole pile: the other contacts' gaps and gradients are
// those it has, bit for bit.
type MovedReevaluator interface {
	// UpdateGaps overwrites gaps[k], for every contact k < len(gaps) that
	// touches a body block b with moved[b], with its gap at q, appends the
	// gaps at q of the contacts after them (those FindMissed appended
	// since), and returns gaps: what Gaps(q, gaps[:0]) returns when the
	// other contacts' bodies are where gaps was evaluated.
	UpdateGaps(q []float64, moved []bool, gaps []float64) []float64
	// RelinearizeMoved is Relinearize(q, p) for the contacts that touch a
	// body block b with moved[b]; the other columns are left as they are
	// (gradients at positions those bodies still have).
	RelinearizeMoved(q []float64, p *mech.Problem, moved []bool)
}

// PositionCorrectable is what the position correction needs from a system:
// the gaps at any positions of its last problem's contacts (GapEvaluator),
// a displacement of positions by a generalized velocity
// (ConfigurationUpdater, called with h = 1 and q1 = q0: in place), and its
// potential energy, for the energy the correction adds or removes.
type PositionCorrectable interface {
	GapEvaluator
	ConfigurationUpdater
	PotentialEnergy(q []float64) float64
}

// CorrectionStats describes the position correction of one step.
type CorrectionStats struct {
	// Contacts is the number of contacts whose gaps were evaluated (the
	// step's contacts).
	Contacts int
	// Passes is the number of projections made (0 when no contact
	// overlapped by more than Tol, or without Project).
	Passes int
	// OverlapBefore and Overlap are the largest overlap max(0, −gᵢ) of
	// the step's contacts at the step's end positions, before and after
	// the correction.
	OverlapBefore, Overlap float64
	// PotentialChange is U(q after) − U(q before): the energy the
	// correction added (> 0) or removed. Kinetic energy is untouched.
	PotentialChange float64
	// Missed is the number of contacts the step missed that the search
	// (Correction.Search) found; they are included in Contacts.
	Missed int
	// Sweeps is the number of MethodNGS sweeps made (0 for the projection).
	Sweeps int
	// Capped is true when Overlap is still above Tol after MaxPasses (or
	// MaxSweeps).
	Capped bool
	// Law sums the projections' QP solves.
	Law  mech.Stats
	Time time.Duration
}

// Corrector is the position-correction stage: the projection (P1) of
// package impact (impact.Projection), iterated, on the contacts of a
// step's problem. Stepper.SetCorrection installs one; a system with its
// own step loop (package spheres) can drive one directly. A Corrector
// keeps workspaces between calls and is not safe for concurrent use.
type Corrector struct {
	cfg  Correction
	sys  PositionCorrectable
	proj *impact.Projection
	gaps []float64
	mu   []float64
	dq   []float64
	scr  []float64
	pool *par.Pool
	fDq  func(w, lo, hi int)
	self *Corrector
	p    *mech.Problem
	// the missed-contact search: the system's finder (nil: none) and the
	// reference positions (the step's prediction, then where each body
	// was last searched)
	finder MissedContactFinder
	ref    []float64
	// relin re-evaluates the gradients at the corrected positions (nil: the
	// step's gradients at its start are kept); gval saves the step's.
	relin Relinearizer
	gval  []float64
	// inc re-evaluates only the contacts of the blocks the last pass
	// moved (moved[b]; nil: every contact each pass); shift holds the
	// gaps shifted to the target, the projection's input
	inc   MovedReevaluator
	moved []bool
	shift []float64
	// sweeper runs MethodNGS (nil: the projection)
	sweeper ContactSweeper
	// keyer keys the projection's contacts at every pass (nil: index
	// order), into keys
	keyer ContactKeyer
	keys  [][2]float64
}

// NewCorrector returns the correction c for system sys.
func NewCorrector(sys PositionCorrectable, c Correction) (*Corrector, error) {
	if c.Project && !(c.Tol > 0) || !(c.Tol >= 0) || math.IsInf(c.Tol, 0) {
		return nil, fmt.Errorf("sim: position correction tolerance %v, want a finite length > 0", c.Tol)
	}
	if !(c.Search >= 0) || math.IsInf(c.Search, 0) {
		return nil, fmt.Errorf("sim: position correction search distance %v, want a finite length ≥ 0", c.Search)
	}
	if c.MaxPasses < 0 {
		return nil, fmt.Errorf("sim: position correction passes %d, want ≥ 0", c.MaxPasses)
	}
	if c.MaxPasses == 0 {
		c.MaxPasses = DefaultCorrectionPasses
	}
	if c.MaxSweeps < 0 {
		return nil, fmt.Errorf("sim: position correction sweeps %d, want ≥ 0", c.MaxSweeps)
	}
	if c.MaxSweeps == 0 {
		c.MaxSweeps = DefaultCorrectionSweeps
	}
	k := &Corrector{cfg: c, sys: sys}
	switch c.Method {
	case "", MethodProjection:
	case MethodNGS:
		sw, ok := sys.(ContactSweeper)
		if !ok {
			return nil, fmt.Errorf("sim: position correction %q needs a system that sweeps its contacts (%T does not)", c.Method, sys)
		}
		if c.Project {
			k.sweeper = sw
		}
	default:
		return nil, fmt.Errorf("sim: position correction method %q, want %q or %q", c.Method, MethodProjection, MethodNGS)
	}
	if f, ok := sys.(MissedContactFinder); ok && c.Search > 0 {
		k.finder = f
	}
	if r, ok := sys.(Relinearizer); ok && c.Project && k.sweeper == nil {
		k.relin = r
	}
	if r, ok := sys.(MovedReevaluator); ok && c.Project && k.sweeper == nil {
		k.inc = r
	}
	if r, ok := sys.(ContactKeyer); ok && c.Project && k.sweeper == nil {
		k.keyer = r
	}
	if c.Project && k.sweeper == nil {
		pr, err := impact.NewProjection(c.Solver)
		if err != nil {
			return nil, fmt.Errorf("sim: position correction: %w", err)
		}
		// contacts within Tol of the target gap −Tol/2 (resting ones)
		// start in the projection's working set
		pr.Margin = c.Tol
		k.proj = pr
	}
	return k, nil
}

// Config returns the correction's configuration (MaxPasses filled in).
func (k *Corrector) Config() Correction { return k.cfg }

// SetPool spreads the projection's islands and the displacement over the
// workers of pool (nil: the calling goroutine); results do not depend on it.
func (k *Corrector) SetPool(pool *par.Pool) {
	k.pool = pool
	if k.proj != nil {
		k.proj.SetPool(pool)
	}
}

// Prepare records the step's prediction qPred, the positions at which its
// contacts were found, for the missed-contact search; the stepper calls
// it after the free flight of every step.
func (k *Corrector) Prepare(qPred []float64) {
	if k.finder != nil {
		k.ref = growF(k.ref, len(qPred))
		copy(k.ref, qPred)
	}
}

// worstOverlap returns max(0, −min gᵢ), and false if a gap is not a
// number (a state gone non-finite, which the stepper's Check refuses).
func worstOverlap(gaps []float64) (float64, bool) {
	w := 0.0
	for _, g := range gaps {
		if g != g {
			return w, false
		}
		w = math.Max(w, -g)
	}
	return w, true
}

// Correct measures, and with Project corrects, the positions q (in place)
// for the contacts of p, whose columns G and M⁻¹ are the step's (gradients
// at the step's start; the gaps are evaluated at q by the system). Each
// pass solves the projection (P1) linearized with those gradients and
// moves q by Δq = M⁻¹Gμ through the system's configuration update; passes
// repeat while an overlap above Tol remains, up to MaxPasses. An error of
// the QP solver is returned with q partly corrected; the caller keeps its
// last good state.
func (k *Corrector) Correct(p *mech.Problem, q []float64) (CorrectionStats, error) {
	t0 := time.Now()
	m := p.NContacts()
	st := CorrectionStats{Contacts: m}
	if m == 0 {
		return st, nil
	}
	nv := p.G.Ptr[m]
	k.gval = k.gval[:0]
	err := k.correct(p, q, &st)
	// p is the step's problem again: its gradients at the step's start,
	// without the contacts the search appended
	if len(k.gval) > 0 {
		copy(p.G.Val[:nv], k.gval)
	}
	p.TruncateContacts(m)
	st.Time = time.Since(t0)
	return st, err
}

func (k *Corrector) correct(p *mech.Problem, q []float64, st *CorrectionStats) error {
	m := st.Contacts
	if k.finder != nil {
		st.Missed += k.finder.FindMissed(k.ref, q, k.cfg.Search, k.cfg.Tol, p)
		st.Contacts = p.NContacts()
	}
	k.gaps = k.sys.Gaps(q, k.gaps[:0])
	if len(k.gaps) != st.Contacts {
		return fmt.Errorf("position correction: %d gaps for %d contacts", len(k.gaps), st.Contacts)
	}
	var ok bool
	st.OverlapBefore, ok = worstOverlap(k.gaps)
	st.Overlap = st.OverlapBefore
	if !k.cfg.Project || st.Overlap <= k.cfg.Tol || !ok {
		return nil
	}
	u0 := k.sys.PotentialEnergy(q)
	if k.sweeper != nil {
		k.sweep(p, q, st)
		st.PotentialChange = k.sys.PotentialEnergy(q) - u0
		return nil
	}
	n := p.MInv.N()
	k.dq = growF(k.dq, n)
	k.scr = growF(k.scr, n)
	slop := 0.5 * k.cfg.Tol
	if k.relin != nil {
		// The passes linearize at the positions they start from; Correct
		// puts the step's gradients (at its start) back.
		k.gval = append(k.gval[:0], p.G.Val[:p.G.Ptr[m]]...)
	}
	for st.Passes < k.cfg.MaxPasses && st.Overlap > k.cfg.Tol {
		if k.relin != nil {
			if k.inc != nil && st.Passes > 0 {
				k.inc.RelinearizeMoved(q, p, k.moved)
			} else {
				k.relin.Relinearize(q, p)
			}
		}
		// target gᵢ ≥ −Tol/2: contacts stay touching for the next step's
		// active set (exactly touching pairs fall in or out of it by
		// rounding, and impulses then push bodies through the ones left
		// out)
		k.shift = growF(k.shift, len(k.gaps))
		for i, g := range k.gaps {
			k.shift[i] = g + slop
		}
		k.mu = growF(k.mu, len(k.gaps))
		if k.keyer != nil {
			k.keys = k.keyer.ContactKeys(q, k.keys)
			k.proj.Keys = k.keys
		}
		ls, err := k.proj.Solve(p, k.shift, k.mu)
		k.proj.Keys = nil
		st.Law.Add(ls)
		if err != nil {
			return err
		}
		k.displacement(p)
		k.sys.UpdateConfiguration(q, k.dq, 1, q)
		st.Passes++
		if k.finder != nil {
			st.Missed += k.finder.FindMissed(k.ref, q, k.cfg.Search, k.cfg.Tol, p)
			st.Contacts = p.NContacts()
		}
		if k.inc != nil {
			k.gaps = k.inc.UpdateGaps(q, k.moved, k.gaps)
		} else {
			k.gaps = k.sys.Gaps(q, k.gaps[:0])
		}
		if st.Overlap, ok = worstOverlap(k.gaps); !ok {
			break
		}
	}
	st.Capped = st.Overlap > k.cfg.Tol
	st.PotentialChange = k.sys.PotentialEnergy(q) - u0
	return nil
}

// sweepsPerSearch is how many MethodNGS sweeps run between two searches
// for missed contacts (Correction.Search): the pushes of the first sweeps
// move balls into neighbours the step never met, and sweeping on without
// them would converge to an answer the search then upsets.
const sweepsPerSearch = 8

// sweep is the correction by MethodNGS: rounds of up to sweepsPerSearch
// sweeps of the system's ContactSweeper, each followed by the search for
// missed contacts (a pass), until a round's last sweep saw no overlap above
// Tol, the search found nothing and every contact's gap at q is within Tol;
// or until MaxSweeps.
func (k *Corrector) sweep(p *mech.Problem, q []float64, st *CorrectionStats) {
	target := -0.5 * k.cfg.Tol
	for st.Sweeps < k.cfg.MaxSweeps {
		n, worst := k.sweeper.SweepContacts(q, target, k.cfg.Tol, min(k.cfg.MaxSweeps-st.Sweeps, sweepsPerSearch))
		st.Sweeps += n
		st.Passes++
		added := 0
		if k.finder != nil {
			added = k.finder.FindMissed(k.ref, q, k.cfg.Search, k.cfg.Tol, p)
			st.Missed += added
			st.Contacts = p.NContacts()
		}
		if worst > k.cfg.Tol && st.Sweeps < k.cfg.MaxSweeps || added > 0 && st.Sweeps < k.cfg.MaxSweeps {
			continue
		}
		// the sweeps settled on the contacts known, or the cap: every
		// contact at q
		k.gaps = k.sys.Gaps(q, k.gaps[:0])
		var ok bool
		if st.Overlap, ok = worstOverlap(k.gaps); !ok || st.Overlap <= k.cfg.Tol {
			break
		}
	}
	st.Capped = st.Overlap > k.cfg.Tol
}

// displacement sets k.dq = M⁻¹Gμ (Gμ summed in the order of the contacts'
// keys when the system gives them; the block products on the pool) and
// k.moved[b] for the blocks b it moves.
func (k *Corrector) displacement(p *mech.Problem) {
	k.moved = growBool(k.moved, p.MInv.NumBlocks())
	clear(k.scr)
	if k.keyer != nil {
		// μ is 0 outside the working set, which is in key order
		p.G.AddMulVecIn(k.scr, k.mu, k.proj.WorkingSet())
	} else {
		p.G.AddMulVec(k.scr, k.mu)
	}
	if k.self != k {
		k.self, k.fDq = k, k.dqChunk
	}
	k.p = p
	k.pool.For(p.MInv.NumBlocks(), 2048, k.fDq)
	k.p = nil
}

func (k *Corrector) dqChunk(w, lo, hi int) {
	minv := &k.p.MInv
	for b := lo; b < hi; b++ {
		s, e := minv.Bounds(b)
		minv.MulVecBlock(b, k.dq[s:e], k.scr[s:e])
		mv := false
		for _, d := range k.dq[s:e] {
			mv = mv || d != 0
		}
		k.moved[b] = mv
	}
}

func growBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, n+n/4+8)
	}
	return s[:n]
}

// SetCorrection installs the position correction c as the last stage of
// every step, before AfterStep, for every scheme and staggering (nil
// removes it). The system must implement PositionCorrectable.
func (s *Stepper) SetCorrection(c *Correction) error {
	if c == nil {
		s.corr = nil
		return nil
	}
	pc, ok := s.Sys.(PositionCorrectable)
	if !ok {
		return fmt.Errorf("sim: position correction needs a system with Gaps, UpdateConfiguration and PotentialEnergy (%T has not all)", s.Sys)
	}
	k, err := NewCorrector(pc, *c)
	if err != nil {
		return err
	}
	k.SetPool(s.pool)
	s.corr = k
	if s.qn == nil {
		// New positions must not go into V's storage: a failed correction
		// leaves the last good state (Q, V) in place.
		s.qn = make([]float64, len(s.Q))
	}
	return nil
}

// MeasureOverlap installs a correction that only measures the worst
// overlap of every step (Last.Correction.Overlap), with the search
// distance of SetOverlapSearch, when none is installed; the states are
// bitwise those without it. It fails if the system cannot evaluate its
// gaps (PositionCorrectable), and under an External step.
func (s *Stepper) MeasureOverlap() error {
	if s.External != nil {
		return errors.New("sim: an external step measures no overlap")
	}
	if s.corr != nil {
		return nil
	}
	return s.SetCorrection(&Correction{Search: s.overlapSearch})
}

// SetOverlapSearch sets the search distance for missed contacts
// (Correction.Search) of a later MeasureOverlap.
func (s *Stepper) SetOverlapSearch(d float64) { s.overlapSearch = d }

// Correction returns the installed position correction (nil: none).
func (s *Stepper) Correction() *Corrector { return s.corr }

// correct runs the position correction, if any, on the new positions q
// with the step's problem and records it in Last.Correction; under Strict a
// capped correction is an error.
func (s *Stepper) correct(q []float64) error {
	if s.corr == nil {
		return nil
	}
	s.phase("position correction")
	cs, err := s.corr.Correct(&s.Problem, q)
	s.Last.Correction = cs
	if err == nil && s.Strict && cs.Capped {
		it := cs.Passes
		if s.corr.sweeper != nil {
			it = cs.Sweeps
		}
		err = &mech.CapError{Iterations: it, Residual: cs.Overlap, Tol: s.corr.cfg.Tol}
	}
	if err != nil {
		return fmt.Errorf("sim: step %d (t = %.10g → %.10g), %d contacts, position correction: %w", s.N+1, s.T, s.T+s.H, cs.Contacts, err)
	}
	return nil
}

package runner

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/output"
	"impactsim/sim"
)

// System is one kind of simulation as the run driver sees it: a stepper
// whose Q, V, T and N are the state, and the parts of the run directory
// that differ between systems. Everything else (the loop, frames, energy
// rows, summary, progress, errors) is the driver's.
type System interface {
	// Stepper returns the stepper to drive.
	Stepper() *sim.Stepper
	// Info describes the run for the summary.
	Info() Info
	// Layout is the trajectory.csv layout of the system's state.
	Layout() output.Layout
	// WriteScene writes the static scene description into dir and
	// returns its file name (scene.json, scene3d.json, …).
	WriteScene(dir string) (string, error)
	// Energy returns the kinetic and potential energy of state (q, v).
	Energy(q, v []float64) (kinetic, potential float64)
	// Momentum writes the total linear momentum of velocity v into dst
	// (len Info().Dim).
	Momentum(dst, v []float64)
	// WriteVTK writes the VTK file name of the state (q, v) at time t
	// into pvd's directory and adds it to the collection.
	WriteVTK(pvd *output.PVDWriter, name string, t float64, q, v []float64) error
}

// Distributed is a System whose state lives on several processes (a run
// across MPI ranks, cmd/impactsim): after a step the stepper's Q and V
// are the whole state only once Sync gathered them, which the driver does
// at frames alone. Every step's energies and momentum come from Observe
// (reduced across the processes by the step), the step itself checks
// that the state is finite on every process (a refused step returns a
// *sim.CheckError with the state before it restored), and WriteVTK may
// write the frame in pieces (it is called with the synced state).
type Distributed interface {
	System
	// Observe returns the kinetic and potential energy of the state after
	// the last step and writes its momentum into p (len Info().Dim).
	Observe(p []float64) (kinetic, potential float64)
	// Sync makes the stepper's Q and V the current state.
	Sync() error
}

// Info describes a run.
type Info struct {
	Scene      string // where the scene came from (file or builtin:NAME)
	System     string // ball2d, rigid3d, rigid2d
	Noun       string // what the bodies are called: balls, bodies
	Bodies     int
	Dim        int // spatial dimension: length of the momentum
	Integrator string
	Mapping    string // how the scene's configuration was mapped onto impactsim's laws
	// Warnings about the law (qce with restitution below 1), one line each;
	// the command prints them before the run (--strict: an error).
	Warnings []string
}

// Config says how to run.
type Config struct {
	Out    string  // the run directory
	End    float64 // end time (> 0; see Steps)
	Frames int     // number of trajectory frames to save (≥ 1)
	VTK    bool    // also write VTK files under Out/vtk
	Quiet  bool    // no progress bar
	// Strict makes a step whose contact law reached its iteration cap an
	// error (sim.Stepper.Strict); otherwise the run goes on and records
	// it.
	Strict bool
	// Progress receives the progress bar (usually stderr).
	Progress io.Writer
	// Started is when the run's set-up (reading the scene, building the
	// system) began; the summary's wall time counts from it and
	// setup_seconds is the part before Run. Zero: from Run's start.
	Started time.Time
}

// The statuses of a run in summary.json.
const (
	StatusRunning  = "running"  // being written, or the process was killed
	StatusComplete = "complete" // reached the end time
	StatusFailed   = "failed"   // stopped by an error (see error)
)

// Summary is the summary of a run, written as summary.json when the run
// starts, whenever a frame is saved (and at least every 10 s), and at the
// end, each time atomically: a reader always finds a whole summary whose
// status says whether the run directory is complete.
type Summary struct {
	Scene  string `json:"scene"`
	System string `json:"system"`
	// Status is StatusRunning while the run goes on (and after it was
	// killed), then StatusComplete or StatusFailed.
	Status string `json:"status"`
	// Started (RFC 3339) and PID identify the run the directory holds.
	Started          string  `json:"started"`
	PID              int     `json:"pid"`
	Law              string  `json:"law"`
	Mapping          string  `json:"mapping"`
	Noun             string  `json:"-"`
	Bodies           int     `json:"bodies"`
	Integrator       string  `json:"integrator"`
	Dt               float64 `json:"dt"`
	Steps            int     `json:"steps"`
	EndTime          float64 `json:"end_time"`
	Frames           int     `json:"frames"` // frames in trajectory.csv
	WallSeconds      float64 `json:"wall_seconds"`
	SetupSeconds     float64 `json:"setup_seconds"`
	StepsWithContact int     `json:"steps_with_contacts"`
	MaxContacts      int     `json:"max_contacts"`
	MaxIterations    int     `json:"max_operator_iterations"`
	// CappedSteps counts the steps whose contact law stopped at its
	// iteration cap before its tolerance (the run went on);
	// WorstCappedResidual is the largest residual among them, at
	// FirstCappedStep the first of them.
	CappedSteps         int     `json:"capped_steps"`
	WorstCappedResidual float64 `json:"worst_capped_residual"`
	CappedTol           float64 `json:"capped_tolerance,omitempty"`
	FirstCappedStep     int     `json:"first_capped_step,omitempty"`
	Energy0             float64 `json:"energy_initial"`
	Energy1             float64 `json:"energy_final"`
	MaxEnergyDrift      float64 `json:"max_relative_energy_drift"`
	// WallWork is the work moving geometry did on the bodies over the run
	// (sim.StepStats.WallWork summed; energy.csv column wall_work).
	WallWork float64 `json:"wall_work"`
	// MaxOverlap is the deepest penetration at any step's end (energy.csv
	// overlap; nil, absent from summary.json, when the system cannot
	// evaluate its gaps). CorrectedSteps counts the steps whose position
	// correction projected, CorrectionEnergy sums the potential energy it
	// added, CorrectionCappedSteps counts the steps it left an overlap
	// above its tolerance (at its pass cap).
	MaxOverlap            *float64 `json:"max_overlap,omitempty"`
	CorrectedSteps        int      `json:"corrected_steps"`
	CorrectionEnergy      float64  `json:"correction_energy"`
	CorrectionCappedSteps int      `json:"correction_capped_steps"`
	CorrectionTol         float64  `json:"correction_tolerance,omitempty"`
	// RedetectCappedSteps counts the steps whose closed active set
	// (--redetect) was still growing at its re-solve cap (energy.csv
	// redetect_missing > 0), FirstRedetectCappedStep the first of them.
	RedetectCappedSteps     int `json:"redetect_capped_steps,omitempty"`
	FirstRedetectCappedStep int `json:"first_redetect_capped_step,omitempty"`
	// BodyChanges is present when the number of bodies changed during
	// the run (a scripted scene inserted or deleted bodies); Bodies is
	// then the initial number.
	BodyChanges *BodyChanges `json:"body_changes,omitempty"`
	Momentum0   []float64    `json:"momentum_initial"`
	Momentum1   []float64    `json:"momentum_final"`
	Dir         string       `json:"output_dir"`
	Error       string       `json:"error,omitempty"`
	// Hints are advice printed during the run (a slow operator for the
	// scene: impact.SlowGRHint).
	Hints []string `json:"hints,omitempty"`
	Files []string `json:"files"`
}

// BodyChanges sums up how the set of bodies changed during a run: the
// counts, and the momentum and energy the inserted bodies brought and the
// deleted ones took away, measured across the steps' Begin hooks (a
// script's startOfStep, where SCISim's scripts insert and delete) and
// across their End hooks (endOfStep), so that momentum_final −
// momentum_initial − momentum_added is what the contacts, walls and
// gravity did. A change is seen as a change of the number of bodies: a
// hook that deletes one body and inserts another in the same call is not
// counted.
type BodyChanges struct {
	Min   int `json:"min"`
	Max   int `json:"max"`
	Final int `json:"final"`
	// Steps counts the steps in which the number of bodies changed;
	// Inserted and Deleted sum the increases and decreases.
	Steps    int `json:"steps"`
	Inserted int `json:"inserted"`
	Deleted  int `json:"deleted"`
	// SceneFiles are the scene descriptions of the bodies from the frame
	// of their directory on (output.SceneChangesDir).
	SceneFiles []string `json:"scene_files"`
	// MomentumAdded and EnergyAdded are the total momentum and energy of
	// the bodies inserted minus those of the bodies deleted.
	MomentumAdded []float64 `json:"momentum_added"`
	EnergyAdded   float64   `json:"energy_added"`
}

// MaxSteps is the largest step count of a run: beyond 2⁵³ the step
// number no longer counts exactly in float64 times.
const MaxSteps = 1 << 53

// Steps returns the number of time steps h of a run to end, round(end/h),
// or an error when that is not a count from 1 to MaxSteps (an end time
// below half a step, an overflowing count, a non-finite end or step).
func Steps(end, h float64) (int, error) {
	if !(h > 0) || math.IsInf(h, 0) {
		return 0, fmt.Errorf("time step dt = %v: expected a finite dt > 0", h)
	}
	if !(end > 0) || math.IsInf(end, 0) {
		return 0, fmt.Errorf("end time %v: expected a finite end time > 0", end)
	}
	n := math.Round(end / h)
	switch {
	case n < 1:
		return 0, fmt.Errorf("end time %v is less than half a time step (dt = %v): the run would take no step", end, h)
	case !(n <= MaxSteps):
		return 0, fmt.Errorf("end time %v is %.3g steps of dt = %v: more than the %.3g (2⁵³) a run can count", end, end/h, h, float64(MaxSteps))
	}
	return int(n), nil
}

// Run steps sys to c.End and writes its run directory c.Out: the scene
// description first, then summary.json (status running), trajectory.csv
// (c.Frames frames and the last state) and energy.csv (one row per step
// and the initial state), both streamed in place so that a killed run
// leaves whole frames and rows, summary.json again at every saved frame
// and at the end, and, with c.VTK, a VTK series. Files of an earlier run
// in c.Out are removed first. The scene and options were validated when
// sys was built; c.End is checked (Steps) before anything is written. A
// failure during the run (a solver that fails, a strict cap, a state that
// is no longer finite, a file that cannot be written) stops the run at
// once, saves the last good state as the final frame, records the error
// in the summary (status failed) and returns it with the directory named.
func Run(sys System, c Config) (*Summary, error) {
	st := sys.Stepper()
	steps, err := Steps(c.End, st.H)
	if err != nil {
		return nil, &InputError{err}
	}
	// A stepper resumed from a state (sim.Stepper.ReadState) runs from its
	// step to the same end.
	if steps -= st.N; steps < 1 {
		return nil, &InputError{fmt.Errorf("the state is at step %d (t = %.10g), the end time %v leaves no step to run", st.N, st.T, c.End)}
	}
	if err := checkState(sys, st.Q, st.V); err != nil {
		return nil, &InputError{describe(fmt.Errorf("the initial state: %w", err), sys.Layout(), st)}
	}
	start := time.Now()
	if c.Started.IsZero() {
		c.Started = start
	}
	st.Strict = c.Strict
	info := sys.Info()
	layout := sys.Layout()
	every := max(1, steps/max(c.Frames, 1))
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	if err := output.ClearRunDir(c.Out); err != nil {
		return nil, err
	}
	sceneFile, err := sys.WriteScene(c.Out)
	if err != nil {
		return nil, err
	}
	res := &Summary{Scene: info.Scene, System: info.System, Status: StatusRunning, Started: c.Started.Format(time.RFC3339Nano),
		PID: os.Getpid(), Law: st.Law.Name(), Mapping: info.Mapping, Noun: info.Noun, Bodies: info.Bodies,
		Integrator: info.Integrator, Dt: st.H, Dir: c.Out, SetupSeconds: start.Sub(c.Started).Seconds(),
		Files: []string{sceneFile, output.TrajectoryFile, output.EnergyFile, output.SummaryFile}}
	if c.VTK {
		res.Files = append(res.Files, "vtk/trajectory.pvd")
	}
	// Every run reports the deepest overlap per step: without a position
	// correction, one that only measures (the states do not change).
	measured := st.MeasureOverlap() == nil
	if measured {
		res.MaxOverlap = new(float64)
	}
	if k := st.Correction(); k != nil && k.Config().Project {
		res.CorrectionTol = k.Config().Tol
	}
	// observe returns the energies and writes the momentum of the
	// stepper's current state.
	dist, _ := sys.(Distributed)
	observe := func(p []float64) (ke, pe float64) {
		if dist != nil {
			return dist.Observe(p)
		}
		sys.Momentum(p, st.V)
		return sys.Energy(st.Q, st.V)
	}
	res.Momentum0 = make([]float64, info.Dim)
	ke, pe := observe(res.Momentum0)
	res.Energy0, res.Energy1 = ke+pe, ke+pe
	res.Momentum1 = append([]float64(nil), res.Momentum0...)
	summaryPath := filepath.Join(c.Out, output.SummaryFile)
	lastSummary := time.Now()
	writeSummary := func() error {
		res.Steps, res.EndTime = st.N, st.T
		res.WallSeconds = time.Since(c.Started).Seconds()
		lastSummary = time.Now()
		return output.WriteJSON(summaryPath, res)
	}
	if err := writeSummary(); err != nil {
		return nil, err
	}
	traj, err := output.NewLayoutTrajectoryWriter(c.Out, layout)
	if err != nil {
		return nil, err
	}
	energy, err := output.NewLiveSeriesWriter(filepath.Join(c.Out, output.EnergyFile), output.EnergyColumns(info.Dim))
	if err != nil {
		traj.Abort()
		return nil, err
	}
	var pvd *output.PVDWriter
	if c.VTK {
		if pvd, err = output.NewPVDWriter(filepath.Join(c.Out, "vtk", "trajectory.pvd")); err != nil {
			traj.Abort()
			energy.Abort()
			return nil, err
		}
	}
	p := make([]float64, info.Dim)
	row := make([]float64, 0, len(output.EnergyColumns(info.Dim)))

	// The set of bodies may change in a step's hooks (a scripted scene
	// inserts or deletes bodies): bodies counts the current one, and a
	// frame saved after a change comes with the scene description of its
	// bodies (output.SceneChangesDir).
	nv := len(layout.V)
	bodies, described := len(st.V)/nv, len(st.V)/nv
	// Momentum and energy before the hooks that may change the bodies:
	// at the step's start (Begin hooks) and at its end before the End
	// hooks.
	pBefore := make([]float64, info.Dim)
	eBefore := res.Energy0
	changed := func(n int) {
		bc := res.BodyChanges
		if bc == nil {
			bc = &BodyChanges{Min: bodies, Max: bodies, MomentumAdded: make([]float64, info.Dim)}
			res.BodyChanges = bc
		}
		bc.Steps++
		if n > bodies {
			bc.Inserted += n - bodies
		} else {
			bc.Deleted += bodies - n
		}
		bc.Min, bc.Max, bc.Final = min(bc.Min, n), max(bc.Max, n), n
		bodies = n
	}
	// added counts what the hooks before it did to the bodies since
	// pBefore and eBefore were taken.
	added := func(st *sim.Stepper) error {
		if n := len(st.V) / nv; n != bodies {
			changed(n)
			sys.Momentum(p, st.V)
			for i := range p {
				res.BodyChanges.MomentumAdded[i] += p[i] - pBefore[i]
			}
			ke, pe := sys.Energy(st.Q, st.V)
			res.BodyChanges.EnergyAdded += ke + pe - eBefore
		}
		return nil
	}
	running := true // the hooks stay on the stepper after Run
	st.AddFirstHook(sim.Hook{Name: "runner: before the End hooks",
		End: func(st *sim.Stepper) error {
			if running {
				ke, pe := observe(pBefore)
				eBefore = ke + pe
			}
			return nil
		}})
	st.AddHook(sim.Hook{Name: "runner: body count",
		Begin: func(st *sim.Stepper) error {
			if !running {
				return nil
			}
			return added(st)
		},
		End: func(st *sim.Stepper) error {
			if !running {
				return nil
			}
			return added(st)
		}})
	saved := -1
	saveFrame := func() error {
		if bodies != described {
			// Renamed into place whole: a run killed here leaves no
			// frame directory without its description.
			rel, err := output.WriteSceneChange(c.Out, res.Frames, sys.WriteScene)
			if err != nil {
				return err
			}
			described = bodies
			bc := res.BodyChanges
			bc.SceneFiles = append(bc.SceneFiles, filepath.ToSlash(rel))
		}
		if dist != nil {
			if err := dist.Sync(); err != nil {
				return err
			}
		}
		if err := traj.WriteFrame(res.Frames, st.T, st.Q, st.V); err != nil {
			return err
		}
		if pvd != nil {
			if err := sys.WriteVTK(pvd, fmt.Sprintf("frame_%05d.vtp", res.Frames), st.T, st.Q, st.V); err != nil {
				return err
			}
			if err := pvd.Flush(); err != nil {
				return err
			}
		}
		res.Frames++
		saved = st.N
		return writeSummary()
	}
	writeEnergy := func() error {
		ke, pe := observe(p)
		l := &st.Last
		copy(pBefore, p)
		eBefore = ke + pe
		row = append(row[:0], float64(st.N), st.T, ke, pe, ke+pe)
		row = append(row, p...)
		cs := &l.Correction
		overlap := cs.Overlap
		if !measured {
			overlap = math.NaN()
		}
		cl := &l.Closure
		row = append(row, float64(l.Contacts), float64(l.Law.Iterations), (l.Integration + l.Detection + l.Impact + cs.Time + cl.Time).Seconds(),
			float64(l.Law.Capped), l.Law.Residual, res.WallWork, overlap, cs.PotentialChange, float64(cs.Passes),
			float64(cl.Rounds), float64(cl.Added), float64(cl.Missing))
		if res.Energy0 != 0 {
			e0 := res.Energy0
			if bc := res.BodyChanges; bc != nil {
				e0 += bc.EnergyAdded // the energy the inserted bodies brought
			}
			res.MaxEnergyDrift = math.Max(res.MaxEnergyDrift, math.Abs(ke+pe-e0)/math.Abs(res.Energy0))
		}
		return energy.Write(row...)
	}
	// A state that leaves the range of float64 stops the run at the step
	// that produced it, with the state before it kept (sim.Stepper.Check).
	// A distributed step checks its state itself, on every process.
	if dist == nil {
		st.Check = func(q, v []float64) error { return checkState(sys, q, v) }
	}
	runErr := saveFrame()
	if runErr == nil {
		runErr = writeEnergy()
	}
	prog := output.NewProgress(io.Discard, float64(steps), "")
	if !c.Quiet && c.Progress != nil {
		prog = output.NewProgress(c.Progress, float64(steps), "run "+filepath.Base(info.Scene))
		st.OnPhase = prog.Phase
	}
	for i := 0; i < steps && runErr == nil; i++ {
		if runErr = st.Step(); runErr != nil {
			break
		}
		l := &st.Last
		if l.Contacts > 0 {
			res.StepsWithContact++
		}
		res.WallWork += l.WallWork
		res.MaxContacts = max(res.MaxContacts, l.Contacts)
		res.MaxIterations = max(res.MaxIterations, l.Law.Iterations)
		if cs := &l.Correction; measured {
			*res.MaxOverlap = max(*res.MaxOverlap, cs.Overlap)
			if cs.Passes > 0 {
				res.CorrectedSteps++
				res.CorrectionEnergy += cs.PotentialChange
			}
			if cs.Capped {
				res.CorrectionCappedSteps++
			}
		}
		if l.Closure.Capped {
			if res.RedetectCappedSteps == 0 {
				res.FirstRedetectCappedStep = st.N
			}
			res.RedetectCappedSteps++
		}
		if l.Law.Capped > 0 {
			if res.CappedSteps == 0 {
				res.FirstCappedStep = st.N
			}
			res.CappedSteps++
			if l.Law.CappedResidual >= res.WorstCappedResidual {
				res.WorstCappedResidual, res.CappedTol = l.Law.CappedResidual, l.Law.CappedTol
			}
		}
		if len(res.Hints) == 0 {
			if h := impact.SlowGRHint(st.Law.Name(), l.Law.Iterations, &st.Problem); h != "" {
				res.Hints = append(res.Hints, fmt.Sprintf("%s (step %d)", h, st.N))
				if c.Progress != nil {
					fmt.Fprintf(c.Progress, "impactsim: %s\n", res.Hints[0])
				}
			}
		}
		if runErr = writeEnergy(); runErr != nil {
			break
		}
		if st.N%every == 0 {
			if runErr = saveFrame(); runErr != nil {
				break
			}
		} else if time.Since(lastSummary) > 10*time.Second {
			if runErr = writeSummary(); runErr != nil {
				break
			}
		}
		prog.Update(float64(i + 1))
	}
	prog.Finish()
	st.Check, st.OnPhase = nil, nil
	defer func() { running = false }()
	if saved != st.N {
		// The end state, or after a failure the last good state, so that
		// it can be inspected.
		if err := saveFrame(); runErr == nil {
			runErr = err
		}
	}
	ke, pe = observe(res.Momentum1)
	res.Energy1 = ke + pe
	closeErr := traj.Close()
	if err := energy.Close(); closeErr == nil {
		closeErr = err
	}
	if pvd != nil {
		if err := pvd.Close(); closeErr == nil {
			closeErr = err
		}
	}
	if runErr == nil {
		runErr = closeErr
	}
	res.Status = StatusComplete
	if runErr != nil {
		runErr = describe(runErr, layout, st)
		res.Status, res.Error = StatusFailed, runErr.Error()
	}
	if err := writeSummary(); runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return res, fmt.Errorf("%w (last good state saved in %s)", runErr, c.Out)
	}
	return res, nil
}

// InputError is a run refused before anything is written: an end time
// that is not a count of steps (Steps), an initial state or energy that is
// not finite.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// checkState is the check of every state of a run: finite coordinates
// and a finite energy.
func checkState(sys System, q, v []float64) error {
	if err := sim.CheckFinite(q, v); err != nil {
		return err
	}
	if ke, pe := sys.Energy(q, v); math.IsNaN(ke+pe) || math.IsInf(ke+pe, 0) {
		return fmt.Errorf("the energy is %v (kinetic %v, potential %v)", ke+pe, ke, pe)
	}
	return nil
}

// describe adds what the user needs to an error of the run: a strict cap
// says so, and a state that left the range of float64 names the body and
// the quantity in the system's layout.
func describe(err error, l output.Layout, st *sim.Stepper) error {
	var capped *mech.CapError
	if errors.As(err, &capped) {
		return fmt.Errorf("%w (strict)", err)
	}
	var nf *sim.NonFiniteError
	var ce *sim.CheckError
	if !errors.As(err, &ce) && errors.As(err, &nf) { // the initial state
		cols := l.Q
		if nf.Velocity {
			cols = l.V
		}
		return &runError{fmt.Sprintf("%v: %s %d's %s", err, l.Body, nf.Index/len(cols), cols[nf.Index%len(cols)]), err}
	}
	if errors.As(err, &ce) && errors.As(err, &nf) {
		cols := l.Q
		if nf.Velocity {
			cols = l.V
		}
		return &runError{fmt.Sprintf("step %d (t = %.10g): %s %d's %s is %v — the run left the range of floating point (a mass, speed, force or time step too large or too small); stopped with the last finite state (step %d, t = %.10g)",
			ce.Step, ce.T, l.Body, nf.Index/len(cols), cols[nf.Index%len(cols)], nf.Value, st.N, st.T), err}
	}
	if errors.As(err, &ce) {
		return fmt.Errorf("%w; stopped with the last finite state (step %d, t = %.10g)", err, st.N, st.T)
	}
	return err
}

// runError is an error of the run told in the user's terms; it unwraps
// to the error underneath.
type runError struct {
	msg string
	err error
}

func (e *runError) Error() string { return e.msg }
func (e *runError) Unwrap() error { return e.err }

// Warning returns the one-line warnings about capped steps, of the contact
// law and of the position correction ("" if none).
func (s *Summary) Warning() string {
	w := ""
	if s.CorrectionCappedSteps > 0 {
		w = fmt.Sprintf("warning: %d of %d steps ended with an overlap above the position correction's tolerance %.3g after its last pass (deepest %.3g); the run went on (energy.csv columns overlap and correction_passes; --correction-passes raises the cap, --strict stops instead)",
			s.CorrectionCappedSteps, s.Steps, s.CorrectionTol, *s.MaxOverlap)
	}
	if s.RedetectCappedSteps > 0 {
		if w != "" {
			w += "\n"
		}
		w += fmt.Sprintf("warning: %d of %d steps ended with the active set still growing at the closure's re-solve cap (first at step %d); the run went on with the last solve (energy.csv column redetect_missing; --redetect-rounds raises the cap, --strict stops instead)",
			s.RedetectCappedSteps, s.Steps, s.FirstRedetectCappedStep)
	}
	if s.CappedSteps == 0 {
		return w
	}
	if w != "" {
		w += "\n"
	}
	return w + fmt.Sprintf("warning: %d of %d steps stopped at the contact law's iteration cap before its tolerance (first at step %d; worst residual %.3g > tolerance %.3g); the run went on (energy.csv columns capped and residual; --strict stops instead)",
		s.CappedSteps, s.Steps, s.FirstCappedStep, s.WorstCappedResidual, s.CappedTol)
}

// Print writes the summary as a few lines of text.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "scene      %s\n", s.Scene)
	fmt.Fprintf(w, "law        %s — %s\n", s.Law, s.Mapping)
	fmt.Fprintf(w, "%-10s %d, integrator %s, dt %g, %d steps to t = %g in %.2f s wall (%.2f s set-up)\n", s.Noun, s.Bodies, s.Integrator, s.Dt, s.Steps, s.EndTime, s.WallSeconds, s.SetupSeconds)
	fmt.Fprintf(w, "contacts   %d steps with contacts, at most %d contacts, at most %d operator iterations\n", s.StepsWithContact, s.MaxContacts, s.MaxIterations)
	if s.CappedSteps > 0 {
		fmt.Fprintf(w, "capped     %d of %d steps at the iteration cap (first: step %d), worst residual %.3g\n", s.CappedSteps, s.Steps, s.FirstCappedStep, s.WorstCappedResidual)
	}
	fmt.Fprintf(w, "energy     %.15g → %.15g (max relative drift %.3g)\n", s.Energy0, s.Energy1, s.MaxEnergyDrift)
	if s.MaxOverlap != nil {
		fmt.Fprintf(w, "overlap    deepest %.3g at a step's end", *s.MaxOverlap)
		if s.CorrectionTol > 0 {
			fmt.Fprintf(w, "; position correction (tolerance %.3g) projected %d steps, adding %.6g to the potential energy", s.CorrectionTol, s.CorrectedSteps, s.CorrectionEnergy)
		}
		fmt.Fprintln(w)
	}
	if bc := s.BodyChanges; bc != nil {
		fmt.Fprintf(w, "bodies     changed in %d steps: %d inserted, %d deleted; %d to %d, %d at the end (scene descriptions under %s/)\n",
			bc.Steps, bc.Inserted, bc.Deleted, bc.Min, bc.Max, bc.Final, output.SceneChangesDir)
		fmt.Fprintf(w, "added      by the inserted minus the deleted bodies: momentum %s, energy %.15g\n", vecString(bc.MomentumAdded), bc.EnergyAdded)
	}
	fmt.Fprintf(w, "momentum   %s → %s\n", vecString(s.Momentum0), vecString(s.Momentum1))
	fmt.Fprintf(w, "output     %s/{%s}\n", s.Dir, strings.Join(s.Files, ","))
	if s.Error != "" {
		fmt.Fprintf(w, "ERROR      %s\n", s.Error)
	}
}

func vecString(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.15g", x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

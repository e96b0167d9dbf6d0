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

// Info describes a run.
type Info struct {
	Scene      string // where the scene came from (file or builtin:NAME)
	System     string // ball2d, rigid3d, rigid2d
	Noun       string // what the bodies are called: balls, bodies
	Bodies     int
	Dim        int // spatial dimension: length of the momentum
	Integrator string
	Mapping    string // how the scene's configuration was mapped onto impactsim's laws
}

// Config says how to run.
type Config struct {
	Out    string  // the run directory
	End    float64 // end time (> 0)
	Frames int     // number of trajectory frames to save (≥ 1)
	VTK    bool    // also write VTK files under Out/vtk
	Quiet  bool    // no progress bar
	// Strict makes a step whose contact law reached its iteration cap an
	// error (sim.Stepper.Strict); otherwise the run goes on and records
	// it.
	Strict bool
	// Progress receives the progress bar (usually stderr).
	Progress io.Writer
}

// Summary is the summary of a run, written as summary.json.
type Summary struct {
	Scene            string  `json:"scene"`
	System           string  `json:"system"`
	Law              string  `json:"law"`
	Mapping          string  `json:"mapping"`
	Noun             string  `json:"-"`
	Bodies           int     `json:"bodies"`
	Integrator       string  `json:"integrator"`
	Dt               float64 `json:"dt"`
	Steps            int     `json:"steps"`
	EndTime          float64 `json:"end_time"`
	WallSeconds      float64 `json:"wall_seconds"`
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
	WallWork  float64   `json:"wall_work"`
	Momentum0 []float64 `json:"momentum_initial"`
	Momentum1 []float64 `json:"momentum_final"`
	Dir       string    `json:"output_dir"`
	Error     string    `json:"error,omitempty"`
	Files     []string  `json:"files"`
}

// Run steps sys to c.End and writes its run directory c.Out: the scene
// description, trajectory.csv (c.Frames frames and the last state),
// energy.csv (one row per step and the initial state), summary.json and,
// with c.VTK, a VTK series. The scene and options were validated when sys
// was built, so bad input never reaches here. A failure during the run
// saves the last good state as the final frame, records the error in the
// summary and returns it with the directory named.
func Run(sys System, c Config) (*Summary, error) {
	st := sys.Stepper()
	st.Strict = c.Strict
	info := sys.Info()
	steps := int(math.Round(c.End / st.H))
	every := max(1, steps/max(c.Frames, 1))
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	sceneFile, err := sys.WriteScene(c.Out)
	if err != nil {
		return nil, err
	}
	traj, err := output.NewLayoutTrajectoryWriter(c.Out, sys.Layout())
	if err != nil {
		return nil, err
	}
	energy, err := output.NewSeriesWriter(filepath.Join(c.Out, output.EnergyFile), output.EnergyColumns(info.Dim))
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
	res := &Summary{Scene: info.Scene, System: info.System, Law: st.Law.Name(), Mapping: info.Mapping, Noun: info.Noun,
		Bodies: info.Bodies, Integrator: info.Integrator, Dt: st.H, Dir: c.Out}
	ke, pe := sys.Energy(st.Q, st.V)
	res.Energy0 = ke + pe
	res.Momentum0 = make([]float64, info.Dim)
	sys.Momentum(res.Momentum0, st.V)
	p := make([]float64, info.Dim)
	row := make([]float64, 0, len(output.EnergyColumns(info.Dim)))

	frame, saved := 0, -1
	saveFrame := func() error {
		if err := traj.WriteFrame(frame, st.T, st.Q, st.V); err != nil {
			return err
		}
		if pvd != nil {
			if err := sys.WriteVTK(pvd, fmt.Sprintf("frame_%05d.vtp", frame), st.T, st.Q, st.V); err != nil {
				return err
			}
		}
		frame++
		saved = st.N
		return nil
	}
	writeEnergy := func() error {
		ke, pe := sys.Energy(st.Q, st.V)
		sys.Momentum(p, st.V)
		l := &st.Last
		row = append(row[:0], float64(st.N), st.T, ke, pe, ke+pe)
		row = append(row, p...)
		row = append(row, float64(l.Contacts), float64(l.Law.Iterations), (l.Integration + l.Detection + l.Impact).Seconds(),
			float64(l.Law.Capped), l.Law.Residual, res.WallWork)
		if res.Energy0 != 0 {
			res.MaxEnergyDrift = math.Max(res.MaxEnergyDrift, math.Abs(ke+pe-res.Energy0)/math.Abs(res.Energy0))
		}
		return energy.Write(row...)
	}
	runErr := saveFrame()
	if runErr == nil {
		runErr = writeEnergy()
	}
	prog := output.NewProgress(io.Discard, float64(steps), "")
	if !c.Quiet && c.Progress != nil {
		prog = output.NewProgress(c.Progress, float64(steps), "run "+filepath.Base(info.Scene))
	}
	start := time.Now()
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
		if l.Law.Capped > 0 {
			if res.CappedSteps == 0 {
				res.FirstCappedStep = st.N
			}
			res.CappedSteps++
			if l.Law.CappedResidual >= res.WorstCappedResidual {
				res.WorstCappedResidual, res.CappedTol = l.Law.CappedResidual, l.Law.CappedTol
			}
		}
		if runErr = writeEnergy(); runErr != nil {
			break
		}
		if st.N%every == 0 {
			if runErr = saveFrame(); runErr != nil {
				break
			}
		}
		prog.Update(float64(i + 1))
	}
	prog.Finish()
	if saved != st.N {
		// The end state, or after a failure the last good state, so that
		// it can be inspected.
		if err := saveFrame(); runErr == nil {
			runErr = err
		}
	}
	res.WallSeconds = time.Since(start).Seconds()
	res.Steps, res.EndTime = st.N, st.T
	ke, pe = sys.Energy(st.Q, st.V)
	res.Energy1 = ke + pe
	res.Momentum1 = make([]float64, info.Dim)
	sys.Momentum(res.Momentum1, st.V)
	closeErr := traj.Close()
	if err := energy.Close(); closeErr == nil {
		closeErr = err
	}
	res.Files = []string{sceneFile, output.TrajectoryFile, output.EnergyFile, output.SummaryFile}
	if pvd != nil {
		if err := pvd.Close(); closeErr == nil {
			closeErr = err
		}
		res.Files = append(res.Files, "vtk/trajectory.pvd")
	}
	if runErr != nil {
		var capped *mech.CapError
		if errors.As(runErr, &capped) {
			runErr = fmt.Errorf("%w (strict)", runErr)
		}
		res.Error = runErr.Error()
	}
	if err := output.WriteJSON(filepath.Join(c.Out, output.SummaryFile), res); closeErr == nil {
		closeErr = err
	}
	if runErr != nil {
		return res, fmt.Errorf("%w (last good state saved in %s)", runErr, c.Out)
	}
	return res, closeErr
}

// Warning returns the one-line warning about capped steps ("" if none).
func (s *Summary) Warning() string {
	if s.CappedSteps == 0 {
		return ""
	}
	return fmt.Sprintf("warning: %d of %d steps stopped at the contact law's iteration cap before its tolerance (first at step %d; worst residual %.3g > tolerance %.3g); the run went on (energy.csv columns capped and residual; --strict stops instead)",
		s.CappedSteps, s.Steps, s.FirstCappedStep, s.WorstCappedResidual, s.CappedTol)
}

// Print writes the summary as a few lines of text.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "scene      %s\n", s.Scene)
	fmt.Fprintf(w, "law        %s — %s\n", s.Law, s.Mapping)
	fmt.Fprintf(w, "%-10s %d, integrator %s, dt %g, %d steps to t = %g in %.2f s wall\n", s.Noun, s.Bodies, s.Integrator, s.Dt, s.Steps, s.EndTime, s.WallSeconds)
	fmt.Fprintf(w, "contacts   %d steps with contacts, at most %d contacts, at most %d operator iterations\n", s.StepsWithContact, s.MaxContacts, s.MaxIterations)
	if s.CappedSteps > 0 {
		fmt.Fprintf(w, "capped     %d of %d steps at the iteration cap (first: step %d), worst residual %.3g\n", s.CappedSteps, s.Steps, s.FirstCappedStep, s.WorstCappedResidual)
	}
	fmt.Fprintf(w, "energy     %.15g → %.15g (max relative drift %.3g)\n", s.Energy0, s.Energy1, s.MaxEnergyDrift)
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

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"impactsim/output"
	"impactsim/scenario"
	"impactsim/scene"
)

// runConfig is everything `run` needs, validated before any file is written.
type runConfig struct {
	sceneArg string
	end      float64
	opts     scenario.Options
	out      string
	frames   int
	vtk      bool
	quiet    bool
}

func parseRun(args []string) (*runConfig, error) {
	fs := newFlags("run")
	c := &runConfig{}
	var cor, mu optFloat
	fs.Float64Var(&c.end, "end", 0, "end time (default: the scene's, or 1 s)")
	fs.StringVar(&c.opts.Operator, "operator", "", "impact operator")
	fs.Var(&cor, "cor", "coefficient of restitution")
	fs.Var(&mu, "mu", "friction coefficient")
	fs.StringVar(&c.opts.Solver, "solver", "", "QP solver: auto, dense, sparse, interior")
	fs.StringVar(&c.out, "out", "", "output directory (default out/NAME)")
	fs.IntVar(&c.frames, "frames", 500, "number of trajectory frames to save")
	fs.BoolVar(&c.vtk, "vtk", false, "also write VTK (.vtp + .pvd) for ParaView")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	fs.IntVar(&c.opts.MaxIter, "max-iter", 0, "operator iteration cap (default 100000)")
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 {
		return nil, badInput("run: expected one SCENE argument, got %d", len(pos))
	}
	c.sceneArg = pos[0]
	c.opts.CoR, c.opts.Mu = cor.v, mu.v
	if c.end < 0 || math.IsNaN(c.end) || math.IsInf(c.end, 0) {
		return nil, badInput("run: --end: expected a finite time ≥ 0, got %v", c.end)
	}
	if c.opts.MaxIter < 0 {
		return nil, badInput("run: --max-iter: expected a positive cap, got %d", c.opts.MaxIter)
	}
	if c.frames < 1 {
		return nil, badInput("run: --frames: expected at least 1, got %d", c.frames)
	}
	return c, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	c, err := parseRun(args)
	if err != nil {
		return err
	}
	if ok, err := tryRun3D(c, stdout, stderr); ok {
		return err
	}
	sc, name, err := loadScene(c.sceneArg)
	if err != nil {
		return err
	}
	if c.out == "" {
		c.out = filepath.Join("out", name)
	}
	res, err := simulate(sc, c, stderr)
	if res != nil {
		printSummary(stdout, res)
	}
	return err
}

// runResult is the summary of a run (also written as summary.json).
type runResult struct {
	Scene            string     `json:"scene"`
	Law              string     `json:"law"`
	Mapping          string     `json:"mapping"`
	Balls            int        `json:"balls"`
	Dt               float64    `json:"dt"`
	Steps            int        `json:"steps"`
	EndTime          float64    `json:"end_time"`
	WallSeconds      float64    `json:"wall_seconds"`
	StepsWithContact int        `json:"steps_with_contacts"`
	MaxContacts      int        `json:"max_contacts"`
	MaxIterations    int        `json:"max_operator_iterations"`
	Energy0          float64    `json:"energy_initial"`
	Energy1          float64    `json:"energy_final"`
	MaxEnergyDrift   float64    `json:"max_relative_energy_drift"`
	Momentum0        [2]float64 `json:"momentum_initial"`
	Momentum1        [2]float64 `json:"momentum_final"`
	Dir              string     `json:"output_dir"`
	Error            string     `json:"error,omitempty"`
	Files            []string   `json:"files"`
}

// simulate runs one scene and writes its output directory. Bad input is
// reported before the directory is touched; a failure during the run saves
// the last good state as the final frame and records the error.
func simulate(sc *scene.Ball2DScene, c *runConfig, stderr io.Writer) (*runResult, error) {
	r, err := scenario.NewBall2D(sc, c.opts)
	if err != nil {
		return nil, usageError{err}
	}
	end := c.end
	if end == 0 {
		end = sc.EndTime
	}
	if end == 0 {
		end = 1
	}
	st, sys := r.Stepper, r.Sys
	steps := int(math.Round(end / st.H))
	every := max(1, steps/c.frames)

	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	s2 := &output.Scene2D{NumBalls: sys.N(), Radii: sys.R, Masses: sys.M, Fixed: sys.Fixed,
		Dt: st.H, Operator: r.Law.Name(), SourceScene: sc.Source}
	for _, p := range sys.Planes {
		s2.Planes = append(s2.Planes, output.Plane2D{Point: p.P, Normal: p.N})
	}
	for _, d := range sys.Drums {
		s2.Drums = append(s2.Drums, output.Drum2D{Centre: d.C, Radius: d.R})
	}
	for _, po := range sys.Portals {
		s2.Portals = append(s2.Portals, output.Plane2D{Point: po.A.P, Normal: po.A.N}, output.Plane2D{Point: po.B.P, Normal: po.B.N})
	}
	if cam := sc.Camera; cam != nil && cam.ScaleFactor > 0 {
		s2.Camera = &output.Camera2D{CX: cam.CX, CY: cam.CY, Scale: 2 * cam.ScaleFactor}
	}
	if err := output.WriteScene2D(c.out, s2); err != nil {
		return nil, err
	}
	traj, err := output.NewTrajectoryWriter(c.out)
	if err != nil {
		return nil, err
	}
	energy, err := output.NewSeriesWriter(filepath.Join(c.out, output.EnergyFile), output.EnergyHeader)
	if err != nil {
		traj.Abort()
		return nil, err
	}
	var pvd *output.PVDWriter
	if c.vtk {
		if pvd, err = output.NewPVDWriter(filepath.Join(c.out, "vtk", "trajectory.pvd")); err != nil {
			traj.Abort()
			energy.Abort()
			return nil, err
		}
	}
	res := &runResult{Scene: sc.Source, Law: r.Law.Name(), Mapping: r.Mapping, Balls: sys.N(), Dt: st.H, Dir: c.out}
	res.Energy0 = sys.Energy(st.Q, st.V)
	res.Momentum0 = sys.LinearMomentum(st.V)
	frame := 0
	writeFrame := func() error {
		if err := traj.WriteFrame(frame, st.T, st.Q, st.V); err != nil {
			return err
		}
		if pvd != nil {
			name := fmt.Sprintf("frame_%05d.vtp", frame)
			fields := []output.PointField{output.ScalarField(output.RadiusField, sys.R), output.VectorField("velocity", vec3(st.V))}
			if err := pvd.AddVTP(st.T, name, output.Points2D(st.Q), fields, output.VTKBinary); err != nil {
				return err
			}
		}
		frame++
		return nil
	}
	writeEnergy := func() error {
		ke, pe := sys.KineticEnergy(st.V), sys.PotentialEnergy(st.Q)
		p := sys.LinearMomentum(st.V)
		return energy.Write(float64(st.N), st.T, ke, pe, ke+pe, p[0], p[1],
			float64(st.Last.Contacts), float64(st.Last.Law.Iterations), (st.Last.Integration + st.Last.Detection + st.Last.Impact).Seconds())
	}
	if err := writeFrame(); err == nil {
		err = writeEnergy()
	}
	prog := progress(stderr, c.quiet, float64(steps), "run "+filepath.Base(sc.Source))
	start := time.Now()
	var runErr error
	for i := 0; i < steps; i++ {
		if runErr = st.Step(); runErr != nil {
			break
		}
		if st.Last.Contacts > 0 {
			res.StepsWithContact++
		}
		res.MaxContacts = max(res.MaxContacts, st.Last.Contacts)
		res.MaxIterations = max(res.MaxIterations, st.Last.Law.Iterations)
		if res.Energy0 != 0 {
			res.MaxEnergyDrift = math.Max(res.MaxEnergyDrift, math.Abs(sys.Energy(st.Q, st.V)-res.Energy0)/math.Abs(res.Energy0))
		}
		if err := writeEnergy(); err != nil {
			runErr = err
			break
		}
		if st.N%every == 0 || i == steps-1 {
			if err := writeFrame(); err != nil {
				runErr = err
				break
			}
		}
		prog.Update(float64(i + 1))
	}
	prog.Finish()
	if runErr != nil && st.N%every != 0 {
		// Save the last good state so the failure can be inspected.
		_ = writeFrame()
	}
	res.WallSeconds = time.Since(start).Seconds()
	res.Steps, res.EndTime = st.N, st.T
	res.Energy1 = sys.Energy(st.Q, st.V)
	res.Momentum1 = sys.LinearMomentum(st.V)
	closeErr := traj.Close()
	if err := energy.Close(); closeErr == nil {
		closeErr = err
	}
	res.Files = []string{output.SceneFile, output.TrajectoryFile, output.EnergyFile, output.SummaryFile}
	if pvd != nil {
		if err := pvd.Close(); closeErr == nil {
			closeErr = err
		}
		res.Files = append(res.Files, "vtk/trajectory.pvd")
	}
	if runErr != nil {
		res.Error = runErr.Error()
	}
	if err := output.WriteJSON(filepath.Join(c.out, output.SummaryFile), res); closeErr == nil {
		closeErr = err
	}
	if runErr != nil {
		return res, fmt.Errorf("%w (last good state saved in %s)", runErr, c.out)
	}
	return res, closeErr
}

func vec3(v []float64) [][3]float64 {
	out := make([][3]float64, len(v)/2)
	for i := range out {
		out[i] = [3]float64{v[2*i], v[2*i+1], 0}
	}
	return out
}

func printSummary(w io.Writer, r *runResult) {
	fmt.Fprintf(w, "scene      %s\n", r.Scene)
	fmt.Fprintf(w, "law        %s — %s\n", r.Law, r.Mapping)
	fmt.Fprintf(w, "balls      %d, dt %g, %d steps to t = %g in %.2f s wall\n", r.Balls, r.Dt, r.Steps, r.EndTime, r.WallSeconds)
	fmt.Fprintf(w, "contacts   %d steps with contacts, at most %d contacts, at most %d operator iterations\n", r.StepsWithContact, r.MaxContacts, r.MaxIterations)
	fmt.Fprintf(w, "energy     %.15g → %.15g (max relative drift %.3g)\n", r.Energy0, r.Energy1, r.MaxEnergyDrift)
	fmt.Fprintf(w, "momentum   (%.15g, %.15g) → (%.15g, %.15g)\n", r.Momentum0[0], r.Momentum0[1], r.Momentum1[0], r.Momentum1[1])
	fmt.Fprintf(w, "output     %s/{%s}\n", r.Dir, joinComma(r.Files))
	if r.Error != "" {
		fmt.Fprintf(w, "ERROR      %s\n", r.Error)
	}
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

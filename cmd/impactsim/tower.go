package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"impactsim/frame2d"
	"impactsim/output"
)

// cmdTowerBuiltins lists the built-in towers, one a line.
func cmdTowerBuiltins(args []string, stdout, _ io.Writer) error {
	if _, err := parse(newFlags("tower builtins"), args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, strings.Join(frame2d.Builtins(), "\n"))
	return nil
}

// loadTower reads FILE or builtin:NAME and builds its framework; all
// failures are bad input (exit status 2).
func loadTower(arg string) (*frame2d.Tower, *frame2d.Framework, error) {
	var t *frame2d.Tower
	var err error
	if name, ok := strings.CutPrefix(arg, "builtin:"); ok {
		t, err = frame2d.Builtin(name)
	} else {
		t, err = frame2d.ParseFile(arg)
	}
	if err != nil {
		return nil, nil, usageError{err}
	}
	f, err := t.Framework()
	if err != nil {
		return nil, nil, usageError{err}
	}
	return t, f, nil
}

func bodyName(f *frame2d.Framework, b int) string {
	if b < 0 {
		return "ground"
	}
	return f.Bodies[b].Name
}

func cmdTowerStable(args []string, stdout, _ io.Writer) error {
	fs := newFlags("tower stable")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("tower stable: expected one FILE|builtin:NAME argument, got %d", len(pos))
	}
	_, f, err := loadTower(pos[0])
	if err != nil {
		return err
	}
	st, err := f.Stable()
	if err != nil {
		return err
	}
	if !st.Stable {
		fmt.Fprintf(stdout, "UNSTABLE: brick %s cannot be balanced (least total force/torque residual %.6g, in units of weight)\n", bodyName(f, st.Unbalanced), st.Residual)
		return nil
	}
	fmt.Fprintf(stdout, "STABLE: %d contact forces (units of weight; force on the upper/second brick along the normal):\n", len(st.Contacts))
	for _, c := range st.Contacts {
		fmt.Fprintf(stdout, "  %-10s on %-10s at (%9.5f, %9.5f) normal (%5.2f, %5.2f)  f = %.9g\n",
			bodyName(f, c.A), bodyName(f, c.B), c.P.X, c.P.Y, c.N.X, c.N.Y, c.F)
	}
	return nil
}

type towerCollapseConfig struct {
	initial       bool
	steps, frames int
	dt            float64
	out, method   string
	length        string
	width         int
	penalty       float64
	noGIF, quiet  bool
}

func cmdTowerCollapse(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tower collapse")
	c := towerCollapseConfig{}
	fs.BoolVar(&c.initial, "initial", false, "only the initial collapse (one QP)")
	countVar(fs, &c.steps, "steps", 1000, 1, 1e9, "number of time steps")
	countVar(fs, &c.frames, "frames", 200, 1, 1e6, "number of frames to save")
	fs.Float64Var(&c.dt, "dt", 0, "time step (default: the tower's, 0.005)")
	fs.StringVar(&c.out, "out", "", "output directory (default out/tower_NAME)")
	fs.StringVar(&c.method, "method", "position", "`position|accel`: the position step (Fig. 7) or the acceleration step (Fig. 6)")
	fs.StringVar(&c.length, "length", "l2", "length constraint of the position step: `l2|l1`, l2 = (L''), l1 = (L')")
	countVar(fs, &c.width, "width", 640, 16, 16384, "GIF width in pixels")
	fs.Float64Var(&c.penalty, "penalty", 0, "penalty factor M of sec. 8.4 for over-braced bricks (paper: 100)")
	fs.BoolVar(&c.noGIF, "no-gif", false, "do not render the GIF")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("tower collapse: expected one FILE|builtin:NAME argument, got %d", len(pos))
	}
	switch {
	case c.steps < 1:
		return badInput("tower collapse: --steps: expected at least 1, got %d", c.steps)
	case c.frames < 1:
		return badInput("tower collapse: --frames: expected at least 1, got %d", c.frames)
	case c.dt < 0 || math.IsNaN(c.dt) || math.IsInf(c.dt, 0):
		return badInput("tower collapse: --dt: expected a positive time step, got %v", c.dt)
	case c.method != "position" && c.method != "accel":
		return badInput("tower collapse: --method: expected position or accel, got %q", c.method)
	case c.length != "l2" && c.length != "l1":
		return badInput("tower collapse: --length: expected l2 or l1, got %q", c.length)
	case c.width < 16:
		return badInput("tower collapse: --width: expected at least 16, got %d", c.width)
	case c.penalty < 0 || math.IsNaN(c.penalty) || math.IsInf(c.penalty, 0):
		return badInput("tower collapse: --penalty: expected a finite M ≥ 0, got %v", c.penalty)
	case c.penalty > 0 && (c.initial || c.method == "accel"):
		return badInput("tower collapse: --penalty applies to the position step only")
	}
	t, f, err := loadTower(pos[0])
	if err != nil {
		return err
	}
	if err := f.Overbraced(); err != nil && c.penalty == 0 {
		return badInput("%v (give --penalty M for the position step)", err)
	}
	if c.initial {
		return towerInitial(f, stdout)
	}
	dt := c.dt
	if dt == 0 {
		dt = t.Dt
	}
	sim, err := frame2d.NewSim(f, dt)
	if err != nil {
		return usageError{err}
	}
	if c.length == "l1" {
		sim.Length = frame2d.LPrime
	}
	sim.Penalty = c.penalty
	if c.out == "" {
		base := strings.TrimSuffix(filepath.Base(strings.TrimPrefix(pos[0], "builtin:")), filepath.Ext(pos[0]))
		c.out = filepath.Join("out", "tower_"+base)
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	every := max(1, c.steps/c.frames)
	frames := []frame2d.Frame{f.Snapshot(0)}
	prog := progress(stderr, c.quiet, float64(c.steps), "tower collapse")
	var qpSec, maxRes float64
	var maxIn, maxActive, maxIter, sumIter int
	start := time.Now()
	var runErr error
	done := 0
	for i := 1; i <= c.steps; i++ {
		if c.method == "accel" {
			runErr = sim.AccelStep()
		} else {
			runErr = sim.Step()
		}
		if runErr != nil {
			runErr = fmt.Errorf("step %d (t = %.6g): %w", i, float64(i)*dt, runErr)
			break
		}
		done = i
		st := sim.Stats
		qpSec += st.Seconds
		maxRes = math.Max(maxRes, st.Residual)
		maxIn, maxActive, maxIter = max(maxIn, st.In), max(maxActive, st.Active), max(maxIter, st.Iterations)
		sumIter += st.Iterations
		if i%every == 0 || i == c.steps {
			frames = append(frames, f.Snapshot(float64(i)*dt))
		}
		prog.Update(float64(i))
	}
	prog.Finish()
	if runErr != nil { // keep the last good state as the final frame
		frames = append(frames, f.Snapshot(float64(done)*dt))
	}
	wall := time.Since(start).Seconds()
	trajPath := filepath.Join(c.out, "trajectory.csv")
	fh, err := os.Create(trajPath)
	if err != nil {
		return err
	}
	if err := frame2d.WriteTrajectoryCSV(fh, f, frames); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Close(); err != nil {
		return err
	}
	files := []string{"trajectory.csv"}
	if !c.noGIF {
		if err := frame2d.RenderGIF(filepath.Join(c.out, "animation.gif"), f, frames, c.width, 4); err != nil {
			return err
		}
		files = append(files, "animation.gif")
	}
	sum := map[string]any{
		"tower": pos[0], "method": c.method, "length": c.length, "penalty": c.penalty, "dt": dt, "steps": done,
		"bricks": len(f.Bodies), "points": len(f.Pos), "bars": len(f.Bars),
		"wall_seconds": wall, "qp_seconds": qpSec, "max_inequalities": maxIn,
		"max_active": maxActive, "max_iterations": maxIter, "mean_iterations": float64(sumIter) / float64(max(done, 1)),
		"max_kkt_residual": maxRes, "max_length_error": f.MaxLengthError(), "files": files, "output_dir": c.out,
	}
	if runErr != nil {
		sum["error"] = runErr.Error()
	}
	if err := output.WriteJSON(filepath.Join(c.out, "summary.json"), sum); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tower collapse: %d bricks, %d steps of %g s (%s step) in %.3f s (QP %.3f s, %.3g ms/step)\n",
		len(f.Bodies), done, dt, c.method, wall, qpSec, 1e3*qpSec/float64(max(done, 1)))
	fmt.Fprintf(stdout, "  max inequalities %d, max active %d, iterations max %d mean %.1f, max KKT residual %.3g, bar length error %.3g\n",
		maxIn, maxActive, maxIter, float64(sumIter)/float64(max(done, 1)), maxRes, f.MaxLengthError())
	fmt.Fprintf(stdout, "  wrote %s\n", c.out)
	return runErr
}

func towerInitial(f *frame2d.Framework, stdout io.Writer) error {
	col, err := frame2d.InitialCollapse(f)
	if err != nil {
		return err
	}
	nm := 0
	for _, m := range col.Moving {
		if m {
			nm++
		}
	}
	fmt.Fprintf(stdout, "initial collapse (QP (Q), %d equalities, %d inequalities, KKT residual %.3g): %d of %d bricks move\n",
		col.Stats.Eq, col.Stats.In, col.Stats.Residual, nm, len(f.Bodies))
	for b, body := range f.Bodies {
		if body.Fixed {
			continue
		}
		state := "at rest"
		if col.Moving[b] {
			state = "moves"
		}
		a := col.BodyAcc[b]
		fmt.Fprintf(stdout, "  brick %-10s %-8s centre acceleration (%10.6f, %10.6f)\n", body.Name, state, a.X, a.Y)
	}
	for _, c := range col.Contacts {
		state := "opens (lifts off)"
		if c.Closed {
			state = "stays closed"
		}
		fmt.Fprintf(stdout, "  contact %-10s corner %3d on %-10s %-18s force %.6g  normal acc %.6g\n",
			bodyName(f, c.B), c.K, bodyName(f, c.A), state, c.Force, c.Accel)
	}
	return nil
}

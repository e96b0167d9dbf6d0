package runner

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/mech"
	"impactsim/output"
	"impactsim/rigid3d"
	"impactsim/scenario"
	"impactsim/scene"
)

// cappedWedge is four balls falling into a frictional wedge whose Coulomb
// solver may sweep twice per step: most steps with contacts reach the cap.
const cappedWedge = `<ball2d_scene>
  <integrator type="verlet" dt="0.001"/>
  <gravity fx="0.0" fy="-10.0"/>
  <static_plane x="0 0" n="0.5 1"/>
  <static_plane x="0 0" n="-0.5 1"/>
  <sobogus_friction_solver mu="0.3" CoR="0.0" max_iters="2" tol="1.0e-12" eval_every="1" staggering="geometric" cache_impulses="none"/>
  <ball x="0.0" y="0.74" vx="0.0" vy="0.0" m="1.0" r="0.5" fixed="0"/>
  <ball x="0.0" y="1.87" vx="0.0" vy="0.0" m="1.0" r="0.5" fixed="0"/>
  <ball x="-2.0" y="1.65" vx="0.0" vy="0.0" m="1.0" r="0.5" fixed="0"/>
  <ball x="1.01" y="2.65" vx="0.0" vy="0.0" m="1.0" r="0.5" fixed="0"/>
</ball2d_scene>
`

func wedge(t *testing.T) System {
	t.Helper()
	sc, err := scene.ReadBall2D(strings.NewReader(cappedWedge), "wedge.xml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewBall2D(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Ball2D(r)
}

// TestRunRecordsCappedSolves: a capped step is not an error; energy.csv
// has its capped and residual columns, and summary.json the count, the
// first step and the worst residual, consistent with those columns.
func TestRunRecordsCappedSolves(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(wedge(t), Config{Out: dir, End: 0.4, Frames: 10})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := output.ReadSeries(filepath.Join(dir, output.EnergyFile))
	if err != nil {
		t.Fatal(err)
	}
	step, capped, resid := tab.Column("step"), tab.Column("capped"), tab.Column("residual")
	if capped == nil || resid == nil || len(step) != res.Steps+1 {
		t.Fatalf("energy.csv columns %v, %d rows for %d steps", tab.Header, len(step), res.Steps)
	}
	n, first, worst := 0, 0, 0.0
	for i := range step {
		if capped[i] > 0 {
			if n == 0 {
				first = int(step[i])
			}
			n++
			worst = math.Max(worst, resid[i])
		}
	}
	if n == 0 || res.CappedSteps != n || res.FirstCappedStep != first || res.WorstCappedResidual != worst || !(worst > 1e-12) || res.CappedTol != 1e-12 {
		t.Errorf("summary: %d capped steps from %d, worst %g (tol %g); energy.csv: %d from %d, worst %g",
			res.CappedSteps, res.FirstCappedStep, res.WorstCappedResidual, res.CappedTol, n, first, worst)
	}
	if res.Steps != 400 || res.Error != "" {
		t.Errorf("run stopped at step %d: %q", res.Steps, res.Error)
	}
	var sum map[string]any
	data, err := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if err == nil {
		err = json.Unmarshal(data, &sum)
	}
	if err != nil || sum["capped_steps"] != float64(n) || sum["worst_capped_residual"] != worst {
		t.Errorf("summary.json: %v, %v", err, sum)
	}
	if w := res.Warning(); !strings.Contains(w, "steps stopped at the contact law's iteration cap") || strings.Contains(w, "\n") {
		t.Errorf("warning %q", w)
	}
}

// TestRunStrictStopsAtCap: with Strict the first capped step is an error
// (a *mech.CapError), and the last frame saved is the state before it,
// bitwise the state the lenient run had at that step.
func TestRunStrictStopsAtCap(t *testing.T) {
	lenient, strict := t.TempDir(), t.TempDir()
	res, err := Run(wedge(t), Config{Out: lenient, End: 0.4, Frames: 400})
	if err != nil {
		t.Fatal(err)
	}
	sres, err := Run(wedge(t), Config{Out: strict, End: 0.4, Frames: 400, Strict: true})
	var ce *mech.CapError
	if !errors.As(err, &ce) || ce.Iterations != 2 || !(ce.Residual > ce.Tol) || !strings.Contains(err.Error(), strict) {
		t.Fatalf("strict run: %v", err)
	}
	if sres.Steps != res.FirstCappedStep-1 || sres.Error == "" {
		t.Fatalf("strict run stopped after step %d, first capped step %d", sres.Steps, res.FirstCappedStep)
	}
	a, err := output.ReadTrajectory(lenient)
	if err != nil {
		t.Fatal(err)
	}
	b, err := output.ReadTrajectory(strict)
	if err != nil {
		t.Fatal(err)
	}
	last := b.Frames[len(b.Frames)-1]
	same := a.Frames[sres.Steps] // one frame per step
	if last.Time != same.Time || !equal(last.Q, same.Q) || !equal(last.V, same.V) {
		t.Errorf("strict run's last frame (t = %g) is not the lenient run's state at step %d (t = %g)", last.Time, sres.Steps, same.Time)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRunRigid3DRoundTrip: a 3D run's trajectory.csv reads back (layout
// Rigid3DLayout) to the stepper's final state bitwise, and the scene
// description names every body.
func TestRunRigid3DRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r, err := scenario.NewRigid3DSystem(rigid3d.BoxDrop(), rigid3d.BoxDropDt, "builtin:box_drop", "gr", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(Rigid3D(r), Config{Out: dir, End: 0.5, Frames: 7, VTK: true})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := output.ReadLayoutTrajectory(dir, output.Rigid3DLayout)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Frames[len(tr.Frames)-1]
	if !equal(last.Q, r.Stepper.Q) || !equal(last.V, r.Stepper.V) || res.Steps != 50 {
		t.Errorf("last frame %v %v, stepper %v %v after %d steps", last.Q, last.V, r.Stepper.Q, r.Stepper.V, res.Steps)
	}
	sc, ok, err := output.ReadScene3D(dir)
	if !ok || err != nil || len(sc.Bodies) != 1 || sc.Bodies[0].Shape != "box" {
		t.Errorf("scene3d.json: %v %v %+v", ok, err, sc)
	}
	if _, err := os.Stat(filepath.Join(dir, "vtk", "frame_00007.vtp")); err != nil {
		t.Error(err)
	}
}

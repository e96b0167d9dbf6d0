package runner

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/output"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// TestRunBodyChanges: a hook inserts a ball of mass 2 moving at (3, −2)
// at the start of step 5 (Begin) and deletes the first ball at the end of
// step 12 (End), in free fall (g = 10, no contacts). summary.json's body_changes
// has the counts, the momentum the ball brought minus the one the deleted
// ball took, and with it momentum_final − momentum_initial −
// momentum_added is exactly gravity's impulse over the steps; a frame
// after each change has its scene description; the energy drift counts
// from the energy the changes added.
func TestRunBodyChanges(t *testing.T) {
	sc, err := scene.ReadBall2D(strings.NewReader(`<ball2d_scene>
  <integrator type="verlet" dt="0.01"/>
  <gravity fx="0.0" fy="-10.0"/>
  <ball x="0.0" y="0.0" vx="1.0" vy="0.0" m="1.0" r="0.5" fixed="0"/>
</ball2d_scene>
`), "free.xml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewBall2D(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pDeleted [2]float64
	r.Stepper.AddHook(sim.Hook{Name: "test: insert, delete",
		Begin: func(st *sim.Stepper) error {
			if st.N+1 == 5 { // at the start of step 5
				r.Sys.AddBall(5, 0, 3, -2, 2, 0.5, false)
				return st.SetState(append(st.Q, 5, 0), append(st.V, 3, -2))
			}
			return nil
		},
		End: func(st *sim.Stepper) error {
			if st.N == 12 { // at the end of step 12
				pDeleted = [2]float64{st.V[0], st.V[1]} // mass 1
				s := r.Sys                              // ball2d has no deletion: drop ball 0 by hand
				s.M, s.R, s.Fixed = s.M[1:], s.R[1:], s.Fixed[1:]
				s.Q, s.V = s.Q[2:], s.V[2:]
				return st.SetState(append([]float64(nil), st.Q[2:]...), append([]float64(nil), st.V[2:]...))
			}
			return nil
		}})
	dir := t.TempDir()
	res, err := Run(Ball2D(r), Config{Out: dir, End: 0.2, Frames: 20})
	if err != nil {
		t.Fatal(err)
	}
	bc := res.BodyChanges
	if bc == nil || bc.Min != 1 || bc.Max != 2 || bc.Final != 1 || bc.Inserted != 1 || bc.Deleted != 1 || bc.Steps != 2 {
		t.Fatalf("body changes %+v", bc)
	}
	if want := []float64{6 - pDeleted[0], -4 - pDeleted[1]}; math.Abs(bc.MomentumAdded[0]-want[0]) > 1e-12 || math.Abs(bc.MomentumAdded[1]-want[1]) > 1e-12 {
		t.Errorf("momentum added %v, want %v", bc.MomentumAdded, want)
	}
	// Gravity's impulse: mass 1 over steps 1–12, mass 2 over 5–20.
	gy := -10 * 0.01 * (12*1 + 16*2)
	for i, want := range []float64{0, gy} {
		if got := res.Momentum1[i] - res.Momentum0[i] - bc.MomentumAdded[i]; math.Abs(got-want) > 1e-12 {
			t.Errorf("momentum %d: final − initial − added = %.17g, want %.17g", i, got, want)
		}
	}
	if res.MaxEnergyDrift > 1e-12 {
		t.Errorf("energy drift %g from the energy the changes added (free fall conserves energy)", res.MaxEnergyDrift)
	}
	for _, f := range bc.SceneFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	ch, err := output.ReadSceneChanges2D(dir)
	if err != nil || len(ch) != 2 || ch[0].Scene.NumBalls != 2 || ch[1].Scene.NumBalls != 1 || ch[1].Scene.Masses[0] != 2 {
		t.Fatalf("scene changes %+v, %v", ch, err)
	}
	tr, err := output.ReadTrajectory(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tr.Frames {
		want := 1
		if n := int(math.Round(f.Time / 0.01)); n >= 5 && n < 12 {
			want = 2
		}
		if f.Bodies(output.BallLayout) != want {
			t.Errorf("frame %d (t = %g): %d balls, want %d", f.Index, f.Time, f.Bodies(output.BallLayout), want)
		}
	}
	// A new run in the directory removes the descriptions of this one.
	if err := output.ClearRunDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, output.SceneChangesDir)); !os.IsNotExist(err) {
		t.Errorf("scenes/ left by ClearRunDir: %v", err)
	}
}

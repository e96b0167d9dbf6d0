package scenario

import (
	"math"
	"testing"

	"impactsim/scene"
)

const sharedScenes3D = "../../shared/scisim-scenes/rigidbody3d"

// TestSharedRigid3DScenesRun runs every shared rigidbody3d scene for 1 s
// (at most 2,000 steps) and checks the state stays finite.
func TestSharedRigid3DScenesRun(t *testing.T) {
	files := sharedSceneFiles(t, sharedScenes3D, 27)
	for _, f := range files {
		sc, err := scene.LoadRigidBody3D(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		r, err := NewRigid3D(sc, Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		end := sc.EndTime
		if end == 0 {
			end = 1
		}
		steps := min(int(math.Round(end/r.Stepper.H)), 2000)
		for i := 0; i < steps; i++ {
			if err := r.Stepper.Step(); err != nil {
				t.Errorf("%s: %v", f, err)
				break
			}
		}
		for i, x := range r.Stepper.Q {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: coordinate %d is %v", f, i, x)
				break
			}
		}
	}
}

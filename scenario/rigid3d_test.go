package scenario

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/scene"
)

const sharedScenes3D = "../../shared/scisim-scenes/rigidbody3d"

// TestSharedRigid3DScenesRun runs every shared rigidbody3d scene for 1 s
// (at most 2,000 steps) and checks the state stays finite.
func TestSharedRigid3DScenesRun(t *testing.T) {
	if _, err := os.Stat(sharedScenes3D); err != nil {
		t.Skip("shared scenes not available")
	}
	var files []string
	filepath.Walk(sharedScenes3D, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".xml") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 27 {
		t.Fatalf("found only %d scenes", len(files))
	}
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

package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadRunDir: no run directory panics the readers render uses
// (scene.json, scene3d.json, trajectory.csv whole and as a prefix,
// energy.csv); every error names its file.
// go test -fuzz=FuzzReadRunDir ./output/
func FuzzReadRunDir(f *testing.F) {
	dir := f.TempDir()
	WriteScene2D(dir, &Scene2D{NumBalls: 2, Radii: []float64{1, 0.5}, Masses: []float64{1, 2}, Fixed: []bool{false, true},
		Planes: []Plane2D{{Point: [2]float64{0, 0}, Normal: [2]float64{0, 1}}}, Drums: []Drum2D{{Centre: [2]float64{0, 0}, Radius: 9}}, Dt: 0.01, Operator: "gr"})
	WriteScene3D(dir, &Scene3D{Dt: 0.01, Bodies: []Shape3D{{Shape: "sphere", R: 1, Mass: 1}, {Shape: "mesh", Vertices: [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, Faces: [][3]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}, Mass: 1}},
		Planes: []Plane3D{{X: [3]float64{0, 0, 0}, N: [3]float64{0, 1, 0}}}})
	s2, _ := os.ReadFile(filepath.Join(dir, SceneFile))
	s3, _ := os.ReadFile(filepath.Join(dir, Scene3DFile))
	traj := TrajectoryHeader + "\n0,0,0,1,2,3,4\n0,0,1,5,6,7,8\n1,0.5,0,1,2,3,4\n1,0.5,1,5,6,7,8\n"
	series := strings.Join(EnergyColumns(2), ",") + "\n0,0,1,2,3,4,5,0,0,0,0,0,0\n1,0.1,1,2,3,4,5,1,1,1e-3,0,1e-9,0\n"
	f.Add(s2, s3, []byte(traj), []byte(series))
	f.Add(s2, s3, []byte(TrajectoryHeader+"\n0,0,0,1,2,3,4\n2,0.5,0,1,2,3,4\n2,0.5,1,5,6,7,8\n3,1,0,1,2,3,4\n"), []byte(series)) // bodies inserted and deleted
	f.Add([]byte("{}"), []byte(`{"kind":"rigid3d","bodies":[{"shape":"mesh","faces":[[0,1,9]]}]}`), []byte(traj[:40]), []byte("step\n1\n2"))
	f.Fuzz(func(t *testing.T, s2, s3, traj, series []byte) {
		d := t.TempDir()
		for name, data := range map[string][]byte{SceneFile: s2, Scene3DFile: s3, TrajectoryFile: traj, EnergyFile: series} {
			if err := os.WriteFile(filepath.Join(d, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		named := func(err error, file string) {
			if err != nil && !strings.Contains(err.Error(), file) {
				t.Fatalf("error without %s: %v", file, err)
			}
		}
		sc, err := ReadScene2D(d)
		named(err, SceneFile)
		bodies := 2
		if err == nil && sc.NumBalls > 0 {
			bodies = sc.NumBalls
		}
		_, _, err = ReadScene3D(d)
		named(err, Scene3DFile)
		for _, l := range []Layout{BallLayout, Rigid2DLayout, Rigid3DLayout} {
			tr, err := ReadLayoutTrajectory(d, l)
			named(err, TrajectoryFile)
			if err == nil {
				checkFrames(t, tr, l)
			}
			tr, err = ReadTrajectoryPrefix(d, l, bodies)
			named(err, TrajectoryFile)
			if err == nil {
				checkFrames(t, tr, l)
				if k := len(tr.Frames); k > 0 {
					prev := bodies
					if k > 1 {
						prev = tr.Frames[k-2].Bodies(l)
					}
					if n := tr.Frames[k-1].Bodies(l); n < prev {
						t.Fatalf("prefix: last frame %d has %d bodies, fewer than the %d before it", tr.Frames[k-1].Index, n, prev)
					}
				}
			}
		}
		_, err = ReadSeries(filepath.Join(d, EnergyFile))
		named(err, EnergyFile)
	})
}

// checkFrames checks what a read trajectory promises: each frame whole
// (Frame.Bodies bodies of layout l), NumBodies the count of every frame or,
// when Varying, the largest.
func checkFrames(t *testing.T, tr *Trajectory, l Layout) {
	t.Helper()
	most, differ := 0, false
	for i := range tr.Frames {
		fr := &tr.Frames[i]
		n := fr.Bodies(l)
		if len(fr.Q) != n*len(l.Q) || len(fr.V) != n*len(l.V) {
			t.Fatalf("frame %d: %d/%d values for %d bodies", fr.Index, len(fr.Q), len(fr.V), n)
		}
		differ = differ || (i > 0 && n != tr.Frames[0].Bodies(l))
		most = max(most, n)
	}
	if len(tr.Frames) > 0 && (tr.NumBodies != most || tr.Varying != differ) {
		t.Fatalf("NumBodies %d, Varying %v; the frames have at most %d bodies, differ: %v", tr.NumBodies, tr.Varying, most, differ)
	}
}

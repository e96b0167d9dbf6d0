package scene_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/ball2d"
	"impactsim/bounded"
	"impactsim/mech"
	"impactsim/scene"
)

// FuzzReadBall2D checks that no input makes the reader panic, that every
// error is a one-line *scene.Error naming the source, and that every scene it
// accepts either builds a valid system or fails FromScene with an error —
// and then steps without panicking.
func FuzzReadBall2D(f *testing.F) {
	seedScenes(f, "testdata", "../../shared/scisim-scenes/ball2d")
	f.Add([]byte(`<ball2d_scene><integrator type="verlet" dt="0.1"/><static_plane x="0 8" n="0 -1"/><static_plane x="0 -8" n="0 1"/><planar_portal planeA="0" planeB="1"/><ball x="0" y="7.9" vx="0" vy="1" m="1" r="0.5" fixed="0"/><ball x="0" y="-7.9" vx="0" vy="-1" m="1" r="0.5" fixed="0"/></ball2d_scene>`))
	f.Add([]byte(`<ball2d_scene><integrator type="symplectic_euler" dt="1e300"/><gravity fx="1e300" fy="0"/><ball x="1e300" y="0" vx="1e300" vy="0" m="1e-300" r="1e300" fixed="0"/><ball x="-1e300" y="0" vx="0" vy="0" m="1" r="1" fixed="1"/></ball2d_scene>`))
	f.Add([]byte(`<ball2d_scene><integrator type="verlet" dt="0.01"/><gravity fx="0" fy="-9.81"/><scripting callback="osc"/><static_plane x="0 0" n="0 1"/><static_drum x="0" y="0" r="5"/><ball x="0" y="1" vx="0" vy="0" m="1" r="0.5" fixed="1"/><motion static_plane="0"><oscillation axis="0 1" gamma="2" fstar="0.3" H="0.01" start="1"/><linear v="1 0"/></motion><motion static_drum="0"><rotation omega="2" center="0 1"/></motion><motion ball="0"><oscillation axis="1 0" amplitude="0.1" frequency="3" phase="1"/></motion></ball2d_scene>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scene.ReadBall2D(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			checkSceneError(t, err)
			return
		}
		if len(sc.Balls) > 2000 {
			return
		}
		s, err := ball2d.FromScene(sc)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xml") {
				t.Fatalf("FromScene error %q does not name the file", err)
			}
			return
		}
		q1 := make([]float64, len(s.Q))
		v1 := make([]float64, len(s.V))
		var p mech.Problem
		for step := 0; step < 3; step++ {
			s.FreeFlight(s.Q, s.V, s.Dt, q1, v1)
			s.BuildProblem(s.Q, q1, s.V, &p)
			if p.NDof() != 2*s.N() || p.NContacts() != len(s.Contacts()) {
				t.Fatalf("problem shape: %d dofs, %d contacts for %d balls", p.NDof(), p.NContacts(), s.N())
			}
			s.FreeFlight(s.Q, s.V, s.Dt, s.Q, s.V)
			s.AfterStep(s.Q, s.V)
		}
	})
}

// seedScenes adds every .xml file below dirs to the corpus.
func seedScenes(f *testing.F, dirs ...string) {
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".xml") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
			return nil
		})
	}
}

// checkSceneError fails unless err is a one-line *scene.Error naming
// fuzz.xml.
func checkSceneError(t *testing.T, err error) {
	t.Helper()
	var se *scene.Error
	var be *bounded.BinaryError // binary data (a NUL byte) is refused where it is, before the XML
	named := errors.As(err, &se) && se.File == "fuzz.xml" || errors.As(err, &be) && strings.HasPrefix(err.Error(), "fuzz.xml: ")
	if !named || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %T %q is not a one-line *scene.Error (or *bounded.BinaryError) for fuzz.xml", err, err)
	}
}

// FuzzReadBall2DPart: reading a scene in parts (every other ball kept)
// never panics, fails exactly when the whole reader fails or the scene
// has motions or a script (one-line *scene.Error naming the source), and
// otherwise keeps exactly the whole reader's balls of even index, with
// their indices and the whole count.
func FuzzReadBall2DPart(f *testing.F) {
	seedScenes(f, "testdata", "../../shared/scisim-scenes/ball2d")
	f.Add([]byte(`<ball2d_scene><integrator type="verlet" dt="0.1"/><static_drum x="0" y="0" r="9"/><ball x="0" y="1" vx="0" vy="1" m="1" r="0.5" fixed="0"/><ball x="0" y="-1" vx="0" vy="-1" m="1" r="0.5" fixed="0"/><ball x="2" y="0" vx="0" vy="0" m="1" r="0.5" fixed="1"/></ball2d_scene>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, werr := scene.ReadBall2D(bytes.NewReader(data), "fuzz.xml")
		part, perr := scene.ReadBall2DPart(bytes.NewReader(data), "fuzz.xml", func(id int, _ *scene.Ball) bool { return id%2 == 0 })
		if perr != nil {
			checkSceneError(t, perr)
			if werr == nil && len(whole.Motions) == 0 && whole.Script == nil {
				t.Fatalf("the part reader refused a scene the whole reader read: %v", perr)
			}
			return
		}
		if werr != nil {
			t.Fatalf("the part reader read a scene the whole reader refused: %v", werr)
		}
		if part.NBalls != len(whole.Balls) || len(part.Balls) != (len(whole.Balls)+1)/2 || len(part.BallIDs) != len(part.Balls) {
			t.Fatalf("part: %d balls (ids %d) of %d, the whole scene has %d", len(part.Balls), len(part.BallIDs), part.NBalls, len(whole.Balls))
		}
		for i, b := range part.Balls {
			if id := part.BallIDs[i]; id != 2*i || b != whole.Balls[id] {
				t.Fatalf("part ball %d (id %d) = %+v, the whole scene's ball %d = %+v", i, id, b, 2*i, whole.Balls[2*i])
			}
		}
		if len(part.Drums) != len(whole.Drums) || len(part.Planes) != len(whole.Planes) || part.Integrator != whole.Integrator {
			t.Fatalf("the part's geometry or integrator differs from the whole scene's")
		}
	})
}

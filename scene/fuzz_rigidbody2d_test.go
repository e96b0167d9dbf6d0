package scene_test

import (
	"bytes"
	"strings"
	"testing"

	"impactsim/mech"
	"impactsim/scenario"
	"impactsim/scene"
)

// FuzzReadRigidBody2D checks that no input makes the rigidbody2d reader
// panic, that every error is a one-line *scene.Error naming the source,
// and that every scene it accepts builds a system or fails with an error
// naming the file — and then steps without panicking.
func FuzzReadRigidBody2D(f *testing.F) {
	seedScenes(f, "../parity/testdata/rigidbody2d")
	f.Add([]byte(`<rigidbody2d_scene><integrator type="verlet" dt="0.1"/><geometry type="box" r="1 2"/><rigid_body x="0 0" theta="0" v="0 0" omega="0" rho="1" geo_idx="0"/></rigidbody2d_scene>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scene.ReadRigidBody2D(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			checkSceneError(t, err)
			return
		}
		if len(sc.Bodies) > 500 {
			return
		}
		s, err := scenario.Rigid2DFromScene(sc)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xml") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("build error %q does not name the file on one line", err)
			}
			return
		}
		q1 := make([]float64, len(s.Q))
		v1 := make([]float64, len(s.V))
		var p mech.Problem
		for step := 0; step < 3; step++ {
			s.StartStep(float64(step+1) * sc.Integrator.Dt)
			s.FreeFlight(s.Q, s.V, sc.Integrator.Dt, q1, v1)
			s.BuildProblem(s.Q, q1, s.V, &p)
			if p.NDof() != 3*s.N() || p.NContacts() != len(s.Contacts()) {
				t.Fatalf("problem shape: %d dofs, %d contacts for %d bodies", p.NDof(), p.NContacts(), s.N())
			}
			s.FreeFlight(s.Q, s.V, sc.Integrator.Dt, s.Q, s.V)
			s.AfterStep(s.Q, s.V)
		}
	})
}

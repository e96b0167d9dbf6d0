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
	f.Add([]byte(`<rigidbody2d_scene><integrator type="verlet" dt="0.1"/><near_earth_gravity f="0 -10"/><static_plane x="0 0" n="0 1"/><geometry type="box" r="1 2"/><rigid_body x="0 3" theta="0" v="0 0" omega="0" rho="1" geo_idx="0" fixed="1"/><motion static_plane="0"><oscillation axis="0 1" gamma="2" fstar="0.5" H="3" stop="2"/></motion><motion rigid_body="0"><rotation omega="1" center="0 0"/><linear v="1 0" start="1"/></motion></rigidbody2d_scene>`))
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

package scene_test

import (
	"bytes"
	"testing"

	"impactsim/scene"
)

// FuzzReadRigidBody3D checks that no input makes the rigidbody3d reader
// panic and that every error is a one-line *scene.Error naming the source.
func FuzzReadRigidBody3D(f *testing.F) {
	seedScenes(f, "../../shared/scisim-scenes/rigidbody3d")
	f.Add([]byte(`<rigidbody3d_scene><integrator type="symplectic_euler" dt="0.1"/><nbgs_friction_solver mu="0.4" max_iters="10" tol="1e-6" epsilon="0.5" domains="2" relax="0.9" block="coulomb"/></rigidbody3d_scene>`))
	f.Add([]byte(`<rigidbody3d_scene><integrator type="dmv" dt="0.1"/><geometry type="mesh" filename="a.obj"/><bounce_map geo_idx="0" file="a.bmap" alpha="0.5" lookup="mls"/><bounce_map_combiner name="min"/></rigidbody3d_scene>`))
	f.Add([]byte(`<rigidbody3d_scene><integrator type="dmv" dt="0.1"/><geometry type="box" r="1 1 1"/><rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="-1"/></rigidbody3d_scene>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scene.ReadRigidBody3D(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			checkSceneError(t, err)
			return
		}
		for _, b := range sc.Bodies {
			if b.Geo < 0 || b.Geo >= len(sc.Geometries) {
				t.Fatalf("geometry index %d of %d accepted", b.Geo, len(sc.Geometries))
			}
		}
	})
}

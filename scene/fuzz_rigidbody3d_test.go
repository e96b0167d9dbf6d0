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
	f.Add([]byte(`<rigidbody3d_scene><integrator type="split_ham" dt="1/10800"/><sobogus_friction_solver mu="2.0" CoR="0.8" eval_every="25" max_iters="5000" tol="1.0e-12" eval_every="50" staggering="geometric"/><static_plane x="-8 0 0" n="1 0 0"/><static_plane x="8 0 0" n="-1 0 0"/><planar_portal planeA="0" planeB="1" multiplier="1 1 -1"/><geometry type="sphere" r="0.25"/><rigid_body_with_density x="1 1 0" v="-1 -1 0" omega="0 0 0" rho="1" fixed="0" geo_idx="0"/></rigidbody3d_scene>`))
	f.Add([]byte(`<rigidbody3d_scene><integrator type="dmv" dt="0.001"/><sobogus_friction_solver mu="0.3" CoR="0.0" max_iters="50" tol="1e-12" eval_every="1" staggering="symplectic_euler" cache_impulses="normal" stabilization="1" penetration_threshold="1e-3"/><geometry type="mesh" filename="m.h5"/></rigidbody3d_scene>`))
	f.Add([]byte(`<rigidbody3d_scene><integrator type="dmv" dt="0.01"/><near_earth_gravity f="0 -9.81 0"/><scripting callback="sphere_in_cylinder"/><static_plane x="0 0 0" n="0 1 0"/><static_cylinder x="0 0 0" axis="0 0 1" R="4"/><geometry type="box" r="1 1 1"/><rigid_body_with_density x="0 3 0" v="0 0 0" omega="0 0 0" rho="1" fixed="1" geo_idx="0"/><motion static_plane="0"><oscillation axis="0 1 0" gamma="3" frequency="5"/></motion><motion static_cylinder="0"><rotation axis="0 0 1" omega="6.28" start="1"/></motion><motion rigid_body="0"><linear v="0 1 0"/><rotation axis="1 0 0" omega="1" center="0 0 0"/></motion></rigidbody3d_scene>`))
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
		for _, p := range sc.Portals {
			if p.PlaneA < 0 || p.PlaneA >= len(sc.Planes) || p.PlaneB < 0 || p.PlaneB >= len(sc.Planes) || p.PlaneA == p.PlaneB {
				t.Fatalf("portal planes %d, %d of %d accepted", p.PlaneA, p.PlaneB, len(sc.Planes))
			}
		}
		if !(sc.Integrator.Dt > 0) {
			t.Fatalf("time step %v accepted", sc.Integrator.Dt)
		}
	})
}

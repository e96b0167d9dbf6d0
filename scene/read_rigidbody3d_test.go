package scene

import (
	"strings"
	"testing"
)

func TestReadRigidBody3D(t *testing.T) {
	src := `<rigidbody3d_scene>
  <camera_perspective theta="1" phi="0" rho="8" lookat="0 0 0" up="0 1 0" fps="10" render_at_fps="0" locked="0"/>
  <integrator type="dmv" dt="0.01"/>
  <impact_operator type="grr" CoR="1.0">
    <elastic_operator type="gr" CoR="1.0" v_tol="1.0e-6"/>
    <inelastic_operator type="lcp" CoR="0.0"/>
  </impact_operator>
  <near_earth_gravity f="0 -9.81 0"/>
  <static_plane x="0 0 0" n="0 2 0"/>
  <static_plane_renderer plane="0" r="5 5"/>
  <geometry type="box" r="0.3 0.2 0.1"/>
  <geometry type="sphere" r="0.5"/>
  <rigid_body_with_density x="0 1 0" v="1 0 0" omega="0 0 1" rho="2" fixed="0" geo_idx="-1" R="0 0 0.5"/>
  <rigid_body_with_density x="0 3 0" v="0 0 0" omega="0 0 0" rho="2" fixed="1" geo_idx="0"/>
</rigidbody3d_scene>`
	s, err := ReadRigidBody3D(strings.NewReader(src), "t.xml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Integrator.Type != "dmv" || s.Integrator.Dt != 0.01 || s.ImpactOperator.Type != "grr" ||
		s.ImpactOperator.Elastic == nil || s.ImpactOperator.Inelastic.Type != "lcp" {
		t.Errorf("integrator/operator: %+v %+v", s.Integrator, s.ImpactOperator)
	}
	if len(s.Bodies) != 2 || s.Bodies[0].Geo != 1 || s.Bodies[1].Geo != 0 || !s.Bodies[1].Fixed || s.Bodies[0].R[2] != 0.5 {
		t.Errorf("bodies: %+v", s.Bodies)
	}
	if c := s.Camera; c == nil || c.Theta != 1 || c.Rho != 8 || c.Up != [3]float64{0, 1, 0} {
		t.Errorf("camera %+v", s.Camera)
	}
	if s.Planes[0].N != [3]float64{0, 1, 0} || s.Gravity[1] != -9.81 || s.Geometries[0].Half != [3]float64{0.3, 0.2, 0.1} {
		t.Errorf("planes %+v gravity %v geometries %+v", s.Planes, s.Gravity, s.Geometries)
	}
}

func TestReadNBGSFrictionSolver(t *testing.T) {
	sc, err := ReadRigidBody3D(strings.NewReader(`<rigidbody3d_scene>
<integrator type="symplectic_euler" dt="1e-5"/>
<nbgs_friction_solver mu="0.4" max_iters="10" tol="1e-7" block="coulomb" epsilon="0.7" domains="16" relax="0.9"/>
</rigidbody3d_scene>`), "t.xml")
	if err != nil {
		t.Fatal(err)
	}
	f := sc.Friction
	if f.Kind != "nbgs" || f.Mu != 0.4 || f.CoR != 0 || f.MaxIters != 10 || f.Tol != 1e-7 || f.Block != "coulomb" || f.Epsilon != 0.7 || f.Domains != 16 || f.Relax != 0.9 || f.Line != 3 {
		t.Errorf("read %+v", f)
	}
}

func TestReadRigidBody3DErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="staple" w="1" l="1" D="0.1"/>`, `t.xml:3: geometry attribute "type": staple geometry is not supported yet`},
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="mesh" filename="dragon.stl"/>`, `t.xml:3: geometry attribute "filename": expected a Wavefront .obj file or one of SCISim's HDF5 (.h5) mesh files, got "dragon.stl"`},
		{`<integrator type="dmv" dt="0.01"/>
<kinematic_object x="0 0 0"/>`, `t.xml:3: unsupported element <kinematic_object>`},
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="sphere" r="1"/>
<rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1e-320" fixed="0" geo_idx="0"/>`, `t.xml:4: rigid_body_with_density attribute "rho": expected a positive number from 1e-30 to 1e30, got "1e-320"`},
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="sphere" r="1"/>
<rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 1e200 0" rho="1" fixed="0" geo_idx="0"/>`, `t.xml:4: rigid_body_with_density attribute "omega": expected three numbers "x y z" from -1e30 to 1e30, got "0 1e200 0"`},
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="box" r="1 1e-31 1"/>`, `t.xml:3: geometry attribute "r": expected three half widths "a b c" from 1e-30 to 1e30`},
		{`<integrator type="dmv" dt="-1"/>`, `t.xml:2: integrator attribute "dt": expected a positive number from 1e-30 to 1e30, got "-1"`},
		{`<integrator type="dmv" dt="0.1"/>
<geometry type="sphere" r="1"/>
<rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="3"/>`, `t.xml:4: rigid_body_with_density attribute "geo_idx": expected an index`},
		{`<integrator type="dmv" dt="0.1"/>
<static_plane x="0 0 0" n="0 0 0"/>`, `t.xml:3: static_plane attribute "n": expected a non-zero vector`},
		{`<integrator type="dmv" dt="0.1"/>
<near_earth_gravity f="0 NaN 0"/>`, `t.xml:3: near_earth_gravity attribute "f": expected three numbers "x y z" from -1e30 to 1e30`},
		// <nbgs_friction_solver>: restitution ≠ 0, μ < 0, ε ∉ [0, 1),
		// tolerance ≤ 0, a collision-integrator scene
		{`<integrator type="symplectic_euler" dt="0.1"/>
<nbgs_friction_solver mu="0.4" CoR="0.5" max_iters="10" tol="1e-6"/>`, `t.xml:3: nbgs_friction_solver attribute "CoR": expected 0 (the law is purely inelastic), got "0.5"`},
		{`<integrator type="symplectic_euler" dt="0.1"/>
<nbgs_friction_solver mu="-0.4" max_iters="10" tol="1e-6"/>`, `t.xml:3: nbgs_friction_solver attribute "mu": expected a non-negative finite number, got "-0.4"`},
		{`<integrator type="symplectic_euler" dt="0.1"/>
<nbgs_friction_solver mu="0.4" max_iters="10" tol="1e-6" epsilon="1"/>`, `t.xml:3: nbgs_friction_solver attribute "epsilon": expected a number in [0, 1), got "1"`},
		{`<integrator type="symplectic_euler" dt="0.1"/>
<nbgs_friction_solver mu="0.4" max_iters="10" tol="0"/>`, `t.xml:3: nbgs_friction_solver attribute "tol": expected a positive finite number, got "0"`},
		{`<integrator type="symplectic_euler" dt="0.1"/>
<nbgs_friction_solver mu="0.4" max_iters="10" tol="1e-6" block="hertz"/>`, `t.xml:3: nbgs_friction_solver attribute "block"`},
		{`<integrator type="dmv" dt="0.1"/>
<nbgs_friction_solver mu="0.4" max_iters="10" tol="1e-6"/>`, `t.xml:2: integrator: <nbgs_friction_solver> (line 3) steps with semi-implicit Euler: expected type="symplectic_euler", got "dmv"`},
	} {
		_, err := ReadRigidBody3D(strings.NewReader("<rigidbody3d_scene>\n"+c.body+"\n</rigidbody3d_scene>"), "t.xml")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want prefix %q", err, c.want)
		}
	}
}

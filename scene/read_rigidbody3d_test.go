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

func TestReadRigidBody3DErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="staple" w="1" l="1" D="0.1"/>`, `t.xml:3: geometry attribute "type": staple geometry is not supported yet`},
		{`<integrator type="dmv" dt="0.01"/>
<geometry type="mesh" filename="dragon.h5"/>`, `t.xml:3: geometry attribute "filename": expected a Wavefront .obj file`},
		{`<integrator type="dmv" dt="0.01"/>
<kinematic_object x="0 0 0"/>`, `t.xml:3: unsupported element <kinematic_object>`},
		{`<integrator type="dmv" dt="-1"/>`, `t.xml:2: integrator attribute "dt": expected a positive finite number, got "-1"`},
		{`<integrator type="dmv" dt="0.1"/>
<geometry type="sphere" r="1"/>
<rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="3"/>`, `t.xml:4: rigid_body_with_density attribute "geo_idx": expected an index`},
		{`<integrator type="dmv" dt="0.1"/>
<static_plane x="0 0 0" n="0 0 0"/>`, `t.xml:3: static_plane attribute "n": expected a non-zero vector`},
		{`<integrator type="dmv" dt="0.1"/>
<near_earth_gravity f="0 NaN 0"/>`, `t.xml:3: near_earth_gravity attribute "f": expected three finite numbers`},
	} {
		_, err := ReadRigidBody3D(strings.NewReader("<rigidbody3d_scene>\n"+c.body+"\n</rigidbody3d_scene>"), "t.xml")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want prefix %q", err, c.want)
		}
	}
}

package scene

import (
	"math"
	"strings"
	"testing"
)

// TestReadMotion: <motion> with each kind of term, Γ and f* converted with
// the scene's gravity, defaults (phase, start, centre), in both systems.
func TestReadMotion(t *testing.T) {
	doc := `<ball2d_scene>
  <integrator type="verlet" dt="0.001"/>
  <gravity fx="0" fy="-9.81"/>
  <static_plane x="0 0" n="0 1"/>
  <static_drum x="0 0" y="0" r="5"/>
  <ball x="0" y="2" vx="0" vy="0" m="1" r="0.5" fixed="1"/>
  <motion static_plane="0">
    <oscillation axis="0 2" gamma="2.5" fstar="0.4" H="0.01" start="0.5"/>
    <linear v="1 0"/>
  </motion>
  <motion static_drum="0"><rotation omega="3" center="1 2"/></motion>
  <motion ball="0"><oscillation axis="1 0" amplitude="0.1" frequency="2" phase="0.5"/></motion>
</ball2d_scene>`
	doc = strings.Replace(doc, `<static_drum x="0 0" y="0" r="5"/>`, `<static_drum x="0" y="0" r="5"/>`, 1)
	s, err := ReadBall2D(strings.NewReader(doc), "m.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Motions) != 3 {
		t.Fatalf("%d motions", len(s.Motions))
	}
	o := s.Motions[0].Terms[0]
	f := 0.4 * math.Sqrt(9.81/0.01)
	a := 2.5 * 9.81 / (2 * math.Pi * f) / (2 * math.Pi * f)
	if s.Motions[0].Target != "static_plane" || o.Kind != "oscillation" || o.Axis != [3]float64{0, 1, 0} ||
		math.Abs(o.Frequency-f) > 1e-12 || math.Abs(o.Amplitude-a) > 1e-15 || o.Start != 0.5 || o.Line != 8 {
		t.Errorf("oscillation %+v (want f %g, A %g)", o, f, a)
	}
	if l := s.Motions[0].Terms[1]; l.Kind != "linear" || l.Velocity != [3]float64{1, 0, 0} {
		t.Errorf("linear %+v", l)
	}
	if r := s.Motions[1].Terms[0]; s.Motions[1].Target != "static_drum" || r.Omega != 3 || !r.HasCenter || r.Center != [3]float64{1, 2, 0} || r.Axis != [3]float64{0, 0, 1} {
		t.Errorf("rotation %+v", r)
	}
	if b := s.Motions[2]; b.Target != "ball" || b.Terms[0].Phase != 0.5 || b.Terms[0].Amplitude != 0.1 {
		t.Errorf("ball motion %+v", b)
	}
	doc3 := `<rigidbody3d_scene>
  <integrator type="dmv" dt="0.01"/>
  <static_cylinder x="0 0 0" axis="0 0 1" R="4"/>
  <geometry type="box" r="1 1 1"/>
  <rigid_body_with_density x="0 0 0" v="0 0 0" omega="0 0 0" rho="1" fixed="1" geo_idx="0"/>
  <motion static_cylinder="0"><rotation axis="0 0 2" omega="6.28"/></motion>
  <motion rigid_body="0"><linear v="0 1 0" start="1"/></motion>
</rigidbody3d_scene>`
	s3, err := ReadRigidBody3D(strings.NewReader(doc3), "m3.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s3.Motions) != 2 || s3.Motions[0].Terms[0].Axis != [3]float64{0, 0, 1} || s3.Motions[1].Terms[0].Start != 1 || s3.Motions[1].Target != "rigid_body" {
		t.Errorf("3D motions %+v", s3.Motions)
	}
}

// TestMotionErrors: each bad <motion> is one line naming the file, the
// line, the element and what was expected.
func TestMotionErrors(t *testing.T) {
	const head = "<ball2d_scene>\n<integrator type=\"verlet\" dt=\"0.1\"/>\n<gravity fx=\"0\" fy=\"-9.81\"/>\n<static_plane x=\"0 0\" n=\"0 1\"/>\n<ball x=\"0\" y=\"2\" vx=\"0\" vy=\"0\" m=\"1\" r=\"0.5\" fixed=\"0\"/>\n"
	cases := []struct{ name, body, want string }{
		{"unknown type", `<motion static_plane="0"><wobble axis="0 1"/></motion>`, `bad.xml:6: unsupported element <wobble> inside <motion>: expected oscillation, linear or rotation`},
		{"NaN amplitude", `<motion static_plane="0"><oscillation axis="0 1" amplitude="nan" frequency="2"/></motion>`, `bad.xml:6: oscillation attribute "amplitude": expected a finite number, got "nan"`},
		{"zero frequency", `<motion static_plane="0"><oscillation axis="0 1" amplitude="1" frequency="0"/></motion>`, `bad.xml:6: oscillation attribute "frequency": expected a positive finite number, got "0"`},
		{"negative frequency", `<motion static_plane="0"><oscillation axis="0 1" amplitude="1" frequency="-3"/></motion>`, `bad.xml:6: oscillation attribute "frequency": expected a positive finite number, got "-3"`},
		{"no amplitude", `<motion static_plane="0"><oscillation axis="0 1" frequency="3"/></motion>`, `bad.xml:6: oscillation: missing required attribute "amplitude" (or "gamma")`},
		{"both", `<motion static_plane="0"><oscillation axis="0 1" amplitude="1" gamma="2" frequency="3"/></motion>`, `bad.xml:6: oscillation: attributes "amplitude" and "gamma": expected one of them`},
		{"fstar without H", `<motion static_plane="0"><oscillation axis="0 1" amplitude="1" fstar="0.3"/></motion>`, `bad.xml:6: oscillation: missing required attribute "H"`},
		{"zero axis", `<motion static_plane="0"><oscillation axis="0 0" amplitude="1" frequency="3"/></motion>`, `bad.xml:6: oscillation attribute "axis": expected a non-zero vector, got "0 0"`},
		{"plane index", `<motion static_plane="3"><linear v="1 0"/></motion>`, `bad.xml:6: motion attribute "static_plane": expected the index of a <static_plane> (the scene has 1), got 3`},
		{"not fixed", `<motion ball="0"><linear v="1 0"/></motion>`, `bad.xml:6: motion attribute "ball": ball 0 is not fixed: only fixed (kinematic) bodies`},
		{"no target", `<motion><linear v="1 0"/></motion>`, `bad.xml:6: motion: missing the target`},
		{"two targets", `<motion static_plane="0" ball="0"><linear v="1 0"/></motion>`, `bad.xml:6: motion: attributes "static_plane" and "ball": expected one target`},
		{"no terms", `<motion static_plane="0"/>`, `bad.xml:6: motion: no terms`},
		{"two rotations", `<motion static_plane="0"><rotation omega="1"/><rotation omega="2"/></motion>`, `bad.xml:6: rotation: a motion has at most one <rotation>`},
		{"axis in 2D", `<motion static_plane="0"><rotation omega="1" axis="0 0 1"/></motion>`, `bad.xml:6: rotation: unsupported attribute "axis"`},
		{"duplicate", `<motion static_plane="0"><linear v="1 0"/></motion>` + "\n" + `<motion static_plane="0"><linear v="2 0"/></motion>`, `bad.xml:7: motion: static_plane 0 already has a motion (line 6)`},
		{"stop before start", `<motion static_plane="0"><linear v="1 0" start="2" stop="1"/></motion>`, `bad.xml:6: linear attribute "stop": expected a time after start = 2, got "1"`},
		{"negative start", `<motion static_plane="0"><linear v="1 0" start="-1"/></motion>`, `bad.xml:6: linear attribute "start": expected a non-negative finite number, got "-1"`},
	}
	for _, c := range cases {
		_, err := ReadBall2D(strings.NewReader(head+c.body+"\n</ball2d_scene>\n"), "bad.xml")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// Γ needs gravity.
	noG := strings.Replace(head, `<gravity fx="0" fy="-9.81"/>`, "", 1)
	_, err := ReadBall2D(strings.NewReader(noG+`<motion static_plane="0"><oscillation axis="0 1" gamma="2" frequency="3"/></motion>`+"\n</ball2d_scene>\n"), "bad.xml")
	if err == nil || !strings.Contains(err.Error(), `bad.xml:6: oscillation attribute "gamma": A = Γg/(2πf)² needs gravity`) {
		t.Errorf("gamma without gravity: %v", err)
	}
}

// TestMotionErrors2D: <motion> in a rigidbody2d scene takes static_plane
// and rigid_body (fixed) targets, with the same one-line errors.
func TestMotionErrors2D(t *testing.T) {
	const head = "<rigidbody2d_scene>\n<integrator type=\"verlet\" dt=\"0.1\"/>\n<static_plane x=\"0 0\" n=\"0 1\"/>\n<geometry type=\"circle\" r=\"0.5\"/>\n<rigid_body x=\"0 2\" theta=\"0\" v=\"0 0\" omega=\"0\" rho=\"1\" geo_idx=\"0\"/>\n"
	cases := []struct{ name, body, want string }{
		{"drum", `<motion static_drum="0"><linear v="1 0"/></motion>`, `bad.xml:6: motion: unsupported attribute "static_drum"`},
		{"not fixed", `<motion rigid_body="0"><linear v="1 0"/></motion>`, `bad.xml:6: motion attribute "rigid_body": rigid_body 0 is not fixed`},
		{"body index", `<motion rigid_body="2"><linear v="1 0"/></motion>`, `bad.xml:6: motion attribute "rigid_body": expected the index of a <rigid_body fixed="1"> (the scene has 1), got 2`},
		{"gamma without gravity", `<motion static_plane="0"><oscillation axis="0 1" gamma="2" frequency="3"/></motion>`, `bad.xml:6: oscillation attribute "gamma": A = Γg/(2πf)² needs gravity`},
		{"NaN", `<motion static_plane="0"><linear v="nan 0"/></motion>`, `bad.xml:6: linear attribute "v"`},
	}
	for _, c := range cases {
		_, err := ReadRigidBody2D(strings.NewReader(head+c.body+"\n</rigidbody2d_scene>\n"), "bad.xml")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	sc, err := ReadRigidBody2D(strings.NewReader(strings.Replace(head, `geo_idx="0"`, `geo_idx="0" fixed="1"`, 1)+
		`<motion rigid_body="0"><rotation omega="2"/></motion>`+"\n<scripting callback=\"s\"/>\n</rigidbody2d_scene>\n"), "ok.xml")
	if err != nil || len(sc.Motions) != 1 || sc.Motions[0].Target != "rigid_body" || sc.Script == nil || sc.Script.Callback != "s" {
		t.Errorf("rigidbody2d motion and script: %+v, %v", sc, err)
	}
}

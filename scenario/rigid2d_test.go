package scenario

import (
	"strings"
	"testing"

	"impactsim/scene"
)

// Bad rigidbody2d scenes are refused with one line naming the file, the
// line and the element.
func TestRigid2DRefusals(t *testing.T) {
	const head = "<rigidbody2d_scene>\n<integrator type=\"verlet\" dt=\"0.01\"/>\n"
	cases := []struct{ name, body, want string }{
		{"geometry index", `<geometry type="circle" r="1"/>` + "\n" + `<rigid_body x="0 0" theta="0" v="0 0" omega="0" rho="1" geo_idx="1"/>` + "\n",
			`bad.xml:4: rigid_body attribute "geo_idx": expected the index of a geometry`},
		{"box half widths", `<geometry type="box" r="1 -2"/>` + "\n", `bad.xml:3: geometry attribute "r": expected two half widths "a b" from 1e-30 to 1e30`},
		{"shape", `<geometry type="capsule" r="1"/>` + "\n", `bad.xml:3: geometry attribute "type": expected one of circle, box`},
		{"missing script", `<scripting callback="x"/>` + "\n", `bad.xml:3: scripting: script x.py: `},
		{"staggered projections", `<staggered_projections_friction_solver mu="0" CoR="0" max_iters="1" tol="0" staggering="geometric"/>` + "\n",
			`bad.xml:3: unsupported element <staggered_projections_friction_solver>`},
		{"box through portal", `<static_plane x="-2 0" n="1 0"/>` + "\n" + `<static_plane x="2 0" n="-1 0"/>` + "\n" + `<planar_portal planeA="0" planeB="1"/>` + "\n" +
			`<geometry type="box" r="0.5 0.5"/>` + "\n" + `<rigid_body x="0 0" theta="0" v="0 0" omega="0" rho="1" geo_idx="0"/>` + "\n",
			`bad.xml:5: planar_portal: portals with box bodies (the box on line 7) are not supported`},
	}
	for _, c := range cases {
		sc, err := scene.ReadRigidBody2D(strings.NewReader(head+c.body+"</rigidbody2d_scene>\n"), "bad.xml")
		if err == nil {
			_, err = NewRigid2D(sc, Options{})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

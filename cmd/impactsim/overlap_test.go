package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvalidStartingStates: a ball larger than its drum or outside it, a
// ball in a wall, overlapping 3D bodies and a sphere centred on a plane are
// refused with the bodies' lines, exit 2, nothing written.
func TestInvalidStartingStates(t *testing.T) {
	tmp := t.TempDir()
	b2 := func(body string) string {
		return "<ball2d_scene>\n<integrator type=\"verlet\" dt=\"0.01\"/>\n" + body + "</ball2d_scene>\n"
	}
	b3 := func(body string) string {
		return "<rigidbody3d_scene>\n<integrator type=\"dmv\" dt=\"0.01\"/>\n<geometry type=\"sphere\" r=\"1\"/>\n<geometry type=\"box\" r=\"1 1 1\"/>\n" + body + "</rigidbody3d_scene>\n"
	}
	body3 := func(x string, geo int) string {
		return `<rigid_body_with_density x="` + x + `" v="0 0 0" omega="0 0 0" rho="1" fixed="0" geo_idx="` + string(rune('0'+geo)) + `"/>` + "\n"
	}
	ball := func(x, r string) string {
		return `<ball x="` + x + `" y="0" vx="0" vy="0" m="1" r="` + r + `" fixed="0"/>` + "\n"
	}
	for _, c := range []struct{ name, doc, want string }{
		{"drum_small", b2(`<static_drum x="0" y="0" r="1"/>` + "\n" + ball("0", "2")), `drum_small.xml:4: ball attribute "x": reaches out of the static_drum on line 3 by 1`},
		{"drum_outside", b2(`<static_drum x="0" y="0" r="1"/>` + "\n" + ball("5", "0.5")), `drum_outside.xml:4: ball attribute "x": reaches out of the static_drum on line 3 by 4.5`},
		{"wall", b2(`<static_plane x="0 0" n="0 1"/>` + "\n" + ball("0", "0.5")), `wall.xml:4: ball attribute "x": penetrates the static_plane on line 3 by 0.5`},
		{"spheres", b3(body3("0 0 0", 0) + body3("1.5 0 0", 0)), `spheres.xml:5: rigid_body_with_density: overlaps the body on line 6 by 0.5`},
		{"boxes", b3(body3("0 0 0", 1) + body3("1.9 0 0", 1)), `boxes.xml:5: rigid_body_with_density: overlaps the body on line 6 by 0.1`},
		{"sphere_box", b3(body3("0 0 0", 1) + body3("0 1.5 0", 0)), `sphere_box.xml:5: rigid_body_with_density: overlaps the body on line 6 by 0.5`},
		{"plane", b3(`<static_plane x="0 0 0" n="0 1 0"/>` + "\n" + body3("0 0 0", 0)), `plane.xml:6: rigid_body_with_density: penetrates the static_plane on line 5 by 1`},
	} {
		path := filepath.Join(tmp, c.name+".xml")
		os.WriteFile(path, []byte(c.doc), 0o644)
		out := filepath.Join(tmp, "out_"+c.name)
		code, _, errs := runCLI(t, "run", path, "--quiet", "--out", out)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, %q (want %q)", c.name, code, errs, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written", c.name)
		}
	}
	// touching is not overlapping: a ball resting on the wall, boxes face to face
	for _, c := range []struct{ name, doc string }{
		{"touch2d", b2(`<static_plane x="0 0" n="0 1"/>` + "\n" + `<ball x="0" y="0.5" vx="0" vy="0" m="1" r="0.5" fixed="0"/>` + "\n")},
		{"touch3d", b3(body3("0 0 0", 1) + body3("2 0 0", 1) + body3("0 2 0", 0))},
	} {
		path := filepath.Join(tmp, c.name+".xml")
		os.WriteFile(path, []byte(c.doc), 0o644)
		if code, _, errs := runCLI(t, "run", path, "--quiet", "--end", "0.02", "--out", filepath.Join(tmp, "out_"+c.name)); code != 0 {
			t.Errorf("%s: exit %d, %s", c.name, code, errs)
		}
	}
}

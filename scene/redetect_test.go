package scene

import (
	"strings"
	"testing"
)

// readOneBall reads a ball2d scene of one ball with body after it (its
// first line is line 4) from a file called name.
func readOneBall(body, name string) (*Ball2DScene, error) {
	head := "<ball2d_scene>\n<integrator type=\"verlet\" dt=\"0.01\"/>\n<ball x=\"0\" y=\"0\" vx=\"0\" vy=\"0\" m=\"1\" r=\"1\" fixed=\"0\"/>\n"
	return ReadBall2D(strings.NewReader(head+body+"\n</ball2d_scene>\n"), name)
}

// TestReadRedetect: <redetect> with and without max_rounds, and its bad
// values as FILE:LINE errors naming the attribute.
func TestReadRedetect(t *testing.T) {
	read := func(body string) (*Ball2DScene, error) { return readOneBall(body, "r.xml") }
	s, err := read(`<redetect max_rounds="3"/>`)
	if err != nil {
		t.Fatal(err)
	}
	if s.Redetect == nil || s.Redetect.MaxRounds != 3 || s.Redetect.Line != 4 {
		t.Errorf("redetect %+v, want 3 rounds on line 4", s.Redetect)
	}
	if s, err = read(`<redetect/>`); err != nil || s.Redetect == nil || s.Redetect.MaxRounds != 0 {
		t.Errorf("<redetect/>: %+v, %v", s, err)
	}
	if s, err = read(""); err != nil || s.Redetect != nil {
		t.Errorf("no element: %+v, %v", s, err)
	}
	for _, c := range []struct{ body, want string }{
		{`<redetect max_rounds="0"/>`, `r.xml:4: redetect attribute "max_rounds"`},
		{`<redetect max_rounds="x"/>`, `r.xml:4: redetect attribute "max_rounds"`},
		{`<redetect rounds="2"/>`, `r.xml:4: redetect: unsupported attribute "rounds"`},
		{"<redetect/>\n<redetect/>", `r.xml:5: duplicate element <redetect>`},
	} {
		if _, err := read(c.body); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.body, err, c.want)
		}
	}
}

// TestReadMirrorOrder: <mirror_order/> records its line; attributes,
// children and a second element are errors.
func TestReadMirrorOrder(t *testing.T) {
	read := func(body string) (*Ball2DScene, error) { return readOneBall(body, "m.xml") }
	if s, err := read(`<mirror_order/>`); err != nil || s.MirrorOrderLine != 4 {
		t.Errorf("<mirror_order/>: line %d, %v; want line 4", s.MirrorOrderLine, err)
	}
	if s, err := read(""); err != nil || s.MirrorOrderLine != 0 {
		t.Errorf("no element: %+v, %v", s, err)
	}
	for _, c := range []struct{ body, want string }{
		{`<mirror_order on="1"/>`, `m.xml:4: mirror_order: unsupported attribute "on"`},
		{"<mirror_order/>\n<mirror_order/>", `m.xml:5: duplicate element <mirror_order>`},
	} {
		if _, err := read(c.body); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.body, err, c.want)
		}
	}
}

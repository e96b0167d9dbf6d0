package tetmesh

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// TestTetGenRoundTrip: a mesh written as .node/.ele reads back bit for bit.
func TestTetGenRoundTrip(t *testing.T) {
	vs, fs := rigid3d.IcosphereMesh(2)
	m, _, err := FromSurface(vs, fs, Options{Cells: 8, Snap: true}, "sphere")
	if err != nil {
		t.Fatal(err)
	}
	var node, ele bytes.Buffer
	if err := WriteTetGen(m, &node, &ele); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTetGen(&node, "s.node", &ele, "s.ele")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.V) != len(m.V) || len(got.T) != len(m.T) {
		t.Fatalf("read %d/%d, wrote %d/%d", len(got.V), len(got.T), len(m.V), len(m.T))
	}
	for i := range m.V {
		if got.V[i] != m.V[i] {
			t.Fatalf("vertex %d: %v, wrote %v", i, got.V[i], m.V[i])
		}
	}
	for k := range m.T {
		if got.T[k] != m.T[k] {
			t.Fatalf("tetrahedron %d: %v, wrote %v", k, got.T[k], m.T[k])
		}
	}
}

// TestTetGenErrors: bad input gives one message with the file and line;
// flat, repeated-vertex and disconnected meshes are refused.
func TestTetGenErrors(t *testing.T) {
	const nodes = "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n"
	for _, c := range []struct{ node, ele, want string }{
		{"", "1 4 0\n1 1 2 3 4\n", "a.node: empty file: expected a header"},
		{"4 2 0 0\n", "", "a.node:1: header: dimension 2"},
		{"# comment\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 x\n", "", `a.node:5: point 3: coordinate "x"`},
		{"4 3 0 0\n1 0 0 0\n2 1 0 0\n4 0 1 0\n", "", "a.node:4: point index 4, expected 3"},
		{nodes, "1 10 0\n", "a.ele:1: header: 10 nodes per tetrahedron"},
		{nodes, "1 4 0\n1 1 2 3 9\n", "a.ele:2: tetrahedron 1: node 9 outside 1..5"},
		{nodes, "2 4 0\n1 1 2 3 4\n", "a.ele:2: file ends after 1 of 2 tetrahedra"},
		{nodes, "1 4 0\n1 1 2 3 4\n2 2 3 4 5\n", `a.ele:3: unexpected "2 2 3 4 5"`},
		{nodes, "1 4 0\n1 1 2 3 3\n", "a.ele: tetrahedron 1 repeats vertex 3"},
		{"4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n", "1 4 0\n1 1 2 3 4\n", "a.ele: tetrahedron 1 (vertices 1 2 3 4) has volume 0"},
		{nodes, "1 4 0\n1 1 2 3 4\n", "a.ele: vertex 5 belongs to no tetrahedron"},
		{"8 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 5 0 0\n6 6 0 0\n7 5 1 0\n8 5 0 1\n", "2 4 0\n1 1 2 3 4\n2 5 6 7 8\n", "a.ele: mesh has 2 parts"},
	} {
		_, err := ReadTetGen(strings.NewReader(c.node), "a.node", strings.NewReader(c.ele), "a.ele")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q / %q: err = %v, want %q", c.node, c.ele, err, c.want)
		}
	}
	// A sliver: four nearly coplanar points.
	m := &Mesh{V: []r3.Vec{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1, Z: 1e-9}}, T: [][4]int{{0, 1, 2, 3}}}
	if SignedVolume(m.V[0], m.V[1], m.V[2], m.V[3]) < 0 {
		m.T[0][2], m.T[0][3] = m.T[0][3], m.T[0][2]
	}
	if err := m.Validate("sliver"); err == nil || !strings.Contains(err.Error(), "degenerate") {
		t.Errorf("sliver: %v", err)
	}
}

// FuzzReadTetGen: arbitrary .node/.ele pairs never panic, and whatever is
// accepted is a valid mesh.
func FuzzReadTetGen(f *testing.F) {
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 1, Y: 1, Z: 1})
	m, _, err := FromSurface(vs, fs, Options{Cells: 2}, "box")
	if err != nil {
		f.Fatal(err)
	}
	var node, ele bytes.Buffer
	if err := WriteTetGen(m, &node, &ele); err != nil {
		f.Fatal(err)
	}
	f.Add(node.Bytes(), ele.Bytes())
	f.Add([]byte("5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n"), []byte("2 4 0\n1 1 2 3 4\n2 2 3 4 5\n"))
	f.Add([]byte("4 3 1 1 # c\n0 0 0 0 7 1\n1 1 0 0 7 1\n2 0 1 0 7 0\n3 0 0 1 7 0\n"), []byte("1 4 1\n0 0 1 2 3 5\n"))
	f.Fuzz(func(t *testing.T, node, ele []byte) {
		m, err := ReadTetGen(bytes.NewReader(node), "f.node", bytes.NewReader(ele), "f.ele")
		if err != nil {
			return
		}
		if err := m.Validate("again"); err != nil {
			t.Fatalf("accepted an invalid mesh: %v", err)
		}
	})
}

package rigid3d

import (
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

const sharedMeshes = "../../shared/meshes/"

// TestSharedMeshes: the closed Stanford bunny becomes a rigid body with a
// positive mass and inertia and rests on a plane; the open Utah teapot is
// rejected with a message that says why.
func TestSharedMeshes(t *testing.T) {
	open := func(name string) *os.File {
		f, err := os.Open(sharedMeshes + name)
		if err != nil {
			t.Skipf("shared meshes not available: %v", err)
		}
		return f
	}
	f := open("bunny.obj")
	vs, fs, err := ReadOBJ(f, "bunny.obj")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1839 || len(fs) != 3674 {
		t.Fatalf("bunny: %d vertices, %d triangles; want 1839, 3674", len(vs), len(fs))
	}
	mesh, _, q, err := NewMesh(vs, fs, 24, "bunny.obj")
	if err != nil {
		t.Fatal(err)
	}
	m, inertia := Shape{Kind: MeshShape, Mesh: mesh}.MassProperties(1)
	if !(m > 0) || !(inertia.X > 0 && inertia.Y > 0 && inertia.Z > 0) {
		t.Fatalf("bunny mass %v, principal inertia %v", m, inertia)
	}
	// Drop it onto a plane with gr and check it comes to rest above it.
	s := &System{CoR: 0.5, Integrator: DMV, Gravity: r3.Vec{Y: -9.81}}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{Y: -3}, r3.Vec{Y: 1}))
	s.AddBody(Shape{Kind: MeshShape, Mesh: mesh}, 1, r3.Vec{}, q, r3.Vec{}, r3.Vec{}, false)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	st := stepper(t, s, "gr", 0.005)
	contacts := 0
	for k := 0; k < 600; k++ {
		if err := st.Step(); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		contacts = max(contacts, st.Last.Contacts)
	}
	if contacts == 0 {
		t.Fatal("the bunny never touched the plane")
	}
	if y := st.Q[1]; y < -3 || y > 0 {
		t.Errorf("bunny centre at y = %v after 3 s, want between the plane and its start", y)
	}

	f = open("teapot.obj")
	vs, fs, err = ReadOBJ(f, "teapot.obj")
	f.Close()
	if err == nil {
		_, _, _, err = NewMesh(vs, fs, 24, "teapot.obj")
	}
	if err == nil || !strings.Contains(err.Error(), "teapot.obj") {
		t.Fatalf("open teapot accepted or error without the file name: %v", err)
	}
	t.Logf("teapot: %v", err)
}

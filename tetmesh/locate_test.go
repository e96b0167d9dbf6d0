package tetmesh

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// TestLocate: points inside a box mesh are found in a tetrahedron whose
// barycentric coordinates rebuild them; points outside get the distance
// to the box.
func TestLocate(t *testing.T) {
	vs, fs := rigid3d.BoxMesh(r3.Vec{X: 1, Y: 0.5, Z: 0.25})
	m, _, err := FromSurface(vs, fs, Options{Cells: 16}, "box")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLocator(m)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		p := r3.Vec{X: 3 * (rng.Float64() - 0.5), Y: 1.5 * (rng.Float64() - 0.5), Z: 0.75 * (rng.Float64() - 0.5)}
		k, w, d := l.Locate(p)
		var q r3.Vec
		for a := 0; a < 4; a++ {
			if w[a] < 0 || w[a] > 1 {
				t.Fatalf("barycentric %v", w)
			}
			q = r3.Add(q, r3.Scale(w[a], m.V[m.T[k][a]]))
		}
		ex := r3.Vec{X: math.Max(0, math.Abs(p.X)-1), Y: math.Max(0, math.Abs(p.Y)-0.5), Z: math.Max(0, math.Abs(p.Z)-0.25)}
		want := r3.Norm(ex)
		if math.Abs(d-want) > 1e-12 || math.Abs(r3.Norm(r3.Sub(q, p))-want) > 1e-12 {
			t.Fatalf("p = %v: distance %v (point %v), want %v", p, d, q, want)
		}
	}
}

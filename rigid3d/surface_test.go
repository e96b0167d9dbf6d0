package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestSurfaceVolume: the divergence theorem on the triangulation gives the
// box volume exactly and the sphere volume to the UV sphere's resolution;
// a positive volume also checks the outward orientation.
func TestSurfaceVolume(t *testing.T) {
	s := &System{}
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5, Y: 0.2, Z: 0.3}}, 1, r3.Vec{X: 1, Y: 2, Z: 3}, FromRotationVector(r3.Vec{X: 0.4, Y: 1, Z: -0.2}), r3.Vec{}, r3.Vec{}, false)
	s.AddBody(Shape{Kind: Sphere, R: 0.7}, 1, r3.Vec{X: -1}, Identity, r3.Vec{}, r3.Vec{}, false)
	var sf Surface
	s.AppendSurface(&sf, s.Q, 64)
	vol := make([]float64, 2)
	for k, tr := range sf.Tris {
		a, b, c := sf.Points[tr[0]], sf.Points[tr[1]], sf.Points[tr[2]]
		va, vb, vc := r3.Vec{X: a[0], Y: a[1], Z: a[2]}, r3.Vec{X: b[0], Y: b[1], Z: b[2]}, r3.Vec{X: c[0], Y: c[1], Z: c[2]}
		vol[sf.Body[k]] += r3.Dot(va, r3.Cross(vb, vc)) / 6
	}
	if want := 8 * 0.5 * 0.2 * 0.3; math.Abs(vol[0]-want) > 1e-12 {
		t.Errorf("box volume %.15g, want %.15g", vol[0], want)
	}
	if want := 4.0 / 3 * math.Pi * 0.343; math.Abs(vol[1]-want) > 0.01*want || vol[1] > want {
		t.Errorf("sphere volume %.6g, want just under %.6g", vol[1], want)
	}
}

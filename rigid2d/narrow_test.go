package rigid2d

import (
	"math"
	"testing"
)

func near(a, b [2]float64, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol
}

func TestMassInertia(t *testing.T) {
	m, in := Shape{Kind: Circle, R: 0.5}.MassInertia(2)
	if math.Abs(m-math.Pi/2) > 1e-15 || math.Abs(in-m*0.125) > 1e-15 {
		t.Errorf("circle: m %v I %v", m, in)
	}
	m, in = Shape{Kind: Box, Half: [2]float64{1, 0.5}}.MassInertia(3)
	if m != 6 || math.Abs(in-6*1.25/3) > 1e-15 {
		t.Errorf("box: m %v I %v", m, in)
	}
}

// Two unit boxes (half extents 0.5), the second 0.9 to the right and 0.2
// up, overlapping by 0.1 along x: the reference face is box 0's right face
// (x axis, least penetration), two points at the ends of the overlap of
// the faces, half way into the overlap, normal from box 1 to box 0.
func TestBoxBoxFaces(t *testing.T) {
	n, pts, ok := boxBox([2]float64{0, 0}, 0, [2]float64{0.5, 0.5}, [2]float64{0.9, 0.2}, 0, [2]float64{0.5, 0.5}, nil)
	if !ok || len(pts) != 2 || !near(n, [2]float64{-1, 0}, 1e-15) {
		t.Fatalf("n %v points %v ok %v", n, pts, ok)
	}
	if !near(pts[0], [2]float64{0.45, -0.3}, 1e-15) || !near(pts[1], [2]float64{0.45, 0.5}, 1e-15) {
		t.Errorf("points %v, want (0.45, −0.3) and (0.45, 0.5)", pts)
	}
	// Swapping the boxes swaps the normal and keeps the points.
	n2, pts2, _ := boxBox([2]float64{0.9, 0.2}, 0, [2]float64{0.5, 0.5}, [2]float64{0, 0}, 0, [2]float64{0.5, 0.5}, nil)
	if !near(n2, [2]float64{1, 0}, 1e-15) || len(pts2) != 2 {
		t.Errorf("swapped: n %v points %v", n2, pts2)
	}
	// Apart along y: no contact.
	if _, _, ok := boxBox([2]float64{0, 0}, 0, [2]float64{0.5, 0.5}, [2]float64{0.5, 1.01}, 0, [2]float64{0.5, 0.5}, nil); ok {
		t.Error("separated boxes touch")
	}
}

// A box standing on a corner (45°) pressed into a wide box's top face:
// one point, normal along the face.
func TestBoxBoxCorner(t *testing.T) {
	h := math.Sqrt2 / 2 // the corner reaches down h from the centre
	n, pts, ok := boxBox([2]float64{0, 1 + h - 0.02}, math.Pi/4, [2]float64{0.5, 0.5}, [2]float64{0, 0.5}, 0, [2]float64{2, 0.5}, nil)
	if !ok || len(pts) != 1 || !near(n, [2]float64{0, 1}, 1e-12) {
		t.Fatalf("n %v points %v ok %v", n, pts, ok)
	}
	if !near(pts[0], [2]float64{0, 0.99}, 1e-12) {
		t.Errorf("point %v, want (0, 0.99): the corner lifted by half the depth 0.02", pts[0])
	}
}

func TestCircleBox(t *testing.T) {
	// Facing the top face, overlapping by 0.1.
	n, p, ok := circleBox([2]float64{0.2, 0.9}, 0.5, [2]float64{0, 0}, 0, [2]float64{1, 0.5})
	if !ok || !near(n, [2]float64{0, 1}, 1e-15) || !near(p, [2]float64{0.2, 0.45}, 1e-15) {
		t.Errorf("face: n %v p %v ok %v", n, p, ok)
	}
	// Beyond the corner (1, 0.5) of a box turned by 90°: its corner is at
	// (−0.5, 1); a circle up-left of it at distance 0.4 < r.
	x := [2]float64{-0.5 - 0.4/math.Sqrt2, 1 + 0.4/math.Sqrt2}
	n, p, ok = circleBox(x, 0.5, [2]float64{0, 0}, math.Pi/2, [2]float64{1, 0.5})
	if !ok || !near(n, [2]float64{-1 / math.Sqrt2, 1 / math.Sqrt2}, 1e-12) {
		t.Errorf("corner: n %v p %v ok %v", n, p, ok)
	}
	if _, _, ok := circleBox([2]float64{0, 1.01}, 0.5, [2]float64{0, 0}, 0, [2]float64{1, 0.5}); ok {
		t.Error("separated circle touches")
	}
}

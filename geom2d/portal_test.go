package geom2d

import (
	"fmt"
	"math"
	"testing"
)

// The vertical portal of SCISim's lees_edwards scenes: plane A at x = −2
// facing +x, plane B at x = 2 facing −x, shear v = −1, bounds 3.
func leesEdwards() Portal {
	return Portal{A: Plane{P: [2]float64{-2, 0}, N: [2]float64{1, 0}}, B: Plane{P: [2]float64{2, 0}, N: [2]float64{-1, 0}}, V: -1, Bounds: 3}
}

func TestUpdateWrapsOffset(t *testing.T) {
	po := leesEdwards()
	for _, c := range []struct{ t, want float64 }{{0, 0}, {1, -1}, {2.5, -2.5}, {3, -3}, {4, 2}, {9, -3}, {10, 2}} {
		po.Update(c.t)
		if math.Abs(po.Offset-c.want) > 1e-15 || po.Offset < -po.Bounds || po.Offset >= po.Bounds {
			t.Errorf("t = %g: offset %g, want %g in [−3, 3)", c.t, po.Offset, c.want)
		}
	}
	planar := Portal{A: po.A, B: po.B}
	planar.Update(7)
	if planar.Offset != 0 {
		t.Errorf("planar portal offset %g", planar.Offset)
	}
}

func TestTeleport(t *testing.T) {
	po := leesEdwards()
	// 0.25 behind A at height 1 (A's tangent is +y, B's −y): the planar
	// image is 0.25 in front of B at the same height.
	planar := Portal{A: po.A, B: po.B}
	if got := planar.Teleport([2]float64{-2.25, 1}, false); got != [2]float64{1.75, 1} {
		t.Errorf("planar image %v", got)
	}
	// With offset δ = 0.5 the image slides by δ along the planes.
	po.Offset = 0.5
	if got := po.Teleport([2]float64{-2.25, 1}, false); math.Abs(got[0]-1.75) > 1e-15 || math.Abs(got[1]-0.5) > 1e-15 {
		t.Errorf("sheared image %v, want (1.75, 0.5)", got)
	}
	// and wraps into the period 2L = 6: s = 0.5 + 2.8 = 3.3 → −2.7.
	if got := po.Teleport([2]float64{-2.25, -2.8}, false); math.Abs(got[0]-1.75) > 1e-15 || math.Abs(got[1]-2.7) > 1e-14 {
		t.Errorf("wrapped image %v, want (1.75, 2.7)", got)
	}
	// The map through B inverts the map through A (no wrap).
	for _, p := range []Portal{planar, po} {
		x := [2]float64{-2.1, -0.7}
		if z := p.Teleport(p.Teleport(x, false), true); math.Abs(z[0]-x[0]) > 1e-15 || math.Abs(z[1]-x[1]) > 1e-15 {
			t.Errorf("offset %g: round trip %v → %v", p.Offset, x, z)
		}
	}
	if k := po.Shear(false); k[0] != 0 || k[1] != 1 {
		t.Errorf("shear through A %v, want (0, 1)", k)
	}
	if k := planar.Shear(true); k != [2]float64{} {
		t.Errorf("planar shear %v", k)
	}
}

// A Lees–Edwards portal's images slide along its planes: at t = 4 the
// offset of the portal above is 2.
func ExamplePortal_Update() {
	po := Portal{A: Plane{P: [2]float64{-2, 0}, N: [2]float64{1, 0}}, B: Plane{P: [2]float64{2, 0}, N: [2]float64{-1, 0}}, V: -1, Bounds: 3}
	po.Update(4)
	fmt.Println(po.Offset, po.Teleport([2]float64{-2.5, 0}, false), po.Shear(false))
	// Output: 2 [1.5 -2] [-0 1]
}

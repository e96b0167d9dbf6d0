package patterns

import (
	"bytes"
	"math"
	"testing"

	"impactsim/spheres"
)

// sameSpheres fails unless part holds exactly the spheres of whole that
// keep accepts, bit for bit, with the same IDs, in whole's order.
func sameSpheres(t *testing.T, what string, whole, part *spheres.System, keep func(x [3]float64) bool) {
	t.Helper()
	k := 0
	for i := 0; i < whole.N(); i++ {
		if !keep([3]float64(whole.X[3*i : 3*i+3])) {
			continue
		}
		if k >= part.N() {
			t.Fatalf("%s: the part ends at %d spheres; sphere %d (ID %d) of the whole is in the region", what, part.N(), i, whole.ID[i])
		}
		if part.ID[k] != whole.ID[i] {
			t.Fatalf("%s: part sphere %d has ID %d, want %d", what, k, part.ID[k], whole.ID[i])
		}
		for _, a := range []struct {
			name string
			p, w []float64
			n    int
		}{{"X", part.X, whole.X, 3}, {"Q", part.Q, whole.Q, 4}, {"VW", part.VW, whole.VW, 6},
			{"R", part.R, whole.R, 1}, {"InvM", part.InvM, whole.InvM, 1}, {"InvI", part.InvI, whole.InvI, 1}} {
			for j := 0; j < a.n; j++ {
				if math.Float64bits(a.p[a.n*k+j]) != math.Float64bits(a.w[a.n*i+j]) {
					t.Fatalf("%s: sphere ID %d: %s[%d] = %v, want %v", what, whole.ID[i], a.name, j, a.p[a.n*k+j], a.w[a.n*i+j])
				}
			}
		}
		k++
	}
	if k != part.N() {
		t.Fatalf("%s: the part holds %d spheres, the whole %d in the region", what, part.N(), k)
	}
}

// TestNewPartIsNewsRegion: the layer built for a region (a rank's
// subdomain) holds New's spheres there, bit for bit with their IDs, and
// no others — the peak number of spheres it creates is the region's, not
// N (quadrants of a 4,000-sphere cell hold about N/4 each).
func TestNewPartIsNewsRegion(t *testing.T) {
	c := DefaultConfig(Fig12[0])
	c.N = 4000
	whole, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	lx, ly := c.Sides()
	total := 0
	for q := 0; q < 4; q++ {
		x0, y0 := float64(q%2)*lx/2, float64(q/2)*ly/2
		keep := func(x [3]float64) bool {
			return x[0] >= x0 && x[0] < x0+lx/2 && x[1] >= y0 && x[1] < y0+ly/2
		}
		part, err := NewPart(c, keep)
		if err != nil {
			t.Fatal(err)
		}
		sameSpheres(t, "NewPart", whole.Sys, part.Sys, keep)
		n := part.Sys.N()
		if n > c.N/4+c.N/20 {
			t.Errorf("quadrant %d: %d spheres built, want about N/4 = %d", q, n, c.N/4)
		}
		if part.Cfg.N != c.N {
			t.Errorf("the part's Cfg.N is %d, want the whole's %d", part.Cfg.N, c.N)
		}
		total += n
	}
	if total != c.N {
		t.Errorf("the quadrants hold %d spheres, the layer %d", total, c.N)
	}
	// A checkpoint's part: the same rows of the state file.
	for k := 0; k < 5; k++ {
		if _, err := whole.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := whole.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	keep := func(x [3]float64) bool { return x[0] < lx/3 }
	part, err := NewPart(c, func([3]float64) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if part.Sys.N() != 0 {
		t.Fatalf("a part of no region holds %d spheres", part.Sys.N())
	}
	if err := part.ReadStatePart(bytes.NewReader(buf.Bytes()), keep); err != nil {
		t.Fatal(err)
	}
	sameSpheres(t, "ReadStatePart", whole.Sys, part.Sys, keep)
	if part.N != whole.N || part.T != whole.T || part.Sys.N() >= c.N/2 {
		t.Errorf("resumed part: step %d, time %v, %d spheres; want step %d, time %v, about N/3", part.N, part.T, part.Sys.N(), whole.N, whole.T)
	}
}

package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestIcosphereAndCapsule: level 4 has 2,562 unit directions; both shapes
// are closed and outward (ValidateSurface), and the capsule's volume
// approaches πr²L + 4πr³/3.
func TestIcosphereAndCapsule(t *testing.T) {
	vs, fs := IcosphereMesh(4)
	if len(vs) != 2562 {
		t.Errorf("%d directions, want 2562", len(vs))
	}
	for _, v := range vs {
		if math.Abs(r3.Norm(v)-1) > 1e-15 {
			t.Fatalf("direction %v not unit", v)
		}
	}
	if err := ValidateSurface(vs, fs, "icosphere"); err != nil {
		t.Error(err)
	}
	cv, cf := CapsuleMesh(0.01, 0.18, 48, 12, 40)
	if err := ValidateSurface(cv, cf, "capsule"); err != nil {
		t.Fatal(err)
	}
	var vol float64
	for _, f := range cf {
		vol += r3.Dot(cv[f[0]], r3.Cross(cv[f[1]], cv[f[2]])) / 6
	}
	want := math.Pi*1e-4*0.18 + 4*math.Pi*1e-6/3
	if math.Abs(vol/want-1) > 0.01 {
		t.Errorf("capsule volume %v, want %v within 1%%", vol, want)
	}
}

// TestBoxGridMesh: closed, outward, the box's volume.
func TestBoxGridMesh(t *testing.T) {
	vs, fs := BoxGridMesh(r3.Vec{X: 0.1, Y: 0.01, Z: 0.02}, 0.004)
	if err := ValidateSurface(vs, fs, "box"); err != nil {
		t.Fatal(err)
	}
	var vol float64
	for _, f := range fs {
		vol += r3.Dot(vs[f[0]], r3.Cross(vs[f[1]], vs[f[2]])) / 6
	}
	if math.Abs(vol-0.2*0.02*0.04) > 1e-15 {
		t.Errorf("volume %v", vol)
	}
}

package bouncemap

import (
	"fmt"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// BodyMap serves a map to a rigid3d body (rigid3d.RestitutionMap): the
// body frame of a mesh body is the principal frame rigid3d.NewMesh puts it
// in, so a body-frame point x is the surface point Rx + c of the file
// (c and R from NewMesh), where the map's samples are.
type BodyMap struct {
	Map    *Map
	Center r3.Vec
	Axes   rigid3d.Mat3
	// Alpha attenuates the map (ε ← αε, §6), in [0, 1].
	Alpha float64
	// MLS selects the moving least-squares lookup instead of the nearest
	// sample.
	MLS bool
}

// NewBodyMap checks that mp was made for the surface (vs, fs) and returns
// it placed in the principal frame (center, orientation) that
// rigid3d.NewMesh gave that surface.
func NewBodyMap(mp *Map, vs []r3.Vec, fs [][3]int, center r3.Vec, orientation rigid3d.Quat, alpha float64, surfaceName, mapName string) (*BodyMap, error) {
	if err := mp.CheckShape(vs, fs, surfaceName, mapName); err != nil {
		return nil, err
	}
	if !(alpha >= 0 && alpha <= 1) {
		return nil, fmt.Errorf("%s: attenuation α = %v, want 0 ≤ α ≤ 1", mapName, alpha)
	}
	mp.Prepare()
	return &BodyMap{Map: mp, Center: center, Axes: orientation.Matrix(), Alpha: alpha}, nil
}

// Restitution returns αε at body-frame point x with outward normal n.
func (b *BodyMap) Restitution(x, n r3.Vec) float64 {
	xs := r3.Add(b.Axes.MulVec(x), b.Center)
	ns := b.Axes.MulVec(n)
	if b.MLS {
		return b.Alpha * b.Map.LookupMLS(xs, ns)
	}
	return b.Alpha * b.Map.Lookup(xs, ns)
}

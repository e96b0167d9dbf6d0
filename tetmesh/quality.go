package tetmesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// RadiusRatio returns 3 r_in / R_circ of tetrahedron (a, b, c, d): 1 for
// the regular tetrahedron, → 0 as it flattens (slivers, needles, caps
// alike).
func RadiusRatio(a, b, c, d r3.Vec) float64 {
	u, v, w := r3.Sub(b, a), r3.Sub(c, a), r3.Sub(d, a)
	det := r3.Dot(u, r3.Cross(v, w))
	vol := math.Abs(det) / 6
	area := triArea(a, b, c) + triArea(a, b, d) + triArea(a, c, d) + triArea(b, c, d)
	if !(area > 0) || det == 0 {
		return 0
	}
	rin := 3 * vol / area
	o := r3.Scale(1/(2*det), r3.Add(r3.Scale(r3.Norm2(u), r3.Cross(v, w)),
		r3.Add(r3.Scale(r3.Norm2(v), r3.Cross(w, u)), r3.Scale(r3.Norm2(w), r3.Cross(u, v)))))
	return 3 * rin / r3.Norm(o)
}

func triArea(a, b, c r3.Vec) float64 { return r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(c, a))) / 2 }

// Dihedrals returns the smallest and largest dihedral angles (radians) of
// tetrahedron (a, b, c, d).
func Dihedrals(a, b, c, d r3.Vec) (lo, hi float64) {
	p := [4]r3.Vec{a, b, c, d}
	var n [4]r3.Vec // outward normals of the faces opposite each vertex
	for i, f := range tetFaces {
		x := r3.Cross(r3.Sub(p[f[1]], p[f[0]]), r3.Sub(p[f[2]], p[f[0]]))
		if SignedVolume(a, b, c, d) < 0 {
			x = r3.Scale(-1, x)
		}
		n[i] = r3.Unit(x)
	}
	lo, hi = math.Pi, 0
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			// Faces i and j meet at the edge opposite both vertices.
			th := math.Pi - math.Acos(math.Max(-1, math.Min(1, r3.Dot(n[i], n[j]))))
			lo, hi = math.Min(lo, th), math.Max(hi, th)
		}
	}
	return lo, hi
}

// Quality summarizes a mesh for the user: counts, volume, and the worst
// and mean element shapes.
type Quality struct {
	Vertices, Tets, BoundaryFaces int
	Volume                        float64
	// MinDihedral and MaxDihedral are the extreme dihedral angles in
	// degrees (a cube split into six Kuhn tetrahedra has 45° and 90°).
	MinDihedral, MaxDihedral float64
	// MinRadiusRatio and MeanRadiusRatio are 3 r_in / R_circ (1 regular;
	// the Kuhn tetrahedron has 0.717).
	MinRadiusRatio, MeanRadiusRatio float64
	// EdgeMin, EdgeMax and EdgeMean are edge lengths.
	EdgeMin, EdgeMax, EdgeMean float64
}

// Quality measures m.
func (m *Mesh) Quality() Quality {
	q := Quality{Vertices: len(m.V), Tets: len(m.T), MinDihedral: 180, MinRadiusRatio: 1, EdgeMin: math.Inf(1)}
	q.BoundaryFaces = len(m.Boundary())
	var sumRatio, sumEdge float64
	nEdge := 0
	for k, t := range m.T {
		a, b, c, d := m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]]
		q.Volume += m.TetVolume(k)
		r := RadiusRatio(a, b, c, d)
		q.MinRadiusRatio = math.Min(q.MinRadiusRatio, r)
		sumRatio += r
		lo, hi := Dihedrals(a, b, c, d)
		q.MinDihedral = math.Min(q.MinDihedral, lo*180/math.Pi)
		q.MaxDihedral = math.Max(q.MaxDihedral, hi*180/math.Pi)
		p := [4]r3.Vec{a, b, c, d}
		for i := 0; i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				l := r3.Norm(r3.Sub(p[i], p[j]))
				q.EdgeMin, q.EdgeMax = math.Min(q.EdgeMin, l), math.Max(q.EdgeMax, l)
				sumEdge += l
				nEdge++
			}
		}
	}
	if len(m.T) > 0 {
		q.MeanRadiusRatio = sumRatio / float64(len(m.T))
		q.EdgeMean = sumEdge / float64(nEdge)
	}
	return q
}

// String is a one-line report.
func (q Quality) String() string {
	return fmt.Sprintf("%d vertices, %d tetrahedra, %d boundary triangles, volume %.6g; dihedral angles %.1f°–%.1f°; radius ratio min %.3f mean %.3f; edges %.3g–%.3g (mean %.3g)",
		q.Vertices, q.Tets, q.BoundaryFaces, q.Volume, q.MinDihedral, q.MaxDihedral, q.MinRadiusRatio, q.MeanRadiusRatio, q.EdgeMin, q.EdgeMax, q.EdgeMean)
}

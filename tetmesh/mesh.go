package tetmesh

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// Mesh is a conforming tetrahedral mesh: vertices V and tetrahedra T
// (indices into V), each positively oriented, det[V1−V0, V2−V0, V3−V0] > 0.
type Mesh struct {
	V []r3.Vec
	T [][4]int
}

// SignedVolume returns det[b−a, c−a, d−a]/6.
func SignedVolume(a, b, c, d r3.Vec) float64 {
	return r3.Dot(r3.Sub(b, a), r3.Cross(r3.Sub(c, a), r3.Sub(d, a))) / 6
}

// TetVolume returns the signed volume of tetrahedron k.
func (m *Mesh) TetVolume(k int) float64 {
	t := m.T[k]
	return SignedVolume(m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]])
}

// Volume returns the total volume.
func (m *Mesh) Volume() float64 {
	var v float64
	for k := range m.T {
		v += m.TetVolume(k)
	}
	return v
}

// degenerateRatio is the radius ratio (3 r_in / R_circ, 1 for the regular
// tetrahedron) below which a tetrahedron counts as degenerate: its volume
// is lost to rounding in its stiffness matrix.
const degenerateRatio = 1e-6

// Validate checks that every index is in range, every vertex is finite and
// used, every tetrahedron has four distinct vertices and positive volume
// with radius ratio at least 1e-6, no face is shared by more than two
// tetrahedra, and the mesh is connected through faces. The error names the
// first offending tetrahedron (1-based, in input order) or vertex.
func (m *Mesh) Validate(source string) error {
	bad := func(format string, args ...any) error {
		return &rigid3d.MeshError{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	if len(m.T) == 0 {
		return bad("mesh has no tetrahedra")
	}
	for i, v := range m.V {
		if !finite(v.X) || !finite(v.Y) || !finite(v.Z) {
			return bad("vertex %d has non-finite coordinates %v", i+1, v)
		}
	}
	used := make([]bool, len(m.V))
	for k, t := range m.T {
		for a := 0; a < 4; a++ {
			if t[a] < 0 || t[a] >= len(m.V) {
				return bad("tetrahedron %d has vertex index %d outside 1..%d", k+1, t[a]+1, len(m.V))
			}
			for b := 0; b < a; b++ {
				if t[a] == t[b] {
					return bad("tetrahedron %d repeats vertex %d", k+1, t[a]+1)
				}
			}
			used[t[a]] = true
		}
		if v := m.TetVolume(k); !(v > 0) {
			return bad("tetrahedron %d (vertices %d %d %d %d) has volume %.3g; tetrahedra must be positively oriented and not flat", k+1, t[0]+1, t[1]+1, t[2]+1, t[3]+1, v)
		}
		if q := RadiusRatio(m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]]); !(q >= degenerateRatio) {
			return bad("tetrahedron %d (vertices %d %d %d %d) is degenerate: radius ratio %.3g < %g", k+1, t[0]+1, t[1]+1, t[2]+1, t[3]+1, q, degenerateRatio)
		}
	}
	for i, u := range used {
		if !u {
			return bad("vertex %d belongs to no tetrahedron", i+1)
		}
	}
	faces := m.faceMap()
	for s, ts := range faces.tets {
		if n := len(ts); n > 2 {
			f := faces.keys[s]
			return bad("face (%d %d %d) is shared by %d tetrahedra", f[0]+1, f[1]+1, f[2]+1, n)
		}
	}
	if n := m.components(faces); n > 1 {
		return bad("mesh has %d parts that share no face; the elastic body must be one piece", n)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// tetFaces lists the faces of tetrahedron (0, 1, 2, 3), each oriented
// outward for a positively oriented tetrahedron.
var tetFaces = [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}

type faceIndex struct {
	order map[[3]int]int // sorted face → slot
	tets  [][]int        // slot → tetrahedra holding the face (≤ 2 in a valid mesh)
	keys  [][3]int       // slot → sorted face
}

func sortedFace(a, b, c int) [3]int {
	f := [3]int{a, b, c}
	slices.Sort(f[:])
	return f
}

func (m *Mesh) faceMap() *faceIndex {
	fi := &faceIndex{order: make(map[[3]int]int, 2*len(m.T))}
	for k, t := range m.T {
		for _, f := range tetFaces {
			key := sortedFace(t[f[0]], t[f[1]], t[f[2]])
			s, ok := fi.order[key]
			if !ok {
				s = len(fi.tets)
				fi.order[key] = s
				fi.tets = append(fi.tets, nil)
				fi.keys = append(fi.keys, key)
			}
			fi.tets[s] = append(fi.tets[s], k)
		}
	}
	return fi
}

// components counts the face-connected parts.
func (m *Mesh) components(fi *faceIndex) int {
	parent := make([]int, len(m.T))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, ts := range fi.tets {
		for _, t := range ts[1:] {
			a, b := find(ts[0]), find(t)
			if a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	n := 0
	for i := range parent {
		if find(i) == i {
			n++
		}
	}
	return n
}

// Boundary returns the boundary triangles (faces of exactly one
// tetrahedron), oriented outward, in the order of their tetrahedra.
func (m *Mesh) Boundary() [][3]int {
	fi := m.faceMap()
	var out [][3]int
	for _, t := range m.T {
		for _, f := range tetFaces {
			key := sortedFace(t[f[0]], t[f[1]], t[f[2]])
			if len(fi.tets[fi.order[key]]) == 1 {
				out = append(out, [3]int{t[f[0]], t[f[1]], t[f[2]]})
			}
		}
	}
	return out
}

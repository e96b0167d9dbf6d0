package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// TubeMesh returns the closed tube of radius a around the closed curve c
// (parameter t ∈ [0, 2π)), with nu rings of nv vertices, oriented outward.
// The ring frame is the Frenet frame of c (from its first and second
// derivatives dc and ddc), so a curve with a symmetry gives a tube with the
// same symmetry.
func TubeMesh(c, dc, ddc func(t float64) r3.Vec, a float64, nu, nv int) ([]r3.Vec, [][3]int) {
	var vs []r3.Vec
	for i := 0; i < nu; i++ {
		t := 2 * math.Pi * float64(i) / float64(nu)
		T := r3.Unit(dc(t))
		B := r3.Unit(r3.Cross(dc(t), ddc(t)))
		N := r3.Cross(B, T)
		for j := 0; j < nv; j++ {
			ph := 2 * math.Pi * float64(j) / float64(nv)
			vs = append(vs, r3.Add(c(t), r3.Add(r3.Scale(a*math.Cos(ph), N), r3.Scale(a*math.Sin(ph), B))))
		}
	}
	var fs [][3]int
	for i := 0; i < nu; i++ {
		i1 := (i + 1) % nu
		for j := 0; j < nv; j++ {
			j1 := (j + 1) % nv
			p, q, r, s := i*nv+j, i1*nv+j, i1*nv+j1, i*nv+j1
			fs = append(fs, [3]int{p, q, r}, [3]int{p, r, s})
		}
	}
	orientOutward(vs, fs)
	return vs, fs
}

// orientOutward flips every triangle if the enclosed signed volume is
// negative.
func orientOutward(vs []r3.Vec, fs [][3]int) {
	var vol float64
	for _, t := range fs {
		vol += r3.Dot(vs[t[0]], r3.Cross(vs[t[1]], vs[t[2]]))
	}
	if vol < 0 {
		for k := range fs {
			fs[k][1], fs[k][2] = fs[k][2], fs[k][1]
		}
	}
}

// TrefoilMesh is a tube of radius a around the trefoil knot
// (sin t + 2 sin 2t, cos t − 2 cos 2t, −sin 3t), which is symmetric under
// rotation by 120° about z.
func TrefoilMesh(a float64, nu, nv int) ([]r3.Vec, [][3]int) {
	c := func(t float64) r3.Vec {
		return r3.Vec{X: math.Sin(t) + 2*math.Sin(2*t), Y: math.Cos(t) - 2*math.Cos(2*t), Z: -math.Sin(3 * t)}
	}
	dc := func(t float64) r3.Vec {
		return r3.Vec{X: math.Cos(t) + 4*math.Cos(2*t), Y: -math.Sin(t) + 4*math.Sin(2*t), Z: -3 * math.Cos(3*t)}
	}
	ddc := func(t float64) r3.Vec {
		return r3.Vec{X: -math.Sin(t) - 8*math.Sin(2*t), Y: -math.Cos(t) + 8*math.Cos(2*t), Z: 9 * math.Sin(3*t)}
	}
	return TubeMesh(c, dc, ddc, a, nu, nv)
}

// TorusMesh is the torus with major radius R and minor radius a about z.
func TorusMesh(R, a float64, nu, nv int) ([]r3.Vec, [][3]int) {
	c := func(t float64) r3.Vec { return r3.Vec{X: R * math.Cos(t), Y: R * math.Sin(t)} }
	dc := func(t float64) r3.Vec { return r3.Vec{X: -R * math.Sin(t), Y: R * math.Cos(t)} }
	ddc := func(t float64) r3.Vec { return r3.Vec{X: -R * math.Cos(t), Y: -R * math.Sin(t)} }
	return TubeMesh(c, dc, ddc, a, nu, nv)
}

// BoxMesh is the box with half widths h as 12 triangles.
func BoxMesh(h r3.Vec) ([]r3.Vec, [][3]int) {
	var vs []r3.Vec
	for c := 0; c < 8; c++ {
		vs = append(vs, corner(h, c))
	}
	var fs [][3]int
	for _, f := range boxFaces {
		fs = append(fs, [3]int{f[0], f[1], f[2]}, [3]int{f[0], f[2], f[3]})
	}
	return vs, fs
}

// boxFaces are the box faces as corner quads, counter-clockwise from
// outside (corner bits: 1 → −x, 2 → −y, 4 → −z).
var boxFaces = [6][4]int{
	{0, 2, 6, 4}, // +x
	{1, 5, 7, 3}, // −x
	{0, 4, 5, 1}, // +y
	{2, 3, 7, 6}, // −y
	{0, 1, 3, 2}, // +z
	{4, 6, 7, 5}, // −z
}

// HollowBoxMesh is a closed box shell: the outer box (half widths outer)
// with an inner cavity (half widths inner < outer), whose faces point into
// the cavity. Bodies placed in the cavity are contained by its walls.
func HollowBoxMesh(outer, inner r3.Vec) ([]r3.Vec, [][3]int) {
	vs, fs := BoxMesh(outer)
	iv, ifs := BoxMesh(inner)
	base := len(vs)
	vs = append(vs, iv...)
	for _, f := range ifs {
		fs = append(fs, [3]int{base + f[0], base + f[2], base + f[1]})
	}
	return vs, fs
}

// ClosestOnTriangle returns the point of triangle (a, b, c) closest to p,
// for other packages that project points onto mesh surfaces.
func ClosestOnTriangle(p, a, b, c r3.Vec) r3.Vec { return closestOnTriangle(p, a, b, c) }

// IcosphereMesh is the unit sphere as an icosahedron subdivided level
// times (10·4^level + 2 vertices, all of unit length): level 4 gives the
// 2,562 directions of Wang et al.'s vertex sampling.
func IcosphereMesh(level int) ([]r3.Vec, [][3]int) {
	p := (1 + math.Sqrt(5)) / 2
	vs := []r3.Vec{{X: -1, Y: p}, {X: 1, Y: p}, {X: -1, Y: -p}, {X: 1, Y: -p}, {Y: -1, Z: p}, {Y: 1, Z: p}, {Y: -1, Z: -p}, {Y: 1, Z: -p}, {X: p, Z: -1}, {X: p, Z: 1}, {X: -p, Z: -1}, {X: -p, Z: 1}}
	for i := range vs {
		vs[i] = r3.Unit(vs[i])
	}
	fs := [][3]int{{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}}
	for l := 0; l < level; l++ {
		mid := make(map[[2]int]int, 3*len(fs)/2)
		m := func(a, b int) int {
			k := [2]int{min(a, b), max(a, b)}
			if i, ok := mid[k]; ok {
				return i
			}
			vs = append(vs, r3.Unit(r3.Add(vs[a], vs[b])))
			mid[k] = len(vs) - 1
			return len(vs) - 1
		}
		nf := make([][3]int, 0, 4*len(fs))
		for _, f := range fs {
			ab, bc, ca := m(f[0], f[1]), m(f[1], f[2]), m(f[2], f[0])
			nf = append(nf, [3]int{f[0], ab, ca}, [3]int{f[1], bc, ab}, [3]int{f[2], ca, bc}, [3]int{ab, bc, ca})
		}
		fs = nf
	}
	return vs, fs
}

// CapsuleMesh is a rod along z: a cylinder of radius rad and length
// length between the centres of two hemispherical end caps (total length
// length + 2·rad), with nr rings per cap and nl rings along the cylinder,
// na vertices around; oriented outward.
func CapsuleMesh(rad, length float64, na, nr, nl int) ([]r3.Vec, [][3]int) {
	var vs []r3.Vec
	// Rings from the bottom pole to the top pole (poles excluded).
	var rings [][2]float64 // (z, radius)
	for k := 1; k <= nr; k++ {
		th := math.Pi / 2 * float64(k) / float64(nr) // from the pole
		rings = append(rings, [2]float64{-length/2 - rad*math.Cos(th), rad * math.Sin(th)})
	}
	for k := 1; k < nl; k++ {
		rings = append(rings, [2]float64{-length/2 + length*float64(k)/float64(nl), rad})
	}
	for k := nr; k >= 1; k-- {
		th := math.Pi / 2 * float64(k) / float64(nr)
		rings = append(rings, [2]float64{length/2 + rad*math.Cos(th), rad * math.Sin(th)})
	}
	vs = append(vs, r3.Vec{Z: -length/2 - rad})
	for _, r := range rings {
		for j := 0; j < na; j++ {
			ph := 2 * math.Pi * float64(j) / float64(na)
			vs = append(vs, r3.Vec{X: r[1] * math.Cos(ph), Y: r[1] * math.Sin(ph), Z: r[0]})
		}
	}
	vs = append(vs, r3.Vec{Z: length/2 + rad})
	top := len(vs) - 1
	var fs [][3]int
	ring := func(k, j int) int { return 1 + k*na + (j+na)%na }
	for j := 0; j < na; j++ {
		fs = append(fs, [3]int{0, ring(0, j+1), ring(0, j)})
	}
	for k := 0; k+1 < len(rings); k++ {
		for j := 0; j < na; j++ {
			fs = append(fs, [3]int{ring(k, j), ring(k, j+1), ring(k+1, j+1)}, [3]int{ring(k, j), ring(k+1, j+1), ring(k+1, j)})
		}
	}
	last := len(rings) - 1
	for j := 0; j < na; j++ {
		fs = append(fs, [3]int{top, ring(last, j), ring(last, j+1)})
	}
	orientOutward(vs, fs)
	return vs, fs
}

// BoxGridMesh is the box with half widths h, each face a grid of squares
// (two triangles each) of side about cell, oriented outward: a box surface
// fine enough to sample along its faces.
func BoxGridMesh(h r3.Vec, cell float64) ([]r3.Vec, [][3]int) {
	n := [3]int{}
	for a, x := range [3]float64{h.X, h.Y, h.Z} {
		n[a] = max(1, int(math.Round(2*x/cell)))
	}
	id := map[[3]int]int{}
	var vs []r3.Vec
	vert := func(i, j, k int) int {
		key := [3]int{i, j, k}
		if v, ok := id[key]; ok {
			return v
		}
		vs = append(vs, r3.Vec{X: -h.X + 2*h.X*float64(i)/float64(n[0]), Y: -h.Y + 2*h.Y*float64(j)/float64(n[1]), Z: -h.Z + 2*h.Z*float64(k)/float64(n[2])})
		id[key] = len(vs) - 1
		return len(vs) - 1
	}
	var fs [][3]int
	// Each face: fixed axis a at side s (0 or n[a]), spanned by axes b, c
	// with (a, b, c) cyclic so that b × c points along +a.
	for a := 0; a < 3; a++ {
		b, c := (a+1)%3, (a+2)%3
		for _, side := range []int{0, n[a]} {
			at := func(u, v int) int {
				var idx [3]int
				idx[a], idx[b], idx[c] = side, u, v
				return vert(idx[0], idx[1], idx[2])
			}
			for u := 0; u < n[b]; u++ {
				for v := 0; v < n[c]; v++ {
					p, q, r, s := at(u, v), at(u+1, v), at(u+1, v+1), at(u, v+1)
					if side == 0 { // normal along −a: reverse
						fs = append(fs, [3]int{p, r, q}, [3]int{p, s, r})
					} else {
						fs = append(fs, [3]int{p, q, r}, [3]int{p, r, s})
					}
				}
			}
		}
	}
	return vs, fs
}

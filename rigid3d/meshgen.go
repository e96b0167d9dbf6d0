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

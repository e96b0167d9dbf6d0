package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Surface is a triangulated snapshot of all bodies: Points, Tris (indices
// into Points, counter-clockwise seen from outside) and Body (the body of
// each triangle).
type Surface struct {
	Points [][3]float64
	Tris   [][3]int
	Body   []int
}

// AppendSurface appends the surfaces of every body at configuration q to
// sf (reusing its storage) and returns it. Boxes are 12 triangles; spheres
// are UV spheres with seg longitudes and seg/2 latitudes (seg ≥ 4).
func (s *System) AppendSurface(sf *Surface, q []float64, seg int) *Surface {
	if seg < 4 {
		seg = 4
	}
	sf.Points, sf.Tris, sf.Body = sf.Points[:0], sf.Tris[:0], sf.Body[:0]
	for i, sh := range s.Shapes {
		x, o := Pose(q, i)
		r := o.Matrix()
		add := func(loc r3.Vec) int {
			p := r3.Add(x, r.MulVec(loc))
			sf.Points = append(sf.Points, [3]float64{p.X, p.Y, p.Z})
			return len(sf.Points) - 1
		}
		tri := func(a, b, c int) {
			sf.Tris = append(sf.Tris, [3]int{a, b, c})
			sf.Body = append(sf.Body, i)
		}
		switch sh.Kind {
		case Box:
			var v [8]int
			for c := 0; c < 8; c++ {
				v[c] = add(corner(sh.Half, c))
			}
			for _, f := range boxFaces {
				tri(v[f[0]], v[f[1]], v[f[2]])
				tri(v[f[0]], v[f[2]], v[f[3]])
			}
		case MeshShape:
			base := len(sf.Points)
			for _, v := range sh.Mesh.V {
				add(v)
			}
			for _, t := range sh.Mesh.F {
				tri(base+t[0], base+t[1], base+t[2])
			}
		case Sphere:
			nl := seg / 2
			top := add(r3.Vec{Z: sh.R})
			rings := make([]int, 0, (nl-1)*seg)
			for a := 1; a < nl; a++ {
				th := math.Pi * float64(a) / float64(nl)
				for b := 0; b < seg; b++ {
					ph := 2 * math.Pi * float64(b) / float64(seg)
					rings = append(rings, add(r3.Vec{X: sh.R * math.Sin(th) * math.Cos(ph), Y: sh.R * math.Sin(th) * math.Sin(ph), Z: sh.R * math.Cos(th)}))
				}
			}
			bot := add(r3.Vec{Z: -sh.R})
			for b := 0; b < seg; b++ {
				b1 := (b + 1) % seg
				tri(top, rings[b], rings[b1])
				for a := 0; a+1 < nl-1; a++ {
					p, q2 := rings[a*seg+b], rings[a*seg+b1]
					pn, qn := rings[(a+1)*seg+b], rings[(a+1)*seg+b1]
					tri(p, pn, qn)
					tri(p, qn, q2)
				}
				last := (nl - 2) * seg
				tri(bot, rings[last+b1], rings[last+b])
			}
		}
	}
	return sf
}

package rigid3d

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Built-in scenes of Preclik et al. (maximum-dissipation impacts), meant
// for the impulse-velocity time stepping with the NBGS law (restitution 0).

// OctahedronMesh returns the closed octahedron with vertices ±a e_x,
// ±b e_y, ±c e_z, outward oriented.
func OctahedronMesh(a, b, c float64) ([]r3.Vec, [][3]int) {
	vs := []r3.Vec{{X: a}, {X: -a}, {Y: b}, {Z: c}, {Y: -b}, {Z: -c}}
	var fs [][3]int
	for k := 0; k < 4; k++ {
		p, q := 2+k, 2+(k+1)%4
		fs = append(fs, [3]int{0, p, q}, [3]int{1, q, p})
	}
	return vs, fs
}

// withInertia sets body i's mass and, given the inertia diagonal in the
// frame the mesh was built in, its principal moments in the mesh's
// principal frame (frame: principal → building frame, a permutation of
// the axes for these symmetric shapes).
func (s *System) withInertia(i int, m float64, in r3.Vec, frame Quat) {
	r := frame.Matrix()
	d := [3]float64{in.X, in.Y, in.Z}
	var p [3]float64
	for k := 0; k < 3; k++ {
		for a := 0; a < 3; a++ {
			p[k] += r[a][k] * r[a][k] * d[a]
		}
	}
	s.Mass[i] = m
	s.Inertia[i] = r3.Vec{X: p[0], Y: p[1], Z: p[2]}
}

// SixMassDrop is the academic body of Table 1 (six point masses 0.03, 65,
// 50 at ±10 e_x, ±e_y, ±e_z: mass 230.06, inertia diag(230, 106, 136))
// given the octahedral hull of its masses as its surface, dropped tilted
// onto the floor y = 0 with a spin, μ = 0.5, restitution 0, gravity
// −9.81 ŷ. Its vertex contacts have long lever arms, so their blocks are
// anisotropic and the maximum-dissipation law takes the quartic path.
// The step is SixMassDropDt.
func SixMassDrop() (*System, error) {
	s := &System{Gravity: r3.Vec{Y: -9.81}, Mu: 0.5, Integrator: SymplecticEuler}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	vs, fs := OctahedronMesh(10, 1, 1)
	mesh, com, frame, err := NewMesh(vs, fs, 24, "six-mass body")
	if err != nil {
		return nil, err
	}
	o := AxisAngle(r3.Unit(r3.Vec{X: 0.3, Y: 0.2, Z: 1}), 0.35)
	x := r3.Vec{Y: 4}
	i := s.AddBody(Shape{Kind: MeshShape, Mesh: mesh}, 1, r3.Add(x, o.Rotate(com)), o.Mul(frame), r3.Vec{X: 0.5}, r3.Vec{Y: 0.8, Z: 0.3}, false)
	s.withInertia(i, 230.06, r3.Vec{X: 230, Y: 106, Z: 136}, frame)
	return s, nil
}

// SixMassDropDt is the time step of SixMassDrop.
const SixMassDropDt = 1e-3

// PainleveRod is the Painlevé rod of sec. 4.2: a rod of length 1 and mass
// 1 (a thin bipyramid with a single lowest vertex, given the inertia of a
// uniform rod, 1/12) at θ = 1.2 to the floor y = 0 with its lower tip on
// it, sliding at v₀ = 1 (−x) under gravity, μ = 2 ≥ μ*(1.2) = 1.376:
// the grazing contact has no non-impulsive solution and the impact
// (maximum dissipation and Coulomb alike) sticks the tip with Λ₀. With
// --mu below μ* the tip slides. The step is PainleveRodDt.
func PainleveRod() (*System, error) {
	const th, l = 1.2, 1.0
	s := &System{Gravity: r3.Vec{Y: -9.81}, Mu: 2, Integrator: SymplecticEuler}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	vs, fs := OctahedronMesh(l/2, 1e-3, 1e-3)
	mesh, com, frame, err := NewMesh(vs, fs, 16, "rod")
	if err != nil {
		return nil, err
	}
	o := AxisAngle(r3.Vec{Z: 1}, th)
	x := r3.Vec{X: l / 2 * math.Cos(th), Y: l / 2 * math.Sin(th)}
	i := s.AddBody(Shape{Kind: MeshShape, Mesh: mesh}, 1, r3.Add(x, o.Rotate(com)), o.Mul(frame), r3.Vec{X: -1}, r3.Vec{}, false)
	s.withInertia(i, 1, r3.Vec{X: l * l / 12, Y: l * l / 12, Z: l * l / 12}, frame)
	return s, nil
}

// PainleveRodDt is the time step of PainleveRod.
const PainleveRodDt = 1e-4

package rigid3d

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/spatial/r3"
)

// BoxDrop is Fig. 1 of the paper: a box (half widths 0.6 × 0.3 × 0.4,
// density 1) released at rest with its largest face parallel to the floor
// y = 0, 0.05 above it, under gravity −9.81 ŷ. The step is 0.01 and the
// integrator DMV.
func BoxDrop() *System {
	s := &System{Gravity: r3.Vec{Y: -9.81}, CoR: 1, Integrator: DMV}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.6, Y: 0.3, Z: 0.4}}, 1, r3.Vec{Y: 0.35}, Identity, r3.Vec{}, r3.Vec{}, false)
	return s
}

// BoxDropDt is the time step of BoxDrop.
const BoxDropDt = 0.01

// EightCubes is Fig. 8 (top): eight unit cubes (half width 0.5, density 1)
// forming a 2×2×2 block centred at the origin, all faces touching, inside
// the box [−1.6, 1.6]³ (six static planes), no gravity. Each cube moves
// away from the centre with velocity (s_x·3, s_y·2.2, s_z·1.6), where s =
// sign of its centre, and spins with ω = spin·(s_y s_z·1.1, s_x s_z·0.7,
// s_x s_y·0.9): the configuration is mirror-symmetric about the three
// coordinate planes (ω is a pseudovector). The step is 0.001, the
// integrator DMV. The paper's scene has spin = 0.
func EightCubes(spin float64) *System {
	s := &System{CoR: 1, Integrator: DMV}
	const w = 1.6
	for _, n := range []r3.Vec{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}} {
		s.Planes = append(s.Planes, NewPlane(r3.Scale(-w, n), n))
	}
	for c := 0; c < 8; c++ {
		sx, sy, sz := sgn(c&1 == 0), sgn(c&2 == 0), sgn(c&4 == 0)
		s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.5, Y: 0.5, Z: 0.5}}, 1,
			r3.Vec{X: 0.5 * sx, Y: 0.5 * sy, Z: 0.5 * sz}, Identity,
			r3.Vec{X: 3 * sx, Y: 2.2 * sy, Z: 1.6 * sz},
			r3.Vec{X: spin * sy * sz * 1.1, Y: spin * sx * sz * 0.7, Z: spin * sx * sy * 0.9}, false)
	}
	return s
}

// EightCubesDt is the time step of EightCubes.
const EightCubesDt = 0.001

func sgn(pos bool) float64 {
	if pos {
		return 1
	}
	return -1
}

// Gas is Fig. 9's container: n bodies (alternating unit-density cubes of
// half width 0.1 and spheres of radius 0.1) on a jittered lattice inside
// the box [−L, L]³ (six static planes, L chosen for a ~10% volume
// fraction), no gravity, random velocities (deterministic in seed) and
// random spins, restitution cor. The step is GasDt.
func Gas(n int, cor float64, seed uint64) *System {
	s := &System{CoR: cor, Integrator: DMV}
	side := int(math.Ceil(math.Cbrt(float64(n))))
	spacing := 0.6
	l := 0.5 * spacing * float64(side)
	for _, nv := range []r3.Vec{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}} {
		s.Planes = append(s.Planes, NewPlane(r3.Scale(-l, nv), nv))
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < n; i++ {
		a, b, c := i%side, (i/side)%side, i/(side*side)
		x := r3.Vec{
			X: -l + spacing*(float64(a)+0.5) + 0.1*(rng.Float64()-0.5),
			Y: -l + spacing*(float64(b)+0.5) + 0.1*(rng.Float64()-0.5),
			Z: -l + spacing*(float64(c)+0.5) + 0.1*(rng.Float64()-0.5),
		}
		v := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		w := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		o := FromRotationVector(r3.Vec{X: rng.Float64(), Y: rng.Float64(), Z: rng.Float64()})
		if i%2 == 0 {
			s.AddBody(Shape{Kind: Box, Half: r3.Vec{X: 0.1, Y: 0.1, Z: 0.1}}, 1, x, o, v, w, false)
		} else {
			s.AddBody(Shape{Kind: Sphere, R: 0.1}, 1, x, o, v, w, false)
		}
	}
	return s
}

// GasDt is the time step of Gas.
const GasDt = 0.002

// TwoMeshesInContainer is sec. 10.3 of the paper with procedural meshes:
// two tori (major radius 0.5, minor 0.15) inside a free hollow box
// (outer half width 2, cavity half width 1.7, density 0.2), no gravity,
// restitution cor and friction mu. The tori move and spin; the container
// moves so that the total linear momentum is zero, while the total
// angular momentum is not. The step is 0.01, the integrator DMV.
func TwoMeshesInContainer(cor, mu float64) (*System, error) {
	s := &System{CoR: cor, Mu: mu, Integrator: DMV}
	cv, cf := HollowBoxMesh(r3.Vec{X: 2, Y: 2, Z: 2}, r3.Vec{X: 1.7, Y: 1.7, Z: 1.7})
	cont, ccom, cq, err := NewMesh(cv, cf, 24, "container")
	if err != nil {
		return nil, err
	}
	tv, tf := TorusMesh(0.5, 0.15, 24, 8)
	tor, _, tq, err := NewMesh(tv, tf, 16, "torus")
	if err != nil {
		return nil, err
	}
	u1, u2 := r3.Vec{X: 1.3, Y: 0.4, Z: -0.7}, r3.Vec{X: -0.6, Y: 1.1, Z: 0.9}
	a := s.AddBody(Shape{Kind: MeshShape, Mesh: tor}, 1, r3.Vec{X: -0.8, Y: 0.3, Z: 0.2}, FromRotationVector(r3.Vec{X: 0.3}).Mul(tq), u1, r3.Vec{X: 2, Y: -1, Z: 0.5}, false)
	b := s.AddBody(Shape{Kind: MeshShape, Mesh: tor}, 1, r3.Vec{X: 0.7, Y: -0.4, Z: -0.3}, FromRotationVector(r3.Vec{Y: 1.2}).Mul(tq), u2, r3.Vec{X: -0.5, Y: 1.5, Z: 1}, false)
	p := r3.Add(r3.Scale(s.Mass[a], u1), r3.Scale(s.Mass[b], u2))
	m, _ := Shape{Kind: MeshShape, Mesh: cont}.MassProperties(0.2)
	s.AddBody(Shape{Kind: MeshShape, Mesh: cont}, 0.2, ccom, cq, r3.Scale(-1/m, p), r3.Vec{Y: 0.3}, false)
	return s, s.Validate()
}

// Matryoshka is Fig. 2: a solid cube (half width 0.35) inside a hollow box
// (half width 0.7, cavity 0.55) inside a hollow box (1.0, cavity 0.85),
// each resting on the floor of its container's cavity, dropped together at
// 2 m/s onto the floor y = 0 (the outer box 1e-3 above it) under gravity,
// restitution cor. The step is MatryoshkaDt, the integrator DMV.
func Matryoshka(cor float64) (*System, error) {
	s := &System{CoR: cor, Integrator: DMV, Gravity: r3.Vec{Y: -9.81}}
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	v := r3.Vec{Y: -2}
	// outer box bottom 1e-3 above the floor; each doll's bottom on its
	// container's cavity floor: centres 1.001, 1.001 − 0.85 + 0.7 and
	// 1.001 − 0.15 − 0.55 + 0.35
	for _, d := range []struct {
		outer, cavity, y float64
	}{{1, 0.85, 1.001}, {0.7, 0.55, 1.001 - 0.15}, {0.35, 0, 1.001 - 0.35}} {
		var vs []r3.Vec
		var fs [][3]int
		if d.cavity > 0 {
			vs, fs = HollowBoxMesh(r3.Vec{X: d.outer, Y: d.outer, Z: d.outer}, r3.Vec{X: d.cavity, Y: d.cavity, Z: d.cavity})
		} else {
			vs, fs = BoxMesh(r3.Vec{X: d.outer, Y: d.outer, Z: d.outer})
		}
		m, com, q, err := NewMesh(vs, fs, 32, "matryoshka")
		if err != nil {
			return nil, err
		}
		s.AddBody(Shape{Kind: MeshShape, Mesh: m}, 1, r3.Add(r3.Vec{Y: d.y}, com), q, v, r3.Vec{}, false)
	}
	return s, s.Validate()
}

// MatryoshkaDt is the time step of Matryoshka.
const MatryoshkaDt = 0.001

// Pile is the benchmark scene of the issue: n bodies (kind "box": cubes of
// half width 0.1; "mesh": tori of major radius 0.1 and minor 0.04 with
// 1,040 triangles) on a jittered lattice above the floor of an open
// container (floor and four walls, side chosen for ~10 bodies per row),
// falling under gravity, restitution cor. The step is PileDt.
func Pile(n int, kind string, cor float64, seed uint64) (*System, error) {
	s := &System{CoR: cor, Integrator: DMV, Gravity: r3.Vec{Y: -9.81}}
	row := int(math.Ceil(math.Sqrt(float64(n) / 10)))
	if row < 1 {
		row = 1
	}
	spacing := 0.3
	half := 0.5 * spacing * float64(row)
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	for _, nv := range []r3.Vec{{X: 1}, {X: -1}, {Z: 1}, {Z: -1}} {
		s.Planes = append(s.Planes, NewPlane(r3.Scale(-half, nv), nv))
	}
	var sh Shape
	var frame Quat = Identity
	switch kind {
	case "box":
		sh = Shape{Kind: Box, Half: r3.Vec{X: 0.1, Y: 0.1, Z: 0.1}}
	case "mesh":
		vs, fs := TorusMesh(0.1, 0.04, 40, 13)
		m, _, q, err := NewMesh(vs, fs, 24, "torus")
		if err != nil {
			return nil, err
		}
		sh, frame = Shape{Kind: MeshShape, Mesh: m}, q
	default:
		return nil, fmt.Errorf("pile: unknown body kind %q (want box or mesh)", kind)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	for i := 0; i < n; i++ {
		a, c, b := i%row, (i/row)%row, i/(row*row)
		x := r3.Vec{
			X: -half + spacing*(float64(a)+0.5) + 0.02*(rng.Float64()-0.5),
			Y: 0.3 + spacing*float64(b),
			Z: -half + spacing*(float64(c)+0.5) + 0.02*(rng.Float64()-0.5),
		}
		o := FromRotationVector(r3.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}).Mul(frame)
		s.AddBody(sh, 1, x, o, r3.Vec{Y: -1}, r3.Vec{}, false)
	}
	return s, s.Validate()
}

// PileDt is the time step of Pile.
const PileDt = 0.002

// BunnyPile is Fig. 9 of the paper (sec. 10.4, controlled dissipation): n
// copies of a mesh (the Stanford bunny; m and frame from NewMesh) in a
// fixed closed container (six static planes) under gravity, restitution
// cor and friction mu (mu > 0: maximal-dissipation friction, Alg. 3).
// The bodies sit on a cubic lattice of side ⌈∛n⌉ whose spacing is 2.05
// times the mesh's bounding radius, so no two bounding spheres meet and
// none touches a wall: the start is free of overlap by construction. Each
// gets a random orientation, a random velocity (standard normal
// components, m/s) and spin (rad/s), all deterministic in seed, so the
// pile first bounces as a gas before gravity settles it. The density is
// 1000 kg/m³; the step is BunnyPileDt, the integrator DMV.
func BunnyPile(m *Mesh, frame Quat, n int, cor, mu float64, seed uint64) (*System, error) {
	if n < 1 {
		return nil, fmt.Errorf("bunny pile: n = %d, want ≥ 1", n)
	}
	s := &System{CoR: cor, Mu: mu, Integrator: DMV, Gravity: r3.Vec{Y: -9.81}}
	sh := Shape{Kind: MeshShape, Mesh: m}
	r := sh.BoundingRadius()
	side := int(math.Ceil(math.Cbrt(float64(n))))
	for side*side*side < n { // Cbrt rounding
		side++
	}
	spacing := 2.05 * r
	half := 0.5 * spacing * float64(side)
	top := spacing * float64(side)
	s.Planes = append(s.Planes, NewPlane(r3.Vec{}, r3.Vec{Y: 1}), NewPlane(r3.Vec{Y: top}, r3.Vec{Y: -1}))
	for _, nv := range []r3.Vec{{X: 1}, {X: -1}, {Z: 1}, {Z: -1}} {
		s.Planes = append(s.Planes, NewPlane(r3.Scale(-half, nv), nv))
	}
	rng := rand.New(rand.NewPCG(seed, 13))
	for i := 0; i < n; i++ {
		a, b, c := i%side, (i/side)%side, i/(side*side)
		x := r3.Vec{
			X: -half + spacing*(float64(a)+0.5),
			Y: spacing * (float64(c) + 0.5),
			Z: -half + spacing*(float64(b)+0.5),
		}
		o := FromRotationVector(r3.Vec{X: 3 * (rng.Float64() - 0.5), Y: 3 * (rng.Float64() - 0.5), Z: 3 * (rng.Float64() - 0.5)}).Mul(frame)
		v := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		w := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		s.AddBody(sh, 1000, x, o, v, w, false)
	}
	return s, s.Validate()
}

// BunnyPileDt is the time step of BunnyPile. At 10⁻³ s the 1,000-bunny
// pile (seed 1) stopped with GR at its reflection cap at steps 427 (c =
// 0.5) and 434 (c = 1), and the c = 0 LCP failed at step 340: bunnies
// spinning at up to 72 rad/s meet at relative normal speeds up to 9.4 m/s
// (9.4 mm per step), a vertex ends a step 2–3 mm inside a thin part of
// another bunny, and the pair's contact normals then point every way
// (exact distance normals too, not only the field's), pinning it from
// opposite sides: no elastic impulse separates such a set. At 5·10⁻⁴ s
// all three runs of Fig. 9 (c = 0, 0.5, 1 with μ = 0.5) take their
// 1,000 steps; without friction c = 0.5 and 1 still stop at steps 855
// and 577, and take their 2,000 steps at 2.5·10⁻⁴ s (BENCHMARKS.md,
// "Fig. 9 at full size").
const BunnyPileDt = 5e-4

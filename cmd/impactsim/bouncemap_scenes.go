package main

import (
	"fmt"
	"math"
	"os"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/bouncemap"
	"impactsim/rigid3d"
)

// Built-in scenes that drop bounce-mapped bodies; their maps are built
// when the scene is opened (a few seconds).
func init() {
	builtins3D["bouncemap_rods"] = struct {
		desc string
		op   string
		make func() (*rigid3d.System, float64, error)
	}{"Fig. 3: five bounce-mapped 20 cm steel rods dropped 30 cm at 10°…90° onto a plane (grr, per-contact ε from the map)", "grr", bouncemapRods}
	builtins3D["bouncemap_bunny"] = struct {
		desc string
		op   string
		make func() (*rigid3d.System, float64, error)
	}{"three bounce-mapped 16 cm bunnies (../shared/meshes/bunny.obj) dropped on their feet, their back and their ears", "grr", bouncemapBunnies}
}

// mappedMesh builds the rigid3d mesh of (vs, fs) and its bounce map (m
// modes on a voxel mesh of the given cells) placed in the mesh's body
// frame.
func mappedMesh(vs []r3.Vec, fs [][3]int, name string, modes, cells int) (*rigid3d.Mesh, r3.Vec, rigid3d.Quat, *bouncemap.BodyMap, error) {
	mesh, com, q, err := rigid3d.NewMesh(vs, fs, 24, name)
	if err != nil {
		return nil, r3.Vec{}, rigid3d.Quat{}, nil, err
	}
	mp, _, err := bouncemap.Build(vs, fs, bouncemap.BuildOptions{Source: name, Modes: modes, Cells: cells})
	if err != nil {
		return nil, r3.Vec{}, rigid3d.Quat{}, nil, err
	}
	bm, err := bouncemap.NewBodyMap(mp, vs, fs, com, q, 1, name, name+" (built-in map)")
	return mesh, com, q, bm, err
}

// bouncemapRods: 20 cm rods (⌀20 mm, spherical ends) at inclinations 10°,
// 30°, 50°, 70°, 90° from the floor, lowest point 30 cm above it, 15 cm
// apart; y is up.
func bouncemapRods() (*rigid3d.System, float64, error) {
	vs, fs := rigid3d.CapsuleMesh(0.01, 0.18, 32, 8, 60)
	mesh, com, q, bm, err := mappedMesh(vs, fs, "rod", 45, 40)
	if err != nil {
		return nil, 0, err
	}
	s := &rigid3d.System{Gravity: r3.Vec{Y: -9.81}, CoR: 0.5, Integrator: rigid3d.DMV}
	s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Y: 1}))
	for k, deg := range []float64{10, 30, 50, 70, 90} {
		th := deg * math.Pi / 180
		// The rod axis (z in the file) tilted up from the floor (the x–z
		// plane) by th: the rotation about x by −th takes z to
		// (0, sin th, cos th).
		o := rigid3d.AxisAngle(r3.Vec{X: 1}, -th)
		c := o.Rotate(com)
		low := 0.1 * math.Sin(th)
		x := r3.Add(r3.Vec{X: 0.15 * float64(k), Y: 0.3 + low}, c)
		s.AddBody(rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: mesh}, 2000, x, o.Mul(q), r3.Vec{}, r3.Vec{}, false)
		s.Maps = append(s.Maps, bm)
	}
	return s, 2e-4, nil
}

// bouncemapBunnies: the shared bunny scaled to 16 cm, three of them.
func bouncemapBunnies() (*rigid3d.System, float64, error) {
	vs, fs, err := readBunny("builtin:bouncemap_bunny")
	if err != nil {
		return nil, 0, err
	}
	mesh, com, q, bm, err := mappedMesh(vs, fs, bunnyPath, 45, 24)
	if err != nil {
		return nil, 0, err
	}
	s := &rigid3d.System{Gravity: r3.Vec{Y: -9.81}, CoR: 0.5, Integrator: rigid3d.DMV}
	lo, _ := rigid3d.Bounds(vs)
	s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{Y: lo.Y - 0.3}, r3.Vec{Y: 1}))
	for k, o := range []rigid3d.Quat{rigid3d.Identity, rigid3d.AxisAngle(r3.Vec{X: 1}, math.Pi/2), rigid3d.AxisAngle(r3.Vec{X: 1}, math.Pi)} {
		x := r3.Add(r3.Vec{X: 0.25 * float64(k)}, o.Rotate(com))
		s.AddBody(rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: mesh}, 2000, x, o.Mul(q), r3.Vec{}, r3.Vec{}, false)
		s.Maps = append(s.Maps, bm)
	}
	if err := s.Validate(); err != nil {
		return nil, 0, fmt.Errorf("builtin:bouncemap_bunny: %w", err)
	}
	return s, 2e-4, nil
}

// bunnyPath is the shared Stanford bunny, relative to the repository root.
const bunnyPath = "../shared/meshes/bunny.obj"

// readBunny reads the shared bunny scaled to 16 cm (its file is in cm);
// who names the scene or command that needs it.
func readBunny(who string) ([]r3.Vec, [][3]int, error) {
	f, err := os.Open(bunnyPath)
	if err != nil {
		return nil, nil, badInput("%s needs %s (run from the repository root): %v", who, bunnyPath, err)
	}
	vs, fs, err := rigid3d.ReadOBJ(f, bunnyPath)
	f.Close()
	if err != nil {
		return nil, nil, usageError{err}
	}
	for i := range vs {
		vs[i] = r3.Scale(0.01, vs[i])
	}
	return vs, fs, nil
}

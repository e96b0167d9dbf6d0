package main

import (
	"fmt"
	"strconv"
	"strings"

	"impactsim/rigid3d"
)

// Fig. 9 (sec. 10.4, controlled dissipation): builtin:bunny_pile is 1,000
// bunnies in a closed box; builtin:bunny_pile_N has N of them. --cor and
// --mu set c and μ (defaults 0.5 and 0.5).
func init() {
	builtins3D["bunny_pile"] = struct {
		desc string
		op   string
		make func() (*rigid3d.System, float64, error)
	}{"Fig. 9: 1,000 bunnies (../shared/meshes/bunny.obj) in a closed box under gravity, grr, c = 0.5, μ = 0.5 (bunny_pile_N: N of them)", "grr",
		func() (*rigid3d.System, float64, error) { return bunnyPile(1000) }}
}

// bunnyPile is builtin:bunny_pile_n.
func bunnyPile(n int) (*rigid3d.System, float64, error) {
	m, frame, err := sharedBunny()
	if err != nil {
		return nil, 0, err
	}
	s, err := rigid3d.BunnyPile(m, frame, n, 0.5, 0.5, 1)
	if err != nil {
		return nil, 0, usageError{fmt.Errorf("builtin:bunny_pile: %w", err)}
	}
	return s, rigid3d.BunnyPileDt, nil
}

// sharedBunny is the shared bunny (16 cm) as a rigid3d mesh with a 24³
// signed-distance field.
func sharedBunny() (*rigid3d.Mesh, rigid3d.Quat, error) {
	vs, fs, err := readBunny("the bunny pile")
	if err != nil {
		return nil, rigid3d.Quat{}, err
	}
	m, _, q, err := rigid3d.NewMesh(vs, fs, 24, bunnyPath)
	return m, q, err
}

// parametricBuiltin3D returns the built-in 3D scene NAME_N of a family
// that takes a body count (bunny_pile_N).
func parametricBuiltin3D(name string) (func() (*rigid3d.System, float64, error), bool) {
	if rest, ok := strings.CutPrefix(name, "bunny_pile_"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 1 && n <= 1000000 {
			return func() (*rigid3d.System, float64, error) { return bunnyPile(n) }, true
		}
	}
	return nil, false
}

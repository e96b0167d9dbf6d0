package main

import (
	"sort"

	"impactsim/rigid3d"
)

// builtins3D are the built-in rigidbody3d scenes (builtin:NAME); op is the
// default operator (--operator overrides it).
var builtins3D = map[string]struct {
	desc string
	op   string
	make func() (*rigid3d.System, float64, error)
}{
	"box_drop": {"Fig. 1: a box landing flat on a plane (gr: straight bounce)", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.BoxDrop(), rigid3d.BoxDropDt, nil }},
	"eight_cubes": {"Fig. 8 top: eight touching cubes flying apart in a box, no gravity", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.EightCubes(0), rigid3d.EightCubesDt, nil }},
	"eight_cubes_spin": {"eight_cubes with mirror-symmetric spins", "gr",
		func() (*rigid3d.System, float64, error) { return rigid3d.EightCubes(1), rigid3d.EightCubesDt, nil }},
	"matryoshka": {"Fig. 2: nested hollow boxes dropped with c = 0.8 (grr separates them, lcp does not)", "grr",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.Matryoshka(0.8)
			return s, rigid3d.MatryoshkaDt, err
		}},
	"tori_in_box": {"sec. 10.3: two tori in a free closed box, c = 0.8, μ = 0.5, zero linear momentum", "grr",
		func() (*rigid3d.System, float64, error) {
			s, err := rigid3d.TwoMeshesInContainer(0.8, 0.5)
			return s, 0.01, err
		}},
	"gas": {"Fig. 9: 125 cubes and spheres in a closed box, no gravity, c = 1 (use --cor)", "grr",
		func() (*rigid3d.System, float64, error) { return rigid3d.Gas(125, 1, 1), rigid3d.GasDt, nil }},
}

// builtin3DNames lists builtins3D sorted.
func builtin3DNames() []string {
	names := make([]string, 0, len(builtins3D))
	for n := range builtins3D {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func solverName(s string) string {
	if s == "" {
		return "auto"
	}
	return s
}

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"impactsim/scene"
)

// builtins are the scenes anyone can run without a file.
var builtins = map[string]struct {
	desc string
	make func() *scene.Ball2DScene
}{
	"pool_break":     {"15 racked balls and a cue ball, identical to SCISim's pool_break_standard.xml (Fig. 5)", scene.PoolBreak},
	"newtons_cradle": {"three touching balls, the first moving at 2", func() *scene.Ball2DScene { return scene.NewtonsCradle(3) }},
	"bernoulli":      {"Bernoulli's problem: one ball into two touching balls", scene.Bernoulli},
	"drum9x9":        {"9×9 unit balls in a drum, random velocities, no gravity (Fig. 7 energy test)", func() *scene.Ball2DScene { return scene.DrumRandom9x9(1) }},
	"drum_drop_1000": {"1,000 unit balls dropped in a drum (Table 2 setup)", func() *scene.Ball2DScene { return scene.DrumGrid(1000, "drop", 1) }},
	"drum_gas_1000":  {"1,000 unit balls with random unit velocities in a drum (Table 2 setup)", func() *scene.Ball2DScene { return scene.DrumGrid(1000, "gas", 1) }},
}

func builtinNames() []string {
	var names []string
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// loadScene reads a SCISim ball2d file or a builtin:NAME scene.
func loadScene(arg string) (sc *scene.Ball2DScene, name string, err error) {
	if b, ok := strings.CutPrefix(arg, "builtin:"); ok {
		s, found := builtins[b]
		if !found {
			return nil, "", badInput("unknown built-in scene %q (valid: %s)", b, strings.Join(builtinNames(), ", "))
		}
		sc := s.make()
		sc.Source = arg
		return sc, b, nil
	}
	sc, err = scene.LoadBall2D(arg)
	if err != nil {
		return nil, "", usageError{err}
	}
	return sc, strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg)), nil
}

func cmdScenes(args []string, stdout, _ io.Writer) error {
	pos, err := parse(newFlags("scenes"), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("scenes takes no arguments")
	}
	for _, n := range builtinNames() {
		fmt.Fprintf(stdout, "builtin:%-15s %s\n", n, builtins[n].desc)
	}
	for _, n := range builtin3DNames() {
		fmt.Fprintf(stdout, "builtin:%-15s %s (3D)\n", n, builtins3D[n].desc)
	}
	return nil
}

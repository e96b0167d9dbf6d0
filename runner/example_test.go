package runner_test

import (
	"fmt"
	"os"

	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
)

// Run drives Newton's cradle for one second and writes its run directory.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "cradle")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	sc := scene.NewtonsCradle(3)
	sc.Source = "builtin:newtons_cradle"
	r, err := scenario.NewBall2D(sc, scenario.Options{Operator: "gr"})
	if err != nil {
		panic(err)
	}
	res, err := runner.Run(runner.Ball2D(r), runner.Config{Out: dir, End: 1, Frames: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.System, res.Bodies, res.Noun, res.Steps, "steps")
	fmt.Printf("momentum %.3g → %.3g, capped steps %d\n", res.Momentum0, res.Momentum1, res.CappedSteps)
	fmt.Println(res.Files)
	// Output:
	// ball2d 3 balls 1000 steps
	// momentum [2 0] → [2 0], capped steps 0
	// [scene.json trajectory.csv energy.csv summary.json]
}

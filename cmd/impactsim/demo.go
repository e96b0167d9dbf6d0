package main

import (
	"fmt"
	"io"
	"path/filepath"

	"impactsim/output"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
)

// cmdDemo runs the built-in pool break (SCISim's pool_break_standard.xml)
// for 10 s with GR and with LCP and renders them side by side.
func cmdDemo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo")
	out := fs.String("out", filepath.Join("out", "demo"), "output directory")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("demo: unexpected argument %q", pos[0])
	}
	var panels []output.Panel
	for _, op := range []string{"gr", "lcp"} {
		sc := scene.PoolBreak()
		sc.Source = "builtin:pool_break"
		sc.Camera = nil // fit the view to the whole break
		dir := filepath.Join(*out, op)
		r, err := scenario.NewBall2D(sc, scenario.Options{Operator: op})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "== pool break with %s\n", op)
		if err := runAndReport(runner.Ball2D(r), &runConfig{end: 10, out: dir, frames: 100}, stdout, stderr); err != nil {
			return err
		}
		traj, err := output.ReadTrajectory(dir)
		if err != nil {
			return err
		}
		s2, err := output.ReadScene2D(dir)
		if err != nil {
			return err
		}
		info, err := output.Render2D(traj, s2, output.RenderOptions{Dir: filepath.Join(dir, "render"), Width: 480, Height: 360, FPS: 10,
			Title: op, Outputs: output.OutputGIF})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "render     %s\n", info.GIF)
		panels = append(panels, output.Panel{Title: op, Traj: traj, Scene: s2})
	}
	info, err := output.RenderPanels(panels, output.RenderOptions{Dir: filepath.Join(*out, "render"), Width: 480, Height: 360, FPS: 10,
		Outputs: output.OutputPNG | output.OutputGIF})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "== side-by-side render (left gr, right lcp)")
	printRenderInfo(stdout, info)
	return nil
}

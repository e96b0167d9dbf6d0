package main

import (
	"fmt"
	"io"

	"impactsim/output"
)

func cmdRender(args []string, stdout, _ io.Writer) error {
	fs := newFlags("render")
	var o output.RenderOptions
	var noMP4, noGIF, noPNG, speed bool
	fs.StringVar(&o.Dir, "out", "", "directory for the frames and animations (default DIR/render)")
	fs.IntVar(&o.Width, "width", 800, "image width in pixels")
	fs.IntVar(&o.Height, "height", 600, "image height in pixels")
	fs.IntVar(&o.Stride, "stride", 1, "render every K-th saved frame")
	fs.IntVar(&o.MaxFrames, "max-frames", 300, "render at most N frames (raises the stride)")
	fs.Float64Var(&o.FPS, "fps", 25, "frames per second of the animation")
	fs.BoolVar(&noMP4, "no-mp4", false, "skip the MP4 (written when ffmpeg is on PATH)")
	fs.BoolVar(&noGIF, "no-gif", false, "skip the GIF")
	fs.BoolVar(&noPNG, "no-png", false, "skip the PNG frames")
	fs.BoolVar(&speed, "speed", false, "colour balls by speed instead of by index")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInput("render: expected one run directory, got %d arguments", len(pos))
	}
	if o.Width < 16 || o.Height < 16 || o.Stride < 1 || o.FPS <= 0 {
		return badInput("render: --width/--height ≥ 16, --stride ≥ 1 and --fps > 0 expected")
	}
	dir := pos[0]
	if ok, err := tryRender3D(dir, o, noPNG, noGIF, noMP4, stdout); ok {
		return err
	}
	sc, err := output.ReadScene2D(dir)
	if err != nil {
		return usageError{err}
	}
	traj, err := output.ReadLayoutTrajectory(dir, sc.Layout())
	if err != nil {
		return usageError{err}
	}
	if o.Dir == "" {
		o.Dir = dir + "/render"
	}
	o.Outputs = output.OutputPNG | output.OutputGIF
	if noPNG {
		o.Outputs &^= output.OutputPNG
	}
	if noGIF {
		o.Outputs &^= output.OutputGIF
	}
	if !noMP4 {
		// Skipped with a note when ffmpeg is not on PATH.
		o.Outputs |= output.OutputMP4
	}
	if o.Outputs == 0 {
		return badInput("render: nothing to write (both --no-gif and --no-png)")
	}
	if speed {
		o.ColorBy = output.ColorBySpeed
	}
	o.Title = sc.Operator
	info, err := output.Render2D(traj, sc, o)
	if err != nil {
		return err
	}
	printRenderInfo(stdout, info)
	return nil
}

func printRenderInfo(w io.Writer, info *output.RenderInfo) {
	fmt.Fprintf(w, "rendered   %d frames of %d×%d\n", info.Frames, info.Width, info.Height)
	if len(info.PNGs) > 0 {
		fmt.Fprintf(w, "png        %s … %s\n", info.PNGs[0], info.PNGs[len(info.PNGs)-1])
	}
	if info.GIF != "" {
		fmt.Fprintf(w, "gif        %s\n", info.GIF)
	}
	if info.MP4 != "" {
		fmt.Fprintf(w, "mp4        %s\n", info.MP4)
	}
	for _, n := range info.Notes {
		fmt.Fprintf(w, "note       %s\n", n)
	}
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"impactsim/bounded"
	"impactsim/output"
	"impactsim/runner"
)

func cmdRender(args []string, stdout, _ io.Writer) error {
	fs := newFlags("render")
	var o output.RenderOptions
	var noMP4, noGIF, noPNG, speed bool
	fs.StringVar(&o.Dir, "out", "", "directory for the frames and animations (default DIR/render)")
	countVar(fs, &o.Width, "width", 800, 16, 16384, "image width in pixels")
	countVar(fs, &o.Height, "height", 600, 16, 16384, "image height in pixels")
	countVar(fs, &o.Stride, "stride", 1, 1, 1e9, "render every K-th saved frame")
	countVar(fs, &o.MaxFrames, "max-frames", 300, 0, 1e6, "render at most N frames (raises the stride; 0: no limit)")
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
	rd, err := readRunDir(dir)
	if err != nil {
		return err
	}
	if rd.system == "rigid3d" || rd.system == "" {
		if ok, err := tryRender3D(dir, rd, o, noPNG, noGIF, noMP4, stdout); ok || rd.system != "" {
			if !ok {
				return badInput("render: %s: summary.json says rigid3d but there is no %s", dir, output.Scene3DFile)
			}
			return err
		}
	}
	sc, err := output.ReadScene2D(dir)
	if err != nil {
		return usageError{err}
	}
	// A run whose script inserted or deleted bodies describes them anew
	// from the frames where they changed.
	changes, err := output.ReadSceneChanges2D(dir)
	if err != nil {
		return usageError{err}
	}
	if rd.system == "rigid2d" {
		// A description without bodies (a scripted scene that starts
		// empty) has no shapes to say it is of rigid bodies.
		for _, d := range append([]*output.Scene2D{sc}, scenesOf(changes)...) {
			if d.NumBalls == 0 && d.Shapes == nil {
				d.Shapes = []output.Shape2D{}
			}
		}
	}
	traj, err := rd.trajectory(dir, sc.Layout(), sc.NumBalls, stdout)
	if err != nil {
		return err
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
	panel := output.Panel{Title: o.Title, Traj: traj, Scene: sc, Scenes: changes}
	if err := panel.Check(); err != nil {
		return badInput("render: %s: %v", dir, err)
	}
	info, err := output.RenderPanels([]output.Panel{panel}, o)
	if err != nil {
		return err
	}
	printRenderInfo(stdout, info)
	return nil
}

func scenesOf(changes []output.FrameScene2D) []*output.Scene2D {
	out := make([]*output.Scene2D, len(changes))
	for i, c := range changes {
		out[i] = c.Scene
	}
	return out
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

// runDir is what a run directory's summary.json says about it (empty for
// directories of older versions, which have none: the scene description
// present then decides).
type runDir struct {
	system string // ball2d, rigid2d, rigid3d
	status string // runner.StatusRunning, …
	law    string // the contact law (the operator), shown in 3D renders
}

func readRunDir(dir string) (runDir, error) {
	var s struct {
		System string `json:"system"`
		Status string `json:"status"`
		Law    string `json:"law"`
	}
	path := filepath.Join(dir, output.SummaryFile)
	data, err := bounded.ReadTextFile(path, bounded.Small, "run summary")
	if errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(dir); err != nil {
			return runDir{}, usageError{err}
		}
		return runDir{}, nil
	}
	if err != nil {
		return runDir{}, usageError{err}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return runDir{}, badInput("render: %s: %v", path, err)
	}
	return runDir{system: s.System, status: s.Status, law: s.Law}, nil
}

// trajectory reads the run's trajectory.csv of bodies bodies: all of it
// for a finished run, its whole frames for a run still going on or killed
// (status running), saying so on w.
func (rd runDir) trajectory(dir string, l output.Layout, bodies int, w io.Writer) (*output.Trajectory, error) {
	if rd.status != runner.StatusRunning {
		tr, err := output.ReadLayoutTrajectory(dir, l)
		if err != nil {
			return nil, usageError{err}
		}
		if len(tr.Frames) == 0 {
			// (frames without bodies have no rows)
			return nil, badInput("render: %s: %s has no frame with bodies to draw", dir, output.TrajectoryFile)
		}
		return tr, nil
	}
	tr, err := output.ReadTrajectoryPrefix(dir, l, bodies)
	if err != nil {
		return nil, usageError{err}
	}
	if len(tr.Frames) == 0 {
		return nil, badInput("render: %s: the run has not saved a whole frame yet (summary.json: status running)", dir)
	}
	fmt.Fprintf(w, "note       %s: the run is still going on or was killed (summary.json: status running); rendering its %d whole frames\n", dir, len(tr.Frames))
	return tr, nil
}

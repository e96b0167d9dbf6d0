package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// SceneChangesDir is the directory of a run directory that holds the scene
// descriptions of a run whose bodies changed: when a scripted scene
// inserted or deleted bodies, the first frame saved with the new set of
// bodies, number K (the trajectory's frame column), comes with
// scenes/frame_K/ (five digits at least) holding the system's scene
// description (scene.json or scene3d.json) of the bodies from that frame
// on. The run directory's own description describes the frames before the
// first change. A run whose bodies never change has no scenes directory.
const SceneChangesDir = "scenes"

// SceneChangeDir returns the directory, relative to the run directory, of
// the scene description of the bodies from frame on.
func SceneChangeDir(frame int) string {
	return filepath.Join(SceneChangesDir, fmt.Sprintf("frame_%05d", frame))
}

// partialPrefix starts the name of a scene-change directory while it is
// being written (scenes/.frame_K.partial): WriteSceneChange renames it to
// frame_K only once its description is whole, so a run killed mid-write
// leaves no frame_K without one. Readers skip such leftovers; the next run
// into the directory removes them.
const partialPrefix = "."

// WriteSceneChange writes the scene description of the bodies from frame
// on into dir/SceneChangeDir(frame), atomically: write (the system's
// scene writer, returning the file name it wrote) fills a hidden partial
// directory that is then renamed into place. It returns the file's path
// relative to dir.
func WriteSceneChange(dir string, frame int, write func(sub string) (string, error)) (string, error) {
	final := filepath.Join(dir, SceneChangeDir(frame))
	partial := filepath.Join(filepath.Dir(final), partialPrefix+filepath.Base(final)+".partial")
	if err := os.RemoveAll(partial); err != nil {
		return "", fmt.Errorf("output: removing stale %s: %w", partial, err)
	}
	if err := os.MkdirAll(partial, 0o755); err != nil {
		return "", fmt.Errorf("output: %w", err)
	}
	name, err := write(partial)
	if err != nil {
		os.RemoveAll(partial)
		return "", err
	}
	if err := os.Rename(partial, final); err != nil {
		os.RemoveAll(partial)
		return "", fmt.Errorf("output: %w", err)
	}
	return filepath.Join(SceneChangeDir(frame), name), nil
}

// FrameScene2D is the description of a 2D run's bodies from frame From on.
type FrameScene2D struct {
	From  int
	Scene *Scene2D
}

// ReadSceneChanges2D reads the scene descriptions under dir/scenes (see
// SceneChangesDir) in increasing frame order; none (nil) when the run's
// bodies never changed.
func ReadSceneChanges2D(dir string) ([]FrameScene2D, error) {
	frames, err := sceneChangeFrames(dir)
	if err != nil {
		return nil, err
	}
	var out []FrameScene2D
	for _, k := range frames {
		sc, err := ReadScene2D(filepath.Join(dir, SceneChangeDir(k)))
		if err != nil {
			return nil, err
		}
		out = append(out, FrameScene2D{From: k, Scene: sc})
	}
	return out, nil
}

// sceneChangeFrames lists the frame numbers of dir/scenes/frame_K, sorted.
func sceneChangeFrames(dir string) ([]int, error) {
	ents, err := os.ReadDir(filepath.Join(dir, SceneChangesDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	var frames []int
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), partialPrefix) {
			continue // a killed run's unfinished description (WriteSceneChange)
		}
		n, ok := strings.CutPrefix(e.Name(), "frame_")
		k, err := strconv.Atoi(n)
		if !e.IsDir() || !ok || err != nil || k < 0 {
			return nil, fmt.Errorf("output: %s: unexpected entry %q (want frame_K directories)", filepath.Join(dir, SceneChangesDir), e.Name())
		}
		frames = append(frames, k)
	}
	sort.Ints(frames)
	return frames, nil
}

// clearSceneChanges removes the scene descriptions of an earlier run,
// dir/scenes/frame_*/{scene.json,scene3d.json}, and then the directories
// if they are empty (nothing else is touched).
func clearSceneChanges(dir string) error {
	subs, err := filepath.Glob(filepath.Join(dir, SceneChangesDir, "frame_*"))
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	partials, err := filepath.Glob(filepath.Join(dir, SceneChangesDir, partialPrefix+"frame_*.partial"))
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	for _, sub := range partials {
		if err := os.RemoveAll(sub); err != nil {
			return fmt.Errorf("output: removing %s of an earlier run: %w", sub, err)
		}
	}
	for _, sub := range subs {
		for _, n := range []string{SceneFile, Scene3DFile} {
			for _, p := range []string{filepath.Join(sub, n), filepath.Join(sub, n+tmpSuffix)} {
				if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("output: removing %s of an earlier run: %w", p, err)
				}
			}
		}
		os.Remove(sub) // only if now empty
	}
	os.Remove(filepath.Join(dir, SceneChangesDir))
	return nil
}

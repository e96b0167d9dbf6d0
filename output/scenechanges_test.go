package output

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteSceneChangeKilledMidWrite: a scene change is renamed into place
// whole. A run killed while writing one (simulated by a writer that
// leaves its partial directory behind and a failing writer) leaves only a
// hidden partial directory, which readers skip and the next run removes —
// never a frame_K without its description (render of a killed run failed
// on scenes/frame_00076 without scene.json).
func TestWriteSceneChangeKilledMidWrite(t *testing.T) {
	dir := t.TempDir()
	sc := testScene()
	write := func(sub string) (string, error) { return SceneFile, WriteScene2D(sub, sc) }
	rel, err := WriteSceneChange(dir, 3, write)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(SceneChangesDir, "frame_00003", SceneFile); rel != want {
		t.Errorf("path %q, want %q", rel, want)
	}
	// killed after the partial directory was made and part of it written
	partial := filepath.Join(dir, SceneChangesDir, ".frame_00007.partial")
	if err := os.MkdirAll(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(partial, SceneFile+tmpSuffix), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	// a writer that fails leaves nothing
	if _, err := WriteSceneChange(dir, 9, func(string) (string, error) { return "", errors.New("disk full") }); err == nil {
		t.Fatal("failing writer: no error")
	}
	changes, err := ReadSceneChanges2D(dir)
	if err != nil {
		t.Fatalf("read with a killed write's leftover: %v", err)
	}
	if len(changes) != 1 || changes[0].From != 3 || changes[0].Scene.NumBalls != sc.NumBalls {
		t.Fatalf("changes %+v, want the one of frame 3", changes)
	}
	if _, err := os.Stat(filepath.Join(dir, SceneChangesDir, "frame_00009")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed write left frame_00009: %v", err)
	}
	if err := clearSceneChanges(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, SceneChangesDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("scenes directory after clearing: %v", err)
	}
}

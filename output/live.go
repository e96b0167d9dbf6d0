package output

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// sink is where a streaming writer's bytes go: an atomicFile (renamed to
// its final name when complete) or a liveFile (written in place).
type sink interface {
	Write(p []byte) (int, error)
	Close() error
	Abort()
}

// liveFile is a file written in place under its final name, one write
// system call per Write. The streaming writers of a run directory pass
// whole rows (a trajectory frame, an energy row) to each Write, so a
// reader, or whatever a crash leaves behind, sees a prefix of whole rows
// plus at most one cut row at the end, which the prefix readers
// (ReadTrajectoryPrefix, ReadSeries) leave out. A write error (a full
// disk) is returned at once.
type liveFile struct {
	path string
	f    *os.File
	done bool
}

// createLive creates the parent directory if needed and creates (or
// truncates) path; a NAME.tmp left by an older, atomic writer is removed.
func createLive(path string) (*liveFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if err := os.Remove(path + tmpSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("output: removing stale %s: %w", path+tmpSuffix, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	return &liveFile{path: path, f: f}, nil
}

func (l *liveFile) Write(p []byte) (int, error) {
	if l.done {
		return 0, fmt.Errorf("output: write to closed file %s", l.path)
	}
	return l.f.Write(p)
}

// Close closes the file; what was written stays.
func (l *liveFile) Close() error {
	if l.done {
		return nil
	}
	l.done = true
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("output: writing %s: %w", l.path, err)
	}
	return nil
}

// Abort closes the file and keeps what was written (whole rows and at most
// one cut row, which the prefix readers leave out).
func (l *liveFile) Abort() {
	if !l.done {
		l.done = true
		l.f.Close()
	}
}

// completeLines returns a reader of f's bytes up to and including its last
// newline: the whole rows of a file that may still be written, or that a
// crash cut in the middle of a row.
func completeLines(f *os.File) (io.Reader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	end := st.Size()
	buf := make([]byte, 64<<10)
	for end > 0 {
		n := int64(len(buf))
		if end < n {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return nil, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return io.NewSectionReader(f, 0, end-n+int64(i)+1), nil
		}
		end -= n
	}
	return io.NewSectionReader(f, 0, 0), nil
}

// ClearRunDir removes from dir the files an earlier run may have left
// there — the scene descriptions (scene.json, scene3d.json),
// trajectory.csv, energy.csv, summary.json and their .tmp files, the VTK
// series (vtk/trajectory.pvd, vtk/frame_*.vtp) and the default render
// (render/frame_*.png, render/animation.gif, render/animation.mp4) — so
// that the directory only ever holds one run. Other files are left alone.
func ClearRunDir(dir string) error {
	var names []string
	for _, n := range []string{SceneFile, Scene3DFile, TrajectoryFile, EnergyFile, SummaryFile,
		"vtk/trajectory.pvd", "render/animation.gif", "render/animation.mp4"} {
		names = append(names, n, n+tmpSuffix)
	}
	for _, pat := range []string{"vtk/frame_*.vtp", "vtk/frame_*.vtp.tmp", "vtk/frame_*.pvtp", "vtk/frame_*.pvtp.tmp", "render/frame_*.png", "render/frame_*.png.tmp"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
	}
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("output: removing %s of an earlier run: %w", filepath.Join(dir, n), err)
		}
	}
	for _, sub := range []string{"vtk", "render"} {
		os.Remove(filepath.Join(dir, sub)) // only if now empty
	}
	return clearSceneChanges(dir)
}

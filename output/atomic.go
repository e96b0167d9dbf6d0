package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// tmpSuffix is appended to the final name of every file while it is being
// written. The file is renamed to its final name only by a successful Close.
const tmpSuffix = ".tmp"

// atomicFile is a buffered file that is written to path+".tmp" and renamed to
// path by Close. Abort (or a failed Close) removes the temporary file, so a
// reader never sees a truncated file under the final name.
type atomicFile struct {
	path string
	tmp  string
	f    *os.File
	w    *bufio.Writer
	done bool
}

// createAtomic creates the parent directory if needed and opens path+".tmp"
// for writing. With removeStale, an existing final file of the same name is
// removed first, so that a directory never mixes a new run's scene with an old
// run's stream (used by the streaming writers, whose data arrive over a long
// run that may be interrupted).
func createAtomic(path string, removeStale bool) (*atomicFile, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
	}
	tmp := path + tmpSuffix
	f, err := os.Create(tmp)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if !removeStale {
		return &atomicFile{path: path, tmp: tmp, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("output: removing stale %s: %w", path, err)
	}
	return &atomicFile{path: path, tmp: tmp, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

// Write writes to the buffer.
func (a *atomicFile) Write(p []byte) (int, error) {
	if a.done {
		return 0, fmt.Errorf("output: write to closed file %s", a.path)
	}
	return a.w.Write(p)
}

// Close flushes, closes and renames the temporary file to its final name.
// On any error the temporary file is removed. Close is idempotent.
func (a *atomicFile) Close() error {
	if a.done {
		return nil
	}
	a.done = true
	err := a.w.Flush()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.tmp, a.path)
	}
	if err != nil {
		os.Remove(a.tmp)
		return fmt.Errorf("output: writing %s: %w", a.path, err)
	}
	return nil
}

// Abort closes and removes the temporary file without creating the final
// file. It is a no-op after Close.
func (a *atomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.f.Close()
	os.Remove(a.tmp)
}

// WriteFileAtomic writes data to path through path+".tmp" and a rename,
// so readers never see a half-written file.
func WriteFileAtomic(path string, data []byte) error { return writeFileAtomic(path, data) }

// writeFileAtomic writes data to path through path+".tmp" and a rename.
func writeFileAtomic(path string, data []byte) error {
	a, err := createAtomic(path, false)
	if err != nil {
		return err
	}
	if _, err := a.Write(data); err != nil {
		a.Abort()
		return fmt.Errorf("output: writing %s: %w", path, err)
	}
	return a.Close()
}

// WriteAtomic writes path through write into path+".tmp", renamed to path
// when write and the flush succeed (large files written as they are
// produced: state files); on any error nothing is left at path.
func WriteAtomic(path string, write func(w io.Writer) error) error {
	a, err := createAtomic(path, false)
	if err != nil {
		return err
	}
	if err := write(a); err != nil {
		a.Abort()
		return fmt.Errorf("output: writing %s: %w", path, err)
	}
	return a.Close()
}

// CheckWritable reports whether a file can be created at path (its
// directory exists, or can be made, and takes files), by creating and
// removing a temporary file beside it: a run checks where it will save
// before its first step, not when the save is due hours later.
func CheckWritable(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.check")
	if err != nil {
		return fmt.Errorf("output: cannot write %s: %w", path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

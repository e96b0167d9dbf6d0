// Package bounded opens the files impactsim reads with a size limit for
// their kind. A file larger than its kind may be is refused at once, from
// its size; a file whose size is not known in advance (a pipe, a device
// such as /dev/zero) is refused as soon as more than the limit has been
// read. Either way the error is one line naming the file, the limit and
// the kind of file, instead of a read that goes on until memory runs out
// (issue 20: `run /dev/zero`, a 300 MB scene file).
//
// The limits are far above any real input of the kind (SCISim's largest
// asset scene is 4.4 kB, the Stanford bunny's OBJ 110 kB) and far below
// what would exhaust a workstation's memory while being parsed.
package bounded

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Limits by kind of file.
const (
	// Text is the limit of text inputs that describe a scene or a body:
	// SCISim XML scenes, OBJ and TetGen meshes, Bounce Map files, scene
	// descriptions of run directories (scene.json, scene3d.json).
	Text = 256 << 20
	// Small is the limit of small text inputs: tower files, scene
	// scripts, summary.json.
	Small = 16 << 20
)

// TooLargeError is a file larger than the limit of its kind.
type TooLargeError struct {
	Path  string
	Size  int64 // the file's size, or −1 if it is not known
	Limit int64
	What  string // "scene file", "OBJ mesh", …
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: more than %s, the limit for a %s (is it the right file?)", e.Path, size(e.Limit), e.What)
	}
	return fmt.Sprintf("%s: %s, more than %s, the limit for a %s (is it the right file?)", e.Path, size(e.Size), size(e.Limit), e.What)
}

func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1e6:
		return fmt.Sprintf("%.3g MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%d bytes", n)
}

// BinaryError is a NUL byte in a text input: a binary file (or
// /dev/zero) given where a text file was expected, refused at its first
// NUL instead of after the whole limit has been read and parsed.
type BinaryError struct {
	Path   string
	Offset int64
	What   string
}

func (e *BinaryError) Error() string {
	return fmt.Sprintf("%s: a NUL byte at byte %d: binary data, not a %s", e.Path, e.Offset, e.What)
}

// OpenText is Open for a text format: a NUL byte is a *BinaryError.
func OpenText(path string, limit int64, what string) (io.ReadCloser, error) {
	f, err := Open(path, limit, what)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{&text{r: f, name: path, what: what}, f}, nil
}

// TextReader is Reader for a text format: a NUL byte is a *BinaryError.
func TextReader(r io.Reader, name string, limit int64, what string) io.Reader {
	return &text{r: Reader(r, name, limit, what), name: name, what: what}
}

type text struct {
	r          io.Reader
	name, what string
	off        int64
}

func (t *text) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if i := bytes.IndexByte(p[:n], 0); i >= 0 {
		return i, &BinaryError{Path: t.name, Offset: t.off + int64(i), What: t.what}
	}
	t.off += int64(n)
	return n, err
}

// Open opens path for reading at most limit bytes: a regular file larger
// than limit is a *TooLargeError at once, any other file (a pipe, a
// device) one when more than limit bytes have been read. What names the
// kind of file in the message.
func Open(path string, limit int64, what string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		f.Close()
		return nil, &TooLargeError{Path: path, Size: st.Size(), Limit: limit, What: what}
	}
	return struct {
		io.Reader
		io.Closer
	}{Reader(f, path, limit, what), f}, nil
}

// ReadTextFile reads the text file path whole, with OpenText's checks.
func ReadTextFile(path string, limit int64, what string) ([]byte, error) {
	f, err := OpenText(path, limit, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Reader returns r limited to limit bytes: reading more is a
// *TooLargeError naming name and what.
func Reader(r io.Reader, name string, limit int64, what string) io.Reader {
	return &reader{r: r, left: limit, err: &TooLargeError{Path: name, Size: -1, Limit: limit, What: what}}
}

type reader struct {
	r    io.Reader
	left int64 // bytes that may still be read
	err  *TooLargeError
}

func (b *reader) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	// read one byte more than allowed, to tell a file of exactly the
	// limit from a longer one
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n - int(-b.left), b.err
	}
	return n, err
}

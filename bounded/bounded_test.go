package bounded

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.xml")
	os.WriteFile(big, []byte(strings.Repeat(" ", 1001)), 0o644)
	var tl *TooLargeError
	if _, err := Open(big, 1000, "scene file"); !errors.As(err, &tl) || tl.Size != 1001 ||
		err.Error() != big+": 1001 bytes, more than 1000 bytes, the limit for a scene file (is it the right file?)" {
		t.Errorf("regular file over the limit: %v", err)
	}
	if data, err := ReadTextFile(big, 1001, "scene file"); err != nil || len(data) != 1001 {
		t.Errorf("file of exactly the limit: %d bytes, %v", len(data), err)
	}
	// a stream of unknown size: refused once the limit is passed
	data, err := io.ReadAll(Reader(strings.NewReader(strings.Repeat("x", 5000)), "pipe", 4096, "scene file"))
	if !errors.As(err, &tl) || len(data) != 4096 || !strings.Contains(err.Error(), "pipe: more than 4096 bytes") {
		t.Errorf("stream: %d bytes, %v", len(data), err)
	}
	if data, err := io.ReadAll(Reader(strings.NewReader("abc"), "p", 3, "x")); err != nil || string(data) != "abc" {
		t.Errorf("stream of exactly the limit: %q %v", data, err)
	}
}

// TestDevZero: /dev/zero is refused after the limit, not read for ever.
func TestDevZero(t *testing.T) {
	f, err := Open("/dev/zero", 1<<20, "scene file")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	n, err := io.Copy(io.Discard, f)
	var tl *TooLargeError
	if !errors.As(err, &tl) || n != 1<<20 {
		t.Errorf("%d bytes, %v", n, err)
	}
}

// TestText: a NUL byte in a text input is refused where it is.
func TestText(t *testing.T) {
	var be *BinaryError
	_, err := io.ReadAll(TextReader(strings.NewReader("<a>\x00</a>"), "s.xml", 100, "scene file"))
	if !errors.As(err, &be) || err.Error() != "s.xml: a NUL byte at byte 3: binary data, not a scene file" {
		t.Errorf("%v", err)
	}
	f, err := OpenText("/dev/zero", 1<<30, "scene file")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if n, err := io.Copy(io.Discard, f); !errors.As(err, &be) || n != 0 {
		t.Errorf("/dev/zero: %d bytes, %v", n, err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSizeAndCountLimits: inputs too large for their kind and counts too
// large for the machine exit 2 with one line, at once: nothing is read
// past the limit and no count is allocated (under 100 MB allocated for
// all the cases together).
func TestSizeAndCountLimits(t *testing.T) {
	tmp := t.TempDir()
	huge := filepath.Join(tmp, "huge.xml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(300 << 20) // sparse: 300 MB of size, no disk
	f.Close()
	tower := filepath.Join(tmp, "tower.txt")
	f, _ = os.Create(tower)
	f.Truncate(17 << 20)
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", huge}, "huge.xml: 300 MiB, more than 256 MiB, the limit for a scene file"},
		{[]string{"run", "/dev/zero"}, "/dev/zero"},
		{[]string{"tower", "stable", tower}, "more than 16 MiB, the limit for a tower file"},
		{[]string{"bench", "drum", "--n", "1000000000"}, "1000000000 balls would need about 900 GB of memory (900 B per ball); this machine has"},
		{[]string{"bench", "drum", "--workers", "2000000000"}, "--workers: expected an integer from 0 to 1024"},
		{[]string{"bench", "drum", "--workers", "-1"}, "--workers: expected an integer from 0 to 1024"},
		{[]string{"bench", "drum", "--steps", "0"}, "--steps: expected an integer from 1 to"},
		{[]string{"render", tmp, "--width", "100000"}, "--width: expected an integer from 16 to 16384"},
		{[]string{"channel", "--workers", "-1"}, "--workers: expected an integer from 0 to 1024"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q (want %q)", c.args, code, errs, c.want)
		}
	}
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > 100<<20 {
		t.Errorf("%d MB allocated to refuse them", a>>20)
	}
}

package frame2d

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseTower: no tower file panics the parser, the framework builder
// or the stability LP; every error names the file.
// go test -fuzz=FuzzParseTower ./frame2d/
func FuzzParseTower(f *testing.F) {
	f.Add([]byte("# two bricks\nmodel corners\ndiagonals 1\ngravity 9.81\ndt 0.005\nground yes\nbrick 0 0.5 2 1 mass=2 name=a\nbrick 0.5 1.5 2 1 angle=5 name=b\n"))
	f.Add([]byte("model nine\ndiagonals 2\nground no\nsupport 0 0 4 1\nbrick 0 1 1 1\n"))
	f.Add([]byte("brick 0 0 0 1\n"))
	f.Add([]byte("brick 0 0 1 1 name=x\nbrick 0 1 1 1 name=x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 || bytes.Count(data, []byte("\n")) > 40 {
			return // the LP grows with the bricks
		}
		tw, err := Parse(bytes.NewReader(data), "fuzz.tower")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.tower") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		fw, err := tw.Framework()
		if err != nil {
			return
		}
		fw.Stable()
	})
}

// TestOnlySupports: a tower of supports alone is refused by the parser,
// and the stability LP of a framework without a movable body is an error
// (both panicked: found by FuzzParseTower).
func TestOnlySupports(t *testing.T) {
	if _, err := Parse(strings.NewReader("support 0 0 1 1\n"), "s.tower"); err == nil || !strings.Contains(err.Error(), "only supports") {
		t.Errorf("parse: %v", err)
	}
	tw := &Tower{Gravity: 9.81, Dt: 0.005, Bricks: []Brick{{X: 0, Y: 0.5, W: 1, H: 1, Fixed: true, Name: "s"}}}
	fw, err := tw.Framework()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Stable(); err == nil {
		t.Error("Stable of a framework with no movable body: no error")
	}
}

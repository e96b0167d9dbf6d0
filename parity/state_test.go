package parity

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestStateRoundTrip(t *testing.T) {
	s := &State{System: "rigidbody3d", Scene: "a/b.xml", SCISim: "abc", Command: "x -e 1", End: 1, Iteration: 100, Time: 1,
		Q: []float64{0.1, -1e-300, math.Pi}, V: []float64{1.0 / 3}}
	var b bytes.Buffer
	if err := WriteState(&b, s, "comment"); err != nil {
		t.Fatal(err)
	}
	got, err := ReadState(&b, "mem")
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(s, got); d.Max() != 0 || got.Iteration != 100 || got.Scene != s.Scene || got.SCISim != "abc" {
		t.Fatalf("round trip: %+v, %v", got, d)
	}
}

func TestReadStateErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"system b\nscene s\niteration 1\nq 2\n1\n", "mem:5: q: 1 numbers, want 2"},
		{"system b\nscene s\niteration 1\nq 1\nNaN\nv 0\n", "mem:5: q[0]: expected a finite number"},
		{"system b\nscene s\nq 0\nv 0\n", `missing "iteration"`},
		{"system b\nsystem c\n", `mem:2: duplicate "system"`},
		{"sistem b\n", `mem:1: unknown key "sistem"`},
	} {
		_, err := ReadState(strings.NewReader(c.in), "mem")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	ref := &State{Q: []float64{10, 0}, V: []float64{0.5}}
	got := &State{Q: []float64{10, 1e-8}, V: []float64{0.5 + 1e-9}}
	d := Compare(ref, got)
	// q relative to max(1, 10); v relative to max(1, 0.5) = 1
	if math.Abs(d.Q-1e-9) > 1e-22 || d.IQ != 1 || math.Abs(d.V-1e-9) > 1e-15 || d.IV != 0 {
		t.Fatalf("%+v", d)
	}
	if d := Compare(ref, &State{Q: []float64{10, math.NaN()}, V: []float64{0.5}}); !math.IsInf(d.Max(), 1) {
		t.Fatalf("NaN: %v", d)
	}
	if d := Compare(ref, &State{Q: []float64{10}, V: []float64{0.5}}); d.LenMismatch == "" || !math.IsInf(d.Max(), 1) {
		t.Fatalf("layout: %v", d)
	}
}

// FuzzReadState: no reference file panics the reader (a count line must
// not make it allocate what it claims); errors name the file.
// go test -fuzz=FuzzReadState ./parity/
func FuzzReadState(f *testing.F) {
	var b bytes.Buffer
	WriteState(&b, &State{System: "rigidbody3d", Scene: "a/b.xml", SCISim: "abc", Command: "x -e 1", End: 1, Iteration: 100, Time: 1,
		Q: []float64{0.1, -1e-300, math.Pi}, V: []float64{1.0 / 3}}, "comment")
	f.Add(b.Bytes())
	f.Add([]byte("system b\nscene s\niteration 1\nq 9999999999999\n1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ReadState(bytes.NewReader(data), "mem"); err != nil && !strings.HasPrefix(err.Error(), "mem") {
			t.Fatalf("error without the file name: %v", err)
		}
	})
}

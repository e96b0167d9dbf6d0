package spheres

import (
	"bytes"
	"testing"

	"impactsim/friction"
)

// TestStateRoundTrip: a run resumed from a written state continues bit for
// bit as the uninterrupted run.
func TestStateRoundTrip(t *testing.T) {
	cfg := &Config{H: 1e-3, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-9, MaxIter: 20, Domains: 3}, SortEvery: 5}
	a := boxOfSpheres(120, 9)
	for k := 0; k < 30; k++ {
		a.Step(cfg)
	}
	var buf bytes.Buffer
	if err := a.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	b := boxOfSpheres(5, 1)
	if err := b.ReadState(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	// the sort phase restarts at the resumed step; align the original
	a.stepsSinceOrder = 0
	for k := 0; k < 30; k++ {
		a.Step(cfg)
		b.Step(cfg)
	}
	for i := range a.X {
		if a.X[i] != b.X[i] {
			t.Fatalf("x[%d] differs after resuming", i)
		}
	}
	if err := b.ReadState(bytes.NewReader(buf.Bytes()[:100])); err == nil {
		t.Error("truncated state accepted")
	}
}

// FuzzReadState: no input makes ReadState panic or accept an invalid
// state.
func FuzzReadState(f *testing.F) {
	a := boxOfSpheres(3, 1)
	var buf bytes.Buffer
	a.WriteState(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		s := boxOfSpheres(1, 1)
		if err := s.ReadState(bytes.NewReader(data)); err == nil {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted an invalid state: %v", err)
			}
		}
	})
}

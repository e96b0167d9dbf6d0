package spheres

import (
	"bytes"
	"math"
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
	addStateSeed(f, 3)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := boxOfSpheres(1, 1)
		if err := s.ReadState(bytes.NewReader(data)); err == nil {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted an invalid state: %v", err)
			}
		}
	})
}

// TestReadStatePart: reading a state keeping the spheres of a region
// gives exactly the whole file's spheres there, bit for bit and in the
// file's order with their IDs, and the whole count; nil keeps all.
func TestReadStatePart(t *testing.T) {
	cfg := &Config{H: 1e-3, Epsilon: 0.5, Law: friction.NBGS{Tol: 1e-9, MaxIter: 20, Domains: 3}, SortEvery: 5}
	a := boxOfSpheres(120, 9)
	for k := 0; k < 12; k++ {
		a.Step(cfg) // sorted by cell: the IDs are out of order
	}
	var buf bytes.Buffer
	if err := a.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	mid := 0.0
	for i := 0; i < a.N(); i++ {
		mid += a.X[3*i] / float64(a.N())
	}
	left := func(x [3]float64) bool { return x[0] < mid }
	p := boxOfSpheres(1, 1)
	n, err := p.ReadStatePart(bytes.NewReader(buf.Bytes()), left)
	if err != nil {
		t.Fatal(err)
	}
	if n != a.N() {
		t.Fatalf("ReadStatePart reports %d spheres, the file holds %d", n, a.N())
	}
	var want System
	for i := 0; i < a.N(); i++ {
		if left([3]float64(a.X[3*i : 3*i+3])) {
			want.Put(Sphere{X: [3]float64(a.X[3*i : 3*i+3]), Q: [4]float64(a.Q[4*i : 4*i+4]), VW: [6]float64(a.VW[6*i : 6*i+6]),
				R: a.R[i], InvM: a.InvM[i], InvI: a.InvI[i], ID: a.ID[i]})
		}
	}
	if want.N() == 0 || want.N() == a.N() {
		t.Fatalf("the test region keeps %d of %d spheres", want.N(), a.N())
	}
	same := func(what string, x, y []float64) {
		if len(x) != len(y) {
			t.Fatalf("%s: %d values, want %d", what, len(x), len(y))
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("%s[%d] = %v, want %v", what, i, x[i], y[i])
			}
		}
	}
	same("X", p.X, want.X)
	same("Q", p.Q, want.Q)
	same("VW", p.VW, want.VW)
	same("R", p.R, want.R)
	same("InvM", p.InvM, want.InvM)
	same("InvI", p.InvI, want.InvI)
	for i := range want.ID {
		if p.ID[i] != want.ID[i] {
			t.Fatalf("ID[%d] = %d, want %d", i, p.ID[i], want.ID[i])
		}
	}
	if p.nextID != a.nextID {
		t.Errorf("next ID %d, want the file's %d", p.nextID, a.nextID)
	}
	all := boxOfSpheres(1, 1)
	if n, err := all.ReadStatePart(bytes.NewReader(buf.Bytes()), nil); err != nil || n != a.N() || all.N() != a.N() {
		t.Fatalf("nil keep: %d of %d spheres read, %d kept (%v)", n, a.N(), all.N(), err)
	}
	same("X (all)", all.X, a.X)
}

// FuzzReadStatePart: no input makes ReadStatePart panic; it accepts
// what ReadState accepts, and then keeps exactly the whole state's
// spheres its predicate accepts (centres with x < 0.5), with their IDs.
// It checks only the spheres it keeps (every sphere is kept, and checked,
// by one MPI rank), so it may accept a file whose dropped spheres
// ReadState refuses: its part must then be valid.
func FuzzReadStatePart(f *testing.F) {
	addStateSeed(f, 5)
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, part := boxOfSpheres(1, 1), boxOfSpheres(1, 1)
		werr := whole.ReadState(bytes.NewReader(data))
		keep := func(x [3]float64) bool { return x[0] < 0.5 }
		n, perr := part.ReadStatePart(bytes.NewReader(data), keep)
		if werr == nil && perr != nil {
			t.Fatalf("ReadState accepted the file, ReadStatePart: %v", perr)
		}
		if perr != nil {
			return
		}
		if werr != nil {
			if err := part.Validate(); err != nil {
				t.Fatalf("ReadStatePart accepted an invalid part: %v", err)
			}
			return
		}
		if n != whole.N() {
			t.Fatalf("ReadStatePart reports %d spheres, the file holds %d", n, whole.N())
		}
		k := 0
		for i := 0; i < whole.N(); i++ {
			if !keep([3]float64(whole.X[3*i : 3*i+3])) {
				continue
			}
			if k >= part.N() || part.ID[k] != whole.ID[i] || math.Float64bits(part.VW[6*k]) != math.Float64bits(whole.VW[6*i]) {
				t.Fatalf("kept sphere %d differs from the whole state's sphere %d", k, i)
			}
			k++
		}
		if k != part.N() {
			t.Fatalf("kept %d spheres, the whole state has %d in the region", part.N(), k)
		}
	})
}

// addStateSeed adds the state file of a box of n spheres to the corpus.
func addStateSeed(f *testing.F, n int) {
	var buf bytes.Buffer
	boxOfSpheres(n, 1).WriteState(&buf)
	f.Add(buf.Bytes())
}

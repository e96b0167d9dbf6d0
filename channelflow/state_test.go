package channelflow

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// tinyAfter returns the tiny channel after k steps.
func tinyAfter(t testing.TB, k int) *Flow {
	f, err := New(Tiny())
	if err != nil {
		t.Fatal(err)
	}
	for range k {
		f.Step()
	}
	return f
}

// TestStateResume: a flow resumed from its state continues bit for bit as
// the uninterrupted one (spawned layers, deletions and the random
// perturbations of new layers included); a changed byte or a truncated
// file is refused and leaves the flow as it was.
func TestStateResume(t *testing.T) {
	a := tinyAfter(t, 120)
	var buf bytes.Buffer
	if err := a.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	state := buf.Bytes()
	b := tinyAfter(t, 0)
	if err := b.ReadState(bytes.NewReader(state)); err != nil {
		t.Fatal(err)
	}
	if b.Steps != 120 {
		t.Fatalf("resumed at step %d, want 120", b.Steps)
	}
	for range 150 { // past a spawned layer (one every 94 steps) at step 188
		a.Step()
		b.Step()
	}
	if !slices.Equal(a.Sys.X, b.Sys.X) || !slices.Equal(a.Sys.VW, b.Sys.VW) || a.Sys.N() != b.Sys.N() {
		t.Fatalf("resumed flow differs: %d and %d spheres", a.Sys.N(), b.Sys.N())
	}
	// the resumed flow's statistics cover its own 150 steps: the mean
	// sweeps lie between the cap's share and the cap (they once divided by
	// all 270 steps)
	tab := b.Table2(0)
	capIt := float64(b.Cfg.Law.MaxIter)
	if tab.MeanSweeps > capIt || tab.MeanSweeps < capIt*float64(tab.CappedSteps)/150 || b.Stats.Steps != 150 {
		t.Errorf("resumed statistics: %d steps, %d capped, mean sweeps %v (cap %v)", b.Stats.Steps, tab.CappedSteps, tab.MeanSweeps, capIt)
	}
	c := tinyAfter(t, 0)
	n0 := c.Sys.N()
	bad := slices.Clone(state)
	bad[len(bad)/2] ^= 0x10
	if err := c.ReadState(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("changed byte: %v", err)
	}
	if err := c.ReadState(bytes.NewReader(state[:len(state)-9])); err == nil {
		t.Error("truncated state accepted")
	}
	if c.Sys.N() != n0 || c.Steps != 0 {
		t.Errorf("refused states changed the flow: %d spheres, step %d", c.Sys.N(), c.Steps)
	}
}

// FuzzReadState: no input makes ReadState panic or accept an invalid
// state.
func FuzzReadState(f *testing.F) {
	var buf bytes.Buffer
	if err := tinyAfter(f, 5).WriteState(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(stateMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := tinyAfter(t, 0)
		if err := g.ReadState(bytes.NewReader(data)); err == nil {
			if err := g.Sys.Validate(); err != nil {
				t.Fatalf("accepted an invalid state: %v", err)
			}
		}
	})
}

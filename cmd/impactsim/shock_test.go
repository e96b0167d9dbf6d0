package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/scenario"
	"impactsim/scene"
)

// TestShockFront: 150 grains settle in a container 12 wide; at the first
// step of the shake the impact climbs the pile one layer per iteration,
// for QCE (its sweeps) and GR (its reflections) alike: the iteration in
// which each of six depth bands is first pushed increases strictly with
// the band's height. The bands all pass the velocity threshold within the
// first steps (rigid contacts carry the push at once).
func TestShockFront(t *testing.T) {
	p := scene.DefaultShock()
	p.N, p.Width = 150, 12
	loose := scene.ShockGrains(p)
	grains, _, err := shockSettle(p, loose, 2, 0.01, io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	band, top := shockBands(grains, 6)
	for _, name := range []string{"qce", "gr"} {
		r, err := scenario.NewBall2D(scene.ShockContainer(p, loose, true), scenario.Options{CoR: &p.CoR, Mu: &p.Mu})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stepper.Law, err = shockLaw(name); err != nil {
			t.Fatal(err)
		}
		for i, g := range grains {
			r.Stepper.Q[2*i], r.Stepper.Q[2*i+1], r.Stepper.V[2*i], r.Stepper.V[2*i+1] = g.X, g.Y, 0, 0
		}
		f := shockFronts(r.Stepper, band, 6, p.Start, 0.05*2*3.14159*p.Frequency*p.Amplitude)
		for k := 0; k < 20; k++ {
			if err := r.Stepper.Step(); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s (pile %.3g high): iteration per band from the top %v, time %v", name, top, f.Iteration, f.Time)
		for b := 0; b+1 < 6; b++ { // band 0 is the top
			if !(f.Iteration[b] > f.Iteration[b+1]) || f.Iteration[5] != 1 {
				t.Fatalf("%s: the impact does not climb the pile band by band: %v", name, f.Iteration)
			}
		}
		for b, tf := range f.Time {
			if !(tf > 0 && tf < 0.02) {
				t.Errorf("%s: band %d passes the threshold at %v", name, b, tf)
			}
		}
	}
}

// TestShockCommand: bad flags exit 2 before writing anything.
func TestShockCommand(t *testing.T) {
	for _, args := range [][]string{{"--n", "1"}, {"--freq", "0"}, {"--operators", "qce,newton"}, {"--bands", "1"}, {"--dt", "-1"}} {
		out := filepath.Join(t.TempDir(), "shock")
		code, _, errs := runCLI(t, append([]string{"shock", "--out", out}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s", args, out)
		}
	}
}

package main

import (
	"strings"
	"testing"
)

func TestBenchPile(t *testing.T) {
	for _, kind := range []string{"box", "mesh"} {
		code, out, errs := runCLI(t, "bench", "pile", "--kind", kind, "--n", "8", "--steps", "5", "--mu", "0.5", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, code, errs)
		}
		for _, want := range []string{"| scene | bodies | detection avg / max / min (s) |", "| pile " + kind + " | 8 |", "peak RSS"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", kind, want, out)
			}
		}
	}
	// --dt replaces the scene's step
	code, out, errs := runCLI(t, "bench", "pile", "--n", "8", "--steps", "2", "--dt", "2.5e-4", "--quiet")
	if code != 0 || !strings.Contains(out, "h = 0.00025,") {
		t.Errorf("--dt 2.5e-4: exit %d, output lacks h = 0.00025:\n%s%s", code, out, errs)
	}
}

func TestBenchPileBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "pile", "--kind", "sphere"},
		{"bench", "pile", "--n", "0"},
		{"bench", "pile", "--operator", "newton"},
		{"bench", "pile", "--cor", "0.5,1.5"},
		{"bench", "pile", "--dt", "-1e-3"},
	} {
		code, out, errs := runCLI(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, out, errs)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "impactsim: bench pile: ") {
			t.Errorf("%v: want one line naming bench pile, got %q", args, errs)
		}
	}
	_, _, errs := runCLI(t, "bench", "pile", "--kind", "sphere")
	if !strings.Contains(errs, `--kind: expected box, mesh or bunny, got "sphere"`) {
		t.Errorf("unexpected message %q", errs)
	}
}

package main

import (
	"flag"
	"strings"
	"testing"
)

// TestEveryCommandHelp: `impactsim SUB --help` exits 0 and lists every
// flag SUB defines, each with a meaning; the top-level usage lists every
// flag of every command (both generated from the flag definitions).
func TestEveryCommandHelp(t *testing.T) {
	code, usage, errs := runCLI(t, "help")
	if code != 0 || errs != "" {
		t.Fatalf("help: exit %d, stderr %q", code, errs)
	}
	for _, c := range commandTable() {
		fs := commandFlags(c)
		if fs == nil {
			t.Errorf("%s: --help does not come back from parse with the command's flags (parse the flags first, with newFlags and parse)", c.name)
			continue
		}
		args := append(strings.Fields(c.name), "--help")
		code, out, errs := runCLI(t, args...)
		if code != 0 || errs != "" {
			t.Errorf("%s --help: exit %d, stderr %q", c.name, code, errs)
		}
		if !strings.HasPrefix(out, "usage: impactsim "+c.name) {
			t.Errorf("%s --help: output starts %q", c.name, out[:min(len(out), 60)])
		}
		if !strings.Contains(usage, "impactsim "+c.name) {
			t.Errorf("top-level usage lacks %q", c.name)
		}
		fs.VisitAll(func(f *flag.Flag) {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case int, int64, uint, uint64:
					if f.Name != "seed" {
						t.Errorf("%s --%s: an unbounded integer flag; define it with count or countVar (the range it accepts)", c.name, f.Name)
					}
				}
			}
			if strings.TrimSpace(f.Usage) == "" {
				t.Errorf("%s --%s: no usage text", c.name, f.Name)
			}
			if !strings.Contains(out, "\n  --"+f.Name+" ") && !strings.Contains(out, "\n  --"+f.Name+"\n") {
				t.Errorf("%s --help does not explain --%s", c.name, f.Name)
			}
			if !strings.Contains(usage, "[--"+f.Name+" ") && !strings.Contains(usage, "[--"+f.Name+"]") {
				t.Errorf("top-level usage lacks %s's --%s", c.name, f.Name)
			}
		})
		// -h and `impactsim help SUB` say the same
		if _, out2, _ := runCLI(t, append([]string{"help"}, strings.Fields(c.name)...)...); out2 != out {
			t.Errorf("impactsim help %s differs from %s --help", c.name, c.name)
		}
	}
	// the examples
	for _, want := range []string{"[--workers W]", "[--csv FILE]", "[--cor C]", "[--warm-start]", "[--save-state FILE]",
		"[--save-at LIST]", "[--resume FILE]", "interior", "[--speed]"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	// a group alone is an error listing its commands; with --help it is not
	if code, _, errs := runCLI(t, "bench"); code != 2 || !strings.Contains(errs, "drum, pile, channel") {
		t.Errorf("bench: exit %d, %q", code, errs)
	}
	if code, out, _ := runCLI(t, "tower", "--help"); code != 0 || !strings.Contains(out, "impactsim tower collapse") {
		t.Errorf("tower --help: exit %d, %q", code, out)
	}
	if code, _, errs := runCLI(t, "bench", "drums"); code != 2 || !strings.Contains(errs, `unknown subcommand "drums"`) {
		t.Errorf("bench drums: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t); code != 2 || !strings.Contains(errs, "impactsim run SCENE") {
		t.Errorf("no arguments: exit %d, %q", code, errs)
	}
}

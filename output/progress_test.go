package output

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestProgressQuickRunIsSilent(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgressOptions(&buf, 100, "run", ProgressOptions{Now: c.now, Mode: ProgressTerminal})
	for i := 0; i <= 100; i++ {
		c.advance(15 * time.Millisecond) // 1.5 s in all
		p.Update(float64(i))
	}
	p.Finish()
	if buf.Len() != 0 {
		t.Fatalf("quick run printed %q", buf.String())
	}
}

func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgressOptions(&buf, 200, "sim", ProgressOptions{Now: c.now, Mode: ProgressLines})
	for i := 1; i <= 200; i++ {
		c.advance(50 * time.Millisecond) // 10 s in all
		p.Update(float64(i))
	}
	p.Finish()
	p.Update(5) // ignored after Finish
	want := `sim  40% 4.0s elapsed, ETA 6.0s
sim  50% 5.0s elapsed, ETA 5.0s
sim  60% 6.0s elapsed, ETA 4.0s
sim  70% 7.0s elapsed, ETA 3.0s
sim  80% 8.0s elapsed, ETA 2.0s
sim  90% 9.0s elapsed, ETA 1.0s
sim 100% done in 10.0s
`
	// The first line appears once the 2 s delay has passed (at 20%).
	want = "sim  20% 2.0s elapsed, ETA 8.0s\nsim  30% 3.0s elapsed, ETA 7.0s\n" + want
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgressOptions(&buf, 1000, "", ProgressOptions{Now: c.now, Mode: ProgressTerminal, BarWidth: 10})
	for i := 1; i <= 1000; i++ {
		c.advance(5 * time.Millisecond) // 5 s in all, updates every 5 ms
		p.Update(float64(i))
	}
	p.Finish()
	out := buf.String()
	redraws := strings.Count(out, "\r")
	// Shown from 2 s on, at most one redraw per 100 ms: ≤ 31 + final.
	if redraws < 25 || redraws > 32 {
		t.Errorf("%d redraws", redraws)
	}
	if !strings.HasSuffix(strings.TrimRight(out, " \n"), "\r100% [==========] 5.0s done") || !strings.HasSuffix(out, "\n") {
		t.Errorf("final line: %q", out[max(0, len(out)-60):])
	}
	if !strings.Contains(out, "\r 40% [====>     ] 2.0s ETA 3.0s") {
		t.Errorf("first line missing: %q", out[:min(len(out), 80)])
	}
}

func TestProgressUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(0, 0)}
	p := NewProgressOptions(&buf, 0, "steps", ProgressOptions{Now: c.now, Mode: ProgressLines})
	for i := 1; i <= 25; i++ {
		c.advance(time.Second)
		p.Update(float64(i))
	}
	p.Finish()
	want := "steps 2 done, 2.0s elapsed\nsteps 12 done, 12.0s elapsed\nsteps 22 done, 22.0s elapsed\nsteps 25 done, 25.0s elapsed\n"
	if buf.String() != want {
		t.Fatalf("got %q", buf.String())
	}
}

func TestProgressAutoDetectsNonTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if NewProgress(f, 1, "x").tty || NewProgress(&bytes.Buffer{}, 1, "x").tty {
		t.Fatal("regular file or buffer taken for a terminal")
	}
}

func TestFmtDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		4200 * time.Millisecond:     "4.2s",
		65 * time.Second:            "1m05s",
		2*time.Hour + 3*time.Minute: "2h03m",
		-time.Second:                "0.0s",
	} {
		if got := fmtDuration(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

// TestProgressETAFromRecentCost: a run whose steps slow down 100-fold
// half-way (a pile forming) estimates from the recent cost, not from the
// run's average (the 1M drop showed "70 %, ETA 2m09s" for 16 minutes).
func TestProgressETAFromRecentCost(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgressOptions(&buf, 100, "run", ProgressOptions{Now: c.now, Mode: ProgressLines, Tick: -1})
	for i := 1; i <= 70; i++ {
		if i <= 50 {
			c.advance(100 * time.Millisecond)
		} else {
			c.advance(10 * time.Second)
		}
		p.Update(float64(i))
	}
	// 30 steps of 10 s remain: 5m00s (the average, 205 s / 70 steps, said 1m28s)
	if !strings.HasSuffix(buf.String(), "run  70% 3m25s elapsed, ETA 5m00s\n") {
		t.Errorf("got %q", buf.String())
	}
}

// TestProgressLongStep: a step that takes minutes shows its phase, and the
// estimate grows with it instead of counting down to 0 (the resumed 1M
// drop showed "93 %, ETA 0.4 s" for 7 minutes).
func TestProgressLongStep(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Unix(1000, 0)}
	p := NewProgressOptions(&buf, 100, "", ProgressOptions{Now: c.now, Mode: ProgressTerminal, Tick: -1, BarWidth: 10})
	for i := 1; i <= 93; i++ {
		c.advance(100 * time.Millisecond)
		p.Update(float64(i))
	}
	p.Phase("contact law")
	for k := 0; k < 7*60; k++ {
		c.advance(time.Second)
		p.Refresh()
	}
	out := buf.String()
	last := out[strings.LastIndex(out, "\r")+1:]
	// 7 steps left, the current one has run 7 min: at least 6 × 7 min more
	if !strings.HasPrefix(last, " 93% [=========>] 7m09s ETA 42m00s (contact law for 7m00s)") {
		t.Errorf("after a 7-minute step: %q", last)
	}
	c.advance(time.Second)
	p.Update(94)
	if s := buf.String(); strings.HasSuffix(strings.TrimRight(s, " "), ")") {
		t.Errorf("phase still shown after the step ended: %q", s[strings.LastIndex(s, "\r"):])
	}
}

package output

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"
)

// ProgressMode selects how a Progress draws.
type ProgressMode int

const (
	// ProgressAuto redraws one line with carriage returns when the writer is
	// a terminal (an *os.File whose mode has os.ModeCharDevice) and prints
	// plain lines otherwise.
	ProgressAuto ProgressMode = iota
	// ProgressTerminal always redraws one line with carriage returns, at most
	// once per ProgressOptions.Interval.
	ProgressTerminal
	// ProgressLines prints a new line each time another 10% is done.
	ProgressLines
)

// ProgressOptions configures NewProgressOptions. Zero values select the
// defaults.
type ProgressOptions struct {
	Mode     ProgressMode
	Now      func() time.Time // clock; default time.Now (tests inject a fake)
	Delay    time.Duration    // nothing is shown before this much time has passed; default 2 s
	Interval time.Duration    // minimum time between terminal redraws; default 100 ms
	BarWidth int              // characters inside the brackets; default 30
}

// Progress is a progress bar for long runs. It shows a percentage, a bar,
// the elapsed time and an estimate of the remaining time. It stays silent
// if the run ends within ProgressOptions.Delay (2 s by default). Its methods
// may be called from several goroutines.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    float64
	label    string
	opt      ProgressOptions
	tty      bool
	start    time.Time
	done     float64
	shown    bool
	lastDraw time.Time
	lastDec  int // last decile printed in lines mode
	lastLen  int // length of the last terminal line, to blank leftovers
	finished bool
}

// NewProgress returns a progress bar for a run of the given total amount of
// work (steps, simulated seconds, ...), writing to w (typically os.Stderr).
func NewProgress(w io.Writer, total float64, label string) *Progress {
	return NewProgressOptions(w, total, label, ProgressOptions{})
}

// NewProgressOptions is NewProgress with options.
func NewProgressOptions(w io.Writer, total float64, label string, opt ProgressOptions) *Progress {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Delay == 0 {
		opt.Delay = 2 * time.Second
	}
	if opt.Interval == 0 {
		opt.Interval = 100 * time.Millisecond
	}
	if opt.BarWidth <= 0 {
		opt.BarWidth = 30
	}
	tty := false
	switch opt.Mode {
	case ProgressTerminal:
		tty = true
	case ProgressAuto:
		tty = isTerminal(w)
	}
	return &Progress{w: w, total: total, label: label, opt: opt, tty: tty, start: opt.Now(), lastDec: -1}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update reports that done units of the total are complete.
func (p *Progress) Update(done float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	if !math.IsNaN(done) {
		p.done = done
	}
	now := p.opt.Now()
	if !p.shown {
		if now.Sub(p.start) < p.opt.Delay {
			return
		}
		p.shown = true
	} else if p.tty && now.Sub(p.lastDraw) < p.opt.Interval {
		return
	}
	p.draw(now, false)
}

// Finish marks the run complete. If the bar was shown it prints a final
// 100% line (ending the terminal line with a newline); otherwise it prints
// nothing. Later calls to Update and Finish do nothing.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	if !p.shown {
		return
	}
	if p.total > 0 {
		p.done = p.total
	}
	p.draw(p.opt.Now(), true)
}

func (p *Progress) frac() float64 {
	if !(p.total > 0) {
		return math.NaN()
	}
	return math.Min(math.Max(p.done/p.total, 0), 1)
}

// draw writes the current state; it is called with p.mu held.
func (p *Progress) draw(now time.Time, final bool) {
	elapsed := now.Sub(p.start)
	f := p.frac()
	var s string
	if p.tty {
		s = p.terminalLine(f, elapsed, final)
		pad := ""
		if n := len(s); n < p.lastLen {
			pad = strings.Repeat(" ", p.lastLen-n)
		}
		p.lastLen = len(s)
		end := ""
		if final {
			end = "\n"
		}
		fmt.Fprint(p.w, "\r"+s+pad+end)
		p.lastDraw = now
		return
	}
	if !final {
		if math.IsNaN(f) {
			// Unknown total: a line every 10 s.
			if p.lastDec >= 0 && now.Sub(p.lastDraw) < 10*time.Second {
				return
			}
			p.lastDec = 0
		} else {
			// Deciles 0..9; 100% is left to Finish.
			dec := min(int(math.Floor(f*10+1e-9)), 9)
			if dec <= p.lastDec {
				return
			}
			p.lastDec = dec
		}
	}
	fmt.Fprintln(p.w, p.plainLine(f, elapsed, final))
	p.lastDraw = now
}

func (p *Progress) prefix() string {
	if p.label == "" {
		return ""
	}
	return p.label + " "
}

func (p *Progress) terminalLine(f float64, elapsed time.Duration, final bool) string {
	if math.IsNaN(f) {
		return fmt.Sprintf("%s%s done, %s elapsed", p.prefix(), fmtAmount(p.done), fmtDuration(elapsed))
	}
	n := p.opt.BarWidth
	fill := int(math.Floor(f * float64(n)))
	bar := strings.Repeat("=", fill)
	if fill < n {
		bar += ">" + strings.Repeat(" ", n-fill-1)
	}
	s := fmt.Sprintf("%s%3d%% [%s] %s", p.prefix(), int(math.Floor(f*100)), bar, fmtDuration(elapsed))
	if final {
		return s + " done"
	}
	return s + " ETA " + p.eta(f, elapsed)
}

func (p *Progress) plainLine(f float64, elapsed time.Duration, final bool) string {
	if math.IsNaN(f) {
		return fmt.Sprintf("%s%s done, %s elapsed", p.prefix(), fmtAmount(p.done), fmtDuration(elapsed))
	}
	if final {
		return fmt.Sprintf("%s100%% done in %s", p.prefix(), fmtDuration(elapsed))
	}
	return fmt.Sprintf("%s%3d%% %s elapsed, ETA %s", p.prefix(), int(math.Floor(f*100)), fmtDuration(elapsed), p.eta(f, elapsed))
}

func (p *Progress) eta(f float64, elapsed time.Duration) string {
	if !(f > 0) {
		return "?"
	}
	return fmtDuration(time.Duration(float64(elapsed) * (1 - f) / f))
}

func fmtAmount(x float64) string {
	return fmt.Sprintf("%.6g", x)
}

// fmtDuration prints 4.2s, 1m05s or 2h03m.
func fmtDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		s := int(d.Round(time.Second) / time.Second)
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	default:
		m := int(d.Round(time.Minute) / time.Minute)
		return fmt.Sprintf("%dh%02dm", m/60, m%60)
	}
}

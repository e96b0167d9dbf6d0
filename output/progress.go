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
	// LineEvery is the longest time between two lines in ProgressLines
	// mode (besides one line per 10%); default 1 min.
	LineEvery time.Duration
	// Tick is how often a background goroutine redraws while no Update
	// comes (a step that takes minutes): default 1 s; negative: no
	// goroutine (tests call Refresh instead).
	Tick time.Duration
}

// progressSamples is the number of recent (time, done) samples kept for
// the ETA, spaced by at least 1 s and 1/128 of the elapsed time, so they
// reach back further than the estimate's window (eta).
const progressSamples = 32

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
	// recent (time, done) samples, oldest first, and the last update
	samples    []progressSample
	lastUpdate time.Time
	phase      string    // the current phase of the unit in progress (Phase)
	phaseStart time.Time // when it started
	stop       chan struct{}
	stopped    chan struct{}
}

type progressSample struct {
	t    time.Time
	done float64
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
	if opt.LineEvery == 0 {
		opt.LineEvery = time.Minute
	}
	if opt.Tick == 0 {
		opt.Tick = time.Second
	}
	tty := false
	switch opt.Mode {
	case ProgressTerminal:
		tty = true
	case ProgressAuto:
		tty = isTerminal(w)
	}
	start := opt.Now()
	return &Progress{w: w, total: total, label: label, opt: opt, tty: tty, start: start, lastDec: -1,
		samples: []progressSample{{start, 0}}, lastUpdate: start}
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
	p.lastUpdate = now
	if last := p.samples[len(p.samples)-1]; now.Sub(last.t) >= max(time.Second, now.Sub(p.start)/128) || len(p.samples) == 1 {
		if len(p.samples) == progressSamples {
			p.samples = append(p.samples[:0], p.samples[1:]...)
		}
		p.samples = append(p.samples, progressSample{now, p.done})
	} else {
		p.samples[len(p.samples)-1] = progressSample{now, p.done}
	}
	if p.stop == nil && p.opt.Tick > 0 && p.w != io.Discard {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick(p.stop, p.stopped)
	}
	p.show(now)
}

// Phase says what the unit of work in progress is doing ("contact law"),
// shown with its duration when a unit takes seconds.
func (p *Progress) Phase(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if name != p.phase {
		p.phase, p.phaseStart = name, p.opt.Now()
	}
}

// Refresh redraws the bar if it is due: the background goroutine calls it
// every ProgressOptions.Tick, so a unit of work that takes minutes still
// shows its phase and a growing estimate.
func (p *Progress) Refresh() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.show(p.opt.Now())
	}
}

func (p *Progress) tick(stop, stopped chan struct{}) {
	defer close(stopped)
	t := time.NewTicker(p.opt.Tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.Refresh()
		}
	}
}

// show draws at now if the bar is due; called with p.mu held.
func (p *Progress) show(now time.Time) {
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
	if p.stop != nil {
		close(p.stop)
		p.mu.Unlock()
		<-p.stopped // a Refresh in progress finishes first
		p.mu.Lock()
	}
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
			// Deciles 0..9 (100% is left to Finish), and a line at
			// least every LineEvery.
			dec := min(int(math.Floor(f*10+1e-9)), 9)
			if dec <= p.lastDec && now.Sub(p.lastDraw) < p.opt.LineEvery {
				return
			}
			p.lastDec = max(dec, p.lastDec)
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
	return s + " ETA " + p.eta(f, elapsed) + p.current()
}

func (p *Progress) plainLine(f float64, elapsed time.Duration, final bool) string {
	if math.IsNaN(f) {
		return fmt.Sprintf("%s%s done, %s elapsed", p.prefix(), fmtAmount(p.done), fmtDuration(elapsed))
	}
	if final {
		return fmt.Sprintf("%s100%% done in %s", p.prefix(), fmtDuration(elapsed))
	}
	return fmt.Sprintf("%s%3d%% %s elapsed, ETA %s%s", p.prefix(), int(math.Floor(f*100)), fmtDuration(elapsed), p.eta(f, elapsed), p.current())
}

// stall is how long the unit in progress has run (since the last Update).
func (p *Progress) stall() time.Duration { return p.opt.Now().Sub(p.lastUpdate) }

// eta estimates the remaining time from the cost per unit over a recent
// window (the last eighth of the elapsed time, at least 10 s), not from
// the whole run, and from the unit in progress once it has run longer
// than that cost: a run that slows down (a pile forming) does not keep
// showing the early, optimistic estimate.
func (p *Progress) eta(f float64, elapsed time.Duration) string {
	if !(f > 0) {
		return "?"
	}
	last := p.samples[len(p.samples)-1]
	window := max(10*time.Second, elapsed/8)
	old := p.samples[0]
	for _, s := range p.samples {
		if last.t.Sub(s.t) < window {
			break
		}
		old = s
	}
	per := elapsed.Seconds() / p.done // seconds per unit, whole run
	if d := last.done - old.done; d > 0 {
		per = last.t.Sub(old.t).Seconds() / d
	}
	stall := p.stall().Seconds()
	if stall > per {
		per = stall
	}
	rem := math.Max(p.total-p.done, 0)*per - stall
	return fmtDuration(time.Duration(math.Max(rem, 0) * float64(time.Second)))
}

// current describes the unit in progress when it has run for 2 s or more:
// its phase and how long it has been in it, " (contact law for 12.3s)".
func (p *Progress) current() string {
	st := p.stall()
	if st < 2*time.Second {
		return ""
	}
	if p.phase == "" || p.phaseStart.Before(p.lastUpdate) {
		return fmt.Sprintf(" (no progress for %s)", fmtDuration(st))
	}
	return fmt.Sprintf(" (%s for %s)", p.phase, fmtDuration(p.opt.Now().Sub(p.phaseStart)))
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

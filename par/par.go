// Package par is a small fixed-size worker pool for the data-parallel loops
// of the step (detection, free flight, island solves).
//
// Work is split so that results can be made independent of the number of
// workers: For hands out contiguous index ranges (callers concatenate
// per-range outputs in range order, or write by index), Each hands out
// single indices dynamically (callers write results by index). Neither
// allocates once the pool exists, provided the function value passed in is
// not a fresh closure (keep it in a field).
//
// Hand-offs are cheap when they come close together: a worker that has
// finished waits for its next job by polling for a short while (spinWait)
// before it sleeps, and so does the caller waiting for the workers. The
// 60k layer's step hands work to the pool about 450 times (MPRGP's and
// GR's vector loops), mostly tens of microseconds apart; waking a sleeping
// thread for each cost about a sixth of the step (BENCHMARKS.md,
// "stepfast").
package par

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Pool runs functions on a fixed set of goroutines. A nil *Pool is valid and
// runs everything on the calling goroutine. A Pool must not be used by
// several goroutines at once (its calls do not nest).
type Pool struct {
	workers int
	ws      []*worker
	pending atomic.Int32 // the workers' jobs not yet done
	done    waiter       // the caller, waiting for pending = 0
	next    atomic.Int64
}

type job struct {
	rng       func(w, lo, hi int)
	each      func(w, i int)
	w, lo, hi int
	quit      bool
}

// worker is one pool goroutine's mailbox: job is written before seq is
// raised, and read after the worker has seen the new seq.
type worker struct {
	seq  atomic.Uint64
	job  job
	wake waiter
	_    [64]byte // keep the workers' mailboxes on separate cache lines
}

// waiter lets a goroutine that polled in vain sleep until another one
// signals it, without a lost or a stray wake-up: the sleeper announces
// itself (parked = 1) and then checks its condition once more; the
// signaller changes the condition and then claims the announcement
// (parked 1 → 0) before it sends. Both use sequentially consistent atomics,
// so at least one of them sees the other, and exactly one claims it.
type waiter struct {
	parked atomic.Int32
	ch     chan struct{} // capacity 1
}

// spinFor is how long a goroutine polls for its condition before it
// sleeps: longer than the gaps between the hand-offs of a solver's
// iteration, short enough that a pool waiting through a serial phase
// wastes little.
const spinFor = 50 * time.Microsecond

// wait returns when cond holds: it polls for spinFor, then sleeps until
// signal.
func (wt *waiter) wait(cond func() bool) {
	if spinWait(cond) {
		return
	}
	for {
		wt.parked.Store(1)
		if cond() {
			if !wt.parked.CompareAndSwap(1, 0) {
				<-wt.ch // the signaller claimed it: take its token
			}
			return
		}
		<-wt.ch
		if cond() {
			return
		}
	}
}

// signal wakes the goroutine if it sleeps in wait; call it after making
// its condition true.
func (wt *waiter) signal() {
	if wt.parked.CompareAndSwap(1, 0) {
		wt.ch <- struct{}{}
	}
}

// spinWait polls cond for up to spinFor and reports whether it held.
func spinWait(cond func() bool) bool {
	var t0 time.Time
	for i := 0; ; i++ {
		if cond() {
			return true
		}
		if i&63 == 63 {
			if i == 63 {
				t0 = time.Now()
			} else if time.Since(t0) > spinFor {
				return false
			}
			runtime.Gosched()
		}
	}
}

// New returns a pool of the given number of workers (≤ 0: GOMAXPROCS). The
// calling goroutine acts as worker 0, so workers−1 goroutines are started;
// they live until Close.
func New(workers int) *Pool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &Pool{workers: workers}
	p.done.ch = make(chan struct{}, 1)
	for w := 1; w < workers; w++ {
		wk := &worker{}
		wk.wake.ch = make(chan struct{}, 1)
		p.ws = append(p.ws, wk)
		go p.loop(wk)
	}
	return p
}

func (p *Pool) loop(wk *worker) {
	var seen uint64
	posted := func() bool { return wk.seq.Load() != seen }
	for {
		wk.wake.wait(posted)
		seen++
		j := wk.job
		if j.quit {
			return
		}
		if j.rng != nil {
			j.rng(j.w, j.lo, j.hi)
		} else {
			p.drain(j.w, j.hi, j.each)
		}
		if p.pending.Add(-1) == 0 {
			p.done.signal()
		}
	}
}

// post hands job j to worker goroutine k (0-based: pool worker k+1).
func (p *Pool) post(k int, j job) {
	wk := p.ws[k]
	wk.job = j
	wk.seq.Add(1)
	wk.wake.signal()
}

// wait returns when every posted job is done.
func (p *Pool) wait() {
	p.done.wait(p.idle)
}

func (p *Pool) idle() bool { return p.pending.Load() == 0 }

// Close stops the pool's goroutines. The pool must not be used afterwards.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	for k := range p.ws {
		p.post(k, job{quit: true})
	}
	p.ws = nil
	p.workers = 1
}

// Workers returns the number of workers (1 for a nil pool).
func (p *Pool) Workers() int {
	if p == nil {
		return 1
	}
	return p.workers
}

// Chunks returns how many ranges For(n, grain, ·) uses.
func (p *Pool) Chunks(n, grain int) int {
	nw := p.Workers()
	if grain < 1 {
		grain = 1
	}
	if c := (n + grain - 1) / grain; c < nw {
		nw = c
	}
	if nw < 1 {
		nw = 1
	}
	return nw
}

// For splits [0, n) into Chunks(n, grain) contiguous ranges of near-equal
// size (each at least grain long unless n is smaller) and runs f(w, lo, hi)
// for range w, one range per worker, returning when all are done.
func (p *Pool) For(n, grain int, f func(w, lo, hi int)) {
	nw := p.Chunks(n, grain)
	if nw <= 1 {
		if n > 0 {
			f(0, 0, n)
		}
		return
	}
	p.pending.Store(int32(nw - 1))
	for w := 1; w < nw; w++ {
		p.post(w-1, job{rng: f, w: w, lo: w * n / nw, hi: (w + 1) * n / nw})
	}
	f(0, 0, n/nw)
	p.wait()
}

// Each runs f(w, i) for every i in [0, n), handing indices to workers in
// increasing order as they become free (w is the worker running it). Use it
// for items of very different cost; results must be written by index.
func (p *Pool) Each(n int, f func(w, i int)) {
	nw := p.Chunks(n, 1)
	if nw <= 1 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	p.next.Store(0)
	p.pending.Store(int32(nw - 1))
	for w := 1; w < nw; w++ {
		p.post(w-1, job{each: f, w: w, hi: n})
	}
	p.drain(0, n, f)
	p.wait()
}

func (p *Pool) drain(w, n int, f func(w, i int)) {
	for {
		i := int(p.next.Add(1) - 1)
		if i >= n {
			return
		}
		f(w, i)
	}
}

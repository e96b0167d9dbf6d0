// Package par is a small fixed-size worker pool for the data-parallel loops
// of the step (detection, free flight, island solves).
//
// Work is split so that results can be made independent of the number of
// workers: For hands out contiguous index ranges (callers concatenate
// per-range outputs in range order, or write by index), Each hands out
// single indices dynamically (callers write results by index). Neither
// allocates once the pool exists, provided the function value passed in is
// not a fresh closure (keep it in a field).
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool runs functions on a fixed set of goroutines. A nil *Pool is valid and
// runs everything on the calling goroutine. A Pool must not be used by
// several goroutines at once (its calls do not nest).
type Pool struct {
	workers int
	jobs    []chan job
	wg      sync.WaitGroup
	next    atomic.Int64
}

type job struct {
	rng       func(w, lo, hi int)
	each      func(w, i int)
	w, lo, hi int
}

// New returns a pool of the given number of workers (≤ 0: GOMAXPROCS). The
// calling goroutine acts as worker 0, so workers−1 goroutines are started;
// they live until Close.
func New(workers int) *Pool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &Pool{workers: workers}
	for w := 1; w < workers; w++ {
		ch := make(chan job)
		p.jobs = append(p.jobs, ch)
		go p.loop(ch)
	}
	return p
}

func (p *Pool) loop(ch chan job) {
	for j := range ch {
		if j.rng != nil {
			j.rng(j.w, j.lo, j.hi)
		} else {
			p.drain(j.w, j.hi, j.each)
		}
		p.wg.Done()
	}
}

// Close stops the pool's goroutines. The pool must not be used afterwards.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	for _, ch := range p.jobs {
		close(ch)
	}
	p.jobs = nil
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
	p.wg.Add(nw - 1)
	for w := 1; w < nw; w++ {
		p.jobs[w-1] <- job{rng: f, w: w, lo: w * n / nw, hi: (w + 1) * n / nw}
	}
	f(0, 0, n/nw)
	p.wg.Wait()
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
	p.wg.Add(nw - 1)
	for w := 1; w < nw; w++ {
		p.jobs[w-1] <- job{each: f, w: w, hi: n}
	}
	p.drain(0, n, f)
	p.wg.Wait()
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

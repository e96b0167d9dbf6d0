package mpi

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// RunLocal runs f on n goroutine "ranks" of one in-process job and waits
// for all of them. Messages are copied between the goroutines (sends are
// buffered: Isend completes at once, as MPI's eager protocol does for small
// messages), so code written against Comm runs unchanged on it. When a
// rank's f returns an error or panics the job is aborted: the other ranks'
// pending and later calls return ErrAborted, and RunLocal returns a
// *RankError naming the first rank that failed.
func RunLocal(n int, f func(c Comm) error) error {
	if n < 1 {
		return fmt.Errorf("mpi: RunLocal with %d ranks, want ≥ 1", n)
	}
	w := newLocalWorld(n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := 0; r < n; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					errs[r] = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
					w.abort(r, errs[r])
				}
			}()
			if err := f(w.comm(r)); err != nil {
				errs[r] = err
				w.abort(r, err)
			}
		}()
	}
	wg.Wait()
	if w.failed != nil {
		return w.failed
	}
	return nil
}

// localWorld is the shared state of a RunLocal job.
type localWorld struct {
	n     int
	boxes []mailbox // per destination rank
	ctxs  []int     // per rank: communicators created so far

	stop   chan struct{}
	once   sync.Once
	failed *RankError
}

type mailbox struct {
	mu    sync.Mutex
	msgs  []*localMsg // arrived, not yet received (arrival order)
	recvs []*localReq // posted, not yet matched (post order)
}

type localMsg struct {
	ctx, src, tag int
	f             []float64
	i             []int32
	isInt         bool
}

type localReq struct {
	w             *localWorld
	ctx, src, tag int
	f             []float64
	i             []int32
	isInt         bool
	done          chan struct{}
	n             int
	err           error
}

func newLocalWorld(n int) *localWorld {
	return &localWorld{n: n, boxes: make([]mailbox, n), ctxs: make([]int, n), stop: make(chan struct{})}
}

func (w *localWorld) comm(r int) *localComm { return &localComm{w: w, rank: r} }

func (w *localWorld) abort(r int, err error) {
	w.once.Do(func() {
		w.failed = &RankError{Rank: r, Err: err}
		close(w.stop)
	})
}

// localComm is one rank's view of a communicator of a RunLocal job.
type localComm struct {
	w    *localWorld
	rank int
	ctx  int // communicator id: messages of different communicators never match
}

func (c *localComm) Rank() int { return c.rank }
func (c *localComm) Size() int { return c.w.n }

func (c *localComm) check(peer int) error {
	select {
	case <-c.w.stop:
		return ErrAborted
	default:
	}
	if peer != ProcNull && (peer < 0 || peer >= c.w.n) {
		return fmt.Errorf("mpi: rank %d out of range [0, %d)", peer, c.w.n)
	}
	return nil
}

// send delivers a copy of the message to dest's mailbox, completing the
// first posted matching receive.
func (c *localComm) send(f []float64, is []int32, isInt bool, dest, tag int) error {
	if err := c.check(dest); err != nil || dest == ProcNull {
		return err
	}
	m := &localMsg{ctx: c.ctx, src: c.rank, tag: tag, isInt: isInt}
	if isInt {
		m.i = append([]int32(nil), is...)
	} else {
		m.f = append([]float64(nil), f...)
	}
	b := &c.w.boxes[dest]
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, r := range b.recvs {
		if r.ctx == m.ctx && r.src == m.src && r.tag == m.tag {
			b.recvs = append(b.recvs[:k], b.recvs[k+1:]...)
			r.complete(m)
			return nil
		}
	}
	b.msgs = append(b.msgs, m)
	return nil
}

func (r *localReq) complete(m *localMsg) {
	switch {
	case m.isInt != r.isInt:
		r.err = fmt.Errorf("mpi: message from rank %d tag %d: int32/float64 mismatch", m.src, m.tag)
	case m.isInt && len(m.i) > len(r.i), !m.isInt && len(m.f) > len(r.f):
		r.err = fmt.Errorf("mpi: message from rank %d tag %d truncated: %d values into a buffer of %d", m.src, m.tag, max(len(m.i), len(m.f)), max(len(r.i), len(r.f)))
	case m.isInt:
		r.n = copy(r.i, m.i)
	default:
		r.n = copy(r.f, m.f)
	}
	close(r.done)
}

func (c *localComm) recv(f []float64, is []int32, isInt bool, src, tag int) (*localReq, error) {
	r := &localReq{w: c.w, ctx: c.ctx, src: src, tag: tag, f: f, i: is, isInt: isInt, done: make(chan struct{})}
	if err := c.check(src); err != nil {
		return nil, err
	}
	if src == ProcNull {
		close(r.done)
		return r, nil
	}
	b := &c.w.boxes[c.rank]
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, m := range b.msgs {
		if m.ctx == r.ctx && m.src == src && m.tag == tag {
			b.msgs = append(b.msgs[:k], b.msgs[k+1:]...)
			r.complete(m)
			return r, nil
		}
	}
	b.recvs = append(b.recvs, r)
	return r, nil
}

func (r *localReq) Wait() (int, error) {
	select {
	case <-r.done:
		return r.n, r.err
	case <-r.w.stop:
		select {
		case <-r.done:
			return r.n, r.err
		default:
		}
		return 0, ErrAborted
	}
}

type sentReq int

func (s sentReq) Wait() (int, error) { return int(s), nil }

func (c *localComm) Isend(buf []float64, dest, tag int) (Request, error) {
	if err := c.send(buf, nil, false, dest, tag); err != nil {
		return nil, err
	}
	return sentReq(len(buf)), nil
}

func (c *localComm) IsendInt32(buf []int32, dest, tag int) (Request, error) {
	if err := c.send(nil, buf, true, dest, tag); err != nil {
		return nil, err
	}
	return sentReq(len(buf)), nil
}

func (c *localComm) Irecv(buf []float64, source, tag int) (Request, error) {
	return c.recv(buf, nil, false, source, tag)
}

func (c *localComm) IrecvInt32(buf []int32, source, tag int) (Request, error) {
	return c.recv(nil, buf, true, source, tag)
}

func (c *localComm) Sendrecv(send []float64, dest, sendTag int, recv []float64, source, recvTag int) (int, error) {
	r, err := c.recv(recv, nil, false, source, recvTag)
	if err != nil {
		return 0, err
	}
	if err := c.send(send, nil, false, dest, sendTag); err != nil {
		return 0, err
	}
	return r.Wait()
}

func (c *localComm) SendrecvInt32(send []int32, dest, sendTag int, recv []int32, source, recvTag int) (int, error) {
	r, err := c.recv(nil, recv, true, source, recvTag)
	if err != nil {
		return 0, err
	}
	if err := c.send(nil, send, true, dest, sendTag); err != nil {
		return 0, err
	}
	return r.Wait()
}

// collTag is the tag of collective traffic; user tags are ≥ 0 as in MPI.
const collTag = -1

// Allreduce gathers every rank's vector on rank 0, which combines them in
// rank order (so the result does not depend on timing) and sends the
// result back.
func (c *localComm) Allreduce(send, recv []float64, op Op) error {
	if len(recv) != len(send) {
		return fmt.Errorf("mpi: allreduce of %d values into %d", len(send), len(recv))
	}
	if c.rank != 0 {
		if err := c.send(send, nil, false, 0, collTag); err != nil {
			return err
		}
		r, err := c.recv(recv, nil, false, 0, collTag)
		if err != nil {
			return err
		}
		_, err = r.Wait()
		return err
	}
	if c.w.n == 1 {
		// One rank: the reduction is the rank's own values (no copies,
		// no allocation).
		copy(recv, send)
		return nil
	}
	acc := append([]float64(nil), send...)
	buf := make([]float64, len(send))
	for src := 1; src < c.w.n; src++ {
		r, err := c.recv(buf, nil, false, src, collTag)
		if err != nil {
			return err
		}
		if _, err := r.Wait(); err != nil {
			return err
		}
		reduce(acc, buf, op)
	}
	for dst := 1; dst < c.w.n; dst++ {
		if err := c.send(acc, nil, false, dst, collTag); err != nil {
			return err
		}
	}
	copy(recv, acc)
	return nil
}

func (c *localComm) Barrier() error { return c.Allreduce(nil, nil, Sum) }

func (c *localComm) CartCreate(dims []int, periodic []bool) (Comm, error) {
	if err := c.Barrier(); err != nil {
		return nil, err
	}
	c.w.ctxs[c.rank]++
	return &localComm{w: c.w, rank: c.rank, ctx: c.w.ctxs[c.rank]}, nil
}

func (c *localComm) Abort(code int, msg string) error {
	err := fmt.Errorf("abort (code %d): %s", code, msg)
	c.w.abort(c.rank, err)
	return err
}

package par

import (
	"testing"
	"time"
)

func TestForEach(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := New(workers)
		out := make([]int, 1000)
		f := func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] += i
			}
		}
		p.For(len(out), 10, f)
		g := func(w, i int) { out[i] += 1 }
		p.Each(len(out), g)
		for i, v := range out {
			if v != i+1 {
				t.Fatalf("workers %d: out[%d] = %d", workers, i, v)
			}
		}
		if a := testing.AllocsPerRun(10, func() { p.For(len(out), 10, f); p.Each(len(out), g) }); a != 0 {
			t.Errorf("workers %d: %v allocs per run", workers, a)
		}
		p.Close()
	}
	var nilPool *Pool
	n := 0
	nilPool.For(5, 1, func(w, lo, hi int) { n += hi - lo })
	if n != 5 {
		t.Fatal(n)
	}
}

// TestHandOffs runs many hand-offs with gaps below and above spinFor, so
// that both the polling and the sleeping paths of the workers and of the
// caller are taken, with a worker slower or faster than the caller, and
// checks that every range ran exactly once per call.
func TestHandOffs(t *testing.T) {
	for _, workers := range []int{2, 3} {
		p := New(workers)
		count := make([]int, 64)
		var slow int
		f := func(w, lo, hi int) {
			if w == slow {
				time.Sleep(2 * spinFor)
			}
			for i := lo; i < hi; i++ {
				count[i]++
			}
		}
		calls := 0
		for k := 0; k < 200; k++ {
			slow = k % (workers + 1) // worker 0 (the caller), another, or none
			if k%7 == 0 {
				time.Sleep(3 * spinFor) // the workers go to sleep
			}
			p.For(len(count), 1, f)
			calls++
			if k%5 == 0 {
				p.Each(len(count), func(w, i int) { count[i]++ })
				calls++
			}
		}
		for i, c := range count {
			if c != calls {
				t.Fatalf("workers %d: index %d ran %d times in %d calls", workers, i, c, calls)
			}
		}
		p.Close()
	}
}

package mech

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// concurrentRanges is a runner for AssembleRanges: n split into the given
// number of near-equal ranges, each on its own goroutine (worker index =
// range index).
func concurrentRanges(workers int) func(n int, f func(w, lo, hi int)) {
	return func(n int, f func(w, lo, hi int)) {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(w, w*n/workers, (w+1)*n/workers)
			}()
		}
		wg.Wait()
	}
}

// TestAssembleRangesIsAssemble: assembling by concurrent row ranges gives
// Assemble's matrix bit for bit (structure, entries, diagonal) for 1–4
// ranges, on random problems with general and fixed blocks, and reusing
// the workspace for another problem changes nothing.
func TestAssembleRangesIsAssemble(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var r Delassus
	for trial := 0; trial < 12; trial++ {
		p := randomProblem(rng, 30+5*trial, 2+trial%4, 80+20*trial)
		var d Delassus
		d.Assemble(&p.G, &p.MInv)
		for workers := 1; workers <= 4; workers++ {
			r.AssembleRanges(&p.G, &p.MInv, workers, concurrentRanges(workers))
			ptr, col, val := d.Rows()
			rp, rc, rv := r.Rows()
			if r.Dim() != d.Dim() || len(rc) != len(col) {
				t.Fatalf("trial %d, %d ranges: %d×%d with %d entries, Assemble %d×%d with %d", trial, workers, r.Dim(), r.Dim(), len(rc), d.Dim(), d.Dim(), len(col))
			}
			for i := range ptr {
				if rp[i] != ptr[i] {
					t.Fatalf("trial %d, %d ranges: Ptr[%d] = %d, Assemble %d", trial, workers, i, rp[i], ptr[i])
				}
			}
			for k := range col {
				if rc[k] != col[k] || rv[k] != val[k] {
					t.Fatalf("trial %d, %d ranges: entry %d = (%d, %v), Assemble (%d, %v)", trial, workers, k, rc[k], rv[k], col[k], val[k])
				}
			}
			for i := 0; i < d.Dim(); i++ {
				if r.Diag(i) != d.Diag(i) {
					t.Fatalf("trial %d, %d ranges: diagonal %d = %v, Assemble %v", trial, workers, i, r.Diag(i), d.Diag(i))
				}
			}
		}
	}
}

// TestAssembleRangesDoesNotAllocate: once its workspaces have grown,
// AssembleRanges allocates nothing (with a runner that does not).
func TestAssembleRangesDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := randomProblem(rng, 200, 2, 500)
	var d Delassus
	run := func(n int, f func(w, lo, hi int)) {
		f(1, 0, n/2)
		f(0, n/2, n)
	}
	d.AssembleRanges(&p.G, &p.MInv, 2, run)
	if a := testing.AllocsPerRun(10, func() { d.AssembleRanges(&p.G, &p.MInv, 2, run) }); a != 0 {
		t.Errorf("AssembleRanges allocates %v times per call", a)
	}
}

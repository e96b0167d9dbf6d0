package scratch

import (
	"fmt"
	"testing"
	"unsafe"
)

// The slices of one phase do not overlap, the next phase's reuse the same
// memory, and a sized arena takes no allocation.
func TestArenaPhases(t *testing.T) {
	var a Arena
	a.Floats(5)
	a.Int32s(7)
	a.Int64s(3)
	Take[[2]int32](&a, 3) // sizes the buffer
	a.Reset()
	f := a.Floats(5)
	i := a.Int32s(7)
	l := a.Int64s(3)
	if len(f) != 5 || len(i) != 7 || len(l) != 3 || cap(f) != 5 {
		t.Fatalf("lengths %d %d %d, cap %d", len(f), len(i), len(l), cap(f))
	}
	p := Take[[2]int32](&a, 3)
	p[2] = [2]int32{1, 2}
	if a.Used() != 5+4+3+3 {
		t.Fatalf("used %d words, want 15", a.Used())
	}
	for k := range f {
		f[k] = float64(k) + 0.5
	}
	for k := range i {
		i[k] = int32(-k)
	}
	for k := range l {
		l[k] = int64(k) << 40
	}
	for k := range f {
		if f[k] != float64(k)+0.5 {
			t.Fatalf("f[%d] = %v: overwritten by a later slice of the phase", k, f[k])
		}
	}
	for k := range i {
		if i[k] != int32(-k) {
			t.Fatalf("i[%d] = %v: overwritten", k, i[k])
		}
	}
	if uintptr(unsafe.Pointer(&l[0]))%8 != 0 {
		t.Fatal("int64s not 8-byte aligned")
	}
	a.Reset()
	g := a.Int32s(4)
	if &g[0] != (*int32)(unsafe.Pointer(&f[0])) {
		t.Fatal("the next phase does not reuse the first phase's memory")
	}
	words := a.Words()
	allocs := testing.AllocsPerRun(10, func() {
		a.Reset()
		a.Floats(5)
		a.Int32s(7)
		a.Int64s(3)
		Take[[2]int32](&a, 3)
	})
	if allocs != 0 || a.Words() != words {
		t.Fatalf("a sized arena allocated %v times (words %d → %d)", allocs, words, a.Words())
	}
}

// A phase that outgrows the buffer keeps its earlier slices and gets a
// buffer that holds the whole phase next time.
func TestArenaGrows(t *testing.T) {
	var a Arena
	f := a.Floats(4)
	f[3] = 7
	g := a.Floats(100)
	g[99] = 1
	if f[3] != 7 || a.Used() != 104 || a.Words() < 104 {
		t.Fatalf("f[3] %v, used %d, words %d", f[3], a.Used(), a.Words())
	}
	a.Reset()
	if allocs := testing.AllocsPerRun(5, func() { a.Reset(); a.Floats(4); a.Floats(100) }); allocs != 0 {
		t.Fatalf("the grown arena allocated %v times", allocs)
	}
}

// Release gives the words taken since Mark to the next slices.
func TestMarkRelease(t *testing.T) {
	var a Arena
	a.Floats(100)
	a.Reset()
	a.Floats(3)
	mk := a.Mark()
	h := a.Floats(2)
	a.Release(mk)
	if h2 := a.Floats(2); &h2[0] != &h[0] || a.Used() != mk+2 {
		t.Fatal("the words released are not the next ones taken")
	}
	if r := a.Rest(); len(r) != a.Words()-a.Used() || &r[0] != &a.Floats(1)[0] {
		t.Fatal("Rest is not the words after the phase's")
	}
}

// TryTake takes only what fits, and never grows the buffer.
func TestTryTakeWhatFits(t *testing.T) {
	var a Arena
	a.Floats(10)
	a.Reset()
	w := a.Words()
	if s, ok := TryTake[int32](&a, 2*w); !ok || len(s) != 2*w {
		t.Fatalf("%d int32s in %d words: ok %v", 2*w, w, ok)
	}
	if _, ok := TryTake[float64](&a, 1); ok {
		t.Fatal("took a word past the buffer")
	}
	if s, ok := TryTake[[2]int32](&a, 0); !ok || len(s) != 0 {
		t.Fatal("an empty slice does not fit")
	}
	if a.Words() != w || a.Used() != w {
		t.Fatalf("words %d, used %d", a.Words(), a.Used())
	}
	a.Reset()
	if _, ok := TryTake[float64](&a, a.Words()+1); ok || a.Used() != 0 {
		t.Fatal("TryTake grew the buffer")
	}
}

// Two phases of a step share one buffer: the second reuses the first's
// memory, and the buffer is as large as the larger phase.
func ExampleArena() {
	var a Arena
	for step := 0; step < 2; step++ {
		// phase 1: a broad phase's cell keys and sorted order
		a.Reset()
		key, order := a.Int32s(1000), a.Int32s(1000)
		_, _ = key, order
		// phase 2: a solver's vectors (the keys are dead)
		a.Reset()
		x := a.Floats(600)
		_ = x
	}
	fmt.Println(a.Words() >= 1000, a.Used())
	// Output: true 600
}

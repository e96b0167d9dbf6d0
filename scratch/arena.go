package scratch

import "unsafe"

// Arena is a buffer lent by phase (package documentation). The zero value
// is empty and ready to use.
type Arena struct {
	buf []float64 // the storage, in 8-byte words
	off int       // words taken in the current phase
}

// Reset begins a phase: every slice taken before is dead from now on (its
// memory is the next slices').
func (a *Arena) Reset() { a.off = 0 }

// Mark returns the current end of the phase, for Release.
func (a *Arena) Mark() int { return a.off }

// Release ends the part of the phase taken since Mark returned mark: the
// slices taken since are dead, and their memory is the next slices'. A
// phase's own sub-phases (a solver's iterations) use it.
func (a *Arena) Release(mark int) {
	if mark < 0 || mark > a.off {
		panic("scratch: release past the phase's end")
	}
	a.off = mark
}

// Rest returns the words of the buffer not taken in the current phase
// (all of it after Reset), for a caller that lends them on as plain
// storage (a solver's vectors) until its phase's next Take or Reset.
func (a *Arena) Rest() []float64 { return a.buf[a.off:len(a.buf):len(a.buf)] }

// Words returns the number of 8-byte words the arena holds.
func (a *Arena) Words() int { return len(a.buf) }

// Used returns the number of words taken since the last Reset.
func (a *Arena) Used() int { return a.off }

// take returns the next n words of the phase. When the buffer is short it
// is replaced by one that holds the whole phase so far and a quarter more;
// the slices already taken stay in the old buffer, valid until the phase
// ends, and the next phases fit in the new one.
func (a *Arena) take(n int) []float64 {
	if n < 0 {
		panic("scratch: negative length")
	}
	end := a.off + n
	if end > len(a.buf) {
		a.buf = make([]float64, end+end/4)
	}
	s := a.buf[a.off:end:end]
	a.off = end
	return s
}

// Plain is the element types an Arena hands out: no pointers, and an
// alignment of at most 8 bytes.
type Plain interface {
	~float64 | ~int64 | ~int | ~int32 | ~[2]int32
}

// Take returns the next n elements of type T of a's phase (contents
// undefined), from the fewest words that hold them.
func Take[T Plain](a *Arena, n int) []T {
	var z T
	w := a.take((n*int(unsafe.Sizeof(z)) + 7) / 8)
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&w[0])), n)
}

// TryTake is Take when a's buffer holds the n elements without growing,
// and ok false (taking nothing) when it does not: for a callee lent an
// arena for one call that keeps storage of its own for what the arena
// cannot hold, so that the lender's buffer is not grown by the callee's
// needs (and neither allocates once sized).
func TryTake[T Plain](a *Arena, n int) (s []T, ok bool) {
	var z T
	if a.off+(n*int(unsafe.Sizeof(z))+7)/8 > len(a.buf) {
		return nil, false
	}
	return Take[T](a, n), true
}

// Floats returns the next n float64s of the phase (contents undefined).
func (a *Arena) Floats(n int) []float64 { return a.take(n) }

// Int64s returns the next n int64s of the phase (contents undefined).
func (a *Arena) Int64s(n int) []int64 { return Take[int64](a, n) }

// Int32s returns the next n int32s of the phase (contents undefined),
// from ⌈n/2⌉ words.
func (a *Arena) Int32s(n int) []int32 { return Take[int32](a, n) }

package impact

import "impactsim/scratch"

// Propagation is implemented by the operators that resolve a problem in
// successive iterations — GR's reflections (Alg. 2), QCE's sweeps (Zhang
// et al. Alg. 1; QCE-LCP's QCE stage), the pairwise sweeps — in which an
// impulse reaches the contacts of a pile one layer after another. After
// Resolve, FirstPush()[i] is the iteration (1, 2, …) in which contact i
// first received an impulse, 0 if it received none: the order in which
// the impact propagated through the contacts (rigid contacts carry it
// within one time step, so this order is the wave's only clock).
type Propagation interface {
	FirstPush() []int32
}

// firstPush records the iteration at which each contact is first pushed.
type firstPush struct {
	it  []int32 // the record: own, or in an arena lent to the operator
	own []int32
}

// FirstPush implements Propagation.
func (f *firstPush) FirstPush() []int32 { return f.it }

// resetPush starts the record for m contacts.
func (f *firstPush) resetPush(m int) { f.resetPushIn(m, nil) }

// resetPushIn is resetPush with the record in ar's phase when ar is not
// nil (then valid as long as that phase: GR.LendArena).
func (f *firstPush) resetPushIn(m int, ar *scratch.Arena) {
	if ar != nil {
		f.it = scratch.Take[int32](ar, m)
	} else {
		if cap(f.own) < m {
			f.own = make([]int32, m, m+m/4+8)
		}
		f.it = f.own[:m]
	}
	clear(f.it)
}

// keepPush moves the record into f's own storage.
func (f *firstPush) keepPush() {
	f.own = append(f.own[:0], f.it...)
	f.it = f.own
}

// push records that the contacts idx are pushed in iteration iter (from 1).
func (f *firstPush) push(idx []int, iter int) {
	for _, k := range idx {
		if f.it[k] == 0 {
			f.it[k] = int32(iter)
		}
	}
}

// pushOne records that contact k is pushed in iteration iter.
func (f *firstPush) pushOne(k, iter int) {
	if f.it[k] == 0 {
		f.it[k] = int32(iter)
	}
}

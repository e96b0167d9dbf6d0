// Package scratch provides Arena, one block of memory that a computation
// lends by phase to workspaces that are never live at the same time.
//
// A step of a large simulation runs phases one after another — the broad
// phase, the split into islands, an impact operator, a friction operator —
// each with per-call workspaces (index arrays, per-contact vectors) that
// it no longer reads once it returns. Kept each in its own slice, their
// sizes add up in the process's peak memory although only one phase's are
// live at a time. An Arena holds one buffer; a phase begins with Reset and
// takes its slices (Floats, Int32s, Int64s) from the start of the buffer
// on, so the next phase's slices reuse the same memory. The buffer is
// grown (never shrunk) when a phase needs more than it holds, and once it
// is as large as the largest phase a step takes no allocation.
//
// The slices of different element types share the buffer's memory (a
// []int32 taken from it views 8-byte words as pairs of 4-byte integers,
// through package unsafe, with the alignment the buffer guarantees). None
// of them holds pointers, so the garbage collector is not concerned. A
// slice's contents are whatever the previous phase left there: a phase
// must write every element before reading it, as it would after growing
// a reused slice of its own.
//
// An Arena is not safe for concurrent use: a phase takes its slices on one
// goroutine, and may then hand them to others.
package scratch

// Package mpi is impactsim's message passing: a thin binding to the MPI C
// API for runs across processes and machines (mpirun, Slurm), and the same
// interface on goroutine "ranks" inside one process for tests.
//
// # Builds
//
//	go build ./...                         pure Go (CGO_ENABLED=0): Init returns a one-rank world
//	CGO_ENABLED=1 go build -tags mpi ./... the binding (binding.go) to the system's MPI library
//
// The binding links Open MPI through pkg-config (`ompi-c`; Debian's
// openmpi-bin and libopenmpi-dev, 4.1.4 on the development machine).
// Communicators and requests cross into Go as Fortran handles (MPI_Fint,
// MPI_Comm_c2f/f2c), which are integers under every implementation.
//
// # Threads
//
// Init calls MPI_Init_thread with MPI_THREAD_FUNNELED: only the thread that
// initialised MPI calls it. The package's init locks the main goroutine to
// its OS thread (runtime.LockOSThread), so "the main goroutine" is that
// thread; every call checks MPI_Is_thread_main and returns an error off it.
// Worker goroutines (package par) compute; the main goroutine communicates.
// In a test binary the main goroutine is TestMain's: MainScenario runs a
// scenario there, before m.Run.
//
// # Buffers
//
// Sendrecv passes Go memory to MPI for the duration of the call only
// (cgo's rule). Isend and Irecv leave the pointer with MPI until Wait, so
// the buffer is pinned (runtime.Pinner) from the call until Wait returns
// and must not be touched meanwhile.
//
// # Errors
//
// The world and Cartesian communicators use MPI_ERRORS_RETURN: a failed
// call returns a Go error with MPI_Error_string's text instead of aborting.
// A rank that cannot go on calls Abort (MPI_Abort), which ends the job;
// mpirun then reports the rank. RunLocal's goroutine ranks do the same: a
// rank's error or panic aborts the others (ErrAborted) and the job's error
// is a *RankError naming the rank.
//
// # Goroutine ranks
//
// RunLocal(n, f) runs f on n goroutines with a Comm each. Messages are
// copied (sends complete at once), matched by (communicator, source, tag)
// in sending order as MPI's non-overtaking rule requires, and a receive
// buffer shorter than the message is an error (MPI_ERR_TRUNCATE).
// Allreduce combines the ranks' values on rank 0 in rank order, so its
// result is deterministic; MPI's own Allreduce is deterministic for a
// given job size and library, not across them.
//
// # Cartesian grids
//
// Cart places rank r at the row-major coordinates of r over Dims (the last
// dimension fastest, MPI's order) and CartCreate is MPI_Cart_create without
// reordering, so Coords, RankOf and Shift are computed in Go; the -tags mpi
// tests hold Shift to MPI_Cart_shift. DimsCreate splits n ranks as evenly as
// possible (MPI_Dims_create).
package mpi

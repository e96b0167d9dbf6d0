//go:build !(mpi && cgo)

package mpi

// Enabled reports whether this build uses the MPI library (built with
// -tags mpi and cgo). Without it Init returns a one-rank world.
const Enabled = false

// Init starts the job and returns its world communicator. Without the MPI
// binding the world is this one process: rank 0 of 1 (messages to itself
// are delivered as between goroutine ranks).
func Init() (Comm, error) { return newLocalWorld(1).comm(0), nil }

// Finalize ends the job (nothing to do without MPI).
func Finalize() error { return nil }

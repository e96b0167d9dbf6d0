package mpi

import (
	"errors"
	"fmt"
)

// ProcNull is the rank of no process (MPI_PROC_NULL): a send to it does
// nothing and a receive from it completes at once with no data. Shift
// returns it past the edge of a non-periodic dimension.
const ProcNull = -1

// Op is a reduction operation of Allreduce.
type Op int

// The reductions of Allreduce.
const (
	Sum Op = iota
	Max
	Min
)

func (o Op) String() string {
	switch o {
	case Sum:
		return "sum"
	case Max:
		return "max"
	case Min:
		return "min"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Comm is a communicator: a group of ranks that exchange messages. Its
// methods follow the MPI C API of the same names; a message is a slice of
// float64 or of int32, matched by (source, tag) in the order it was sent
// (MPI's non-overtaking rule). Float64 and int32 messages of the same tag
// must not be mixed. Collective calls (Allreduce, Barrier, CartCreate)
// must be made by every rank in the same order.
//
// Under the MPI binding every call must come from the goroutine that
// called Init, the main goroutine (MPI_THREAD_FUNNELED).
type Comm interface {
	// Rank is this process's rank in [0, Size).
	Rank() int
	// Size is the number of ranks.
	Size() int
	// Sendrecv sends send to dest and receives into recv from source
	// (either may be ProcNull) and returns the number of values received.
	Sendrecv(send []float64, dest, sendTag int, recv []float64, source, recvTag int) (int, error)
	SendrecvInt32(send []int32, dest, sendTag int, recv []int32, source, recvTag int) (int, error)
	// Isend starts sending buf to dest; buf must not change until the
	// request's Wait returns.
	Isend(buf []float64, dest, tag int) (Request, error)
	IsendInt32(buf []int32, dest, tag int) (Request, error)
	// Irecv starts receiving into buf from source; buf holds the message
	// once the request's Wait returns (a longer message is an error).
	Irecv(buf []float64, source, tag int) (Request, error)
	IrecvInt32(buf []int32, source, tag int) (Request, error)
	// Allreduce combines send over all ranks element by element into
	// recv (len(recv) = len(send)); every rank gets the same values.
	Allreduce(send, recv []float64, op Op) error
	// Barrier returns once every rank has called it.
	Barrier() error
	// CartCreate returns a new communicator over the same ranks (rank
	// order kept, MPI_Cart_create without reordering) with a Cartesian
	// topology of the given dimensions; prod(dims) must equal Size.
	CartCreate(dims []int, periodic []bool) (Comm, error)
	// Abort ends every rank of the job with the message; it does not
	// return under MPI.
	Abort(code int, msg string) error
}

// Request is a pending Isend or Irecv.
type Request interface {
	// Wait blocks until the operation completes and returns the number of
	// values received (for a send: sent).
	Wait() (int, error)
}

// WaitAll waits for every request and returns the first error.
func WaitAll(reqs []Request) error {
	var first error
	for _, r := range reqs {
		if r == nil {
			continue
		}
		if _, err := r.Wait(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ErrAborted is returned by the calls of a rank whose job was aborted
// (another rank failed).
var ErrAborted = errors.New("mpi: job aborted")

// RankError is the failure of one rank of a job.
type RankError struct {
	Rank int
	Err  error
}

func (e *RankError) Error() string { return fmt.Sprintf("mpi: rank %d failed: %v", e.Rank, e.Err) }
func (e *RankError) Unwrap() error { return e.Err }

// reduce combines src into dst element by element.
func reduce(dst, src []float64, op Op) {
	switch op {
	case Sum:
		for i, x := range src {
			dst[i] += x
		}
	case Max:
		for i, x := range src {
			if x > dst[i] {
				dst[i] = x
			}
		}
	case Min:
		for i, x := range src {
			if x < dst[i] {
				dst[i] = x
			}
		}
	}
}

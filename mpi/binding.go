//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdlib.h>

// Communicators and requests cross into Go as Fortran handles (MPI_Fint),
// which are integers under every MPI implementation (Open MPI's C handles
// are pointers, MPICH's are ints).

static MPI_Datatype impactsim_type(int t) { return t ? MPI_INT32_T : MPI_DOUBLE; }
static int impactsim_peer(int r) { return r < 0 ? MPI_PROC_NULL : r; }

static int impactsim_init(int *provided) {
	int e = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, provided);
	if (e == MPI_SUCCESS) MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	return e;
}
static MPI_Fint impactsim_world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }
static int impactsim_main_thread(void) { int f = 0; MPI_Is_thread_main(&f); return f; }
static int impactsim_rank(MPI_Fint c, int *r) { return MPI_Comm_rank(MPI_Comm_f2c(c), r); }
static int impactsim_size(MPI_Fint c, int *n) { return MPI_Comm_size(MPI_Comm_f2c(c), n); }

static int impactsim_sendrecv(int t, const void *s, int sn, int dest, int stag,
		void *r, int rn, int src, int rtag, MPI_Fint c, int *count) {
	MPI_Status st;
	MPI_Datatype dt = impactsim_type(t);
	int e = MPI_Sendrecv(s, sn, dt, impactsim_peer(dest), stag, r, rn, dt, impactsim_peer(src), rtag, MPI_Comm_f2c(c), &st);
	if (e == MPI_SUCCESS) e = MPI_Get_count(&st, dt, count);
	return e;
}

static int impactsim_isend(int t, const void *b, int n, int dest, int tag, MPI_Fint c, MPI_Fint *req) {
	MPI_Request r;
	int e = MPI_Isend(b, n, impactsim_type(t), impactsim_peer(dest), tag, MPI_Comm_f2c(c), &r);
	*req = MPI_Request_c2f(r);
	return e;
}

static int impactsim_irecv(int t, void *b, int n, int src, int tag, MPI_Fint c, MPI_Fint *req) {
	MPI_Request r;
	int e = MPI_Irecv(b, n, impactsim_type(t), impactsim_peer(src), tag, MPI_Comm_f2c(c), &r);
	*req = MPI_Request_c2f(r);
	return e;
}

static int impactsim_wait(int t, MPI_Fint req, int *count) {
	MPI_Request r = MPI_Request_f2c(req);
	MPI_Status st;
	int e = MPI_Wait(&r, &st);
	if (e == MPI_SUCCESS) e = MPI_Get_count(&st, impactsim_type(t), count);
	return e;
}

static int impactsim_allreduce(const double *s, double *r, int n, int op, MPI_Fint c) {
	MPI_Op o = op == 1 ? MPI_MAX : op == 2 ? MPI_MIN : MPI_SUM;
	return MPI_Allreduce(s, r, n, MPI_DOUBLE, o, MPI_Comm_f2c(c));
}

static int impactsim_barrier(MPI_Fint c) { return MPI_Barrier(MPI_Comm_f2c(c)); }

static int impactsim_cart(MPI_Fint c, int nd, int *dims, int *periods, MPI_Fint *out) {
	MPI_Comm cc;
	int e = MPI_Cart_create(MPI_Comm_f2c(c), nd, dims, periods, 0, &cc);
	if (e == MPI_SUCCESS) {
		MPI_Comm_set_errhandler(cc, MPI_ERRORS_RETURN);
		*out = MPI_Comm_c2f(cc);
	}
	return e;
}

static int impactsim_cart_shift(MPI_Fint c, int dim, int disp, int *src, int *dst) {
	int e = MPI_Cart_shift(MPI_Comm_f2c(c), dim, disp, src, dst);
	if (*src == MPI_PROC_NULL) *src = -1;
	if (*dst == MPI_PROC_NULL) *dst = -1;
	return e;
}

static int impactsim_abort(MPI_Fint c, int code) { return MPI_Abort(MPI_Comm_f2c(c), code); }

static void impactsim_error_string(int e, char *buf) {
	int n = 0;
	MPI_Error_string(e, buf, &n);
	buf[n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1] = 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"
)

// Enabled reports whether this build uses the MPI library.
const Enabled = true

func init() {
	// MPI_THREAD_FUNNELED: every MPI call comes from the thread that
	// called MPI_Init_thread. Package initialisation runs on the main
	// goroutine; locking it to its thread here makes "the main
	// goroutine" and "the main thread" the same.
	runtime.LockOSThread()
}

var errOffMain = errors.New("mpi: call off the main goroutine (MPI is initialised MPI_THREAD_FUNNELED)")

func mpiErr(what string, e C.int) error {
	if e == C.MPI_SUCCESS {
		return nil
	}
	buf := (*C.char)(C.malloc(C.MPI_MAX_ERROR_STRING))
	defer C.free(unsafe.Pointer(buf))
	C.impactsim_error_string(e, buf)
	return fmt.Errorf("mpi: %s: %s", what, C.GoString(buf))
}

// Init initialises MPI (MPI_Init_thread with MPI_THREAD_FUNNELED) and
// returns MPI_COMM_WORLD. It must be called from the main goroutine, and
// every later call too. Errors come back as Go errors (MPI_ERRORS_RETURN)
// instead of aborting the job.
func Init() (Comm, error) {
	var provided C.int
	if err := mpiErr("MPI_Init_thread", C.impactsim_init(&provided)); err != nil {
		return nil, err
	}
	if provided < C.MPI_THREAD_FUNNELED {
		return nil, fmt.Errorf("mpi: the library provides thread level %d, below MPI_THREAD_FUNNELED", int(provided))
	}
	if C.impactsim_main_thread() == 0 {
		return nil, errOffMain
	}
	return newComm(C.impactsim_world())
}

// Finalize ends MPI (MPI_Finalize).
func Finalize() error {
	if C.impactsim_main_thread() == 0 {
		return errOffMain
	}
	return mpiErr("MPI_Finalize", C.MPI_Finalize())
}

type comm struct {
	h          C.MPI_Fint
	rank, size int
}

func newComm(h C.MPI_Fint) (*comm, error) {
	var r, n C.int
	if err := mpiErr("MPI_Comm_rank", C.impactsim_rank(h, &r)); err != nil {
		return nil, err
	}
	if err := mpiErr("MPI_Comm_size", C.impactsim_size(h, &n)); err != nil {
		return nil, err
	}
	return &comm{h: h, rank: int(r), size: int(n)}, nil
}

func (c *comm) Rank() int { return c.rank }
func (c *comm) Size() int { return c.size }

func onMain() error {
	if C.impactsim_main_thread() == 0 {
		return errOffMain
	}
	return nil
}

// ptr returns the address of a slice's first element, nil for an empty one.
func ptr[T float64 | int32](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

func sendrecv[T float64 | int32](c *comm, t C.int, send []T, dest, stag int, recv []T, src, rtag int) (int, error) {
	if err := onMain(); err != nil {
		return 0, err
	}
	var n C.int
	e := C.impactsim_sendrecv(t, ptr(send), C.int(len(send)), C.int(dest), C.int(stag),
		ptr(recv), C.int(len(recv)), C.int(src), C.int(rtag), c.h, &n)
	return int(n), mpiErr("MPI_Sendrecv", e)
}

func (c *comm) Sendrecv(send []float64, dest, sendTag int, recv []float64, source, recvTag int) (int, error) {
	return sendrecv(c, 0, send, dest, sendTag, recv, source, recvTag)
}

func (c *comm) SendrecvInt32(send []int32, dest, sendTag int, recv []int32, source, recvTag int) (int, error) {
	return sendrecv(c, 1, send, dest, sendTag, recv, source, recvTag)
}

// request is a pending MPI_Isend/MPI_Irecv. Its buffer is pinned
// (runtime.Pinner) from the call until Wait, because MPI keeps the pointer.
type request struct {
	t   C.int
	h   C.MPI_Fint
	pin runtime.Pinner
}

func (r *request) Wait() (int, error) {
	if err := onMain(); err != nil {
		return 0, err
	}
	var n C.int
	e := C.impactsim_wait(r.t, r.h, &n)
	r.pin.Unpin()
	return int(n), mpiErr("MPI_Wait", e)
}

func start[T float64 | int32](c *comm, t C.int, buf []T, peer, tag int, recv bool) (Request, error) {
	if err := onMain(); err != nil {
		return nil, err
	}
	r := &request{t: t}
	p := ptr(buf)
	if p != nil {
		r.pin.Pin(p)
	}
	var e C.int
	if recv {
		e = C.impactsim_irecv(t, p, C.int(len(buf)), C.int(peer), C.int(tag), c.h, &r.h)
	} else {
		e = C.impactsim_isend(t, p, C.int(len(buf)), C.int(peer), C.int(tag), c.h, &r.h)
	}
	if err := mpiErr("MPI_Isend/Irecv", e); err != nil {
		r.pin.Unpin()
		return nil, err
	}
	return r, nil
}

func (c *comm) Isend(buf []float64, dest, tag int) (Request, error) {
	return start(c, 0, buf, dest, tag, false)
}
func (c *comm) IsendInt32(buf []int32, dest, tag int) (Request, error) {
	return start(c, 1, buf, dest, tag, false)
}
func (c *comm) Irecv(buf []float64, source, tag int) (Request, error) {
	return start(c, 0, buf, source, tag, true)
}
func (c *comm) IrecvInt32(buf []int32, source, tag int) (Request, error) {
	return start(c, 1, buf, source, tag, true)
}

func (c *comm) Allreduce(send, recv []float64, op Op) error {
	if err := onMain(); err != nil {
		return err
	}
	if len(recv) != len(send) {
		return fmt.Errorf("mpi: allreduce of %d values into %d", len(send), len(recv))
	}
	if len(send) == 0 {
		return nil
	}
	e := C.impactsim_allreduce((*C.double)(unsafe.Pointer(&send[0])), (*C.double)(unsafe.Pointer(&recv[0])), C.int(len(send)), C.int(op), c.h)
	return mpiErr("MPI_Allreduce", e)
}

func (c *comm) Barrier() error {
	if err := onMain(); err != nil {
		return err
	}
	return mpiErr("MPI_Barrier", C.impactsim_barrier(c.h))
}

func (c *comm) CartCreate(dims []int, periodic []bool) (Comm, error) {
	if err := onMain(); err != nil {
		return nil, err
	}
	nd := len(dims)
	cd := (*[8]C.int)(C.malloc(C.size_t(8 * C.sizeof_int)))
	cp := (*[8]C.int)(C.malloc(C.size_t(8 * C.sizeof_int)))
	defer C.free(unsafe.Pointer(cd))
	defer C.free(unsafe.Pointer(cp))
	if nd > 8 {
		return nil, fmt.Errorf("mpi: cart of %d dimensions, at most 8", nd)
	}
	for d := 0; d < nd; d++ {
		cd[d] = C.int(dims[d])
		if periodic[d] {
			cp[d] = 1
		} else {
			cp[d] = 0
		}
	}
	var h C.MPI_Fint
	if err := mpiErr("MPI_Cart_create", C.impactsim_cart(c.h, C.int(nd), &cd[0], &cp[0], &h)); err != nil {
		return nil, err
	}
	return newComm(h)
}

// CartShift is MPI_Cart_shift on a communicator CartCreate returned; it
// lets tests hold Cart.Shift to the library's answer.
func CartShift(c Comm, dim, disp int) (source, dest int, err error) {
	cc, ok := c.(*comm)
	if !ok {
		if cart, ok := c.(*Cart); ok {
			return CartShift(cart.Comm, dim, disp)
		}
		return 0, 0, fmt.Errorf("mpi: CartShift on a %T", c)
	}
	var s, d C.int
	err = mpiErr("MPI_Cart_shift", C.impactsim_cart_shift(cc.h, C.int(dim), C.int(disp), &s, &d))
	return int(s), int(d), err
}

// Abort ends every rank of the job (MPI_Abort) after writing msg to
// standard error.
func (c *comm) Abort(code int, msg string) error {
	fmt.Fprintf(os.Stderr, "impactsim: rank %d of %d: %s\n", c.rank, c.size, msg)
	return mpiErr("MPI_Abort", C.impactsim_abort(c.h, C.int(code)))
}

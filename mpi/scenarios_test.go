package mpi

import (
	"fmt"
	"math"
	"slices"
)

// The scenarios run on goroutine ranks (RunLocal) in every build and on
// MPI ranks under mpirun in the -tags mpi build (mpirun_test.go).
var scenarios = map[string]func(Comm) error{
	"ring":      ringScenario,
	"halo":      haloScenario,
	"allreduce": allreduceScenario,
}

// ringScenario passes each rank's values one step round the ring with
// Sendrecv (float64 and int32, the float64 message longer than the
// receive needs) and checks what arrives.
func ringScenario(c Comm) error {
	r, n := c.Rank(), c.Size()
	next, prev := (r+1)%n, (r+n-1)%n
	send := make([]float64, 100+r)
	for i := range send {
		send[i] = float64(1000*r + i)
	}
	recv := make([]float64, 200)
	k, err := c.Sendrecv(send, next, 7, recv, prev, 7)
	if err != nil {
		return err
	}
	if k != 100+prev {
		return fmt.Errorf("rank %d received %d values from %d, want %d", r, k, prev, 100+prev)
	}
	for i := 0; i < k; i++ {
		if recv[i] != float64(1000*prev+i) {
			return fmt.Errorf("rank %d: value %d is %v", r, i, recv[i])
		}
	}
	is := []int32{int32(r), int32(-r), math.MaxInt32}
	ir := make([]int32, 3)
	if k, err = c.SendrecvInt32(is, prev, 8, ir, next, 8); err != nil {
		return err
	}
	if k != 3 || ir[0] != int32(next) || ir[1] != int32(-next) || ir[2] != math.MaxInt32 {
		return fmt.Errorf("rank %d: int32 ring got %v (%d)", r, ir, k)
	}
	// ProcNull: nothing sent, nothing received.
	if k, err = c.Sendrecv(send, ProcNull, 9, recv, ProcNull, 9); err != nil || k != 0 {
		return fmt.Errorf("rank %d: Sendrecv with ProcNull: %d, %v", r, k, err)
	}
	return nil
}

// haloScenario lays the ranks on a periodic 2D Cartesian grid and sends
// every neighbour, in both directions of both dimensions, a message of its
// own length with Isend/Irecv, waited for together, as a halo exchange
// does.
func haloScenario(c Comm) error {
	n := c.Size()
	dims := DimsCreate(n, 2)
	cart, err := NewCart(c, dims, []bool{true, true})
	if err != nil {
		return err
	}
	r := cart.Rank()
	type leg struct{ src, dst, tag int }
	var legs []leg
	for d := 0; d < 2; d++ {
		for _, disp := range []int{-1, 1} {
			s, t := cart.Shift(d, disp)
			legs = append(legs, leg{s, t, 10*d + disp + 1})
		}
	}
	bufs := make([][]float64, len(legs))
	ibufs := make([][]int32, len(legs))
	var reqs []Request
	for k, l := range legs {
		bufs[k] = make([]float64, 64)
		ibufs[k] = make([]int32, 64)
		rq, err := cart.Irecv(bufs[k], l.src, l.tag)
		if err != nil {
			return err
		}
		iq, err := cart.IrecvInt32(ibufs[k], l.src, l.tag)
		if err != nil {
			return err
		}
		reqs = append(reqs, rq, iq)
	}
	out := make([][]float64, len(legs))
	iout := make([][]int32, len(legs))
	var sends []Request
	for k, l := range legs {
		out[k] = slices.Repeat([]float64{float64(r) + 0.5}, r+1)
		iout[k] = slices.Repeat([]int32{int32(r)}, r+2)
		sq, err := cart.Isend(out[k], l.dst, l.tag)
		if err != nil {
			return err
		}
		si, err := cart.IsendInt32(iout[k], l.dst, l.tag)
		if err != nil {
			return err
		}
		sends = append(sends, sq, si)
	}
	for k, l := range legs {
		m, err := reqs[2*k].Wait()
		if err != nil {
			return err
		}
		if m != l.src+1 || bufs[k][0] != float64(l.src)+0.5 {
			return fmt.Errorf("rank %d: from %d got %d values %v", r, l.src, m, bufs[k][:m])
		}
		m, err = reqs[2*k+1].Wait()
		if err != nil {
			return err
		}
		if m != l.src+2 || ibufs[k][m-1] != int32(l.src) {
			return fmt.Errorf("rank %d: int32 from %d got %d values %v", r, l.src, m, ibufs[k][:m])
		}
	}
	return WaitAll(sends)
}

// allreduceScenario checks sum, max and min over the ranks against their
// closed forms, then a barrier.
func allreduceScenario(c Comm) error {
	r, n := float64(c.Rank()), float64(c.Size())
	out := make([]float64, 3)
	for _, tc := range []struct {
		op   Op
		want [3]float64
	}{
		{Sum, [3]float64{n * (n - 1) / 2, n, n * (n - 1) * (2*n - 1) / 6}},
		{Max, [3]float64{n - 1, 1, (n - 1) * (n - 1)}},
		{Min, [3]float64{0, 1, 0}},
	} {
		if err := c.Allreduce([]float64{r, 1, r * r}, out, tc.op); err != nil {
			return err
		}
		if [3]float64(out) != tc.want {
			return fmt.Errorf("rank %v: allreduce %v = %v, want %v", r, tc.op, out, tc.want)
		}
	}
	return c.Barrier()
}

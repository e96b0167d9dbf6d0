//go:build mpi && cgo

package mpi

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

func init() {
	scenarios["cartshift"] = cartShiftScenario
	scenarios["fail1"] = func(c Comm) error {
		if c.Rank() == 1 {
			return errors.New("rank 1 gives up")
		}
		return c.Barrier()
	}
}

// cartShiftScenario holds Cart's topology to MPI_Cart_shift's on mixed
// periodic and open dimensions.
func cartShiftScenario(c Comm) error {
	dims := DimsCreate(c.Size(), 2)
	for _, per := range [][]bool{{true, true}, {false, true}, {false, false}} {
		cart, err := NewCart(c, dims, per)
		if err != nil {
			return err
		}
		for d := 0; d < 2; d++ {
			for _, disp := range []int{1, -1} {
				s, t := cart.Shift(d, disp)
				ms, mt, err := CartShift(cart, d, disp)
				if err != nil {
					return err
				}
				if s != ms || t != mt {
					return fmt.Errorf("dims %v periodic %v: Shift(%d, %d) = %d, %d; MPI_Cart_shift %d, %d", dims, per, d, disp, s, t, ms, mt)
				}
			}
		}
	}
	return nil
}

func init() {
	scenarios["pingpong"] = pingPongScenario
}

// pingPongScenario times Sendrecv between ranks 0 and 1 (each sends to
// and receives from the other at once) for 1 KB and 1 MB, and prints the
// median of 200 and 50 exchanges on rank 0. Timings only: nothing is
// asserted about them.
func pingPongScenario(c Comm) error {
	if c.Size() != 2 {
		return fmt.Errorf("pingpong needs 2 ranks, has %d", c.Size())
	}
	peer := 1 - c.Rank()
	for _, tc := range []struct{ bytes, reps int }{{1 << 10, 200}, {1 << 20, 50}} {
		n := tc.bytes / 8
		send, recv := make([]float64, n), make([]float64, n)
		ts := make([]time.Duration, tc.reps)
		for k := range ts {
			if err := c.Barrier(); err != nil {
				return err
			}
			t := time.Now()
			if _, err := c.Sendrecv(send, peer, 1, recv, peer, 1); err != nil {
				return err
			}
			ts[k] = time.Since(t)
		}
		slices.Sort(ts)
		if c.Rank() == 0 {
			fmt.Printf("Sendrecv %d bytes: median %.2f µs, min %.2f µs over %d exchanges\n", tc.bytes, float64(ts[len(ts)/2].Nanoseconds())/1e3, float64(ts[0].Nanoseconds())/1e3, tc.reps)
		}
	}
	return nil
}

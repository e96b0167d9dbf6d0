//go:build mpi && cgo

package mpi

import (
	"errors"
	"fmt"
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

package mpi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestLocalScenarios(t *testing.T) {
	for _, name := range []string{"ring", "halo", "allreduce"} {
		for _, n := range []int{1, 2, 3, 4, 6} {
			if err := RunLocal(n, scenarios[name]); err != nil {
				t.Errorf("%s on %d goroutine ranks: %v", name, n, err)
			}
		}
	}
}

// A failing rank aborts the job: the others, blocked in a receive that
// can never complete, return ErrAborted, and the job's error names the
// rank that failed.
func TestLocalAbortNamesRank(t *testing.T) {
	err := RunLocal(4, func(c Comm) error {
		if c.Rank() == 2 {
			return errors.New("disk full")
		}
		_, err := c.Sendrecv(nil, ProcNull, 0, make([]float64, 1), 2, 0)
		if !errors.Is(err, ErrAborted) {
			return fmt.Errorf("rank %d: got %v, want ErrAborted", c.Rank(), err)
		}
		return err
	})
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 2 || !strings.Contains(err.Error(), "rank 2 failed: disk full") {
		t.Fatalf("got %v, want rank 2's failure", err)
	}
	err = RunLocal(2, func(c Comm) error {
		if c.Rank() == 1 {
			var s []int
			_ = s[3]
		}
		return c.Barrier()
	})
	if !errors.As(err, &re) || re.Rank != 1 || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("panic: got %v", err)
	}
}

func TestLocalTruncation(t *testing.T) {
	err := RunLocal(2, func(c Comm) error {
		_, err := c.Sendrecv(make([]float64, 5), 1-c.Rank(), 0, make([]float64, 4), 1-c.Rank(), 0)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "truncated: 5 values into a buffer of 4") {
		t.Fatalf("got %v", err)
	}
}

func TestDimsCreate(t *testing.T) {
	for _, tc := range []struct {
		n, nd int
		want  []int
	}{
		{1, 2, []int{1, 1}}, {2, 2, []int{2, 1}}, {4, 2, []int{2, 2}}, {6, 2, []int{3, 2}},
		{8, 3, []int{2, 2, 2}}, {12, 2, []int{4, 3}}, {7, 2, []int{7, 1}}, {640, 3, []int{10, 8, 8}},
	} {
		if got := DimsCreate(tc.n, tc.nd); !slices.Equal(got, tc.want) {
			t.Errorf("DimsCreate(%d, %d) = %v, want %v", tc.n, tc.nd, got, tc.want)
		}
	}
}

func TestCartTopology(t *testing.T) {
	err := RunLocal(6, func(c Comm) error {
		cart, err := NewCart(c, []int{3, 2}, []bool{false, true})
		if err != nil {
			return err
		}
		x := cart.Coords(cart.Rank())
		if cart.RankOf(x) != cart.Rank() || x[0] != cart.Rank()/2 || x[1] != cart.Rank()%2 {
			return fmt.Errorf("rank %d at %v", cart.Rank(), x)
		}
		s, d := cart.Shift(0, 1)
		if (x[0] == 0) != (s == ProcNull) || (x[0] == 2) != (d == ProcNull) {
			return fmt.Errorf("rank %d: shift along the open dimension %d, %d", cart.Rank(), s, d)
		}
		s, d = cart.Shift(1, 1)
		if s != d || s == cart.Rank() {
			return fmt.Errorf("rank %d: periodic pair shift %d, %d", cart.Rank(), s, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := RunLocal(4, func(c Comm) error { _, err := NewCart(c, []int{3, 1}, []bool{false, false}); return err }); err == nil {
		t.Fatal("3×1 grid on 4 ranks accepted")
	}
}

func ExampleRunLocal() {
	err := RunLocal(3, func(c Comm) error {
		sum := make([]float64, 1)
		if err := c.Allreduce([]float64{float64(c.Rank() + 1)}, sum, Sum); err != nil {
			return err
		}
		if c.Rank() == 0 {
			fmt.Println("sum over", c.Size(), "ranks:", sum[0])
		}
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// sum over 3 ranks: 6
	// error: <nil>
}

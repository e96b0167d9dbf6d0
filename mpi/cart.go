package mpi

import "fmt"

// Cart is a communicator with a Cartesian topology (MPI_Cart_create): rank
// r sits at the coordinates of r in row-major order over Dims (the last
// dimension varies fastest, MPI's convention), and dimension d wraps
// around when Periodic[d].
type Cart struct {
	Comm
	Dims     []int
	Periodic []bool
}

// NewCart creates the Cartesian communicator of dims over c (collective).
func NewCart(c Comm, dims []int, periodic []bool) (*Cart, error) {
	if len(periodic) != len(dims) {
		return nil, fmt.Errorf("mpi: cart: %d dimensions but %d periodic flags", len(dims), len(periodic))
	}
	n := 1
	for _, d := range dims {
		if d < 1 {
			return nil, fmt.Errorf("mpi: cart: dimensions %v, want each ≥ 1", dims)
		}
		n *= d
	}
	if n != c.Size() {
		return nil, fmt.Errorf("mpi: cart: dimensions %v hold %d ranks, the communicator has %d", dims, n, c.Size())
	}
	cc, err := c.CartCreate(dims, periodic)
	if err != nil {
		return nil, err
	}
	return &Cart{Comm: cc, Dims: append([]int(nil), dims...), Periodic: append([]bool(nil), periodic...)}, nil
}

// Coords returns the coordinates of rank r.
func (c *Cart) Coords(r int) []int {
	x := make([]int, len(c.Dims))
	for d := len(c.Dims) - 1; d >= 0; d-- {
		x[d] = r % c.Dims[d]
		r /= c.Dims[d]
	}
	return x
}

// RankOf returns the rank at coordinates x, wrapped in periodic
// dimensions, or ProcNull outside a non-periodic one.
func (c *Cart) RankOf(x []int) int {
	r := 0
	for d, xd := range x {
		n := c.Dims[d]
		if xd < 0 || xd >= n {
			if !c.Periodic[d] {
				return ProcNull
			}
			xd = ((xd % n) + n) % n
		}
		r = r*n + xd
	}
	return r
}

// Shift returns the ranks disp steps before and after this one along
// dimension dim (MPI_Cart_shift): a message sent to dest and received from
// source moves every rank's data disp steps up the dimension.
func (c *Cart) Shift(dim, disp int) (source, dest int) {
	x := c.Coords(c.Rank())
	x[dim] -= disp
	source = c.RankOf(x)
	x[dim] += 2 * disp
	dest = c.RankOf(x)
	return source, dest
}

// DimsCreate splits n ranks over nd dimensions as evenly as possible, in
// non-increasing order (MPI_Dims_create with no dimension fixed): 4 → 2×2,
// 6 → 3×2, 8 → 2×2×2 in 3D.
func DimsCreate(n, nd int) []int {
	dims := make([]int, nd)
	for i := range dims {
		dims[i] = 1
	}
	// Distribute the prime factors, largest first, each onto the
	// dimension with the smallest product so far.
	var f []int
	for p, m := 2, n; m > 1; {
		if p*p > m {
			f = append(f, m)
			break
		}
		if m%p == 0 {
			f = append(f, p)
			m /= p
		} else {
			p++
		}
	}
	for i := len(f) - 1; i >= 0; i-- {
		k := 0
		for d := 1; d < nd; d++ {
			if dims[d] < dims[k] {
				k = d
			}
		}
		dims[k] *= f[i]
	}
	// non-increasing order
	for i := 1; i < nd; i++ {
		for j := i; j > 0 && dims[j] > dims[j-1]; j-- {
			dims[j], dims[j-1] = dims[j-1], dims[j]
		}
	}
	return dims
}

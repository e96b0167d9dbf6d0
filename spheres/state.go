package spheres

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

const stateMagic = "IMPACTSIM-SPHERES-1\n"

// maxStateSpheres bounds the number of spheres a state file may declare
// (a reader must not allocate what a corrupt count asks for).
const maxStateSpheres = 1 << 28

// WriteState writes the spheres (X, Q, VW, R, InvM, InvI, ID, the next ID)
// and the planes' positions, bit for bit, to w. Walls' shapes, gravity and
// friction are not written: ReadState restores into a system built the
// same way.
//
// Layout (little-endian): the magic line, uint64 N, uint64 next ID,
// uint64 number of planes, then float64 arrays X (3N), Q (4N), VW (6N),
// R, InvM, InvI (N each), int64 ID (N), and each plane's P (3).
func (s *System) WriteState(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(stateMagic)
	var b [8]byte
	for _, u := range []uint64{uint64(s.N()), uint64(s.nextID), uint64(len(s.Planes))} {
		binary.LittleEndian.PutUint64(b[:], u)
		bw.Write(b[:])
	}
	for _, a := range [][]float64{s.X, s.Q, s.VW, s.R, s.InvM, s.InvI} {
		for _, x := range a {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			bw.Write(b[:])
		}
	}
	for _, id := range s.ID {
		binary.LittleEndian.PutUint64(b[:], uint64(id))
		bw.Write(b[:])
	}
	for _, p := range s.Planes {
		for _, x := range p.P {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			bw.Write(b[:])
		}
	}
	return bw.Flush()
}

// ReadState replaces the spheres and the planes' positions with those of a
// file written by WriteState for a system with as many planes, and checks
// the result (Validate). On error the system is unchanged.
func (s *System) ReadState(r io.Reader) error {
	_, err := s.ReadStatePart(r, nil)
	return err
}

// ReadStatePart is ReadState keeping only the spheres whose centre keep
// accepts (nil: all), in the file's order with their IDs and the file's
// next ID; it returns the number of spheres the file holds. The file is
// read once, front to back, and only the kept spheres are stored (plus
// their indices while the arrays are read): one MPI rank restarting its
// subdomain's part of a checkpoint holds its part, not the whole system.
// Only the kept spheres are checked (Validate): each sphere is checked
// by the rank that keeps it.
func (s *System) ReadStatePart(r io.Reader, keep func(x [3]float64) bool) (int, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != stateMagic {
		return 0, errors.New("spheres: not a sphere state file (bad magic)")
	}
	var b [8]byte
	u := func() (uint64, error) {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return 0, fmt.Errorf("spheres: state file truncated: %w", err)
		}
		return binary.LittleEndian.Uint64(b[:]), nil
	}
	var head [3]uint64
	for k := range head {
		v, err := u()
		if err != nil {
			return 0, err
		}
		head[k] = v
	}
	n, next, np := head[0], head[1], head[2]
	if n > maxStateSpheres || next > 1<<62 || next < n {
		return 0, fmt.Errorf("spheres: state file declares %d spheres and next ID %d", n, next)
	}
	if int(np) != len(s.Planes) {
		return 0, fmt.Errorf("spheres: state file has %d planes, the system %d", np, len(s.Planes))
	}
	t := &System{Gravity: s.Gravity, Mu: s.Mu, Boxes: s.Boxes, Cylinders: s.Cylinders, nextID: int64(next)}
	t.Planes = append([]Plane(nil), s.Planes...)
	nn := int(n)
	// The centres decide which spheres are kept (kept: their indices,
	// increasing; all of them when keep is nil).
	var kept []int
	t.X = make([]float64, 0, min(3*nn, 1<<20))
	var x [3]float64
	for i := 0; i < nn; i++ {
		for d := range x {
			v, err := u()
			if err != nil {
				return 0, err
			}
			x[d] = math.Float64frombits(v)
		}
		if keep == nil || keep(x) {
			t.X = append(t.X, x[:]...)
			if keep != nil {
				kept = append(kept, i)
			}
		}
	}
	// read reads an array of k values per sphere, keeping the kept
	// spheres' (as uint64 bits).
	read := func(k int, put func(v uint64)) error {
		next := 0 // into kept
		for i := 0; i < nn; i++ {
			take := keep == nil || (next < len(kept) && kept[next] == i)
			if take && keep != nil {
				next++
			}
			for j := 0; j < k; j++ {
				v, err := u()
				if err != nil {
					return err
				}
				if take {
					put(v)
				}
			}
		}
		return nil
	}
	m := len(t.X) / 3
	for _, p := range []struct {
		dst *[]float64
		k   int
	}{{&t.Q, 4}, {&t.VW, 6}, {&t.R, 1}, {&t.InvM, 1}, {&t.InvI, 1}} {
		a := make([]float64, 0, min(p.k*m, 1<<20))
		if err := read(p.k, func(v uint64) { a = append(a, math.Float64frombits(v)) }); err != nil {
			return 0, err
		}
		*p.dst = a
	}
	t.ID = make([]int64, 0, min(m, 1<<20))
	if err := read(1, func(v uint64) { t.ID = append(t.ID, int64(v)) }); err != nil {
		return 0, err
	}
	for k := range t.Planes {
		for d := 0; d < 3; d++ {
			v, err := u()
			if err != nil {
				return 0, err
			}
			t.Planes[k].P[d] = math.Float64frombits(v)
		}
	}
	if err := t.Validate(); err != nil {
		return 0, fmt.Errorf("spheres: state file: %w", err)
	}
	s.X, s.Q, s.VW, s.R, s.InvM, s.InvI, s.ID, s.nextID, s.Planes = t.X, t.Q, t.VW, t.R, t.InvM, t.InvI, t.ID, t.nextID, t.Planes
	s.stepsSinceOrder = 0
	return nn, nil
}

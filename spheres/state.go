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
	br := bufio.NewReaderSize(r, 1<<16)
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != stateMagic {
		return errors.New("spheres: not a sphere state file (bad magic)")
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
			return err
		}
		head[k] = v
	}
	n, next, np := head[0], head[1], head[2]
	if n > maxStateSpheres || next > 1<<62 || next < n {
		return fmt.Errorf("spheres: state file declares %d spheres and next ID %d", n, next)
	}
	if int(np) != len(s.Planes) {
		return fmt.Errorf("spheres: state file has %d planes, the system %d", np, len(s.Planes))
	}
	t := &System{Gravity: s.Gravity, Mu: s.Mu, Boxes: s.Boxes, Cylinders: s.Cylinders, nextID: int64(next)}
	t.Planes = append([]Plane(nil), s.Planes...)
	read := func(k int) ([]float64, error) {
		a := make([]float64, 0, min(k, 1<<20))
		for i := 0; i < k; i++ {
			v, err := u()
			if err != nil {
				return nil, err
			}
			a = append(a, math.Float64frombits(v))
		}
		return a, nil
	}
	var err error
	nn := int(n)
	for _, p := range []struct {
		dst *[]float64
		k   int
	}{{&t.X, 3 * nn}, {&t.Q, 4 * nn}, {&t.VW, 6 * nn}, {&t.R, nn}, {&t.InvM, nn}, {&t.InvI, nn}} {
		if *p.dst, err = read(p.k); err != nil {
			return err
		}
	}
	t.ID = make([]int64, 0, min(nn, 1<<20))
	for i := 0; i < nn; i++ {
		v, err := u()
		if err != nil {
			return err
		}
		t.ID = append(t.ID, int64(v))
	}
	for k := range t.Planes {
		for d := 0; d < 3; d++ {
			v, err := u()
			if err != nil {
				return err
			}
			t.Planes[k].P[d] = math.Float64frombits(v)
		}
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("spheres: state file: %w", err)
	}
	s.X, s.Q, s.VW, s.R, s.InvM, s.InvI, s.ID, s.nextID, s.Planes = t.X, t.Q, t.VW, t.R, t.InvM, t.InvI, t.ID, t.nextID, t.Planes
	s.stepsSinceOrder = 0
	return nil
}

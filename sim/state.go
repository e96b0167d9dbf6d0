package sim

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"impactsim/impact"
)

// stateMagic starts every state file; the digit is the format version.
// Version 1 files (no warm start section) are still read.
const (
	stateMagic   = "IMPACTSIM-STATE-2\n"
	stateMagicV1 = "IMPACTSIM-STATE-1\n"
)

// maxStateTag bounds the scene tag of a state file (a reader must not
// allocate what a corrupt length field asks for).
const maxStateTag = 4096

// WriteState writes the stepper's state — step count, time, q and v, bit for
// bit, and the impact operator's warm start (impact.WarmStarter) — to w,
// tagged with a description of the scene (ReadState checks it). A run
// resumed from the file continues bitwise as the uninterrupted run would:
// the stepper and its law carry nothing else from one step to the next.
//
// Layout (little-endian): the magic line, uint32 tag length, tag bytes,
// uint64 steps, float64 time step h, float64 t, uint64 len(q), uint64
// len(v), q and v as float64, then uint64 length and bytes of the warm
// start (length 0 when the operator keeps none).
func (s *Stepper) WriteState(w io.Writer, tag string) error {
	if len(tag) > maxStateTag {
		return fmt.Errorf("sim: state tag of %d bytes, at most %d", len(tag), maxStateTag)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(stateMagic)
	var b [8]byte
	binary.LittleEndian.PutUint32(b[:4], uint32(len(tag)))
	bw.Write(b[:4])
	bw.WriteString(tag)
	for _, u := range []uint64{uint64(s.N), math.Float64bits(s.H), math.Float64bits(s.T), uint64(len(s.Q)), uint64(len(s.V))} {
		binary.LittleEndian.PutUint64(b[:], u)
		bw.Write(b[:])
	}
	for _, x := range [][]float64{s.Q, s.V} {
		for _, f := range x {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
			bw.Write(b[:])
		}
	}
	var warm bytes.Buffer
	if ws := warmStarterOf(s.Law); ws != nil {
		if err := ws.WriteWarmStart(&warm); err != nil {
			return fmt.Errorf("sim: writing the state: %w", err)
		}
	}
	binary.LittleEndian.PutUint64(b[:], uint64(warm.Len()))
	bw.Write(b[:])
	bw.Write(warm.Bytes())
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sim: writing the state: %w", err)
	}
	return nil
}

// ReadState replaces the stepper's state by the one in r, written by
// WriteState for the same scene (tag), time step and state sizes; anything
// else is an error naming the field, and the stepper is then unchanged.
func (s *Stepper) ReadState(r io.Reader, tag string) error {
	br := bufio.NewReaderSize(r, 1<<16)
	fail := func(field string, err error) error {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("sim: reading the state: %s: %w", field, err)
	}
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(br, magic); err != nil {
		return fail("header", err)
	}
	v1 := string(magic) == stateMagicV1
	if string(magic) != stateMagic && !v1 {
		return fmt.Errorf("sim: reading the state: not an impactsim state file (expected the header %q)", stateMagic[:len(stateMagic)-1])
	}
	var b [8]byte
	if _, err := io.ReadFull(br, b[:4]); err != nil {
		return fail("tag length", err)
	}
	nt := binary.LittleEndian.Uint32(b[:4])
	if nt > maxStateTag {
		return fmt.Errorf("sim: reading the state: tag length %d, at most %d", nt, maxStateTag)
	}
	got := make([]byte, nt)
	if _, err := io.ReadFull(br, got); err != nil {
		return fail("tag", err)
	}
	if string(got) != tag {
		return fmt.Errorf("sim: reading the state: written for scene %q, not %q", got, tag)
	}
	var hdr [5]uint64
	names := [5]string{"steps", "h", "t", "len(q)", "len(v)"}
	for i := range hdr {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return fail(names[i], err)
		}
		hdr[i] = binary.LittleEndian.Uint64(b[:])
	}
	h, t := math.Float64frombits(hdr[1]), math.Float64frombits(hdr[2])
	switch {
	case hdr[0] > math.MaxInt32:
		return fmt.Errorf("sim: reading the state: steps = %d, want < 2³¹", hdr[0])
	case h != s.H:
		return fmt.Errorf("sim: reading the state: h = %v, the run uses %v", h, s.H)
	case !(t >= 0) || math.IsInf(t, 0):
		return fmt.Errorf("sim: reading the state: t = %v, want a finite t ≥ 0", t)
	case hdr[3] != uint64(len(s.Q)) || hdr[4] != uint64(len(s.V)):
		return fmt.Errorf("sim: reading the state: %d positions and %d velocities, the scene has %d and %d", hdr[3], hdr[4], len(s.Q), len(s.V))
	}
	q := make([]float64, len(s.Q))
	v := make([]float64, len(s.V))
	for k, x := range [][]float64{q, v} {
		for i := range x {
			if _, err := io.ReadFull(br, b[:]); err != nil {
				return fail(fmt.Sprintf("%s[%d]", [2]string{"q", "v"}[k], i), err)
			}
			f := math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("sim: reading the state: %s[%d] = %v, want a finite number", [2]string{"q", "v"}[k], i, f)
			}
			x[i] = f
		}
	}
	var warm bytes.Buffer
	if !v1 {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return fail("warm start length", err)
		}
		nw := binary.LittleEndian.Uint64(b[:])
		if nw > math.MaxInt64 {
			return fmt.Errorf("sim: reading the state: warm start length %d", nw)
		}
		// CopyN grows the buffer as data arrives: a corrupt length runs
		// into the end of the file, not into a huge allocation.
		if _, err := io.CopyN(&warm, br, int64(nw)); err != nil {
			return fail("warm start", err)
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return fmt.Errorf("sim: reading the state: data after the warm start")
	}
	if ws := warmStarterOf(s.Law); ws != nil {
		// A version 1 file or an operator that kept none: start cold.
		if warm.Len() == 0 {
			ws.ResetWarmStart()
		} else if err := ws.ReadWarmStart(warm.Bytes()); err != nil {
			return fmt.Errorf("sim: reading the state: %w", err)
		}
	}
	copy(s.Q, q)
	copy(s.V, v)
	s.N, s.T = int(hdr[0]), t
	return nil
}

// warmStarterOf returns the impact operator of law that carries a warm
// start from step to step, or nil.
func warmStarterOf(law ContactLaw) impact.WarmStarter {
	switch l := law.(type) {
	case impact.WarmStarter:
		return l
	case *Staggered:
		if ws, ok := l.Impact.(impact.WarmStarter); ok {
			return ws
		}
	}
	return nil
}

package sim

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"impactsim/bounded"
	"impactsim/impact"
)

// stateMagic starts every state file; the digit is the format version.
// Files of versions 1 (no warm start section) and 2 (no law name, no
// checksum) are still read.
const (
	stateMagic   = "IMPACTSIM-STATE-3\n"
	stateMagicV2 = "IMPACTSIM-STATE-2\n"
	stateMagicV1 = "IMPACTSIM-STATE-1\n"
)

// maxStateTag bounds the scene tag and the law name of a state file (a
// reader must not allocate what a corrupt length field asks for).
const maxStateTag = 4096

// castagnoli is the CRC-32C table of the state files' checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteState writes the stepper's state — step count, time, q and v, bit for
// bit, and the impact operator's warm start (impact.WarmStarter) — to w,
// tagged with a description of the scene and the contact law's name
// (ReadState checks both), and closed by a checksum. A run resumed from
// the file continues bitwise as the uninterrupted run would: the stepper
// and its law carry nothing else from one step to the next.
//
// Layout (little-endian): the magic line, uint32 tag length, tag bytes,
// uint32 law name length, law name bytes (Law.Name()), uint64 steps,
// float64 time step h, float64 t, uint64 len(q), uint64 len(v), q and v as
// float64, uint64 length and bytes of the warm start (length 0 when the
// operator keeps none), and last the CRC-32C (Castagnoli) of every byte
// before it as uint32.
func (s *Stepper) WriteState(w io.Writer, tag string) error {
	law := s.Law.Name()
	if len(tag) > maxStateTag || len(law) > maxStateTag {
		return fmt.Errorf("sim: state tag of %d bytes or law name of %d, at most %d", len(tag), len(law), maxStateTag)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	crc := crc32.New(castagnoli)
	hw := io.MultiWriter(bw, crc)
	io.WriteString(hw, stateMagic)
	var b [8]byte
	for _, str := range []string{tag, law} {
		binary.LittleEndian.PutUint32(b[:4], uint32(len(str)))
		hw.Write(b[:4])
		io.WriteString(hw, str)
	}
	for _, u := range []uint64{uint64(s.N), math.Float64bits(s.H), math.Float64bits(s.T), uint64(len(s.Q)), uint64(len(s.V))} {
		binary.LittleEndian.PutUint64(b[:], u)
		hw.Write(b[:])
	}
	for _, x := range [][]float64{s.Q, s.V} {
		for _, f := range x {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
			hw.Write(b[:])
		}
	}
	var warm bytes.Buffer
	if ws := warmStarterOf(s.Law); ws != nil {
		if err := ws.WriteWarmStart(&warm); err != nil {
			return fmt.Errorf("sim: writing the state: %w", err)
		}
	}
	binary.LittleEndian.PutUint64(b[:], uint64(warm.Len()))
	hw.Write(b[:])
	hw.Write(warm.Bytes())
	binary.LittleEndian.PutUint32(b[:4], crc.Sum32())
	bw.Write(b[:4])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sim: writing the state: %w", err)
	}
	return nil
}

// ReadState replaces the stepper's state by the one in r, written by
// WriteState for the same scene (tag), contact law, time step and state
// sizes; anything else is an error naming the field, and the stepper is
// then unchanged. The file is read whole first (at most the size its
// state can take, so a wrong file such as /dev/zero is refused early) and
// its checksum verified before any field is believed: a flipped byte is
// refused as such. Files of versions 1 and 2 have no checksum and no law
// name and are read as before.
func (s *Stepper) ReadState(r io.Reader, tag string) error {
	// everything but the warm start is 8 bytes a coordinate plus small
	// headers; the warm start holds a few impulses per contact
	limit := int64(len(stateMagic)+8+2*maxStateTag+48+8) + 64*int64(len(s.Q)+len(s.V)) + 1<<20
	data, err := io.ReadAll(bounded.Reader(r, "state", limit, "state file of this scene"))
	if err != nil {
		return fmt.Errorf("sim: reading the state: %w", err)
	}
	version := 0
	for v, m := range []string{stateMagicV1, stateMagicV2, stateMagic} {
		if bytes.HasPrefix(data, []byte(m)) {
			version = v + 1
		}
	}
	if version == 0 {
		return fmt.Errorf("sim: reading the state: not an impactsim state file (expected the header %q)", stateMagic[:len(stateMagic)-1])
	}
	if version == 3 {
		n := len(data) - 4
		if n < len(stateMagic) {
			return fmt.Errorf("sim: reading the state: checksum: %w", io.ErrUnexpectedEOF)
		}
		if got, want := crc32.Checksum(data[:n], castagnoli), binary.LittleEndian.Uint32(data[n:]); got != want {
			return fmt.Errorf("sim: reading the state: checksum mismatch (CRC-32C %08x, the file says %08x): the file was damaged or changed after it was written", got, want)
		}
		data = data[:n]
	}
	br := bytes.NewReader(data[len(stateMagic):])
	fail := func(field string, err error) error {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("sim: reading the state: %s: %w", field, err)
	}
	var b [8]byte
	readString := func(field string) (string, error) {
		if _, err := io.ReadFull(br, b[:4]); err != nil {
			return "", fail(field+" length", err)
		}
		n := binary.LittleEndian.Uint32(b[:4])
		if n > maxStateTag {
			return "", fmt.Errorf("sim: reading the state: %s length %d, at most %d", field, n, maxStateTag)
		}
		got := make([]byte, n)
		if _, err := io.ReadFull(br, got); err != nil {
			return "", fail(field, err)
		}
		return string(got), nil
	}
	got, err := readString("tag")
	if err != nil {
		return err
	}
	if got != tag {
		return fmt.Errorf("sim: reading the state: written for scene %q, not %q", got, tag)
	}
	if version == 3 {
		law, err := readString("law")
		if err != nil {
			return err
		}
		if law != s.Law.Name() {
			return fmt.Errorf("sim: reading the state: written with the contact law %q, this run uses %q (resume with the operator the state was saved with)", law, s.Law.Name())
		}
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
	var warm []byte
	if version >= 2 {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return fail("warm start length", err)
		}
		nw := binary.LittleEndian.Uint64(b[:])
		if nw > uint64(br.Len()) {
			return fail("warm start", io.ErrUnexpectedEOF)
		}
		warm = make([]byte, nw)
		io.ReadFull(br, warm)
	}
	if br.Len() > 0 {
		return fmt.Errorf("sim: reading the state: data after the warm start")
	}
	if ws := warmStarterOf(s.Law); ws != nil {
		// A version 1 file or an operator that kept none: start cold.
		if len(warm) == 0 {
			ws.ResetWarmStart()
		} else if err := ws.ReadWarmStart(warm); err != nil {
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

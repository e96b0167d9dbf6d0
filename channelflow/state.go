package channelflow

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"impactsim/bounded"
)

// stateMagic starts a channel state file; version 1 files (without the
// checksum) are still read.
const (
	stateMagic   = "IMPACTSIM-CHANNEL-2\n"
	stateMagicV1 = "IMPACTSIM-CHANNEL-1\n"
)

// maxStateBytes bounds what ReadState reads (a state of 10⁷ spheres is
// about 1 GB).
const maxStateBytes = 4 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteState writes the flow's step count, the state of its random source
// and the spheres (spheres.System.WriteState), then the CRC-32C
// (Castagnoli) of all of it as a little-endian uint32. A flow built from
// the same Config and resumed from it (ReadState) continues bit for bit;
// the statistics start afresh.
func (f *Flow) WriteState(w io.Writer) error {
	crc := crc32.New(castagnoli)
	cw := io.MultiWriter(w, crc)
	if err := f.writeState(cw); err != nil {
		return err
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], crc.Sum32())
	_, err := w.Write(b[:])
	return err
}

func (f *Flow) writeState(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(stateMagic)
	rs, err := f.src.MarshalBinary()
	if err != nil {
		return err
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(f.Steps))
	bw.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(len(rs)))
	bw.Write(b[:])
	bw.Write(rs)
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Sys.WriteState(w)
}

// ReadState restores a state written by WriteState. The file is read
// whole and its checksum verified before anything in it is believed: a
// damaged file is refused as such.
func (f *Flow) ReadState(r io.Reader) error {
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != stateMagic && string(magic) != stateMagicV1 {
		return errors.New("channelflow: not a channel state file (bad magic)")
	}
	rest, err := io.ReadAll(bounded.Reader(r, "state", maxStateBytes, "channel state file"))
	if err != nil {
		return fmt.Errorf("channelflow: %w", err)
	}
	if string(magic) == stateMagic {
		n := len(rest) - 4
		if n < 0 {
			return errors.New("channelflow: state file truncated (no checksum)")
		}
		sum := crc32.Update(crc32.Checksum(magic, castagnoli), castagnoli, rest[:n])
		if want := binary.LittleEndian.Uint32(rest[n:]); sum != want {
			return fmt.Errorf("channelflow: state file checksum mismatch (CRC-32C %08x, the file says %08x): the file was damaged or changed after it was written", sum, want)
		}
		rest = rest[:n]
	}
	br := bytes.NewReader(rest)
	var b [8]byte
	var head [2]uint64
	for k := range head {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return fmt.Errorf("channelflow: state file truncated: %w", err)
		}
		head[k] = binary.LittleEndian.Uint64(b[:])
	}
	if head[0] > 1<<40 || head[1] > 1024 {
		return fmt.Errorf("channelflow: state file declares step %d and a random state of %d bytes", head[0], head[1])
	}
	rs := make([]byte, head[1])
	if _, err := io.ReadFull(br, rs); err != nil {
		return fmt.Errorf("channelflow: state file truncated: %w", err)
	}
	old, _ := f.src.MarshalBinary()
	if err := f.src.UnmarshalBinary(rs); err != nil {
		return fmt.Errorf("channelflow: state file: %w", err)
	}
	if err := f.Sys.ReadState(br); err != nil {
		f.src.UnmarshalBinary(old)
		return err
	}
	f.Steps = int(head[0])
	f.Stats.reset()
	return nil
}

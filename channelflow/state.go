package channelflow

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

const stateMagic = "IMPACTSIM-CHANNEL-1\n"

// WriteState writes the flow's step count, the state of its random source
// and the spheres (spheres.System.WriteState). A flow built from the same
// Config and resumed from it (ReadState) continues bit for bit; the
// statistics start afresh.
func (f *Flow) WriteState(w io.Writer) error {
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

// ReadState restores a state written by WriteState.
func (f *Flow) ReadState(r io.Reader) error {
	br := bufio.NewReader(r)
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != stateMagic {
		return errors.New("channelflow: not a channel state file (bad magic)")
	}
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

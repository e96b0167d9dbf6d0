package patterns

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

const stateMagic = "IMPACTSIM-PATTERNS-1\n"

// WriteState writes the layer's time, step count and spheres (bit for bit;
// spheres.System.WriteState) to w. ReadState restores it into a layer
// built with the same configuration (the time step may differ).
//
// Layout (little-endian): the magic line, float64 time, uint64 steps, the
// spheres' state.
func (y *Layer) WriteState(w io.Writer) error {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], math.Float64bits(y.T))
	binary.LittleEndian.PutUint64(b[8:], uint64(y.N))
	if _, err := io.WriteString(w, stateMagic); err != nil {
		return err
	}
	if _, err := w.Write(b[:]); err != nil {
		return err
	}
	return y.Sys.WriteState(w)
}

// ReadState restores a state written by WriteState; the number of spheres
// must match the configuration's.
func (y *Layer) ReadState(r io.Reader) error {
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != stateMagic {
		return errors.New("patterns: not a layer state file (bad magic)")
	}
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return fmt.Errorf("patterns: state file truncated: %w", err)
	}
	t := math.Float64frombits(binary.LittleEndian.Uint64(b[:8]))
	n := binary.LittleEndian.Uint64(b[8:])
	if !(t >= 0) || math.IsInf(t, 0) || n > 1<<62 {
		return fmt.Errorf("patterns: state file has time %v and %d steps", t, n)
	}
	if err := y.Sys.ReadState(r); err != nil {
		return err
	}
	if y.Sys.N() != y.Cfg.N {
		return fmt.Errorf("patterns: state file has %d spheres, the configuration %d", y.Sys.N(), y.Cfg.N)
	}
	y.T, y.N = t, int(n)
	return nil
}

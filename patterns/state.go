package patterns

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// stateMagic is the current layer state format (2: with the cell's sides);
// stateMagic1 the first sessions' (without them).
const (
	stateMagic  = "IMPACTSIM-PATTERNS-2\n"
	stateMagic1 = "IMPACTSIM-PATTERNS-1\n"
)

// WriteState writes the layer's time, step count, periodic cell and
// spheres (bit for bit; spheres.System.WriteState) to w. ReadState
// restores it into a layer built with the same configuration (the time
// step may differ).
//
// Layout (little-endian): the magic line, float64 time, uint64 steps,
// float64 L_x and L_y (the periodic cell's sides, m), the spheres' state.
// Format 1 (magic IMPACTSIM-PATTERNS-1) has no L_x, L_y.
func (y *Layer) WriteState(w io.Writer) error {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:8], math.Float64bits(y.T))
	binary.LittleEndian.PutUint64(b[8:16], uint64(y.N))
	binary.LittleEndian.PutUint64(b[16:24], math.Float64bits(y.Sys.Periodic.L[0]))
	binary.LittleEndian.PutUint64(b[24:], math.Float64bits(y.Sys.Periodic.L[1]))
	if _, err := io.WriteString(w, stateMagic); err != nil {
		return err
	}
	if _, err := w.Write(b[:]); err != nil {
		return err
	}
	return y.Sys.WriteState(w)
}

// ReadState restores a state written by WriteState; the number of spheres
// and the periodic cell must match the configuration's. A format-1 file
// carries no cell: its centres must lie in this configuration's cell
// (states of the first sessions' layer, 5.4 spheres per σ², need
// PerArea = Depth = 5.4: the flags --per-area 5.4 --depth 5.4). On error
// the layer must not be stepped.
func (y *Layer) ReadState(r io.Reader) error { return y.ReadStatePart(r, nil) }

// ReadStatePart is ReadState keeping only the spheres whose centres keep
// accepts (nil: all; spheres.System.ReadStatePart): a rank of an MPI job
// restarts its part of a checkpoint without holding the whole layer. The
// file's sphere count must match the configuration's; a format-1 file's
// centres are checked for the kept spheres.
func (y *Layer) ReadStatePart(r io.Reader, keep func(x [3]float64) bool) error {
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(r, magic); err != nil || (string(magic) != stateMagic && string(magic) != stateMagic1) {
		return errors.New("patterns: not a layer state file (bad magic)")
	}
	v1 := string(magic) == stateMagic1
	var b [32]byte
	head := b[:]
	if v1 {
		head = b[:16]
	}
	if _, err := io.ReadFull(r, head); err != nil {
		return fmt.Errorf("patterns: state file truncated: %w", err)
	}
	t := math.Float64frombits(binary.LittleEndian.Uint64(b[:8]))
	n := binary.LittleEndian.Uint64(b[8:16])
	if !(t >= 0) || math.IsInf(t, 0) || n > 1<<62 {
		return fmt.Errorf("patterns: state file has time %v and %d steps", t, n)
	}
	lx, ly := y.Sys.Periodic.L[0], y.Sys.Periodic.L[1]
	if !v1 {
		fx := math.Float64frombits(binary.LittleEndian.Uint64(b[16:24]))
		fy := math.Float64frombits(binary.LittleEndian.Uint64(b[24:]))
		if fx != lx || fy != ly {
			return fmt.Errorf("patterns: state file's cell is %.6gσ × %.6gσ, the configuration's %.6gσ × %.6gσ (same --n, --sigma, --per-area, --aspect)",
				fx/y.Cfg.Sigma, fy/y.Cfg.Sigma, lx/y.Cfg.Sigma, ly/y.Cfg.Sigma)
		}
	}
	sys := *y.Sys
	all, err := sys.ReadStatePart(r, keep)
	if err != nil {
		return err
	}
	if all != y.Cfg.N {
		return fmt.Errorf("patterns: state file has %d spheres, the configuration %d", all, y.Cfg.N)
	}
	if v1 {
		for i := 0; i < sys.N(); i++ {
			if x, yy := sys.X[3*i], sys.X[3*i+1]; !(x >= 0 && x < lx && yy >= 0 && yy < ly) {
				return fmt.Errorf("patterns: state file (format 1, no cell recorded): sphere %d at (%.6gσ, %.6gσ) lies outside the configuration's %.6gσ × %.6gσ cell; states of the first sessions' layer need --per-area 5.4 --depth 5.4",
					i, x/y.Cfg.Sigma, yy/y.Cfg.Sigma, lx/y.Cfg.Sigma, ly/y.Cfg.Sigma)
			}
		}
	}
	*y.Sys = sys
	y.T, y.N = t, int(n)
	return nil
}

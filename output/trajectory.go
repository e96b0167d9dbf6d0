package output

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// TrajectoryHeader is the exact first line of trajectory.csv.
const TrajectoryHeader = "frame,time,ball,x,y,vx,vy"

// TrajectoryWriter streams 2D ball states to trajectory.csv. Rows go to
// trajectory.csv.tmp through a buffer; Close renames the file to its final
// name, so an interrupted run leaves only the .tmp file.
type TrajectoryWriter struct {
	f         *atomicFile
	path      string
	nBalls    int // -1 until the first frame
	lastFrame int
	buf       []byte
	err       error // sticky
}

// NewTrajectoryWriter creates dir (if needed) and starts dir/trajectory.csv,
// writing the header. An existing dir/trajectory.csv from an earlier run is
// removed at once, so the directory never pairs a new scene.json with an old
// trajectory.
func NewTrajectoryWriter(dir string) (*TrajectoryWriter, error) {
	path := filepath.Join(dir, TrajectoryFile)
	f, err := createAtomic(path, true)
	if err != nil {
		return nil, err
	}
	w := &TrajectoryWriter{f: f, path: path, nBalls: -1, lastFrame: -1}
	if _, err := f.Write([]byte(TrajectoryHeader + "\n")); err != nil {
		f.Abort()
		return nil, fmt.Errorf("output: writing %s: %w", path, err)
	}
	return w, nil
}

// WriteFrame appends one row per ball for the saved frame number frame at
// simulation time t. q and v are flat: ball i has position (q[2i], q[2i+1])
// and velocity (v[2i], v[2i+1]). Frame numbers must be non-negative and
// strictly increasing, and every frame must have the same, non-zero, number
// of balls. Values are written with full float64 precision (shortest
// representation that round-trips). After an error the writer is unusable
// and Close removes the temporary file.
func (w *TrajectoryWriter) WriteFrame(frame int, t float64, q, v []float64) error {
	if w.err != nil {
		return w.err
	}
	switch {
	case len(q) != len(v):
		return w.fail(fmt.Errorf("output: trajectory frame %d: len(q)=%d != len(v)=%d", frame, len(q), len(v)))
	case len(q)%2 != 0:
		return w.fail(fmt.Errorf("output: trajectory frame %d: len(q)=%d is odd (2D balls need 2 entries each)", frame, len(q)))
	case len(q) == 0:
		return w.fail(fmt.Errorf("output: trajectory frame %d: no balls", frame))
	case w.nBalls >= 0 && len(q)/2 != w.nBalls:
		return w.fail(fmt.Errorf("output: trajectory frame %d: %d balls, earlier frames have %d", frame, len(q)/2, w.nBalls))
	case frame < 0 || frame <= w.lastFrame:
		return w.fail(fmt.Errorf("output: trajectory frame %d: frame numbers must be non-negative and increasing (previous %d)", frame, w.lastFrame))
	}
	w.nBalls = len(q) / 2
	w.lastFrame = frame
	b := w.buf[:0]
	for i := 0; i < w.nBalls; i++ {
		b = strconv.AppendInt(b, int64(frame), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, t, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(i), 10)
		for _, x := range [4]float64{q[2*i], q[2*i+1], v[2*i], v[2*i+1]} {
			b = append(b, ',')
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
		b = append(b, '\n')
	}
	w.buf = b
	if _, err := w.f.Write(b); err != nil {
		return w.fail(fmt.Errorf("output: writing %s: %w", w.path, err))
	}
	return nil
}

func (w *TrajectoryWriter) fail(err error) error {
	w.err = err
	return err
}

// Close flushes the buffer and renames trajectory.csv.tmp to trajectory.csv.
// If an earlier WriteFrame failed, the temporary file is removed instead and
// that error is returned. Close is idempotent.
func (w *TrajectoryWriter) Close() error {
	if w.err != nil {
		w.f.Abort()
		return w.err
	}
	return w.f.Close()
}

// Abort discards everything written: the temporary file is removed and no
// trajectory.csv is created.
func (w *TrajectoryWriter) Abort() {
	w.f.Abort()
}

// Frame is one saved state of all balls.
type Frame struct {
	Index int       // the frame column
	Time  float64   // simulation time
	Q     []float64 // positions, ball i at [2i, 2i+1]
	V     []float64 // velocities, ball i at [2i, 2i+1]
}

// Trajectory is the content of trajectory.csv.
type Trajectory struct {
	NumBalls int
	Frames   []Frame
}

// ReadTrajectory reads dir/trajectory.csv. It checks the header, that every
// row has 7 well-formed fields, that frame numbers increase, that each frame
// lists balls 0..n−1 in order with one time, and that every frame has the
// same number of balls. Errors name the file and line ("path:line: ...").
// Blank lines are ignored.
func ReadTrajectory(dir string) (*Trajectory, error) {
	path := filepath.Join(dir, TrajectoryFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	defer f.Close()
	tr := &Trajectory{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("output: %s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	var cur *Frame
	curStart := 0
	endFrame := func() error {
		if cur == nil {
			return nil
		}
		n := len(cur.Q) / 2
		if tr.NumBalls == 0 {
			tr.NumBalls = n
		} else if n != tr.NumBalls {
			return fmt.Errorf("output: %s:%d: frame %d has %d balls, earlier frames have %d", path, curStart, cur.Index, n, tr.NumBalls)
		}
		return nil
	}
	var fields [7][]byte
	for sc.Scan() {
		line++
		text := bytes.TrimRight(sc.Bytes(), "\r")
		if line == 1 {
			if string(text) != TrajectoryHeader {
				return nil, errf("header %q, want %q", text, TrajectoryHeader)
			}
			continue
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		nf := 0
		for rest := text; ; {
			i := bytes.IndexByte(rest, ',')
			if nf == len(fields) {
				nf++
				break
			}
			if i < 0 {
				fields[nf] = rest
				nf++
				break
			}
			fields[nf] = rest[:i]
			nf++
			rest = rest[i+1:]
		}
		if nf != len(fields) {
			return nil, errf("want 7 fields (%s), got %s", TrajectoryHeader, countDesc(text))
		}
		frame, err := strconv.Atoi(string(fields[0]))
		if err != nil || frame < 0 {
			return nil, errf("bad frame %q: want a non-negative integer", fields[0])
		}
		t, err := strconv.ParseFloat(string(fields[1]), 64)
		if err != nil {
			return nil, errf("bad time %q", fields[1])
		}
		ball, err := strconv.Atoi(string(fields[2]))
		if err != nil {
			return nil, errf("bad ball %q: want an integer", fields[2])
		}
		var vals [4]float64
		for k := range vals {
			vals[k], err = strconv.ParseFloat(string(fields[3+k]), 64)
			if err != nil {
				return nil, errf("bad %s %q", [4]string{"x", "y", "vx", "vy"}[k], fields[3+k])
			}
		}
		if cur == nil || frame != cur.Index {
			if cur != nil && frame < cur.Index {
				return nil, errf("frame %d after frame %d: frames must increase", frame, cur.Index)
			}
			if err := endFrame(); err != nil {
				return nil, err
			}
			tr.Frames = append(tr.Frames, Frame{Index: frame, Time: t})
			cur = &tr.Frames[len(tr.Frames)-1]
			curStart = line
			if tr.NumBalls > 0 {
				cur.Q = make([]float64, 0, 2*tr.NumBalls)
				cur.V = make([]float64, 0, 2*tr.NumBalls)
			}
		}
		if want := len(cur.Q) / 2; ball != want {
			return nil, errf("frame %d: ball %d, want %d (balls must be listed 0,1,2,... once per frame)", frame, ball, want)
		}
		if tr.NumBalls > 0 && ball >= tr.NumBalls {
			return nil, errf("frame %d: ball %d, but earlier frames have %d balls", frame, ball, tr.NumBalls)
		}
		if t != cur.Time && !(math.IsNaN(t) && math.IsNaN(cur.Time)) {
			return nil, errf("frame %d: time %s differs from %s on the frame's first row", frame, fields[1], strconv.FormatFloat(cur.Time, 'g', -1, 64))
		}
		cur.Q = append(cur.Q, vals[0], vals[1])
		cur.V = append(cur.V, vals[2], vals[3])
	}
	if err := sc.Err(); err != nil {
		line++
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, errf("line too long")
		}
		return nil, fmt.Errorf("output: reading %s: %w", path, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("output: %s: empty file (no header)", path)
	}
	if err := endFrame(); err != nil {
		return nil, err
	}
	return tr, nil
}

func countDesc(text []byte) string {
	n := bytes.Count(text, []byte{','}) + 1
	if n == 1 {
		return "1 field"
	}
	return strconv.Itoa(n) + " fields"
}

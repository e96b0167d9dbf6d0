package output

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// TrajectoryHeader is the exact first line of a 2D ball trajectory.csv
// (BallLayout).
const TrajectoryHeader = "frame,time,ball,x,y,vx,vy"

// Layout is the column layout of one system's trajectory.csv: the frame
// number, the time and the body index, then per body len(Q) position and
// len(V) velocity columns. One row per body per saved frame.
type Layout struct {
	Body string   // name of the body-index column ("ball" or "body")
	Q, V []string // position and velocity column names
	// Digits and TimeDigits are the significant digits of the state and
	// of the time; 0 means the shortest decimal that reads back to the same
	// float64 (strconv 'g', −1).
	Digits, TimeDigits int
}

// The layouts of the systems' trajectory files.
var (
	// BallLayout: 2D balls, centre and velocity.
	BallLayout = Layout{Body: "ball", Q: []string{"x", "y"}, V: []string{"vx", "vy"}}
	// Rigid2DLayout: 2D rigid bodies, centre, angle (counter-clockwise,
	// radians), velocity and angular velocity.
	Rigid2DLayout = Layout{Body: "body", Q: []string{"x", "y", "theta"}, V: []string{"vx", "vy", "omega"}}
	// Rigid3DLayout: 3D rigid bodies, centre of mass, unit quaternion
	// (w, x, y, z), linear and world angular velocity; 17 significant
	// digits, times with 10.
	Rigid3DLayout = Layout{Body: "body",
		Q:      []string{"x", "y", "z", "qw", "qx", "qy", "qz"},
		V:      []string{"vx", "vy", "vz", "wx", "wy", "wz"},
		Digits: 17, TimeDigits: 10}
)

// Header returns the header line of the layout (without the newline).
func (l Layout) Header() string {
	h := "frame,time," + l.Body
	for _, c := range l.Q {
		h += "," + c
	}
	for _, c := range l.V {
		h += "," + c
	}
	return h
}

func appendNum(b []byte, x float64, digits int) []byte {
	if digits == 0 {
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return strconv.AppendFloat(b, x, 'g', digits, 64)
}

// TrajectoryWriter streams body states to trajectory.csv in a Layout. The
// file is written in place, one write system call per frame, so a reader
// (and whatever an interrupted run leaves) sees the whole frames written
// so far, plus at most one cut frame at the end that ReadTrajectoryPrefix
// leaves out; a write error (a full disk) is returned by the WriteFrame
// that meets it.
type TrajectoryWriter struct {
	f         sink
	path      string
	layout    Layout
	nBodies   int // of the last frame; -1 until the first frame
	lastFrame int
	buf       []byte
	err       error // sticky
}

// NewTrajectoryWriter starts dir/trajectory.csv for 2D balls (BallLayout);
// see NewLayoutTrajectoryWriter.
func NewTrajectoryWriter(dir string) (*TrajectoryWriter, error) {
	return NewLayoutTrajectoryWriter(dir, BallLayout)
}

// NewLayoutTrajectoryWriter creates dir (if needed) and starts
// dir/trajectory.csv in layout l, writing the header. An existing
// dir/trajectory.csv from an earlier run is replaced at once, so the
// directory never pairs a new scene description with an old trajectory.
func NewLayoutTrajectoryWriter(dir string, l Layout) (*TrajectoryWriter, error) {
	path := filepath.Join(dir, TrajectoryFile)
	f, err := createLive(path)
	if err != nil {
		return nil, err
	}
	w := &TrajectoryWriter{f: f, path: path, layout: l, nBodies: -1, lastFrame: -1}
	if _, err := f.Write([]byte(l.Header() + "\n")); err != nil {
		f.Abort()
		return nil, fmt.Errorf("output: writing %s: %w", path, err)
	}
	return w, nil
}

// WriteFrame appends one row per body for the saved frame number frame at
// simulation time t. q and v are flat: body i has positions
// q[i·nq : (i+1)·nq] and velocities v[i·nv : (i+1)·nv] (nq, nv the
// layout's column counts). Frame numbers must be non-negative and strictly
// increasing. Frames may differ in their number of bodies (a scripted
// scene inserts or deletes bodies): each frame lists its own bodies
// 0..n−1, and a frame without bodies writes no row. After an error the
// writer is unusable and Close removes the temporary file.
func (w *TrajectoryWriter) WriteFrame(frame int, t float64, q, v []float64) error {
	if w.err != nil {
		return w.err
	}
	nq, nv := len(w.layout.Q), len(w.layout.V)
	switch {
	case len(q)%nq != 0 || len(v)%nv != 0 || len(q)/nq != len(v)/nv:
		return w.fail(fmt.Errorf("output: trajectory frame %d: len(q)=%d and len(v)=%d are not %d and %d per body", frame, len(q), len(v), nq, nv))

	case frame < 0 || frame <= w.lastFrame:
		return w.fail(fmt.Errorf("output: trajectory frame %d: frame numbers must be non-negative and increasing (previous %d)", frame, w.lastFrame))
	}
	w.nBodies = len(q) / nq
	w.lastFrame = frame
	if w.nBodies == 0 {
		return nil // nothing to write: a frame without bodies has no row
	}
	b := w.buf[:0]
	for i := 0; i < w.nBodies; i++ {
		b = strconv.AppendInt(b, int64(frame), 10)
		b = append(b, ',')
		b = appendNum(b, t, w.layout.TimeDigits)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(i), 10)
		for _, x := range q[nq*i : nq*i+nq] {
			b = append(b, ',')
			b = appendNum(b, x, w.layout.Digits)
		}
		for _, x := range v[nv*i : nv*i+nv] {
			b = append(b, ',')
			b = appendNum(b, x, w.layout.Digits)
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

// Close closes the file. If an earlier WriteFrame failed, that error is
// returned (the whole frames written before it stay). Close is idempotent.
func (w *TrajectoryWriter) Close() error {
	if w.err != nil {
		w.f.Abort()
		return w.err
	}
	return w.f.Close()
}

// Abort closes the file, keeping the frames written.
func (w *TrajectoryWriter) Abort() {
	w.f.Abort()
}

// Frame is one saved state of all bodies.
type Frame struct {
	Index int       // the frame column
	Time  float64   // simulation time
	Q     []float64 // positions, body i at [i·nq, (i+1)·nq) (balls: [2i, 2i+1])
	V     []float64 // velocities, body i at [i·nv, (i+1)·nv)
}

// Bodies returns the number of bodies of the frame in layout l.
func (f *Frame) Bodies(l Layout) int { return len(f.Q) / len(l.Q) }

// Trajectory is the content of trajectory.csv.
type Trajectory struct {
	// NumBodies is the number of bodies of every frame; when the frames
	// differ (Varying), the largest.
	NumBodies int
	// Varying is true when frames differ in their number of bodies (a
	// scripted scene inserted or deleted bodies): then each frame's own
	// count is Frame.Bodies.
	Varying bool
	Frames  []Frame
}

// ReadTrajectory reads dir/trajectory.csv of a 2D ball run (BallLayout);
// see ReadLayoutTrajectory.
func ReadTrajectory(dir string) (*Trajectory, error) {
	return ReadLayoutTrajectory(dir, BallLayout)
}

// ReadLayoutTrajectory reads dir/trajectory.csv written in layout l. It
// checks the header, that every row has its 3 + nq + nv well-formed fields,
// that frame numbers increase and that each frame lists bodies 0..n−1 in
// order with one time. Frames may differ in their number of bodies
// (Trajectory.Varying); a frame without bodies has no row and so is not
// among Frames. Errors name the file and line ("path:line: ..."). Blank
// lines are ignored.
func ReadLayoutTrajectory(dir string, l Layout) (*Trajectory, error) {
	return readTrajectory(dir, l, -1)
}

// ReadTrajectoryPrefix reads the whole frames of dir/trajectory.csv of a
// run that is still going on or was interrupted (summary.json's status
// "running"): reading stops after the last complete line, and a last frame
// with fewer rows than the frame before it (the first frame: than bodies,
// the scene description's body count, ≥ 0) is left out. With a constant
// number of bodies that is exactly the frame the run was writing; when
// bodies are inserted or deleted, a whole last frame with fewer bodies than
// the one before is left out too (one frame lost, never a cut one shown),
// and a last frame cut at exactly the previous frame's count would be
// kept (the writer writes each frame with one write call, so a cut frame
// needs a write the system split). Everything before is checked as by
// ReadLayoutTrajectory.
func ReadTrajectoryPrefix(dir string, l Layout, bodies int) (*Trajectory, error) {
	if bodies < 0 {
		return nil, fmt.Errorf("output: ReadTrajectoryPrefix: %d bodies", bodies)
	}
	return readTrajectory(dir, l, bodies)
}

// readTrajectory reads dir/trajectory.csv; prefix ≥ 0 reads the whole
// frames of a run whose first frame has prefix bodies
// (ReadTrajectoryPrefix).
func readTrajectory(dir string, l Layout, prefix int) (*Trajectory, error) {
	path := filepath.Join(dir, TrajectoryFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if prefix >= 0 {
		if r, err = completeLines(f); err != nil {
			return nil, fmt.Errorf("output: reading %s: %w", path, err)
		}
	}
	header := l.Header()
	nq, nv := len(l.Q), len(l.V)
	tr := &Trajectory{NumBodies: max(prefix, 0)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("output: %s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	var cur *Frame
	prev := prefix       // bodies of the frame before cur (ReadTrajectoryPrefix)
	endFrame := func() { // counts cur's bodies
		if cur == nil {
			return
		}
		n := len(cur.Q) / nq
		switch {
		case len(tr.Frames) == 1:
			tr.NumBodies = n
		case n != tr.NumBodies:
			tr.Varying = true
			tr.NumBodies = max(tr.NumBodies, n)
		}
	}
	fields := make([][]byte, 3+nq+nv)
	vals := make([]float64, nq+nv)
	for sc.Scan() {
		line++
		text := bytes.TrimRight(sc.Bytes(), "\r")
		if line == 1 {
			if string(text) != header {
				return nil, errf("header %q, want %q", text, header)
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
			return nil, errf("want %d fields (%s), got %s", len(fields), header, countDesc(text))
		}
		frame, err := strconv.Atoi(string(fields[0]))
		if err != nil || frame < 0 {
			return nil, errf("bad frame %q: want a non-negative integer", fields[0])
		}
		t, err := strconv.ParseFloat(string(fields[1]), 64)
		if err != nil {
			return nil, errf("bad time %q", fields[1])
		}
		body, err := strconv.Atoi(string(fields[2]))
		if err != nil {
			return nil, errf("bad %s %q: want an integer", l.Body, fields[2])
		}
		for k := range vals {
			vals[k], err = strconv.ParseFloat(string(fields[3+k]), 64)
			if err != nil {
				name := ""
				if k < nq {
					name = l.Q[k]
				} else {
					name = l.V[k-nq]
				}
				return nil, errf("bad %s %q", name, fields[3+k])
			}
		}
		if cur == nil || frame != cur.Index {
			if cur != nil && frame < cur.Index {
				return nil, errf("frame %d after frame %d: frames must increase", frame, cur.Index)
			}
			endFrame()
			if cur != nil {
				prev = len(cur.Q) / nq
			}
			tr.Frames = append(tr.Frames, Frame{Index: frame, Time: t})
			cur = &tr.Frames[len(tr.Frames)-1]
			if prev > 0 {
				cur.Q = make([]float64, 0, nq*prev)
				cur.V = make([]float64, 0, nv*prev)
			}
		}
		if want := len(cur.Q) / nq; body != want {
			return nil, errf("frame %d: %s %d, want %d (%ss must be listed 0,1,2,... once per frame)", frame, l.Body, body, want, l.Body)
		}
		if t != cur.Time && !(math.IsNaN(t) && math.IsNaN(cur.Time)) {
			return nil, errf("frame %d: time %s differs from %s on the frame's first row", frame, fields[1], strconv.FormatFloat(cur.Time, 'g', -1, 64))
		}
		cur.Q = append(cur.Q, vals[:nq]...)
		cur.V = append(cur.V, vals[nq:]...)
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
	if prefix >= 0 && cur != nil && len(cur.Q)/nq < prev {
		tr.Frames = tr.Frames[:len(tr.Frames)-1] // cut by the end of the run
		return tr, nil
	}
	endFrame()
	return tr, nil
}

func countDesc(text []byte) string {
	n := bytes.Count(text, []byte{','}) + 1
	if n == 1 {
		return "1 field"
	}
	return strconv.Itoa(n) + " fields"
}

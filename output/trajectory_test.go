package output

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTrajectoryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := NewTrajectoryWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &Trajectory{NumBodies: 2}
	for k := 0; k < 4; k++ {
		ft := 0.1 * float64(k) // 0.30000000000000004 must survive
		q := []float64{1.0 / 3, -2e-300, math.Pi * float64(k), 1e300}
		v := []float64{math.Copysign(0, -1), math.Inf(1), 5, math.Nextafter(1, 2)}
		if k == 2 {
			v[0] = math.NaN()
		}
		if err := w.WriteFrame(3*k, ft, q, v); err != nil {
			t.Fatal(err)
		}
		want.Frames = append(want.Frames, Frame{Index: 3 * k, Time: ft, Q: q, V: v})
	}
	// Before Close the frames written are already readable in place.
	if pre, err := ReadTrajectoryPrefix(dir, BallLayout, 2); err != nil || len(pre.Frames) != 4 {
		t.Fatalf("before Close: %v frames, %v", pre, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, TrajectoryFile+".tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("tmp file left after Close: %v", err)
	}
	got, err := ReadTrajectory(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.NumBodies != 2 || len(got.Frames) != 4 {
		t.Fatalf("got %d balls, %d frames", got.NumBodies, len(got.Frames))
	}
	for k := range want.Frames {
		g, e := got.Frames[k], want.Frames[k]
		if g.Index != e.Index || g.Time != e.Time {
			t.Errorf("frame %d: index/time %d %v, want %d %v", k, g.Index, g.Time, e.Index, e.Time)
		}
		for i := range e.Q {
			if !sameFloat(g.Q[i], e.Q[i]) || !sameFloat(g.V[i], e.V[i]) {
				t.Errorf("frame %d entry %d: q %v v %v, want %v %v", k, i, g.Q[i], g.V[i], e.Q[i], e.V[i])
			}
		}
	}
	// Negative zero keeps its sign.
	if !math.Signbit(got.Frames[0].V[0]) {
		t.Error("-0 lost its sign")
	}
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func TestTrajectoryWriterErrors(t *testing.T) {
	dir := t.TempDir()
	w, err := NewTrajectoryWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFrame(0, 0, []float64{1, 2}, []float64{0, 0}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		frame int
		q, v  []float64
	}{
		{"mismatch", 1, []float64{1, 2}, []float64{1}},
		{"odd", 1, []float64{1}, []float64{1}},
		{"order", 0, []float64{1, 2}, []float64{1, 2}},
	} {
		w2, _ := NewTrajectoryWriter(t.TempDir())
		w2.WriteFrame(0, 0, []float64{1, 2}, []float64{0, 0})
		if err := w2.WriteFrame(c.frame, 0, c.q, c.v); err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if err := w2.Close(); err == nil {
			t.Errorf("%s: Close after failed write returned nil", c.name)
		}
	}
	w.Abort()
	if tr, err := ReadTrajectory(dir); err != nil || len(tr.Frames) != 1 {
		t.Errorf("Abort lost the frame written: %v, %v", tr, err)
	}
}

func TestTrajectoryWriterReplacesOldFile(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, TrajectoryFile)
	os.WriteFile(old, []byte(TrajectoryHeader+"\n0,0,0,1,1,0,0\n"), 0o644)
	w, err := NewTrajectoryWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); string(b) != TrajectoryHeader+"\n" {
		t.Errorf("stale trajectory.csv kept while a new run is being written: %q", b)
	}
	w.Abort()
}

// TestReadTrajectoryPrefix: a trajectory cut anywhere (a killed run) reads
// as its whole frames; the strict reader refuses it.
func TestReadTrajectoryPrefix(t *testing.T) {
	h := TrajectoryHeader + "\n"
	full := h + "0,0,0,1,2,3,4\n0,0,1,5,6,7,8\n1,0.5,0,1,2,3,4\n1,0.5,1,5,6,7,8\n"
	for cut := len(h); cut <= len(full); cut++ {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, TrajectoryFile), []byte(full[:cut]), 0o644)
		tr, err := ReadTrajectoryPrefix(dir, BallLayout, 2)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		whole := strings.Count(full[:cut], "\n") - 1 // complete rows
		if want := whole / 2; len(tr.Frames) != want || tr.NumBodies != 2 {
			t.Fatalf("cut at %d: %d frames of %d bodies, want %d of 2", cut, len(tr.Frames), tr.NumBodies, want)
		}
	}
	// three rows of two-body frames: the strict reader (of a finished run)
	// reads a last frame of one ball, as frames may differ in their bodies
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, TrajectoryFile), []byte(full[:len(full)-16]), 0o644)
	if tr, err := ReadTrajectory(dir); err != nil || !tr.Varying || tr.NumBodies != 2 || tr.Frames[1].Bodies(BallLayout) != 1 {
		t.Errorf("strict reader on a shorter last frame: %+v, %v", tr, err)
	}
}

// TestTrajectoryVaryingBodies: frames of 1, 0, 3 and 2 balls (a scripted
// scene inserting and deleting balls) are written one row per ball with
// the frame's own indices, the empty frame as no row, and read back; a
// killed run's prefix leaves out a last frame with fewer rows than the
// frame before it.
func TestTrajectoryVaryingBodies(t *testing.T) {
	dir := t.TempDir()
	w, err := NewTrajectoryWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{1, 0, 3, 2}
	for k, n := range counts {
		q, v := make([]float64, 2*n), make([]float64, 2*n)
		for i := range q {
			q[i], v[i] = float64(10*k+i), -float64(10*k+i)
		}
		if err := w.WriteFrame(k, float64(k)/4, q, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, TrajectoryFile))
	want := TrajectoryHeader + "\n0,0,0,0,1,-0,-1\n" +
		"2,0.5,0,20,21,-20,-21\n2,0.5,1,22,23,-22,-23\n2,0.5,2,24,25,-24,-25\n" +
		"3,0.75,0,30,31,-30,-31\n3,0.75,1,32,33,-32,-33\n"
	if string(b) != want {
		t.Fatalf("trajectory.csv\n%s\nwant\n%s", b, want)
	}
	tr, err := ReadTrajectory(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Varying || tr.NumBodies != 3 || len(tr.Frames) != 3 {
		t.Fatalf("read %d frames, NumBodies %d, Varying %v; want 3, 3, true", len(tr.Frames), tr.NumBodies, tr.Varying)
	}
	for j, k := range []int{0, 2, 3} {
		f := &tr.Frames[j]
		if f.Index != k || f.Bodies(BallLayout) != counts[k] || f.Time != float64(k)/4 {
			t.Errorf("frame %d: index %d, %d balls, t %v; want %d, %d, %v", j, f.Index, f.Bodies(BallLayout), f.Time, k, counts[k], float64(k)/4)
		}
	}
	// A killed run: the last frame (2 balls after 3) is left out as cut.
	p, err := ReadTrajectoryPrefix(dir, BallLayout, 1)
	if err != nil || len(p.Frames) != 2 || p.Frames[1].Index != 2 {
		t.Fatalf("prefix: %+v, %v; want frames 0 and 2", p, err)
	}
	// A run that starts without bodies (scene description: 0 bodies).
	if p, err = ReadTrajectoryPrefix(dir, BallLayout, 0); err != nil || len(p.Frames) != 2 {
		t.Fatalf("prefix of 0 bodies: %+v, %v", p, err)
	}
}

func TestReadTrajectoryMalformed(t *testing.T) {
	h := TrajectoryHeader + "\n"
	cases := []struct {
		name, text, want string
	}{
		{"header", "frame,t,ball,x,y,vx,vy\n", ":1: header"},
		{"fields", h + "0,0,0,1,2,3,4\n0,0,1,1,2,3\n", ":3: want 7 fields"},
		{"extra", h + "0,0,0,1,2,3,4,5\n", ":2: want 7 fields"},
		{"number", h + "0,0,0,1,2,3,4\n0,0,1,1,abc,3,4\n", `:3: bad y "abc"`},
		{"frame", h + "x,0,0,1,2,3,4\n", `:2: bad frame "x"`},
		{"ballorder", h + "0,0,1,1,2,3,4\n", ":2: frame 0: ball 1, want 0"},
		{"gap", h + "0,0,0,1,2,3,4\n1,1,0,1,2,3,4\n1,1,2,1,2,3,4\n", ":4: frame 1: ball 2, want 1"},
		{"decrease", h + "1,0,0,1,2,3,4\n0,0,0,1,2,3,4\n", ":3: frame 0 after frame 1"},
		{"time", h + "0,0,0,1,2,3,4\n0,0.5,1,1,2,3,4\n", ":3: frame 0: time 0.5 differs"},
		{"empty", "", "empty file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, TrajectoryFile), []byte(c.text), 0o644)
			_, err := ReadTrajectory(dir)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), TrajectoryFile+c.want) && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
			if c.want[0] == ':' && !strings.Contains(err.Error(), TrajectoryFile+c.want) {
				t.Fatalf("error %q lacks file:line %q", err, TrajectoryFile+c.want)
			}
		})
	}
}

func TestReadTrajectoryCRLFAndBlank(t *testing.T) {
	dir := t.TempDir()
	text := TrajectoryHeader + "\r\n0,0,0,1,2,3,4\r\n\r\n1,0.5,0,5,6,7,8\r\n"
	os.WriteFile(filepath.Join(dir, TrajectoryFile), []byte(text), 0o644)
	tr, err := ReadTrajectory(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Frame{{0, 0, []float64{1, 2}, []float64{3, 4}}, {1, 0.5, []float64{5, 6}, []float64{7, 8}}}
	if !reflect.DeepEqual(tr.Frames, want) {
		t.Fatalf("got %+v", tr.Frames)
	}
}

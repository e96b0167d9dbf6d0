package output

import (
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func decodeGIF(t *testing.T, path string) *gif.GIF {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sameRGB(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	return r1>>8 == r2>>8 && g1>>8 == g2>>8 && b1>>8 == b2>>8
}

func TestRender2D(t *testing.T) {
	dir := t.TempDir()
	sc := testScene()
	tr := testTrajectory(5)
	// A leftover frame from an earlier, longer render must disappear.
	os.WriteFile(filepath.Join(dir, "frame_00007.png"), []byte("old"), 0o644)
	info, err := Render2D(tr, sc, RenderOptions{Dir: dir, Width: 200, Height: 150, Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Frames != 5 || len(info.PNGs) != 5 || info.GIF == "" || info.MP4 != "" {
		t.Fatalf("info %+v", info)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "frame_*.png"))
	if len(pngs) != 5 || filepath.Base(pngs[4]) != "frame_00004.png" {
		t.Fatalf("PNG files %v", pngs)
	}
	g := decodeGIF(t, info.GIF)
	if len(g.Image) != 5 || g.Config.Width != 200 || g.Config.Height != 150 {
		t.Fatalf("GIF: %d frames, %dx%d", len(g.Image), g.Config.Width, g.Config.Height)
	}
	if g.Delay[0] != 4 { // 25 fps
		t.Errorf("GIF delay %d", g.Delay[0])
	}

	// Pixel checks on the first frame: ball 1 (moving, index colour) at
	// world (3, 3), fixed ball 2 at (4.5, 1), background far from everything.
	v := newView(tr, sc, 200, 150)
	m := decodePNG(t, pngs[0])
	if b := m.Bounds(); b.Dx() != 200 || b.Dy() != 150 {
		t.Fatalf("PNG size %v", b)
	}
	gf := g.Image[0]
	check := func(wx, wy float64, want color.Color, what string) {
		t.Helper()
		px, py := v.px(wx, wy)
		x, y := int(px), int(py)
		if got := m.At(x, y); !sameRGB(got, want) {
			t.Errorf("PNG %s pixel (%d,%d) = %v, want %v", what, x, y, got, want)
		}
		if got := gf.At(x, y); !sameRGB(got, want) {
			t.Errorf("GIF %s pixel (%d,%d) = %v, want %v", what, x, y, got, want)
		}
	}
	check(3, 3, BallColor(1), "ball 1 centre")
	check(0.5, 0.5, BallColor(0), "ball 0 centre")
	check(4.5, 1, colFixed, "fixed ball centre")
	check(1.8, 2.2, colBackground, "background")
	check(2, -0.2, colSolid, "floor")
}

func TestRenderStrideAndMaxFrames(t *testing.T) {
	for _, c := range []struct{ n, stride, max, want int }{
		{10, 1, 0, 10}, {10, 3, 0, 4}, {11, 3, 0, 5}, {10, 1, 4, 4}, {100, 1, 7, 7}, {5, 1, 1, 1}, {1, 1, 0, 1},
	} {
		sel := selectFrames(c.n, c.stride, c.max)
		if len(sel) != c.want || sel[len(sel)-1] != c.n-1 || sel[0] != 0 && c.want > 1 {
			t.Errorf("selectFrames(%d,%d,%d) = %v, want %d frames ending at %d", c.n, c.stride, c.max, sel, c.want, c.n-1)
		}
	}
	dir := t.TempDir()
	info, err := Render2D(testTrajectory(9), testScene(), RenderOptions{Dir: dir, Width: 64, Height: 48, Stride: 4, Outputs: OutputGIF})
	if err != nil {
		t.Fatal(err)
	}
	if info.Frames != 3 || len(info.PNGs) != 0 {
		t.Fatalf("info %+v", info)
	}
	if g := decodeGIF(t, info.GIF); len(g.Image) != 3 {
		t.Fatalf("GIF has %d frames", len(g.Image))
	}
}

func TestRenderPanelsAndSpeed(t *testing.T) {
	dir := t.TempDir()
	sc := testScene()
	sc.Drums = []Drum2D{{Centre: [2]float64{2.5, 2}, Radius: 4}}
	sc.Camera = &Camera2D{CX: 2.5, CY: 2, Scale: 9}
	a, b := testTrajectory(5), testTrajectory(3)
	for k := range b.Frames {
		b.Frames[k].Time *= 2 // spans the same time with fewer frames
	}
	info, err := RenderPanels([]Panel{{Title: "gr", Traj: a, Scene: sc}, {Title: "lcp", Traj: b, Scene: sc}}, RenderOptions{Dir: dir, Width: 160, Height: 120, ColorBy: ColorBySpeed})
	if err != nil {
		t.Fatal(err)
	}
	if info.Width != 320 || info.Height != 120 || info.Frames != 5 {
		t.Fatalf("info %+v", info)
	}
	g := decodeGIF(t, info.GIF)
	if len(g.Image) != 5 || g.Config.Width != 320 {
		t.Fatalf("GIF %d frames %d wide", len(g.Image), g.Config.Width)
	}
	m := decodePNG(t, info.PNGs[0])
	v := newView(a, sc, 160, 120)
	px, py := v.px(3, 3) // ball 1, speed 1 = the maximum: top of the scale
	if got := m.At(int(px)+160, int(py)); !sameRGB(got, SpeedColor(1, 1)) {
		t.Errorf("right panel ball pixel %v, want %v", got, SpeedColor(1, 1))
	}
	if got := m.At(2, 60); !sameRGB(got, colSolid) { // outside the drum
		t.Errorf("outside-drum pixel %v", got)
	}
}

func TestRenderMP4(t *testing.T) {
	dir := t.TempDir()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Setenv("PATH", "")
		info, err := Render2D(testTrajectory(3), testScene(), RenderOptions{Dir: dir, Width: 64, Height: 48, Outputs: OutputMP4})
		if err != nil || info.MP4 != "" || len(info.Notes) != 1 || !strings.Contains(info.Notes[0], "ffmpeg") {
			t.Fatalf("without ffmpeg: info %+v err %v", info, err)
		}
		return
	}
	info, err := Render2D(testTrajectory(3), testScene(), RenderOptions{Dir: dir, Width: 65, Height: 47, Outputs: OutputMP4})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(info.MP4)
	if err != nil || st.Size() == 0 {
		t.Fatalf("mp4: %v", err)
	}
	// Without ffmpeg on PATH the MP4 is skipped with a note.
	t.Setenv("PATH", "")
	info, err = Render2D(testTrajectory(3), testScene(), RenderOptions{Dir: t.TempDir(), Width: 64, Height: 48, Outputs: OutputMP4 | OutputGIF})
	if err != nil || info.MP4 != "" || info.GIF == "" || len(info.Notes) != 1 {
		t.Fatalf("without ffmpeg: info %+v err %v", info, err)
	}
}

func TestRenderErrors(t *testing.T) {
	sc := testScene()
	if _, err := Render2D(testTrajectory(2), sc, RenderOptions{}); err == nil {
		t.Error("empty Dir accepted")
	}
	tr := testTrajectory(2)
	tr.Frames[1].Q, tr.Frames[1].V = tr.Frames[1].Q[:4], tr.Frames[1].V[:4]
	if _, err := Render2D(tr, sc, RenderOptions{Dir: t.TempDir()}); err == nil {
		t.Error("ball count mismatch accepted")
	}
	// The same frame is drawn when a scene description of 2 balls takes
	// over from frame 1 on (a run whose script deleted a ball).
	sc2 := *sc
	sc2.NumBalls, sc2.Radii, sc2.Masses, sc2.Fixed = 2, sc.Radii[:2], sc.Masses[:2], sc.Fixed[:2]
	info, err := RenderPanels([]Panel{{Traj: tr, Scene: sc, Scenes: []FrameScene2D{{From: 1, Scene: &sc2}}}}, RenderOptions{Dir: t.TempDir(), Width: 64, Height: 48, Outputs: OutputPNG})
	if err != nil || info.Frames != 2 {
		t.Errorf("frames of 3 then 2 balls with their descriptions: %+v, %v", info, err)
	}
	if _, err := Render2D(&Trajectory{NumBodies: 3}, sc, RenderOptions{Dir: t.TempDir()}); err == nil {
		t.Error("empty trajectory accepted")
	}
}

func TestTimeFormatter(t *testing.T) {
	for _, c := range []struct {
		times []float64
		t     float64
		want  string
	}{
		{[]float64{0, 0.25, 0.5}, 0.25, "0.25"},
		{[]float64{0, 0.5, 1}, 1, "1.0"},
		{[]float64{0, 1.0 / 3, 2.0 / 3}, 1.0 / 3, "0.333"},
		{[]float64{0, 0.001, 0.002}, 0.002, "0.002"},
		{[]float64{2}, 2, "2.0"},
	} {
		if got := timeFormatter(c.times)(c.t); got != c.want {
			t.Errorf("times %v: %v formats as %q, want %q", c.times, c.t, got, c.want)
		}
	}
}

// TestPNGWriterWaitBeforeWorkerStarts: waiting on a PNG writer with
// nothing queued returns even when its worker has not started yet (it
// used to range over the channel field that wait sets to nil, and hung:
// render of a two-frame run under load).
func TestPNGWriterWaitBeforeWorkerStarts(t *testing.T) {
	done := make(chan struct{})
	go func() {
		for i := 0; i < 200; i++ {
			newPNGWriter().wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("pngWriter.wait hangs")
	}
}

// TestPanelsShareOneView: side-by-side panels without a camera hint are
// drawn at one scale and centre, fitted to both (a break that spreads
// and one that does not used to get different scales).
func TestPanelsShareOneView(t *testing.T) {
	sc := &Scene2D{NumBalls: 1, Radii: []float64{1}, Masses: []float64{1}, Fixed: []bool{false}}
	near := &Trajectory{NumBodies: 1, Frames: []Frame{{Q: []float64{0, 0}, V: []float64{0, 0}}, {Index: 1, Q: []float64{2, 0}, V: []float64{0, 0}}}}
	far := &Trajectory{NumBodies: 1, Frames: []Frame{{Q: []float64{0, 0}, V: []float64{0, 0}}, {Index: 1, Q: []float64{20, 5}, V: []float64{0, 0}}}}
	vs := panelViews([]Panel{{Traj: near, Scene: sc}, {Traj: far, Scene: sc}}, 200, 150)
	if vs[0] != vs[1] {
		t.Fatalf("views differ: %+v %+v", vs[0], vs[1])
	}
	// the shared view holds both: ball at (20, 5) with its radius in the frame
	if x, y := vs[0].px(21, 6); x > 200 || y < 0 {
		t.Errorf("the far ball is outside the shared view: (%v, %v)", x, y)
	}
	if a, b := newView(near, sc, 200, 150), newView(far, sc, 200, 150); a.s < 2*b.s {
		t.Errorf("test scenes fit alone at scales %v and %v: they test nothing", a.s, b.s)
	}
	// as drawn: the ball of the first frame is as large in both panels
	info, err := RenderPanels([]Panel{{Title: "near", Traj: near, Scene: sc}, {Title: "far", Traj: far, Scene: sc}}, RenderOptions{Dir: t.TempDir(), Width: 200, Height: 150, Outputs: OutputPNG})
	if err != nil {
		t.Fatal(err)
	}
	m := decodePNG(t, info.PNGs[0])
	var n [2]int
	for y := 0; y < 150; y++ {
		for x := 0; x < 400; x++ {
			if sameRGB(m.At(x, y), BallColor(0)) {
				n[x/200]++
			}
		}
	}
	if n[0] < 20 || n[0] != n[1] {
		t.Errorf("the same ball in %d and %d pixels", n[0], n[1])
	}
}

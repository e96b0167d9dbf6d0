package output

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font/basicfont"
)

// ColorMode selects how moving balls are coloured. Fixed balls are always
// grey.
type ColorMode int

const (
	// ColorByIndex cycles through a fixed list of distinct colours by ball
	// index.
	ColorByIndex ColorMode = iota
	// ColorBySpeed maps |v| linearly onto a blue–cyan–green–yellow–red
	// colour scale from 0 to RenderOptions.MaxSpeed.
	ColorBySpeed
)

// Outputs is a set of render products.
type Outputs uint

const (
	OutputPNG Outputs = 1 << iota // one PNG per rendered frame
	OutputGIF                     // one animated GIF
	OutputMP4                     // one H.264 (or ffmpeg's default) MP4, needs ffmpeg
)

// DefaultOutputs is used when RenderOptions.Outputs is zero.
const DefaultOutputs = OutputPNG | OutputGIF

// RenderOptions configures Render2D and RenderPanels. Zero values select the
// documented defaults.
type RenderOptions struct {
	Dir       string    // output directory, created if needed (required)
	Width     int       // pixels per panel, default 640
	Height    int       // pixels, default 480
	Stride    int       // render every Stride-th saved frame, default 1; the last frame is always rendered
	MaxFrames int       // if > 0, Stride is raised so that at most MaxFrames frames are rendered
	FPS       float64   // frames per second of the GIF and MP4, default 25
	Outputs   Outputs   // default DefaultOutputs (PNG and GIF)
	ColorBy   ColorMode // default ColorByIndex
	// Colors, if set, is the colour of each moving ball by index (e.g.
	// BallColor of a group), in place of ColorBy; balls beyond it use
	// ColorBy.
	Colors   []color.RGBA
	MaxSpeed float64 // top of the speed colour scale; 0 = largest speed in the rendered frames
	Title    string  // title of a single-panel render (Render2D); panels carry their own

	FramePrefix string // PNG names are FramePrefix+"%05d.png", default "frame_"
	GIFName     string // default "animation.gif"
	MP4Name     string // default "animation.mp4"
}

// RenderInfo reports what a render produced.
type RenderInfo struct {
	Frames int      // number of rendered frames
	Width  int      // image width in pixels (all panels)
	Height int      // image height in pixels
	PNGs   []string // paths of the PNG frames, in order
	GIF    string   // path of the GIF, "" if not produced
	MP4    string   // path of the MP4, "" if not produced
	Notes  []string // human-readable remarks, e.g. "mp4 skipped: ffmpeg not found"
}

// Panel is one view of a side-by-side render.
type Panel struct {
	Title string
	Traj  *Trajectory
	Scene *Scene2D
	// Scenes are the descriptions of a run whose bodies changed (a
	// scripted scene inserted or deleted some; ReadSceneChanges2D), in
	// increasing From: frames from From on are drawn with that
	// description, earlier ones with Scene. Nil: Scene describes every
	// frame.
	Scenes []FrameScene2D
}

// Check reports a panel whose trajectory and scene descriptions do not
// belong together (a frame whose number of bodies is not that of its
// description), as RenderPanels would.
func (pn *Panel) Check() error { return checkTrajScenes(pn.Traj, pn) }

// sceneAt returns the description of frame f's bodies.
func (pn *Panel) sceneAt(f *Frame) *Scene2D {
	sc := pn.Scene
	for _, c := range pn.Scenes {
		if c.From > f.Index {
			break
		}
		sc = c.Scene
	}
	return sc
}

// Render2D draws the frames of one 2D trajectory: balls as filled
// antialiased circles (fixed balls grey; moving balls by index or speed),
// static planes as shaded half-planes with their boundary line, drums as a
// rim with the outside shaded, and a time label. The view comes from the
// scene's camera hint or is fitted to all balls of all frames. Products go to
// opts.Dir: frame_00000.png ... (numbered by rendered frame, not by the
// trajectory's frame column), animation.gif, animation.mp4.
func Render2D(traj *Trajectory, sc *Scene2D, opts RenderOptions) (*RenderInfo, error) {
	return RenderPanels([]Panel{{Title: opts.Title, Traj: traj, Scene: sc}}, opts)
}

// RenderPanels renders several trajectories side by side, each in a
// Width×Height panel with its title, into images n·Width wide. The timeline
// is that of the panel with the most frames; the other panels show, at each
// rendered time t, their last frame with time ≤ t (their first frame before
// it starts). With ColorBySpeed all panels share one colour scale.
func RenderPanels(panels []Panel, opts RenderOptions) (*RenderInfo, error) {
	if len(panels) == 0 {
		return nil, errors.New("output: render: no panels")
	}
	if opts.Dir == "" {
		return nil, errors.New("output: render: RenderOptions.Dir is empty")
	}
	opts = opts.withDefaults()
	if opts.Width < 16 || opts.Height < 16 || opts.Width > 1<<14 || opts.Height > 1<<14 {
		return nil, fmt.Errorf("output: render: size %dx%d out of range", opts.Width, opts.Height)
	}
	if !(opts.FPS > 0) || math.IsInf(opts.FPS, 0) {
		return nil, fmt.Errorf("output: render: fps %g must be positive", opts.FPS)
	}
	master := 0
	for i, p := range panels {
		if err := checkTrajScenes(p.Traj, &p); err != nil {
			return nil, fmt.Errorf("output: render panel %d: %w", i, err)
		}
		if len(p.Traj.Frames) == 0 {
			return nil, fmt.Errorf("output: render panel %d: trajectory has no frames", i)
		}
		if len(p.Traj.Frames) > len(panels[master].Traj.Frames) {
			master = i
		}
	}
	sel := selectFrames(len(panels[master].Traj.Frames), opts.Stride, opts.MaxFrames)
	times := make([]float64, len(sel))
	for k, i := range sel {
		times[k] = panels[master].Traj.Frames[i].Time
	}
	// Frame of each panel shown at each rendered step.
	shown := make([][]int, len(panels))
	for p := range panels {
		if p == master {
			shown[p] = sel
			continue
		}
		fr := panels[p].Traj.Frames
		shown[p] = make([]int, len(times))
		for k, t := range times {
			j := sort.Search(len(fr), func(j int) bool { return fr[j].Time > t }) - 1
			shown[p][k] = max(j, 0)
		}
	}
	vmax := opts.MaxSpeed
	if opts.ColorBy == ColorBySpeed && !(vmax > 0) {
		for p, pn := range panels {
			for _, i := range shown[p] {
				f := &pn.Traj.Frames[i]
				sc := pn.sceneAt(f)
				k := len(sc.Layout().V)
				for b := 0; b < sc.NumBalls; b++ {
					if s := math.Hypot(f.V[k*b], f.V[k*b+1]); !sc.Fixed[b] && s > vmax && !math.IsInf(s, 0) {
						vmax = s
					}
				}
			}
		}
		if !(vmax > 0) {
			vmax = 1
		}
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("output: render: %w", err)
	}
	W, H := opts.Width*len(panels), opts.Height
	info := &RenderInfo{Frames: len(sel), Width: W, Height: H}

	views := panelViews(panels, opts.Width, opts.Height)
	timeFmt := timeFormatter(times)

	if opts.Outputs&OutputPNG != 0 {
		if err := removeOldFrames(opts.Dir, opts.FramePrefix); err != nil {
			return nil, err
		}
	}
	var enc *mp4Encoder
	if opts.Outputs&OutputMP4 != 0 {
		var note string
		var err error
		enc, note, err = startMP4(filepath.Join(opts.Dir, opts.MP4Name), W, H, opts.FPS)
		if err != nil {
			return info, err
		}
		if note != "" {
			info.Notes = append(info.Notes, note)
		}
	}
	var anim *gifBuilder
	if opts.Outputs&OutputGIF != 0 {
		anim = newGIFBuilder(W, H, opts.FPS)
	}

	canvas := image.NewRGBA(image.Rect(0, 0, W, H))
	dcs := make([]*gg.Context, len(panels))
	for p := range panels {
		dcs[p] = gg.NewContext(opts.Width, opts.Height)
	}
	var pngs *pngWriter
	if opts.Outputs&OutputPNG != 0 {
		pngs = newPNGWriter()
	}
	fail := func(err error) (*RenderInfo, error) {
		if enc != nil {
			enc.abort()
		}
		if pngs != nil {
			pngs.wait()
		}
		return info, err
	}
	for k := range sel {
		for p, pn := range panels {
			f := &pn.Traj.Frames[shown[p][k]]
			drawPanel(dcs[p], &views[p], pn, f, opts, vmax, timeFmt)
			draw.Draw(canvas, image.Rect(p*opts.Width, 0, (p+1)*opts.Width, H), dcs[p].Image(), image.Point{}, draw.Src)
		}
		for p := 1; p < len(panels); p++ { // dividers
			draw.Draw(canvas, image.Rect(p*opts.Width-1, 0, p*opts.Width+1, H), image.NewUniform(colDivider), image.Point{}, draw.Src)
		}
		if pngs != nil {
			path := filepath.Join(opts.Dir, fmt.Sprintf("%s%05d.png", opts.FramePrefix, k))
			if err := pngs.write(path, canvas); err != nil {
				return fail(err)
			}
			info.PNGs = append(info.PNGs, path)
		}
		if anim != nil {
			anim.add(canvas)
		}
		if enc != nil {
			if err := enc.write(canvas.Pix); err != nil {
				return fail(err)
			}
		}
	}
	if pngs != nil {
		if err := pngs.wait(); err != nil {
			return fail(err)
		}
	}
	if anim != nil {
		path := filepath.Join(opts.Dir, opts.GIFName)
		if err := anim.save(path); err != nil {
			return fail(err)
		}
		info.GIF = path
	}
	if enc != nil {
		if err := enc.finish(); err != nil {
			return info, err
		}
		info.MP4 = enc.path
	}
	return info, nil
}

func (o RenderOptions) withDefaults() RenderOptions {
	if o.Width == 0 {
		o.Width = 640
	}
	if o.Height == 0 {
		o.Height = 480
	}
	if o.Stride < 1 {
		o.Stride = 1
	}
	if o.FPS == 0 {
		o.FPS = 25
	}
	if o.Outputs == 0 {
		o.Outputs = DefaultOutputs
	}
	if o.FramePrefix == "" {
		o.FramePrefix = "frame_"
	}
	if o.GIFName == "" {
		o.GIFName = "animation.gif"
	}
	if o.MP4Name == "" {
		o.MP4Name = "animation.mp4"
	}
	return o
}

// selectFrames returns the indices 0, s, 2s, ... of n frames plus the last
// one, with s raised so that at most maxFrames (if > 0) are returned.
func selectFrames(n, stride, maxFrames int) []int {
	if maxFrames > 0 && n > maxFrames {
		if maxFrames == 1 {
			return []int{n - 1}
		}
		// ceil((n-1)/(maxFrames-1)) keeps the count, last frame included, ≤ maxFrames.
		stride = max(stride, (n-1+maxFrames-2)/(maxFrames-1))
	}
	var sel []int
	for i := 0; i < n; i += stride {
		sel = append(sel, i)
	}
	if sel[len(sel)-1] != n-1 {
		if maxFrames > 0 && len(sel) == maxFrames {
			sel[len(sel)-1] = n - 1
		} else {
			sel = append(sel, n-1)
		}
	}
	return sel
}

var frameNameRE = regexp.MustCompile(`^[0-9]+\.png$`)

// removeOldFrames deletes prefix+digits+".png" files left by an earlier
// render, so the directory holds only this render's frames.
func removeOldFrames(dir, prefix string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output: render: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if e.Type().IsRegular() && len(name) > len(prefix) && name[:len(prefix)] == prefix && frameNameRE.MatchString(name[len(prefix):]) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("output: render: %w", err)
			}
		}
	}
	return nil
}

// Colours.
var (
	colBackground = color.RGBA{255, 255, 255, 255}
	colSolid      = color.RGBA{214, 208, 198, 255} // shaded wall / outside of drum
	colWallEdge   = color.RGBA{90, 84, 78, 255}
	colFixed      = color.RGBA{150, 150, 150, 255}
	colOutline    = color.RGBA{40, 40, 40, 255}
	colText       = color.RGBA{0, 0, 0, 255}
	colLabelBox   = color.RGBA{255, 255, 255, 255}
	colDivider    = color.RGBA{60, 60, 60, 255}

	// ballColors are cycled by ball index under ColorByIndex.
	ballColors = []color.RGBA{
		{31, 119, 180, 255},  // blue
		{230, 85, 13, 255},   // orange
		{44, 160, 44, 255},   // green
		{214, 39, 40, 255},   // red
		{148, 103, 189, 255}, // purple
		{140, 86, 75, 255},   // brown
		{227, 119, 194, 255}, // pink
		{188, 189, 34, 255},  // olive
		{23, 190, 207, 255},  // cyan
		{255, 187, 0, 255},   // amber
	}

	// speedStops is the ColorBySpeed scale, evenly spaced from 0 to 1.
	speedStops = []color.RGBA{
		{40, 60, 170, 255},
		{0, 170, 220, 255},
		{60, 180, 75, 255},
		{250, 200, 20, 255},
		{215, 40, 40, 255},
	}
)

// BallColor returns the colour of moving ball i under ColorByIndex.
func BallColor(i int) color.RGBA {
	return ballColors[((i%len(ballColors))+len(ballColors))%len(ballColors)]
}

// SpeedColor returns the ColorBySpeed colour of speed s on a scale [0, vmax].
func SpeedColor(s, vmax float64) color.RGBA {
	u := s / vmax
	if !(u > 0) {
		u = 0
	}
	if u > 1 {
		u = 1
	}
	x := u * float64(len(speedStops)-1)
	i := int(x)
	if i >= len(speedStops)-1 {
		return speedStops[len(speedStops)-1]
	}
	a, b, w := speedStops[i], speedStops[i+1], x-float64(i)
	lerp := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + w*(float64(q)-float64(p)))) }
	return color.RGBA{lerp(a.R, b.R), lerp(a.G, b.G), lerp(a.B, b.B), 255}
}

// view maps world coordinates (y up) to panel pixels (y down).
type view struct {
	w, h   float64
	cx, cy float64 // world centre
	s      float64 // pixels per world unit
}

func (v *view) px(x, y float64) (float64, float64) {
	return v.w/2 + (x-v.cx)*v.s, v.h/2 - (y-v.cy)*v.s
}

// world returns the world coordinates of pixel (px, py).
func (v *view) world(px, py float64) (float64, float64) {
	return v.cx + (px-v.w/2)/v.s, v.cy - (py-v.h/2)/v.s
}

// newView uses the camera hint if any, else fits every ball of every frame
// (with its radius), every drum and the walls next to the balls, plus a 5%
// margin.
func newView(tr *Trajectory, sc *Scene2D, w, h int) view {
	if c := sc.Camera; c != nil {
		v := view{w: float64(w), h: float64(h)}
		v.cx, v.cy = c.CX, c.CY
		v.s = math.Min(v.w, v.h) / c.Scale
		return v
	}
	return fitView([]Panel{{Traj: tr, Scene: sc}}, w, h)
}

// panelViews returns the view of each panel: its camera hint, or one view
// shared by every panel without one, fitted to all of them, so the same
// scene is drawn at the same scale side by side (the demo's GR and LCP
// panels showed one cue ball at 42 px and 132 px).
func panelViews(panels []Panel, w, h int) []view {
	views := make([]view, len(panels))
	var fit []Panel
	for _, pn := range panels {
		if pn.Scene.Camera == nil {
			fit = append(fit, pn)
		}
	}
	shared := fitView(fit, w, h)
	for p, pn := range panels {
		views[p] = shared
		if pn.Scene.Camera != nil {
			views[p] = newView(pn.Traj, pn.Scene, w, h)
		}
	}
	return views
}

// fitView fits one view to every ball of every frame of every panel, their
// drums and the walls next to the balls, plus a 5% margin.
func fitView(panels []Panel, w, h int) view {
	v := view{w: float64(w), h: float64(h)}
	inf := math.Inf(1)
	x0, y0, x1, y1 := inf, inf, -inf, -inf
	add := func(x, y, r float64) {
		if !finite(x, y, r) {
			return
		}
		x0, y0 = math.Min(x0, x-r), math.Min(y0, y-r)
		x1, y1 = math.Max(x1, x+r), math.Max(y1, y+r)
	}
	for _, pn := range panels {
		tr, sc := pn.Traj, pn.Scene
		for j := range tr.Frames {
			f := &tr.Frames[j]
			fs := pn.sceneAt(f)
			k := len(fs.Layout().Q)
			for i := 0; i < fs.NumBalls; i++ {
				add(f.Q[k*i], f.Q[k*i+1], fs.Radii[i])
			}
		}
		for _, d := range sc.Drums {
			add(d.Centre[0], d.Centre[1], d.Radius)
		}
	}
	var planes []Plane2D
	for _, pn := range panels {
		planes = append(planes, pn.Scene.Planes...)
	}
	if x0 <= x1 {
		// Show walls close to the balls: add the foot of the perpendicular
		// from the bounding box centre onto each plane when it is near.
		mx, my := (x0+x1)/2, (y0+y1)/2
		size := math.Max(x1-x0, y1-y0)
		for _, p := range planes {
			nx, ny := p.Normal[0], p.Normal[1]
			nn := math.Hypot(nx, ny)
			nx, ny = nx/nn, ny/nn
			d := nx*(mx-p.Point[0]) + ny*(my-p.Point[1])
			if math.Abs(d) <= 1.5*size+1e-12 {
				add(mx-d*nx, my-d*ny, 0)
			}
		}
	} else {
		x0, y0, x1, y1 = -1, -1, 1, 1
	}
	bw, bh := x1-x0, y1-y0
	if bw <= 0 && bh <= 0 {
		bw, bh = 1, 1
	}
	bw, bh = math.Max(bw, bh*1e-3), math.Max(bh, bw*1e-3)
	const margin = 1.1
	v.cx, v.cy = (x0+x1)/2, (y0+y1)/2
	v.s = math.Min(v.w/(bw*margin), v.h/(bh*margin))
	return v
}

// timeFormatter returns a formatter printing times with the fewest decimals
// (1 to 9) that show every rendered time exactly or, failing that, to 1% of
// the smallest interval between rendered frames.
func timeFormatter(times []float64) func(float64) string {
	step := math.Inf(1)
	for i := 1; i < len(times); i++ {
		if d := times[i] - times[i-1]; d > 0 && d < step {
			step = d
		}
	}
	dec := 1
	for ; dec < 9; dec++ {
		if 0.5*math.Pow(10, -float64(dec)) <= 0.01*step {
			break
		}
		exact := true
		for _, t := range times {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(t, 'f', dec, 64), 64)
			if math.Abs(r-t) > 1e-9*math.Max(1, math.Abs(t)) {
				exact = false
				break
			}
		}
		if exact {
			break
		}
	}
	return func(t float64) string { return strconv.FormatFloat(t, 'f', dec, 64) }
}

// textScale is the integer magnification of the 7×13 bitmap font.
func textScale(w, h int) float64 {
	return math.Max(1, math.Floor(float64(min(w, h))/360))
}

// drawLabel draws s with its top-left (ax=0) or top-centre (ax=0.5) at
// (x, y) on a white box, magnified by ts.
func drawLabel(dc *gg.Context, s string, x, y, ax, ts float64) {
	dc.Push()
	dc.Scale(ts, ts)
	x, y = x/ts, y/ts
	tw, th := dc.MeasureString(s)
	left := x - ax*tw
	dc.SetColor(colLabelBox)
	dc.DrawRectangle(left-3, y-2, tw+6, th+6)
	dc.Fill()
	dc.SetColor(colText)
	dc.DrawString(s, left, y+th)
	dc.Pop()
}

// drawPanel draws one frame of one panel on dc.
func drawPanel(dc *gg.Context, v *view, pn Panel, f *Frame, opts RenderOptions, vmax float64, tf func(float64) string) {
	sc := pn.sceneAt(f)
	dc.Identity()
	dc.ResetClip()
	dc.SetColor(colBackground)
	dc.Clear()
	dc.SetFontFace(basicfont.Face7x13)
	lw := math.Max(1, math.Round(float64(min(opts.Width, opts.Height))/400))

	// View rectangle in world coordinates, slightly enlarged.
	wx0, wy0 := v.world(-4, v.h+4)
	wx1, wy1 := v.world(v.w+4, -4)
	rect := [][2]float64{{wx0, wy0}, {wx1, wy0}, {wx1, wy1}, {wx0, wy1}}

	// Planes: solid side shaded, boundary line on top.
	for _, p := range sc.Planes {
		poly := clipHalfPlane(rect, p)
		if len(poly) >= 3 {
			for i, q := range poly {
				x, y := v.px(q[0], q[1])
				if i == 0 {
					dc.MoveTo(x, y)
				} else {
					dc.LineTo(x, y)
				}
			}
			dc.ClosePath()
			dc.SetColor(colSolid)
			dc.Fill()
		}
	}
	for _, p := range sc.Planes {
		if a, b, ok := lineInRect(rect, p); ok {
			ax, ay := v.px(a[0], a[1])
			bx, by := v.px(b[0], b[1])
			dc.SetColor(colWallEdge)
			dc.SetLineWidth(2 * lw)
			dc.DrawLine(ax, ay, bx, by)
			dc.Stroke()
		}
	}
	// Portals: dashed lines (periodic boundaries, not walls).
	for _, p := range sc.Portals {
		if a, b, ok := lineInRect(rect, p); ok {
			ax, ay := v.px(a[0], a[1])
			bx, by := v.px(b[0], b[1])
			dc.SetColor(colWallEdge)
			dc.SetLineWidth(lw)
			dc.SetDash(6*lw, 4*lw)
			dc.DrawLine(ax, ay, bx, by)
			dc.Stroke()
			dc.SetDash()
		}
	}
	// Drums: outside shaded (even-odd fill of view rectangle and circle), rim.
	for _, d := range sc.Drums {
		cx, cy := v.px(d.Centre[0], d.Centre[1])
		r := d.Radius * v.s
		dc.SetFillRuleEvenOdd()
		dc.DrawRectangle(-4, -4, v.w+8, v.h+8)
		dc.NewSubPath()
		dc.DrawCircle(cx, cy, r)
		dc.SetColor(colSolid)
		dc.Fill()
		dc.SetFillRuleWinding()
		dc.DrawCircle(cx, cy, r)
		dc.SetColor(colWallEdge)
		dc.SetLineWidth(2 * lw)
		dc.Stroke()
	}
	// Bodies: fixed ones first so moving bodies are drawn over them.
	kq, kv := len(sc.Layout().Q), len(sc.Layout().V)
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < sc.NumBalls; i++ {
			if sc.Fixed[i] != (pass == 0) {
				continue
			}
			x, y := f.Q[kq*i], f.Q[kq*i+1]
			if !finite(x, y) {
				continue
			}
			px, py := v.px(x, y)
			r := math.Max(sc.Radii[i]*v.s, 1)
			if px+r < 0 || py+r < 0 || px-r > v.w || py-r > v.h {
				continue
			}
			var c color.RGBA
			switch {
			case sc.Fixed[i]:
				c = colFixed
			case i < len(opts.Colors):
				c = opts.Colors[i]
			case opts.ColorBy == ColorBySpeed:
				c = SpeedColor(math.Hypot(f.V[kv*i], f.V[kv*i+1]), vmax)
			default:
				c = BallColor(i)
			}
			var theta float64
			box := false
			if sc.Shapes != nil {
				theta, box = f.Q[kq*i+2], sc.Shapes[i].Kind == "box"
			}
			if box {
				// A rotated rectangle (the world's y axis points up, the
				// image's down).
				h := sc.Shapes[i].Half
				cs, sn := math.Cos(theta), math.Sin(theta)
				for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
					ax, ay := s[0]*h[0], s[1]*h[1]
					qx, qy := v.px(x+cs*ax-sn*ay, y+sn*ax+cs*ay)
					if k == 0 {
						dc.MoveTo(qx, qy)
					} else {
						dc.LineTo(qx, qy)
					}
				}
				dc.ClosePath()
			} else {
				dc.DrawCircle(px, py, r)
			}
			dc.SetColor(c)
			if r >= 4 {
				dc.FillPreserve()
				dc.SetColor(colOutline)
				dc.SetLineWidth(math.Min(lw, r/4))
				dc.Stroke()
				if sc.Shapes != nil && !box {
					// a radius marks the circle's rotation
					dc.DrawLine(px, py, px+r*math.Cos(theta), py-r*math.Sin(theta))
					dc.Stroke()
				}
			} else {
				dc.Fill()
			}
		}
	}
	// Labels.
	ts := textScale(opts.Width, opts.Height)
	pad := 6 * ts
	drawLabel(dc, "t = "+tf(f.Time), pad, pad, 0, ts)
	if pn.Title != "" {
		drawLabel(dc, pn.Title, v.w/2, pad, 0.5, ts)
	}
	if opts.ColorBy == ColorBySpeed {
		drawLabel(dc, "colour: speed 0 to "+strconv.FormatFloat(vmax, 'g', 3, 64), pad, v.h-pad-15*ts, 0, ts)
	}
}

// clipHalfPlane clips the convex polygon poly to the solid side of plane p,
// {x : n·(x−p) ≤ 0} (Sutherland–Hodgman against one edge).
func clipHalfPlane(poly [][2]float64, p Plane2D) [][2]float64 {
	side := func(q [2]float64) float64 {
		return p.Normal[0]*(q[0]-p.Point[0]) + p.Normal[1]*(q[1]-p.Point[1])
	}
	var out [][2]float64
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		da, db := side(a), side(b)
		if da <= 0 {
			out = append(out, a)
		}
		if (da < 0 && db > 0) || (da > 0 && db < 0) {
			t := da / (da - db)
			out = append(out, [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])})
		}
	}
	return out
}

// lineInRect returns the segment of the boundary line of p inside the
// axis-aligned rectangle rect (corners as built by drawPanel).
func lineInRect(rect [][2]float64, p Plane2D) (a, b [2]float64, ok bool) {
	// Parametrize the line as Point + t·(−ny, nx) and clip t to the rectangle
	// (Liang–Barsky).
	dx, dy := -p.Normal[1], p.Normal[0]
	x0, y0, x1, y1 := rect[0][0], rect[0][1], rect[2][0], rect[2][1]
	t0, t1 := math.Inf(-1), math.Inf(1)
	clip := func(d, lo, hi, o float64) bool {
		if d == 0 {
			return o >= lo && o <= hi
		}
		ta, tb := (lo-o)/d, (hi-o)/d
		if ta > tb {
			ta, tb = tb, ta
		}
		t0, t1 = math.Max(t0, ta), math.Min(t1, tb)
		return t0 <= t1
	}
	if !clip(dx, x0, x1, p.Point[0]) || !clip(dy, y0, y1, p.Point[1]) {
		return a, b, false
	}
	a = [2]float64{p.Point[0] + t0*dx, p.Point[1] + t0*dy}
	b = [2]float64{p.Point[0] + t1*dx, p.Point[1] + t1*dy}
	return a, b, true
}

// pngWriter encodes and writes PNG frames on a background goroutine, so
// that encoding (the most expensive part of a render) overlaps drawing.
type pngWriter struct {
	jobs chan pngJob
	done chan error
	err  error
	free chan *image.RGBA
}

type pngJob struct {
	path string
	img  *image.RGBA
}

func newPNGWriter() *pngWriter {
	p := &pngWriter{jobs: make(chan pngJob, 2), done: make(chan error, 1), free: make(chan *image.RGBA, 3)}
	// the worker ranges over its own copy of the channel: wait sets
	// p.jobs to nil, possibly before the worker has started, and a range
	// over a nil channel blocks for ever
	jobs := p.jobs
	go func() {
		var firstErr error
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		for j := range jobs {
			if firstErr == nil {
				buf.Reset()
				if err := enc.Encode(&buf, j.img); err != nil {
					firstErr = fmt.Errorf("output: encoding %s: %w", j.path, err)
				} else {
					firstErr = writeFileAtomic(j.path, buf.Bytes())
				}
			}
			select {
			case p.free <- j.img:
			default:
			}
		}
		p.done <- firstErr
	}()
	return p
}

// write queues a copy of m to be written to path. It returns an error from
// an earlier frame if the worker has already failed (or nil otherwise).
func (p *pngWriter) write(path string, m *image.RGBA) error {
	var c *image.RGBA
	select {
	case c = <-p.free:
		if c.Rect != m.Rect {
			c = nil
		}
	default:
	}
	if c == nil {
		c = image.NewRGBA(m.Rect)
	}
	copy(c.Pix, m.Pix)
	p.jobs <- pngJob{path, c}
	return nil
}

// wait finishes the queued frames and returns the first error. It may be
// called more than once.
func (p *pngWriter) wait() error {
	if p.jobs != nil {
		close(p.jobs)
		p.jobs = nil
		p.err = <-p.done
	}
	return p.err
}

// gifBuilder accumulates paletted frames. Each frame after the first stores
// only the rectangle that changed (disposal "none"), which keeps GIFs of
// mostly static scenes small.
type gifBuilder struct {
	g     gif.GIF
	prev  *image.Paletted
	lut   []uint8
	w, h  int
	delay int
}

func newGIFBuilder(w, h int, fps float64) *gifBuilder {
	return newGIFBuilderPalette(w, h, fps, gifPalette())
}

func newGIFBuilderPalette(w, h int, fps float64, pal color.Palette) *gifBuilder {
	b := &gifBuilder{w: w, h: h, lut: paletteLUT(pal), delay: gifDelay(fps)}
	b.g.Config = image.Config{ColorModel: pal, Width: w, Height: h}
	b.g.LoopCount = 0
	return b
}

// gifDelay converts fps to GIF delay units (1/100 s), at least 2 because
// many viewers slow down smaller delays.
func gifDelay(fps float64) int {
	return max(2, int(math.Round(100/fps)))
}

func (b *gifBuilder) add(m *image.RGBA) {
	pal := b.g.Config.ColorModel.(color.Palette)
	cur := image.NewPaletted(image.Rect(0, 0, b.w, b.h), pal)
	for y := 0; y < b.h; y++ {
		src := m.Pix[y*m.Stride : y*m.Stride+4*b.w]
		dst := cur.Pix[y*cur.Stride : y*cur.Stride+b.w]
		for x := range dst {
			r, g, bl := src[4*x], src[4*x+1], src[4*x+2]
			dst[x] = b.lut[int(r>>3)<<10|int(g>>3)<<5|int(bl>>3)]
		}
	}
	frame := cur
	if b.prev != nil {
		r := diffRect(b.prev, cur)
		if r.Empty() {
			r = image.Rect(0, 0, 1, 1)
		}
		// Copy the changed rectangle so that only it stays in memory.
		frame = image.NewPaletted(r, pal)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			copy(frame.Pix[(y-r.Min.Y)*frame.Stride:], cur.Pix[y*cur.Stride+r.Min.X:y*cur.Stride+r.Max.X])
		}
	}
	b.g.Image = append(b.g.Image, frame)
	b.g.Delay = append(b.g.Delay, b.delay)
	b.g.Disposal = append(b.g.Disposal, gif.DisposalNone)
	b.prev = cur
}

// diffRect is the bounding box of the pixels that differ between a and b.
func diffRect(a, b *image.Paletted) image.Rectangle {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := 0; y < h; y++ {
		ra := a.Pix[y*a.Stride : y*a.Stride+w]
		rb := b.Pix[y*b.Stride : y*b.Stride+w]
		if bytes.Equal(ra, rb) {
			continue
		}
		y0, y1 = min(y0, y), y
		for x := 0; x < w; x++ {
			if ra[x] != rb[x] {
				x0 = min(x0, x)
				break
			}
		}
		for x := w - 1; x >= 0; x-- {
			if ra[x] != rb[x] {
				x1 = max(x1, x)
				break
			}
		}
	}
	if x1 < 0 {
		return image.Rectangle{}
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}

func (b *gifBuilder) save(path string) error {
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &b.g); err != nil {
		return fmt.Errorf("output: encoding %s: %w", path, err)
	}
	return writeFileAtomic(path, buf.Bytes())
}

// gifPalette is the fixed 256-colour GIF palette: the scene's own colours
// (exact), the speed scale, a grey ramp for antialiased text and edges, and
// a 6×6×6 colour cube for everything else.
func gifPalette() color.Palette {
	var pal color.Palette
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if len(pal) < 256 && !seen[c] {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	for _, c := range []color.RGBA{colBackground, colSolid, colWallEdge, colFixed, colOutline, colText, colLabelBox, colDivider} {
		add(c)
	}
	for _, c := range ballColors {
		add(c)
	}
	for i := 0; i <= 12; i++ {
		add(SpeedColor(float64(i), 12))
	}
	for i := 1; i < 8; i++ {
		g := uint8(i * 32)
		add(color.RGBA{g, g, g, 255})
	}
	for r := 0; r < 6; r++ {
		for g := 0; g < 6; g++ {
			for b := 0; b < 6; b++ {
				add(color.RGBA{uint8(r * 51), uint8(g * 51), uint8(b * 51), 255})
			}
		}
	}
	return pal
}

// paletteLUT maps a 15-bit colour (5 bits per channel) to the index of the
// nearest palette entry. Each bin is represented by the palette colour
// inside it if there is one (so the scene's own colours map exactly), else
// by its centre.
func paletteLUT(pal color.Palette) []uint8 {
	type rgb struct{ r, g, b int }
	cols := make([]rgb, len(pal))
	exact := make(map[int]int, len(pal))
	for i, c := range pal {
		r, g, b, _ := c.RGBA()
		cols[i] = rgb{int(r >> 8), int(g >> 8), int(b >> 8)}
		key := cols[i].r>>3<<10 | cols[i].g>>3<<5 | cols[i].b>>3
		if _, ok := exact[key]; !ok {
			exact[key] = i
		}
	}
	lut := make([]uint8, 1<<15)
	for key := range lut {
		if i, ok := exact[key]; ok {
			lut[key] = uint8(i)
			continue
		}
		r, g, b := (key>>10)<<3|4, (key>>5&31)<<3|4, (key&31)<<3|4
		best, bestD := 0, math.MaxInt
		for i, c := range cols {
			dr, dg, db := r-c.r, g-c.g, b-c.b
			d := 3*dr*dr + 4*dg*dg + 2*db*db
			if d < bestD {
				best, bestD = i, d
			}
		}
		lut[key] = uint8(best)
	}
	return lut
}

// mp4Encoder pipes raw RGBA frames into ffmpeg.
type mp4Encoder struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *bytes.Buffer
	path   string
	tmp    string
	done   bool
}

// startMP4 starts ffmpeg writing path+".tmp" (renamed by finish). If ffmpeg
// is not on PATH it returns a nil encoder and a note.
func startMP4(path string, w, h int, fps float64) (*mp4Encoder, string, error) {
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, "mp4 skipped: ffmpeg not found in PATH", nil
	}
	tmp := path + tmpSuffix
	cmd := exec.Command(bin, "-hide_banner", "-loglevel", "error", "-y",
		"-f", "rawvideo", "-pixel_format", "rgba",
		"-video_size", fmt.Sprintf("%dx%d", w, h),
		"-framerate", strconv.FormatFloat(fps, 'g', -1, 64),
		"-i", "pipe:0",
		"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
		"-pix_fmt", "yuv420p", "-movflags", "+faststart",
		"-f", "mp4", tmp)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", fmt.Errorf("output: ffmpeg: %w", err)
	}
	e := &mp4Encoder{cmd: cmd, stdin: stdin, stderr: &bytes.Buffer{}, path: path, tmp: tmp}
	cmd.Stderr = e.stderr
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("output: starting ffmpeg: %w", err)
	}
	return e, "", nil
}

func (e *mp4Encoder) write(pix []byte) error {
	if _, err := e.stdin.Write(pix); err != nil {
		e.abort()
		return fmt.Errorf("output: ffmpeg: %w: %s", err, tail(e.stderr.String()))
	}
	return nil
}

func (e *mp4Encoder) finish() error {
	e.done = true
	e.stdin.Close()
	if err := e.cmd.Wait(); err != nil {
		os.Remove(e.tmp)
		return fmt.Errorf("output: ffmpeg: %w: %s", err, tail(e.stderr.String()))
	}
	if err := os.Rename(e.tmp, e.path); err != nil {
		os.Remove(e.tmp)
		return fmt.Errorf("output: %w", err)
	}
	return nil
}

func (e *mp4Encoder) abort() {
	if e.done {
		return
	}
	e.done = true
	e.stdin.Close()
	if e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
	e.cmd.Wait()
	os.Remove(e.tmp)
}

func tail(s string) string {
	if len(s) > 1000 {
		s = "..." + s[len(s)-1000:]
	}
	return s
}

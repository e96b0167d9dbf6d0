package output

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"

	"github.com/fogleman/gg"
	"golang.org/x/image/font/basicfont"
)

// Frame3D is one frame of a 3D render: triangles (indices into Points) with
// a colour index each (−1 = grey static geometry, drawn only from the side
// its counter-clockwise normal faces, so a container's near walls do not
// hide its contents).
type Frame3D struct {
	Time   float64
	Points [][3]float64
	Tris   [][3]int
	Color  []int
	// RGB, if set, gives each triangle its own base colour (shaded like the
	// body colours; PNG output only, as the GIF palette does not hold it).
	RGB []color.RGBA
}

// Render3DOptions configures Render3D. Zero values select defaults:
// 640×480, PNG and GIF, 25 fps.
type Render3DOptions struct {
	Dir           string
	Width, Height int
	FPS           float64
	Outputs       Outputs
	// Eye, LookAt and Up place the camera; if Eye == LookAt the camera is
	// fitted to all frames, looking from direction (1, 0.7, 1.3) with y up.
	Eye, LookAt, Up [3]float64
	FOV             float64 // vertical field of view in degrees, default 40
	// Title is drawn at the top centre (the operator); every frame also
	// shows its time at the top left.
	Title string
	// Cutaway[i] draws body i (colour index i) without its near half: the
	// triangles whose centre lies on the eye's side of the body's centre
	// (the mean of its triangles' centres) are left out, so that what a
	// closed container holds — even one with thick walls — is seen.
	Cutaway []bool
}

type v3 [3]float64

func (a v3) sub(b v3) v3        { return v3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a v3) add(b v3) v3        { return v3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a v3) dot(b v3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a v3) scale(s float64) v3 { return v3{a[0] * s, a[1] * s, a[2] * s} }
func (a v3) cross(b v3) v3 {
	return v3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a v3) unit() v3 { return a.scale(1 / math.Sqrt(a.dot(a))) }

// Render3D rasterizes the frames with a z-buffer and flat Lambert shading
// (both faces lit, so open planes render from either side) into PNG frames
// frame_00000.png … and animation.gif in opts.Dir.
func Render3D(frames []Frame3D, opts Render3DOptions) (*RenderInfo, error) {
	if len(frames) == 0 {
		return nil, fmt.Errorf("output: render3d: no frames")
	}
	if opts.Width == 0 {
		opts.Width = 640
	}
	if opts.Height == 0 {
		opts.Height = 480
	}
	if opts.FPS == 0 {
		opts.FPS = 25
	}
	if opts.Outputs == 0 {
		opts.Outputs = DefaultOutputs
	}
	if opts.FOV == 0 {
		opts.FOV = 40
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	eye, at, up := v3(opts.Eye), v3(opts.LookAt), v3(opts.Up)
	if up == (v3{}) {
		up = v3{0, 1, 0}
	}
	if eye == at {
		lo := v3{math.Inf(1), math.Inf(1), math.Inf(1)}
		hi := v3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		for _, f := range frames {
			for k, tr := range f.Tris {
				if f.Color[k] < 0 {
					continue // static planes are large; fit the bodies
				}
				for _, i := range tr {
					for d := 0; d < 3; d++ {
						lo[d] = math.Min(lo[d], f.Points[i][d])
						hi[d] = math.Max(hi[d], f.Points[i][d])
					}
				}
			}
		}
		if math.IsInf(lo[0], 1) {
			lo, hi = v3{-1, -1, -1}, v3{1, 1, 1}
		}
		at = v3{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
		r := math.Max(0.5*math.Sqrt(hi.sub(lo).dot(hi.sub(lo))), 1e-3)
		dist := 1.15 * r / math.Sin(opts.FOV*math.Pi/360)
		eye = at.sub(v3{1, 0.7, 1.3}.unit().scale(-dist))
	}
	fwd := at.sub(eye).unit()
	right := fwd.cross(up).unit()
	upv := right.cross(fwd)
	light := v3{0.4, 1, 0.6}.unit()
	w, h := opts.Width, opts.Height
	focal := 0.5 * float64(h) / math.Tan(opts.FOV*math.Pi/360)
	zbuf := make([]float64, w*h)
	info := &RenderInfo{Width: w, Height: h}
	// The GIF goes through the 2D renderer's builder: a 15-bit lookup table
	// instead of a per-pixel nearest-colour search (which made a 100-frame
	// 800×600 render take ~50 s), delta frames, atomic save.
	var anim *gifBuilder
	if opts.Outputs&OutputGIF != 0 {
		anim = newGIFBuilderPalette(w, h, opts.FPS, palette3D())
	}
	var enc *mp4Encoder
	if opts.Outputs&OutputMP4 != 0 {
		var note string
		var err error
		enc, note, err = startMP4(filepath.Join(opts.Dir, "animation.mp4"), w, h, opts.FPS)
		if err != nil {
			return info, err
		}
		if note != "" {
			info.Notes = append(info.Notes, note)
		}
	}
	times := make([]float64, len(frames))
	for i, f := range frames {
		times[i] = f.Time
	}
	timeFmt := timeFormatter(times)
	for fi, f := range frames {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), &image.Uniform{colBackground3D}, image.Point{}, draw.Src)
		for i := range zbuf {
			zbuf[i] = math.Inf(1)
		}
		centre := cutawayCentres(&f, opts.Cutaway)
		for k, tr := range f.Tris {
			var sx, sy, sz [3]float64
			ok := true
			for j, i := range tr {
				p := v3(f.Points[i]).sub(eye)
				z := p.dot(fwd)
				if z <= 1e-6 {
					ok = false
					break
				}
				sx[j] = 0.5*float64(w) + focal*p.dot(right)/z
				sy[j] = 0.5*float64(h) - focal*p.dot(upv)/z
				sz[j] = z
			}
			if !ok {
				continue
			}
			a, b, c3 := v3(f.Points[tr[0]]), v3(f.Points[tr[1]]), v3(f.Points[tr[2]])
			n := b.sub(a).cross(c3.sub(a))
			if nn := n.dot(n); nn > 0 {
				n = n.scale(1 / math.Sqrt(nn))
			}
			if f.Color[k] < 0 && n.dot(eye.sub(a)) < 0 {
				continue // static geometry is seen from its front side only
			}
			if c := f.Color[k]; c >= 0 && c < len(opts.Cutaway) && opts.Cutaway[c] {
				m := a.add(b).add(c3).scale(1.0 / 3)
				if m.sub(centre[c]).dot(eye.sub(centre[c])) > 0 {
					continue // a container's near half is cut away
				}
			}
			base := colStatic3D
			if f.RGB != nil {
				base = f.RGB[k]
			} else if f.Color[k] >= 0 {
				base = BallColor(f.Color[k])
			}
			col := shaded(base, int(math.Round(shadeLevels*math.Abs(n.dot(light)))))
			rasterTri(img, zbuf, w, h, sx, sy, sz, col)
		}
		dc := gg.NewContextForRGBA(img)
		dc.SetFontFace(basicfont.Face7x13)
		ts := textScale(w, h)
		drawLabel(dc, "t = "+timeFmt(f.Time), 6*ts, 6*ts, 0, ts)
		if opts.Title != "" {
			drawLabel(dc, opts.Title, float64(w)/2, 6*ts, 0.5, ts)
		}
		if opts.Outputs&OutputPNG != 0 {
			path := filepath.Join(opts.Dir, fmt.Sprintf("frame_%05d.png", fi))
			fh, err := os.Create(path)
			if err != nil {
				return info, fmt.Errorf("output: %w", err)
			}
			err = png.Encode(fh, img)
			if cerr := fh.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return info, fmt.Errorf("output: %w", err)
			}
			info.PNGs = append(info.PNGs, path)
		}
		if anim != nil {
			anim.add(img)
		}
		if enc != nil {
			if err := enc.write(img.Pix); err != nil {
				return info, err
			}
		}
		info.Frames++
	}
	if anim != nil {
		path := filepath.Join(opts.Dir, "animation.gif")
		if err := anim.save(path); err != nil {
			if enc != nil {
				enc.abort()
			}
			return info, err
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

// rasterTri fills a screen triangle with depth test (depth interpolated
// linearly in screen space, adequate for small triangles).
func rasterTri(img *image.RGBA, zbuf []float64, w, h int, x, y, z [3]float64, col color.RGBA) {
	minx := int(math.Max(0, math.Floor(math.Min(x[0], math.Min(x[1], x[2])))))
	maxx := int(math.Min(float64(w-1), math.Ceil(math.Max(x[0], math.Max(x[1], x[2])))))
	miny := int(math.Max(0, math.Floor(math.Min(y[0], math.Min(y[1], y[2])))))
	maxy := int(math.Min(float64(h-1), math.Ceil(math.Max(y[0], math.Max(y[1], y[2])))))
	area := (x[1]-x[0])*(y[2]-y[0]) - (x[2]-x[0])*(y[1]-y[0])
	if area == 0 || minx > maxx || miny > maxy {
		return
	}
	for py := miny; py <= maxy; py++ {
		for px := minx; px <= maxx; px++ {
			cx, cy := float64(px)+0.5, float64(py)+0.5
			w0 := ((x[1]-cx)*(y[2]-cy) - (x[2]-cx)*(y[1]-cy)) / area
			w1 := ((x[2]-cx)*(y[0]-cy) - (x[0]-cx)*(y[2]-cy)) / area
			w2 := 1 - w0 - w1
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			d := w0*z[0] + w1*z[1] + w2*z[2]
			if d < zbuf[py*w+px] {
				zbuf[py*w+px] = d
				img.SetRGBA(px, py, col)
			}
		}
	}
}

// Flat shading uses shadeLevels+1 discrete levels so that every colour the
// renderer draws is in the GIF palette (background, label text and box,
// static grey and the body colours, each at every level: 245 colours).
const shadeLevels = 21

var (
	colBackground3D = color.RGBA{245, 245, 250, 255}
	colStatic3D     = color.RGBA{190, 190, 195, 255}
)

// shaded returns base lit at level k of shadeLevels: brightness
// 0.35 + 0.65·k/shadeLevels.
func shaded(base color.RGBA, k int) color.RGBA {
	s := 0.35 + 0.65*float64(k)/shadeLevels
	return color.RGBA{uint8(float64(base.R) * s), uint8(float64(base.G) * s), uint8(float64(base.B) * s), 255}
}

func palette3D() color.Palette {
	pal := color.Palette{colBackground3D, colText, colLabelBox}
	for _, base := range append([]color.RGBA{colStatic3D}, ballColors...) {
		for k := 0; k <= shadeLevels; k++ {
			pal = append(pal, shaded(base, k))
		}
	}
	return pal
}

// cutawayCentres returns, for each body marked in cut, the mean of its
// triangles' centres in frame f.
func cutawayCentres(f *Frame3D, cut []bool) []v3 {
	if len(cut) == 0 {
		return nil
	}
	sum := make([]v3, len(cut))
	cnt := make([]float64, len(cut))
	for k, tr := range f.Tris {
		if c := f.Color[k]; c >= 0 && c < len(cut) && cut[c] {
			sum[c] = sum[c].add(v3(f.Points[tr[0]]).add(v3(f.Points[tr[1]])).add(v3(f.Points[tr[2]])).scale(1.0 / 3))
			cnt[c]++
		}
	}
	for c := range sum {
		if cnt[c] > 0 {
			sum[c] = sum[c].scale(1 / cnt[c])
		}
	}
	return sum
}

package output

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font/basicfont"
)

// Heatmap is a field sampled on an NX × NY grid of cells covering
// [X0, X1] × [Y0, Y1]: Data[iy·NX + ix] is cell (ix, iy), ix along x and
// iy along y (y up). NaN cells are left white.
type Heatmap struct {
	NX, NY         int
	Data           []float64
	X0, X1, Y0, Y1 float64
}

// HeatmapOptions configures WriteHeatmap. VMin = VMax selects the data's
// range; Cell is the size of a cell in pixels (0: chosen so that the map is
// about 900 pixels wide).
type HeatmapOptions struct {
	Title, XLabel, YLabel string
	Label                 string // colour bar label
	VMin, VMax            float64
	Cell                  int
	// Curves are drawn over the map in data coordinates (black lines).
	Curves []Series
}

// WriteHeatmap writes a PNG of the field with axes, a colour bar (the
// speed colours of the 2D renders, blue → red) and optional curves.
func WriteHeatmap(path string, h *Heatmap, opt HeatmapOptions) error {
	img, err := drawHeatmap(h, opt)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("output: heatmap: %w", err)
	}
	return writeFileAtomic(path, buf.Bytes())
}

// WriteHeatmapGIF writes the frames as an animated GIF at fps frames per
// second, each drawn as WriteHeatmap draws it with opt (titles[i], when
// given, replacing the title of frame i). Give opt a VMin < VMax so that
// the colours mean the same in every frame. The frames must have the same
// number of cells.
func WriteHeatmapGIF(path string, frames []*Heatmap, titles []string, opt HeatmapOptions, fps float64) error {
	if len(frames) == 0 {
		return fmt.Errorf("output: heatmap GIF %s: no frames", path)
	}
	var b *gifBuilder
	for i, h := range frames {
		o := opt
		if i < len(titles) {
			o.Title = titles[i]
		}
		img, err := drawHeatmap(h, o)
		if err != nil {
			return err
		}
		if b == nil {
			b = newGIFBuilder(img.Rect.Dx(), img.Rect.Dy(), fps)
		} else if img.Rect.Dx() != b.w || img.Rect.Dy() != b.h {
			return fmt.Errorf("output: heatmap GIF %s: frame %d is %d×%d pixels, frame 0 %d×%d", path, i, img.Rect.Dx(), img.Rect.Dy(), b.w, b.h)
		}
		b.add(img)
	}
	return b.save(path)
}

// drawHeatmap draws the heatmap of WriteHeatmap.
func drawHeatmap(h *Heatmap, opt HeatmapOptions) (*image.RGBA, error) {
	if h.NX < 1 || h.NY < 1 || len(h.Data) != h.NX*h.NY {
		return nil, fmt.Errorf("output: heatmap: %d values for %d×%d cells", len(h.Data), h.NX, h.NY)
	}
	if !(h.X1 > h.X0) || !(h.Y1 > h.Y0) {
		return nil, fmt.Errorf("output: heatmap: empty extent [%v, %v] × [%v, %v]", h.X0, h.X1, h.Y0, h.Y1)
	}
	vmin, vmax := opt.VMin, opt.VMax
	if !(vmax > vmin) {
		vmin, vmax = math.Inf(1), math.Inf(-1)
		for _, v := range h.Data {
			if !math.IsNaN(v) {
				vmin, vmax = math.Min(vmin, v), math.Max(vmax, v)
			}
		}
		if !(vmax > vmin) {
			vmin, vmax = vmin-0.5, vmin+0.5
			if math.IsInf(vmin, 0) {
				vmin, vmax = 0, 1
			}
		}
	}
	cell := opt.Cell
	if cell <= 0 {
		cell = max(1, 900/h.NX)
	}
	mw, mh := float64(h.NX*cell), float64(h.NY*cell)
	const ts = 1.0
	left, top, bottom, right := 70.0, 40.0, 50.0, 110.0
	W, H := int(left+mw+right), int(top+mh+bottom)
	if W > 1<<14 || H > 1<<14 {
		return nil, fmt.Errorf("output: heatmap: %d×%d pixels is too large", W, H)
	}
	dc := gg.NewContext(W, H)
	dc.SetColor(color.White)
	dc.Clear()
	dc.SetFontFace(basicfont.Face7x13)
	for iy := 0; iy < h.NY; iy++ {
		for ix := 0; ix < h.NX; ix++ {
			v := h.Data[iy*h.NX+ix]
			if math.IsNaN(v) {
				continue
			}
			dc.SetColor(SpeedColor(v-vmin, vmax-vmin))
			dc.DrawRectangle(left+float64(ix*cell), top+mh-float64((iy+1)*cell), float64(cell), float64(cell))
			dc.Fill()
		}
	}
	mapX := func(x float64) float64 { return left + (x-h.X0)/(h.X1-h.X0)*mw }
	mapY := func(y float64) float64 { return top + mh - (y-h.Y0)/(h.Y1-h.Y0)*mh }
	dc.SetColor(color.Black)
	dc.SetLineWidth(1.5)
	for _, c := range opt.Curves {
		started := false
		for i := range c.X {
			if !finite(c.X[i], c.Y[i]) || c.Y[i] < h.Y0 || c.Y[i] > h.Y1 {
				started = false
				continue
			}
			if started {
				dc.LineTo(mapX(c.X[i]), mapY(c.Y[i]))
			} else {
				dc.MoveTo(mapX(c.X[i]), mapY(c.Y[i]))
				started = true
			}
		}
		dc.Stroke()
	}
	// frame and ticks
	dc.SetLineWidth(1)
	dc.DrawRectangle(left, top, mw, mh)
	dc.Stroke()
	xt, xs := niceTicks(h.X0, h.X1, int(math.Max(3, mw/100)))
	for i, t := range xt {
		if t < h.X0 || t > h.X1 {
			continue
		}
		x := mapX(t)
		dc.DrawLine(x, top+mh, x, top+mh+5)
		dc.Stroke()
		drawText(dc, tickLabels(xt, xs)[i], x, top+mh+8, 0.5, 0, ts, 0)
	}
	yt, ys := niceTicks(h.Y0, h.Y1, int(math.Max(3, mh/60)))
	for i, t := range yt {
		if t < h.Y0 || t > h.Y1 {
			continue
		}
		y := mapY(t)
		dc.DrawLine(left-5, y, left, y)
		dc.Stroke()
		drawText(dc, tickLabels(yt, ys)[i], left-8, y, 1, 0.5, ts, 0)
	}
	drawText(dc, opt.Title, left+mw/2, 12, 0.5, 0, ts, 0)
	drawText(dc, opt.XLabel, left+mw/2, top+mh+28, 0.5, 0, ts, 0)
	drawText(dc, opt.YLabel, 14, top+mh/2, 0.5, 0.5, ts, -math.Pi/2)
	// colour bar
	bx, bw := left+mw+20, 16.0
	for k := 0; k < int(mh); k++ {
		dc.SetColor(SpeedColor(float64(k)/mh, 1))
		dc.DrawRectangle(bx, top+mh-float64(k+1), bw, 1)
		dc.Fill()
	}
	dc.SetColor(color.Black)
	dc.DrawRectangle(bx, top, bw, mh)
	dc.Stroke()
	bt, bs := niceTicks(vmin, vmax, 5)
	for i, t := range bt {
		if t < vmin || t > vmax {
			continue
		}
		y := top + mh - (t-vmin)/(vmax-vmin)*mh
		drawText(dc, tickLabels(bt, bs)[i], bx+bw+4, y, 0, 0.5, ts, 0)
	}
	drawText(dc, opt.Label, bx+bw/2, top-8, 0.5, 1, ts, 0)
	img, ok := dc.Image().(*image.RGBA)
	if !ok {
		return nil, fmt.Errorf("output: heatmap: the drawing is a %T, not RGBA", dc.Image())
	}
	return img, nil
}

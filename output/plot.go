package output

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font/basicfont"
)

// PlotOptions configures PlotSeriesOptions. Zero sizes select 800×500.
type PlotOptions struct {
	Title  string
	XLabel string
	YLabel string
	Width  int
	Height int
}

// PlotColor is the colour of the i-th series of a plot.
func PlotColor(i int) color.RGBA { return BallColor(i) }

// PlotSeries writes an 800×500 PNG line plot of the series to path: axes
// with tick labels, light grid, title, axis labels and a legend of the
// series names (omitted when no series has a name). Non-finite points break
// the lines. The axes span the finite data with a small margin.
func PlotSeries(path, title, xlabel, ylabel string, series []Series) error {
	return PlotSeriesOptions(path, PlotOptions{Title: title, XLabel: xlabel, YLabel: ylabel}, series)
}

// PlotSeriesOptions is PlotSeries with a configurable size.
func PlotSeriesOptions(path string, opt PlotOptions, series []Series) error {
	if opt.Width == 0 {
		opt.Width = 800
	}
	if opt.Height == 0 {
		opt.Height = 500
	}
	if opt.Width < 100 || opt.Height < 80 || opt.Width > 1<<14 || opt.Height > 1<<14 {
		return fmt.Errorf("output: plot: size %dx%d out of range", opt.Width, opt.Height)
	}
	for _, s := range series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("output: plot: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
		}
	}
	if len(series) == 0 {
		return errors.New("output: plot: no series")
	}
	dc, _ := drawPlot(opt, series)
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		return fmt.Errorf("output: plot: %w", err)
	}
	return writeFileAtomic(path, buf.Bytes())
}

const (
	fontAscent = 11 // basicfont.Face7x13 metrics
	fontHeight = 13
)

// drawText draws s anchored at pixel (x, y): ax, ay ∈ [0, 1] select the
// anchor from left/top (0) to right/bottom (1) of the text box; the text is
// magnified by ts and rotated by angle (radians, clockwise on screen).
func drawText(dc *gg.Context, s string, x, y, ax, ay, ts, angle float64) {
	dc.Push()
	dc.Translate(x, y)
	dc.Rotate(angle)
	dc.Scale(ts, ts)
	w, _ := dc.MeasureString(s)
	dc.DrawString(s, -ax*w, -ay*fontHeight+fontAscent)
	dc.Pop()
}

// drawPlot draws the plot and returns it with the legend's rectangle in
// pixels (x0, y0, x1, y1; zero without a legend).
func drawPlot(opt PlotOptions, series []Series) (*gg.Context, [4]float64) {
	W, H := float64(opt.Width), float64(opt.Height)
	dc := gg.NewContext(opt.Width, opt.Height)
	dc.SetColor(color.White)
	dc.Clear()
	dc.SetFontFace(basicfont.Face7x13)
	ts := math.Max(1, math.Floor(math.Min(W, H)/400))
	th := fontHeight * ts

	// Data range.
	inf := math.Inf(1)
	x0, x1, y0, y1 := inf, -inf, inf, -inf
	for _, s := range series {
		for i := range s.X {
			if finite(s.X[i], s.Y[i]) {
				x0, x1 = math.Min(x0, s.X[i]), math.Max(x1, s.X[i])
				y0, y1 = math.Min(y0, s.Y[i]), math.Max(y1, s.Y[i])
			}
		}
	}
	if x0 > x1 {
		x0, x1, y0, y1 = 0, 1, 0, 1
	}
	x0, x1 = widenRange(x0, x1, 0)
	y0, y1 = widenRange(y0, y1, 0.04)
	xt, xstep := niceTicks(x0, x1, int(math.Max(3, W/(120*ts))))
	yt, ystep := niceTicks(y0, y1, int(math.Max(3, H/(70*ts))))
	xl, yl := tickLabels(xt, xstep), tickLabels(yt, ystep)

	// Margins from the label sizes.
	ylw := 0.0
	for _, s := range yl {
		w, _ := dc.MeasureString(s)
		ylw = math.Max(ylw, w*ts)
	}
	left := 10*ts + ylw + 8*ts
	if opt.YLabel != "" {
		left += th + 8*ts
	}
	top := 12 * ts
	if opt.Title != "" {
		top += th + 8*ts
	}
	bottom := 8*ts + th + 10*ts
	if opt.XLabel != "" {
		bottom += th + 6*ts
	}
	right := 20 * ts
	lastW, _ := dc.MeasureString(xl[len(xl)-1])
	right = math.Max(right, lastW*ts/2+6*ts)
	px0, px1, py0, py1 := left, W-right, top, H-bottom // plot area in pixels
	if px1-px0 < 20 || py1-py0 < 20 {
		px0, px1, py0, py1 = 0, W, 0, H
	}
	mapX := func(x float64) float64 { return px0 + (x-x0)/(x1-x0)*(px1-px0) }
	mapY := func(y float64) float64 { return py1 - (y-y0)/(y1-y0)*(py1-py0) }

	// The legend goes in the first corner of the plot area (top right, top
	// left, bottom right, bottom left) where it covers no curve, or, if
	// every corner would, to the right of the plot area, which shrinks.
	named := 0
	lw := 0.0
	for _, s := range series {
		if s.Name != "" {
			named++
		}
		w, _ := dc.MeasureString(s.Name)
		lw = math.Max(lw, w*ts)
	}
	row, sample := th+4*ts, 24*ts
	bw := 8*ts + sample + 6*ts + lw + 8*ts
	bh := float64(len(series))*row + 6*ts
	var bx, by float64
	if named > 0 {
		placed := false
		for _, c := range [4][2]bool{{true, true}, {false, true}, {true, false}, {false, false}} {
			bx, by = px0+8*ts, py1-bh-8*ts
			if c[0] {
				bx = px1 - bw - 8*ts
			}
			if c[1] {
				by = py0 + 8*ts
			}
			if bx >= px0 && by >= py0 && !curvesHit(series, x0, x1, int(px1-px0), mapX, mapY, bx, by, bx+bw, by+bh) {
				placed = true
				break
			}
		}
		if !placed && px1-bw-12*ts-px0 >= 40 {
			px1 -= bw + 12*ts
			bx, by = px1+12*ts, py0
		}
	}

	// Grid and ticks.
	dc.SetLineWidth(ts)
	for i, t := range xt {
		x := math.Round(mapX(t)) + 0.5
		dc.SetColor(color.RGBA{225, 225, 225, 255})
		dc.DrawLine(x, py0, x, py1)
		dc.Stroke()
		dc.SetColor(color.Black)
		dc.DrawLine(x, py1, x, py1+5*ts)
		dc.Stroke()
		drawText(dc, xl[i], x, py1+8*ts, 0.5, 0, ts, 0)
	}
	for i, t := range yt {
		y := math.Round(mapY(t)) + 0.5
		dc.SetColor(color.RGBA{225, 225, 225, 255})
		dc.DrawLine(px0, y, px1, y)
		dc.Stroke()
		dc.SetColor(color.Black)
		dc.DrawLine(px0-5*ts, y, px0, y)
		dc.Stroke()
		drawText(dc, yl[i], px0-8*ts, y, 1, 0.5, ts, 0)
	}

	// Series, clipped to the plot area.
	dc.DrawRectangle(px0, py0, px1-px0, py1-py0)
	dc.Clip()
	dc.SetLineWidth(1.5 * ts)
	dc.SetLineJoinRound()
	for k, s := range series {
		dc.SetColor(PlotColor(k))
		xs, ys := decimate(s.X, s.Y, x0, x1, int(px1-px0))
		pen := false
		npts := 0
		for i := range xs {
			if !finite(xs[i], ys[i]) {
				pen = false
				continue
			}
			x, y := mapX(xs[i]), mapY(ys[i])
			if pen {
				dc.LineTo(x, y)
			} else {
				dc.NewSubPath()
				dc.MoveTo(x, y)
				pen = true
			}
			npts++
		}
		if npts == 1 {
			dc.ClearPath()
			for i := range xs {
				if finite(xs[i], ys[i]) {
					dc.DrawCircle(mapX(xs[i]), mapY(ys[i]), 2.5*ts)
					dc.Fill()
				}
			}
		} else {
			dc.Stroke()
		}
	}
	dc.ResetClip()

	// Frame, title, axis labels.
	dc.SetColor(color.Black)
	dc.SetLineWidth(ts)
	dc.DrawRectangle(math.Round(px0)+0.5, math.Round(py0)+0.5, math.Round(px1-px0), math.Round(py1-py0))
	dc.Stroke()
	if opt.Title != "" {
		drawText(dc, opt.Title, (px0+px1)/2, 8*ts, 0.5, 0, ts, 0)
	}
	if opt.XLabel != "" {
		drawText(dc, opt.XLabel, (px0+px1)/2, H-6*ts, 0.5, 1, ts, 0)
	}
	if opt.YLabel != "" {
		drawText(dc, opt.YLabel, 8*ts, (py0+py1)/2, 0.5, 0, ts, -math.Pi/2)
	}

	// Legend, where it was placed above.
	if named > 0 {
		dc.SetColor(color.NRGBA{255, 255, 255, 235})
		dc.DrawRectangle(bx, by, bw, bh)
		dc.FillPreserve()
		dc.SetColor(color.RGBA{160, 160, 160, 255})
		dc.SetLineWidth(ts)
		dc.Stroke()
		for k, s := range series {
			y := by + 3*ts + (float64(k)+0.5)*row
			dc.SetColor(PlotColor(k))
			dc.SetLineWidth(2 * ts)
			dc.DrawLine(bx+8*ts, y, bx+8*ts+sample, y)
			dc.Stroke()
			dc.SetColor(color.Black)
			drawText(dc, s.Name, bx+8*ts+sample+6*ts, y, 0, 0.5, ts, 0)
		}
	}
	if named == 0 {
		return dc, [4]float64{}
	}
	return dc, [4]float64{bx, by, bx + bw, by + bh}
}

// widenRange pads [lo, hi] by frac of its length on each side and makes a
// degenerate range non-empty.
func widenRange(lo, hi, frac float64) (float64, float64) {
	if hi > lo {
		d := (hi - lo) * frac
		// Keep the range resolvable when it is tiny compared with the values.
		if m := math.Max(math.Abs(lo), math.Abs(hi)) * 1e-12; hi-lo < m {
			d = m
		}
		return lo - d, hi + d
	}
	d := math.Abs(lo) * 0.05
	if d == 0 {
		d = 1
	}
	return lo - d, hi + d
}

// niceTicks returns tick values k·step inside [lo, hi] with step 1, 2 or 5
// times a power of ten, as close to target intervals as possible.
func niceTicks(lo, hi float64, target int) ([]float64, float64) {
	raw := (hi - lo) / float64(max(target, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step, best := p, math.Inf(1)
	for _, m := range []float64{1, 2, 5, 10} {
		if d := math.Abs((hi-lo)/(m*p) - float64(target)); d < best {
			step, best = m*p, d
		}
	}
	var ticks []float64
	for k := math.Ceil(lo / step); k*step <= hi*(1+1e-12)+1e-300 && len(ticks) < 100; k++ {
		t := k * step
		if math.Abs(t) < step*1e-9 {
			t = 0
		}
		ticks = append(ticks, t)
	}
	if len(ticks) == 0 {
		ticks = []float64{lo}
	}
	return ticks, step
}

// tickLabels formats ticks with just enough digits to tell them apart.
func tickLabels(ticks []float64, step float64) []string {
	mag := 0.0
	for _, t := range ticks {
		mag = math.Max(mag, math.Abs(t))
	}
	out := make([]string, len(ticks))
	useExp := mag >= 1e6 || (mag > 0 && mag < 1e-3)
	dec := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	if dec > 8 {
		useExp = true
	}
	for i, t := range ticks {
		if useExp {
			prec := 1
			if mag > 0 {
				prec = max(1, int(math.Floor(math.Log10(mag))-math.Floor(math.Log10(step)+1e-9)))
			}
			out[i] = strconv.FormatFloat(t, 'e', min(prec, 12), 64)
			if t == 0 {
				out[i] = "0"
			}
		} else {
			out[i] = strconv.FormatFloat(t, 'f', dec, 64)
		}
	}
	return out
}

// decimate reduces a long series with non-decreasing x to at most about
// four points per pixel column (first, min, max, last of each column), which
// draws the same picture much faster. Other series are returned unchanged.
func decimate(xs, ys []float64, x0, x1 float64, cols int) ([]float64, []float64) {
	if cols < 1 || len(xs) <= 4*cols {
		return xs, ys
	}
	for i := 1; i < len(xs); i++ {
		if !(xs[i] >= xs[i-1]) {
			return xs, ys
		}
	}
	var ox, oy []float64
	col := func(x float64) int { return int(math.Floor((x - x0) / (x1 - x0) * float64(cols))) }
	for i := 0; i < len(xs); {
		c := col(xs[i])
		j := i
		lo, hi := i, i
		broken := false
		for j < len(xs) && col(xs[j]) == c {
			if !finite(ys[j]) {
				broken = true
			} else {
				if !finite(ys[lo]) || ys[j] < ys[lo] {
					lo = j
				}
				if !finite(ys[hi]) || ys[j] > ys[hi] {
					hi = j
				}
			}
			j++
		}
		if broken { // keep columns with gaps verbatim
			ox = append(ox, xs[i:j]...)
			oy = append(oy, ys[i:j]...)
		} else {
			idx := []int{i, lo, hi, j - 1}
			if hi < lo {
				idx[1], idx[2] = hi, lo
			}
			last := -1
			for _, k := range idx {
				if k != last {
					ox = append(ox, xs[k])
					oy = append(oy, ys[k])
					last = k
				}
			}
		}
		i = j
	}
	return ox, oy
}

// curvesHit reports whether any segment of the series, as drawn (decimated
// to cols pixel columns over [x0, x1], mapped by mapX and mapY), crosses
// the pixel rectangle [rx0, rx1] × [ry0, ry1] (with a 2-pixel margin for
// the line width). A lone point counts as a dot.
func curvesHit(series []Series, x0, x1 float64, cols int, mapX, mapY func(float64) float64, rx0, ry0, rx1, ry1 float64) bool {
	rx0, ry0, rx1, ry1 = rx0-2, ry0-2, rx1+2, ry1+2
	for _, s := range series {
		xs, ys := decimate(s.X, s.Y, x0, x1, cols)
		havePrev := false
		var px, py float64
		for i := range xs {
			if !finite(xs[i], ys[i]) {
				havePrev = false
				continue
			}
			x, y := mapX(xs[i]), mapY(ys[i])
			if !havePrev {
				if x >= rx0 && x <= rx1 && y >= ry0 && y <= ry1 {
					return true
				}
			} else if segmentHitsRect(px, py, x, y, rx0, ry0, rx1, ry1) {
				return true
			}
			px, py, havePrev = x, y, true
		}
	}
	return false
}

// segmentHitsRect reports whether segment (ax, ay)–(bx, by) meets the
// rectangle [x0, x1] × [y0, y1] (Liang–Barsky clipping).
func segmentHitsRect(ax, ay, bx, by, x0, y0, x1, y1 float64) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := bx-ax, by-ay
	for _, e := range [4][2]float64{{-dx, ax - x0}, {dx, x1 - ax}, {-dy, ay - y0}, {dy, y1 - ay}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

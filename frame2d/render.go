package frame2d

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"io"
	"math"
	"os"

	"github.com/fogleman/gg"
)

// Frame is the corner positions of every body at one time.
type Frame struct {
	Time    float64
	Corners [][4]Vec
}

// Snapshot records the current corners of f.
func (f *Framework) Snapshot(t float64) Frame {
	fr := Frame{Time: t, Corners: make([][4]Vec, len(f.Bodies))}
	for b := range f.Bodies {
		fr.Corners[b] = f.Corners(b)
	}
	return fr
}

// WriteTrajectoryCSV writes frames as CSV with the header
// frame,time,brick,name,fixed,x0,y0,x1,y1,x2,y2,x3,y3 (corners
// counter-clockwise, one row per brick per frame).
func WriteTrajectoryCSV(w io.Writer, f *Framework, frames []Frame) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "frame,time,brick,name,fixed,x0,y0,x1,y1,x2,y2,x3,y3")
	for k, fr := range frames {
		for b, c := range fr.Corners {
			fixed := 0
			if f.Bodies[b].Fixed {
				fixed = 1
			}
			fmt.Fprintf(bw, "%d,%.17g,%d,%s,%d", k, fr.Time, b, f.Bodies[b].Name, fixed)
			for _, v := range c {
				fmt.Fprintf(bw, ",%.17g,%.17g", v.X, v.Y)
			}
			fmt.Fprintln(bw)
		}
	}
	return bw.Flush()
}

// RenderGIF draws frames (bricks as filled polygons with gg, the ground as
// a grey band) into an animated GIF of the given width; the view is fitted
// to all frames. delay is in 1/100 s per frame.
func RenderGIF(path string, f *Framework, frames []Frame, width, delay int) error {
	if len(frames) == 0 {
		return fmt.Errorf("render: no frames")
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, fr := range frames {
		for _, c := range fr.Corners {
			for _, v := range c {
				x0, y0 = math.Min(x0, v.X), math.Min(y0, v.Y)
				x1, y1 = math.Max(x1, v.X), math.Max(y1, v.Y)
			}
		}
	}
	if f.Ground {
		y0 = math.Min(y0, 0)
	}
	pad := 0.05 * math.Max(x1-x0, y1-y0)
	x0, x1, y0, y1 = x0-pad, x1+pad, y0-pad, y1+pad
	scale := float64(width) / (x1 - x0)
	height := int(math.Ceil((y1 - y0) * scale))
	if height < 16 {
		height = 16
	}
	anim := &gif.GIF{}
	for _, fr := range frames {
		dc := gg.NewContext(width, height)
		dc.SetRGB(1, 1, 1)
		dc.Clear()
		tx := func(v Vec) (float64, float64) { return (v.X - x0) * scale, float64(height) - (v.Y-y0)*scale }
		if f.Ground {
			_, gy := tx(Vec{0, 0})
			dc.SetRGB(0.55, 0.55, 0.55)
			dc.DrawRectangle(0, gy, float64(width), float64(height)-gy)
			dc.Fill()
		}
		for b, c := range fr.Corners {
			for k, v := range c {
				x, y := tx(v)
				if k == 0 {
					dc.MoveTo(x, y)
				} else {
					dc.LineTo(x, y)
				}
			}
			dc.ClosePath()
			if f.Bodies[b].Fixed {
				dc.SetRGB(0.4, 0.4, 0.45)
			} else {
				col := brickColor(b)
				dc.SetRGB255(int(col.R), int(col.G), int(col.B))
			}
			dc.FillPreserve()
			dc.SetRGB(0.1, 0.1, 0.1)
			dc.SetLineWidth(1)
			dc.Stroke()
		}
		dc.SetRGB(0, 0, 0)
		dc.DrawString(fmt.Sprintf("t = %.3f s", fr.Time), 6, 14)
		img := dc.Image()
		pal := image.NewPaletted(img.Bounds(), palette.Plan9)
		draw.Draw(pal, img.Bounds(), img, image.Point{}, draw.Src)
		anim.Image = append(anim.Image, pal)
		anim.Delay = append(anim.Delay, delay)
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gif.EncodeAll(fh, anim); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func brickColor(b int) color.RGBA {
	cols := []color.RGBA{{196, 78, 52, 255}, {214, 132, 70, 255}, {170, 60, 45, 255}, {225, 160, 95, 255}, {150, 85, 60, 255}}
	return cols[b%len(cols)]
}

package output

import (
	"image"
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPlotSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.png")
	n := 5000
	x := make([]float64, n)
	ke, pe, tot := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i) * 1e-3
		ke[i] = 5 + 5*math.Cos(10*x[i])
		pe[i] = 5 - 5*math.Cos(10*x[i])
		tot[i] = ke[i] + pe[i]
	}
	pe[2500] = math.NaN() // a gap
	err := PlotSeries(path, "Energy", "time (s)", "energy (J)", []Series{
		{Name: "kinetic", X: x, Y: ke}, {Name: "potential", X: x, Y: pe}, {Name: "total", X: x, Y: tot},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := decodePNG(t, path)
	if b := m.Bounds(); b.Dx() != 800 || b.Dy() != 500 {
		t.Fatalf("size %v", b)
	}
	// Each series colour appears somewhere.
	for k := 0; k < 3; k++ {
		found := false
		for y := 0; y < 500 && !found; y++ {
			for x := 0; x < 800; x++ {
				if sameRGB(m.At(x, y), PlotColor(k)) {
					found = true
					break
				}
			}
		}
		if !found {
			t.Errorf("series %d colour not found", k)
		}
	}

	path2 := filepath.Join(t.TempDir(), "p.png")
	if err := PlotSeriesOptions(path2, PlotOptions{Width: 300, Height: 200}, []Series{{X: []float64{1}, Y: []float64{2}}}); err != nil {
		t.Fatal(err)
	}
	if b := decodePNG(t, path2).Bounds(); b.Dx() != 300 || b.Dy() != 200 {
		t.Fatalf("size %v", b)
	}
	if err := PlotSeries(path2, "", "", "", []Series{{X: []float64{1}, Y: nil}}); err == nil {
		t.Error("mismatched series accepted")
	}
	if err := PlotSeries(path2, "", "", "", nil); err == nil {
		t.Error("no series accepted")
	}
}

func TestNiceTicks(t *testing.T) {
	ticks, step := niceTicks(0, 1, 5)
	if step != 0.2 || len(ticks) != 6 {
		t.Fatalf("ticks %v step %v", ticks, step)
	}
	if got := tickLabels(ticks, step); !reflect.DeepEqual(got, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}) {
		t.Errorf("labels %v", got)
	}
	ticks, step = niceTicks(-3e7, 2e7, 5)
	if got := tickLabels(ticks, step); got[0] != "-3.0e+07" || got[3] != "0" {
		t.Errorf("labels %v", got)
	}
	lo, hi := widenRange(1234.5, 1234.5, 0.04)
	if !(lo < 1234.5 && hi > 1234.5) {
		t.Errorf("degenerate range %v %v", lo, hi)
	}
}

func TestDecimate(t *testing.T) {
	n := 10000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i)
		y[i] = math.Sin(float64(i))
	}
	y[5000] = 7
	dx, dy := decimate(x, y, 0, float64(n-1), 100)
	if len(dx) > 4*101 || len(dx) != len(dy) {
		t.Fatalf("%d points", len(dx))
	}
	peak := false
	for _, v := range dy {
		peak = peak || v == 7
	}
	if !peak {
		t.Error("decimation lost the peak")
	}
}

// TestLegendCoversNoCurve: the legend is never drawn over a curve — in a
// free corner when there is one, else beside the plot area. Inside the
// legend's grey frame only achromatic pixels (white, text) and the sample
// lines may appear; a curve under the translucent box would tint it (the
// legend used to sit top right whatever was there).
func TestLegendCoversNoCurve(t *testing.T) {
	xs := []float64{0, 0.25, 0.5, 0.75, 1}
	for name, series := range map[string][]Series{
		"free corner": {{Name: "rising", X: xs, Y: []float64{0, 0.3, 0.5, 0.7, 1}}, {Name: "flat", X: xs, Y: []float64{0, 0.1, 0.2, 0.1, 0}}},
		"every corner covered": {
			{Name: "up", X: xs, Y: []float64{0, 0.25, 0.5, 0.75, 1}}, {Name: "down", X: xs, Y: []float64{1, 0.75, 0.5, 0.25, 0}},
			{Name: "top", X: xs, Y: []float64{0.97, 0.97, 0.97, 0.97, 0.97}}, {Name: "bottom", X: xs, Y: []float64{0.03, 0.03, 0.03, 0.03, 0.03}},
			{Name: "left", X: []float64{0.02, 0.02}, Y: []float64{0, 1}}, {Name: "right", X: []float64{0.98, 0.98}, Y: []float64{0, 1}}},
	} {
		dc, box := drawPlot(PlotOptions{Width: 800, Height: 500, Title: name}, series)
		img := dc.Image().(*image.RGBA)
		x0, y0, x1, y1 := int(math.Ceil(box[0])), int(math.Ceil(box[1])), int(box[2]), int(box[3])
		if x1 <= x0 {
			t.Fatalf("%s: no legend", name)
		}
		sampleEnd := x0 + 8 + 24 + 3
		for y := y0 + 1; y < y1; y++ {
			for x := sampleEnd; x < x1; x++ {
				c := img.RGBAAt(x, y)
				if max(c.R, c.G, c.B)-min(c.R, c.G, c.B) > 8 {
					t.Fatalf("%s: coloured pixel %v at (%d, %d) inside the legend [%d,%d]×[%d,%d]: a curve under it", name, c, x, y, x0, x1, y0, y1)
				}
			}
		}
	}
}

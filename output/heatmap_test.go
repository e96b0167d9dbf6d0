package output

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteHeatmap(t *testing.T) {
	h := &Heatmap{NX: 30, NY: 13, X0: 0, X1: 15, Y0: 0, Y1: 6.5}
	for iy := 0; iy < h.NY; iy++ {
		for ix := 0; ix < h.NX; ix++ {
			h.Data = append(h.Data, float64(ix)/30)
		}
	}
	h.Data[5] = math.NaN()
	p := filepath.Join(t.TempDir(), "map.png")
	err := WriteHeatmap(p, h, HeatmapOptions{Title: "speed", XLabel: "x (cm)", YLabel: "y (cm)", Label: "m/s",
		Curves: []Series{{X: []float64{7.5, 7.5}, Y: []float64{0, 6.5}}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// the first cell (value 0) is the bottom colour of the scale, the last
	// column the top one
	b := img.Bounds()
	if b.Dx() < 900 || b.Dy() < 13*30 {
		t.Errorf("image %v", b)
	}
	// cell (0, 0) holds the minimum: the bottom colour; cell (29, 12) the
	// maximum 29/30: the top colour
	at := func(x, y int) [3]uint32 {
		r, g, bl, _ := img.At(x, y).RGBA()
		return [3]uint32{r >> 8, g >> 8, bl >> 8}
	}
	want := func(c [4]uint8) [3]uint32 { return [3]uint32{uint32(c[0]), uint32(c[1]), uint32(c[2])} }
	lo, hi := SpeedColor(0, 1), SpeedColor(1, 1)
	if got := at(70+2, 40+13*30-2); got != want([4]uint8{lo.R, lo.G, lo.B}) {
		t.Errorf("cell (0, 0) colour %v, want %v", got, lo)
	}
	if got := at(70+29*30+2, 40+2); got != want([4]uint8{hi.R, hi.G, hi.B}) {
		t.Errorf("cell (29, 12) colour %v, want %v", got, hi)
	}
	if err := WriteHeatmap(p, &Heatmap{NX: 2, NY: 2, Data: []float64{1}}, HeatmapOptions{}); err == nil {
		t.Error("bad size accepted")
	}
}

// TestWriteHeatmapGIF: two frames of a field become a two-frame GIF; a
// frame of another size is refused.
func TestWriteHeatmapGIF(t *testing.T) {
	dir := t.TempDir()
	a := &Heatmap{NX: 4, NY: 3, Data: make([]float64, 12), X1: 4, Y1: 3}
	b := &Heatmap{NX: 4, NY: 3, Data: make([]float64, 12), X1: 4, Y1: 3}
	for i := range b.Data {
		a.Data[i], b.Data[i] = float64(i), float64(11-i)
	}
	path := filepath.Join(dir, "h.gif")
	if err := WriteHeatmapGIF(path, []*Heatmap{a, b}, []string{"first", "second"}, HeatmapOptions{VMin: 0, VMax: 11}, 4); err != nil {
		t.Fatal(err)
	}
	if g := decodeGIF(t, path); len(g.Image) != 2 {
		t.Errorf("%d frames, want 2", len(g.Image))
	}
	c := &Heatmap{NX: 40, NY: 3, Data: make([]float64, 120), X1: 4, Y1: 3}
	if err := WriteHeatmapGIF(filepath.Join(dir, "bad.gif"), []*Heatmap{a, c}, nil, HeatmapOptions{VMin: 0, VMax: 11}, 4); err == nil {
		t.Error("frames of different sizes: want an error")
	}
}

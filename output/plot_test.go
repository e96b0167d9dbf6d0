package output

import (
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

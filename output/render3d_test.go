package output

import (
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteVTPPolys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.vtp")
	pts := [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	polys := [][]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}
	if err := WriteVTPPolys(path, pts, polys, []PointField{ScalarField("body", []float64{0, 0, 1, 1})}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var doc struct {
		Piece struct {
			NP    int `xml:"NumberOfPoints,attr"`
			NPoly int `xml:"NumberOfPolys,attr"`
		} `xml:"PolyData>Piece"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Piece.NP != 4 || doc.Piece.NPoly != 4 || !strings.Contains(string(data), "3 6 9 12") {
		t.Errorf("counts %+v or offsets wrong:\n%s", doc.Piece, data)
	}
	if err := WriteVTPPolys(path, pts, [][]int{{0, 9, 1}}, nil); err == nil {
		t.Error("out-of-range index accepted")
	}
}

// TestRender3D: a single triangle facing the fitted camera covers the
// centre pixel with its colour; a static triangle seen from behind is
// culled.
func TestRender3D(t *testing.T) {
	dir := t.TempDir()
	f := Frame3D{
		Points: [][3]float64{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}, {-5, -5, -1}, {-5, 5, -1}, {5, 0, -1}},
		Tris:   [][3]int{{0, 1, 2}, {3, 4, 5}},
		Color:  []int{0, -1},
	}
	info, err := Render3D([]Frame3D{f}, Render3DOptions{Dir: dir, Width: 64, Height: 48, Outputs: OutputPNG,
		Eye: [3]float64{0, 0, 10}, LookAt: [3]float64{0, 0, 0}, Up: [3]float64{0, 1, 0}})
	if err != nil || info.Frames != 1 {
		t.Fatal(err)
	}
	fh, _ := os.Open(info.PNGs[0])
	img, err := png.Decode(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := img.At(32, 24).RGBA()
	want := BallColor(0)
	if r>>8 == 245 || r>>8 > uint32(want.R) || g>>8 > uint32(want.G) || b>>8 > uint32(want.B) {
		t.Errorf("centre pixel %d %d %d, want a shade of %v", r>>8, g>>8, b>>8, want)
	}
	// the static triangle (normal −z, camera at +z) is culled: a pixel it
	// would cover outside the body triangle stays background
	if r, _, _, _ := img.At(12, 30).RGBA(); r>>8 != 245 {
		t.Errorf("culled static triangle drawn: %d", r>>8)
	}
	// reversed winding faces the camera and is drawn there
	f.Tris[1] = [3]int{3, 5, 4}
	info, err = Render3D([]Frame3D{f}, Render3DOptions{Dir: dir, Width: 64, Height: 48, Outputs: OutputPNG,
		Eye: [3]float64{0, 0, 10}, LookAt: [3]float64{0, 0, 0}, Up: [3]float64{0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	fh, _ = os.Open(info.PNGs[0])
	img, _ = png.Decode(fh)
	fh.Close()
	if r, _, _, _ := img.At(12, 30).RGBA(); r>>8 == 245 {
		t.Errorf("front-facing static triangle not drawn")
	}
}

// TestRender3DCutawayAndLabels: a body inside a closed container is seen
// when the container is cut away (not otherwise), and every frame carries
// its time and the title.
func TestRender3DCutawayAndLabels(t *testing.T) {
	cube := func(f *Frame3D, c [3]float64, h float64, col int) {
		base := len(f.Points)
		for k := 0; k < 8; k++ {
			f.Points = append(f.Points, [3]float64{c[0] + h*float64(2*(k&1)-1), c[1] + h*float64(2*(k>>1&1)-1), c[2] + h*float64(2*(k>>2&1)-1)})
		}
		for _, q := range [6][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
			f.Tris = append(f.Tris, [3]int{base + q[0], base + q[1], base + q[2]}, [3]int{base + q[0], base + q[2], base + q[3]})
			f.Color = append(f.Color, col, col)
		}
	}
	var f Frame3D
	f.Time = 0.25
	cube(&f, [3]float64{0, 0, 0}, 1, 0)   // the container
	cube(&f, [3]float64{0, 0, 0}, 0.3, 1) // what it holds
	inner := func(cut []bool) int {
		dir := t.TempDir()
		if _, err := Render3D([]Frame3D{f}, Render3DOptions{Dir: dir, Width: 120, Height: 90, Outputs: OutputPNG, Title: "gr", Cutaway: cut}); err != nil {
			t.Fatal(err)
		}
		img := decodePNG(t, filepath.Join(dir, "frame_00000.png"))
		text := 0 // black label text in the top rows, left (time) and centre (title)
		for y := 0; y < 20; y++ {
			for x := 0; x < 120; x++ {
				if r, g, b, _ := img.At(x, y).RGBA(); r == 0 && g == 0 && b == 0 {
					text++
				}
			}
		}
		if text < 30 {
			t.Errorf("%d label pixels at the top: no time or title", text)
		}
		n := 0
		for y := 0; y < 90; y++ {
			for x := 0; x < 120; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				for k := 0; k <= shadeLevels; k++ {
					if c := shaded(BallColor(1), k); uint32(c.R)*257 == r && uint32(c.G)*257 == g && uint32(c.B)*257 == b {
						n++
					}
				}
			}
		}
		return n
	}
	if n := inner(nil); n != 0 {
		t.Errorf("closed container drawn whole, yet %d pixels of its contents show", n)
	}
	if n := inner([]bool{true, false}); n < 20 {
		t.Errorf("cut-away container: %d pixels of its contents", n)
	}
}

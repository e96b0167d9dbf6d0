package output

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type xmlDataArray struct {
	Type  string `xml:"type,attr"`
	Name  string `xml:"Name,attr"`
	NComp int    `xml:"NumberOfComponents,attr"`
	Fmt   string `xml:"format,attr"`
	Text  string `xml:",chardata"`
}

type xmlVTP struct {
	XMLName    xml.Name `xml:"VTKFile"`
	Type       string   `xml:"type,attr"`
	HeaderType string   `xml:"header_type,attr"`
	Piece      struct {
		NPoints   int `xml:"NumberOfPoints,attr"`
		NVerts    int `xml:"NumberOfVerts,attr"`
		PointData struct {
			Scalars string         `xml:"Scalars,attr"`
			Vectors string         `xml:"Vectors,attr"`
			Arrays  []xmlDataArray `xml:"DataArray"`
		} `xml:"PointData"`
		Points struct {
			Arrays []xmlDataArray `xml:"DataArray"`
		} `xml:"Points"`
		Verts struct {
			Arrays []xmlDataArray `xml:"DataArray"`
		} `xml:"Verts"`
	} `xml:"PolyData>Piece"`
}

// decodeArray returns the values of a DataArray as float64.
func decodeArray(t *testing.T, a xmlDataArray) []float64 {
	t.Helper()
	switch a.Fmt {
	case "ascii":
		var out []float64
		for _, f := range strings.Fields(a.Text) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("array %s: %v", a.Name, err)
			}
			out = append(out, x)
		}
		return out
	case "binary":
		s := strings.TrimSpace(a.Text)
		// UInt64 header: 8 bytes → 12 base64 characters, padded separately.
		hdr, err := base64.StdEncoding.DecodeString(s[:12])
		if err != nil {
			t.Fatalf("array %s header: %v", a.Name, err)
		}
		raw, err := base64.StdEncoding.DecodeString(s[12:])
		if err != nil {
			t.Fatalf("array %s data: %v", a.Name, err)
		}
		if n := binary.LittleEndian.Uint64(hdr); n != uint64(len(raw)) {
			t.Fatalf("array %s: header says %d bytes, data has %d", a.Name, n, len(raw))
		}
		out := make([]float64, len(raw)/8)
		for i := range out {
			u := binary.LittleEndian.Uint64(raw[8*i:])
			if a.Type == "Int64" {
				out[i] = float64(int64(u))
			} else {
				out[i] = math.Float64frombits(u)
			}
		}
		return out
	}
	t.Fatalf("array %s: format %q", a.Name, a.Fmt)
	return nil
}

func TestWriteVTP(t *testing.T) {
	pts := [][3]float64{{0, 0, 0}, {1, 2, 3}, {-1.5, 1e-9, 7}}
	radius := []float64{0.5, 0.25, 1}
	vel := [][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for _, enc := range []VTKEncoding{VTKASCII, VTKBinary} {
		path := filepath.Join(t.TempDir(), "a.vtp")
		fields := []PointField{VectorField("velocity", vel), ScalarField("id", []float64{0, 1, 2}), ScalarField(RadiusField, radius)}
		if err := WriteVTP(path, pts, fields, enc); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		var doc xmlVTP
		if err := xml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("enc %d: %v\n%s", enc, err, data)
		}
		p := doc.Piece
		if doc.Type != "PolyData" || doc.HeaderType != "UInt64" || p.NPoints != 3 || p.NVerts != 3 {
			t.Fatalf("enc %d: header %+v", enc, doc)
		}
		if p.PointData.Scalars != RadiusField || p.PointData.Vectors != "velocity" {
			t.Errorf("active arrays %q %q", p.PointData.Scalars, p.PointData.Vectors)
		}
		if len(p.PointData.Arrays) != 3 {
			t.Fatalf("%d point arrays", len(p.PointData.Arrays))
		}
		wantLen := map[string]int{"velocity": 9, "id": 3, RadiusField: 3}
		for i, a := range p.PointData.Arrays {
			if a.Name != fields[i].Name {
				t.Errorf("array %d is %q, want %q (order kept)", i, a.Name, fields[i].Name)
			}
			if v := decodeArray(t, a); len(v) != wantLen[a.Name] {
				t.Errorf("array %s: %d values", a.Name, len(v))
			}
		}
		r := decodeArray(t, p.PointData.Arrays[2])
		for i := range r {
			if r[i] != radius[i] {
				t.Errorf("radius %d = %v", i, r[i])
			}
		}
		xyz := decodeArray(t, p.Points.Arrays[0])
		if len(xyz) != 9 || p.Points.Arrays[0].NComp != 3 || xyz[7] != 1e-9 {
			t.Errorf("points %v", xyz)
		}
		if len(p.Verts.Arrays) != 2 {
			t.Fatalf("verts arrays %d", len(p.Verts.Arrays))
		}
		conn, offs := decodeArray(t, p.Verts.Arrays[0]), decodeArray(t, p.Verts.Arrays[1])
		if len(conn) != 3 || len(offs) != 3 || conn[2] != 2 || offs[2] != 3 {
			t.Errorf("connectivity %v offsets %v", conn, offs)
		}
	}
}

func TestWriteVTPErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.vtp")
	pts := [][3]float64{{0, 0, 0}}
	for _, f := range [][]PointField{
		{ScalarField("r", []float64{1, 2})},
		{VectorField("v", nil)},
		{ScalarField("a", []float64{1}), ScalarField("a", []float64{1})},
		{ScalarField("", []float64{1})},
		{ScalarField(`x"y`, []float64{1})},
	} {
		if err := WriteVTP(path, pts, f, VTKASCII); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
}

type xmlPVD struct {
	XMLName  xml.Name `xml:"VTKFile"`
	Type     string   `xml:"type,attr"`
	DataSets []struct {
		Timestep float64 `xml:"timestep,attr"`
		File     string  `xml:"file,attr"`
	} `xml:"Collection>DataSet"`
}

func TestPVDAndExport(t *testing.T) {
	dir := t.TempDir()
	sc := testScene()
	tr := testTrajectory(5)
	pvdPath, err := ExportVTK2D(filepath.Join(dir, "vtk"), tr, sc, VTKBinary)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(pvdPath)
	var doc xmlPVD
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "Collection" || len(doc.DataSets) != 5 {
		t.Fatalf("pvd: %+v", doc)
	}
	for k, ds := range doc.DataSets {
		if ds.Timestep != tr.Frames[k].Time {
			t.Errorf("dataset %d time %v", k, ds.Timestep)
		}
		vtp, err := os.ReadFile(filepath.Join(filepath.Dir(pvdPath), ds.File))
		if err != nil {
			t.Fatal(err)
		}
		var v xmlVTP
		if err := xml.Unmarshal(vtp, &v); err != nil {
			t.Fatal(err)
		}
		if v.Piece.NPoints != 3 || len(v.Piece.PointData.Arrays) != 6 {
			t.Errorf("%s: %d points, %d arrays", ds.File, v.Piece.NPoints, len(v.Piece.PointData.Arrays))
		}
	}

	p, _ := NewPVDWriter(filepath.Join(dir, "x.pvd"))
	if err := p.Add(math.NaN(), "a.vtp"); err == nil {
		t.Error("NaN time accepted")
	}
	if err := p.Add(0, "/abs.vtp"); err == nil {
		t.Error("absolute path accepted")
	}
	p.Add(0.5, "a.vtp")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(1, "b.vtp"); err == nil {
		t.Error("Add after Close accepted")
	}
}

package output

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// WriteVTPPolys writes a VTK XML PolyData file (.vtp, ASCII) holding the
// polygons polys (each a list of indices into points) with per-polygon cell
// data (fields with Scalars or Vectors of length len(polys)). 3D runs use it
// for triangulated body surfaces. The file is written to path+".tmp" and
// renamed.
func WriteVTPPolys(path string, points [][3]float64, polys [][]int, cellFields []PointField) error {
	for _, f := range cellFields {
		if f.Name == "" || strings.ContainsAny(f.Name, "<>&\"'\r\n\t") {
			return fmt.Errorf("output: vtp: bad field name %q", f.Name)
		}
		if (f.Scalars != nil && len(f.Scalars) != len(polys)) || (f.Vectors != nil && len(f.Vectors) != len(polys)) {
			return fmt.Errorf("output: vtp: cell field %q does not have one value per polygon (%d)", f.Name, len(polys))
		}
	}
	for k, p := range polys {
		for _, i := range p {
			if i < 0 || i >= len(points) {
				return fmt.Errorf("output: vtp: polygon %d refers to point %d of %d", k, i, len(points))
			}
		}
	}
	a, err := createAtomic(path, false)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(a)
	num := func(x float64) { w.WriteString(strconv.FormatFloat(x, 'g', -1, 64)); w.WriteByte(' ') }
	fmt.Fprintf(w, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<PolyData>\n")
	fmt.Fprintf(w, "<Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n", len(points), len(polys))
	w.WriteString("<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n")
	for _, p := range points {
		num(p[0])
		num(p[1])
		num(p[2])
		w.WriteByte('\n')
	}
	w.WriteString("</DataArray>\n</Points>\n<Polys>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n")
	for _, p := range polys {
		for _, i := range p {
			w.WriteString(strconv.Itoa(i))
			w.WriteByte(' ')
		}
		w.WriteByte('\n')
	}
	w.WriteString("</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n")
	off := 0
	for _, p := range polys {
		off += len(p)
		w.WriteString(strconv.Itoa(off))
		w.WriteByte(' ')
	}
	w.WriteString("\n</DataArray>\n</Polys>\n<CellData>\n")
	for _, f := range cellFields {
		if f.Vectors != nil {
			fmt.Fprintf(w, "<DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"3\" format=\"ascii\">\n", f.Name)
			for _, v := range f.Vectors {
				num(v[0])
				num(v[1])
				num(v[2])
			}
		} else {
			fmt.Fprintf(w, "<DataArray type=\"Float64\" Name=\"%s\" format=\"ascii\">\n", f.Name)
			for _, v := range f.Scalars {
				num(v)
			}
		}
		w.WriteString("\n</DataArray>\n")
	}
	w.WriteString("</CellData>\n</Piece>\n</PolyData>\n</VTKFile>\n")
	if err := w.Flush(); err != nil {
		a.Abort()
		return err
	}
	return a.Close()
}

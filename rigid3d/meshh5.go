package rigid3d

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"

	"github.com/scigolib/hdf5"
	"gonum.org/v1/gonum/spatial/r3"
)

// ReadSCISimMesh reads the triangle mesh of one of SCISim's HDF5 mesh
// files (the .h5 files its rigidbody3d scenes name in <geometry
// type="mesh" filename>): the datasets mesh/vertices, a 3 × N array of
// coordinates (row k holds coordinate k of every vertex, as SCISim writes
// its Eigen::Matrix3X), and mesh/faces, a 3 × M array of vertex indices.
// The file's precomputed moments, surface samples and signed-distance grid
// are not read: NewMesh computes its own from the triangles. Errors name
// the file. It uses the pure-Go HDF5 reader github.com/scigolib/hdf5.
func ReadSCISimMesh(path string) ([]r3.Vec, [][3]int, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, err
	}
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not an HDF5 file SCISim could read: %w", path, err)
	}
	defer f.Close()
	var vdata, fdata []float64
	var vcols, fcols int
	var rerr error
	found := map[string]bool{}
	f.Walk(func(name string, obj hdf5.Object) {
		ds, ok := obj.(*hdf5.Dataset)
		if !ok || rerr != nil {
			return
		}
		switch name {
		case "/mesh/vertices", "/mesh/faces":
		default:
			return
		}
		found[name] = true
		cols, err := threeRows(ds)
		if err != nil {
			rerr = fmt.Errorf("%s: dataset %s: %w", path, name, err)
			return
		}
		data, err := ds.Read()
		if err != nil {
			rerr = fmt.Errorf("%s: dataset %s: %w", path, name, err)
			return
		}
		if len(data) != 3*cols {
			rerr = fmt.Errorf("%s: dataset %s: %d values for a 3 × %d array", path, name, len(data), cols)
			return
		}
		if name == "/mesh/vertices" {
			vdata, vcols = data, cols
		} else {
			fdata, fcols = data, cols
		}
	})
	if rerr != nil {
		return nil, nil, rerr
	}
	for _, name := range []string{"/mesh/vertices", "/mesh/faces"} {
		if !found[name] {
			return nil, nil, fmt.Errorf("%s: no dataset %s (SCISim's mesh files hold mesh/vertices and mesh/faces)", path, name)
		}
	}
	vs := make([]r3.Vec, vcols)
	for i := range vs {
		vs[i] = r3.Vec{X: vdata[i], Y: vdata[vcols+i], Z: vdata[2*vcols+i]}
	}
	fs := make([][3]int, fcols)
	for i := range fs {
		for k := 0; k < 3; k++ {
			x := fdata[k*fcols+i]
			if x < 0 || x >= float64(vcols) || x != math.Trunc(x) {
				return nil, nil, fmt.Errorf("%s: mesh/faces: face %d has vertex index %v, want an integer in [0, %d)", path, i, x, vcols)
			}
			fs[i][k] = int(x)
		}
	}
	return vs, fs, nil
}

var shape2D = regexp.MustCompile(`2D array \[(\d+) x (\d+)\]`)

// threeRows returns N for a 3 × N dataset.
func threeRows(ds *hdf5.Dataset) (int, error) {
	info, err := ds.Info()
	if err != nil {
		return 0, err
	}
	m := shape2D.FindStringSubmatch(info)
	if m == nil || m[1] != "3" {
		return 0, fmt.Errorf("expected a 3 × N array, got %s", info)
	}
	return strconv.Atoi(m[2])
}

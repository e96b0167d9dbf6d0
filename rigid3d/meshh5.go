package rigid3d

import (
	"bytes"
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
func ReadSCISimMesh(path string) (vs []r3.Vec, fs [][3]int, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := checkHDF5Sizes(path, st.Size()); err != nil {
		return nil, nil, err
	}
	// the HDF5 decoder panics on some damaged files (found by
	// FuzzReadSCISimMesh): a panic there is a damaged file, not a crash
	defer func() {
		if r := recover(); r != nil {
			vs, fs, err = nil, nil, fmt.Errorf("%s: a damaged HDF5 file (the decoder failed: %v)", path, r)
		}
	}()
	return readSCISimMesh(path, st.Size())
}

func readSCISimMesh(path string, size int64) ([]r3.Vec, [][3]int, error) {
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
		cols, elem, err := threeRows(ds)
		if err != nil {
			rerr = fmt.Errorf("%s: dataset %s: %w", path, name, err)
			return
		}
		if need := 3 * float64(cols) * float64(elem); need > math.Min(64*float64(size), 4<<30) {
			// the decoder allocates the whole array before reading it;
			// compressed chunks may hold more than the file, not 64×
			rerr = fmt.Errorf("%s: dataset %s: a 3 × %d array of %d-byte values in a file of %d bytes: a damaged file", path, name, cols, elem, size)
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

var (
	shape2D  = regexp.MustCompile(`2D array \[(\d+) x (\d+)\]`)
	elemSize = regexp.MustCompile(`\(size=(\d+) bytes\)`)
)

// threeRows returns N for a 3 × N dataset and the size of its values.
func threeRows(ds *hdf5.Dataset) (cols, elem int, err error) {
	info, err := ds.Info()
	if err != nil {
		return 0, 0, err
	}
	m := shape2D.FindStringSubmatch(info)
	if m == nil || m[1] != "3" {
		return 0, 0, fmt.Errorf("expected a 3 × N array, got %s", info)
	}
	e := elemSize.FindStringSubmatch(info)
	if e == nil {
		return 0, 0, fmt.Errorf("no value size in %s", info)
	}
	if elem, err = strconv.Atoi(e[1]); err != nil || elem < 1 || elem > 16 {
		return 0, 0, fmt.Errorf("values of %s bytes: a damaged file", e[1])
	}
	cols, err = strconv.Atoi(m[2])
	return cols, elem, err
}

// checkHDF5Sizes refuses an HDF5 file whose local heaps claim more data
// than the file holds. The decoder (github.com/scigolib/hdf5 v0.14.0)
// allocates a heap's data segment at the size its header states before
// reading it, so one damaged length field in a file of kilobytes makes it
// allocate terabytes and the process die out of memory, which no recover
// catches (found by FuzzReadSCISimMesh). The superblock's size of lengths
// (byte 14 of a version 0/1 superblock, byte 10 of version 2/3) gives the
// width of the field that follows each "HEAP" signature, its version 0
// and three reserved bytes.
func checkHDF5Sizes(path string, size int64) error {
	if size > 1<<30 {
		return fmt.Errorf("%s: %d bytes: more than the 1 GiB a SCISim mesh file may have", path, size)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lengthSize := 8
	for off := 0; off+16 <= len(data); off = max(512, 2*off) {
		if string(data[off:off+8]) != "\x89HDF\r\n\x1a\n" {
			continue
		}
		switch data[off+8] {
		case 0, 1:
			lengthSize = int(data[off+14])
		default:
			lengthSize = int(data[off+10])
		}
		break
	}
	if lengthSize != 2 && lengthSize != 4 && lengthSize != 8 {
		return fmt.Errorf("%s: a damaged HDF5 file (size of lengths %d)", path, lengthSize)
	}
	for i := 0; ; {
		k := bytes.Index(data[i:], []byte("HEAP\x00\x00\x00\x00"))
		if k < 0 {
			return nil
		}
		at := i + k + 8
		if at+lengthSize > len(data) {
			return nil
		}
		var n uint64
		for b := lengthSize - 1; b >= 0; b-- { // little-endian
			n = n<<8 | uint64(data[at+b])
		}
		if n > uint64(size) {
			return fmt.Errorf("%s: a damaged HDF5 file: a local heap of %d bytes in a file of %d", path, n, size)
		}
		i = at
	}
}

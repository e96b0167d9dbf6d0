package tetmesh

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// maxTetGenItems bounds the counts a TetGen header may announce (the
// reader allocates for them).
const maxTetGenItems = 1 << 26

// tetgenLines yields the non-empty lines of a TetGen file with comments
// (from '#' to the end of the line) removed, as fields with line numbers.
type tetgenLines struct {
	sc   *bufio.Scanner
	name string
	line int
}

func (r *tetgenLines) next() ([]string, error) {
	for r.sc.Scan() {
		r.line++
		s := r.sc.Text()
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		if f := strings.Fields(s); len(f) > 0 {
			return f, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, &rigid3d.MeshError{Source: r.name, Line: r.line, Msg: err.Error()}
	}
	return nil, io.EOF
}

// header reads the first line: want integers, described by form.
func (r *tetgenLines) header(want int, form string) ([]int, error) {
	f, err := r.next()
	if err == io.EOF {
		return nil, r.errorf("empty file: expected a header %s", form)
	} else if err != nil {
		return nil, err
	}
	if len(f) != want {
		return nil, r.errorf("header: expected %d integers %s, got %d fields", want, form, len(f))
	}
	return r.ints(f, "header")
}

// record reads item i of n (what: "points", "tetrahedra").
func (r *tetgenLines) record(i, n int, what string) ([]string, error) {
	f, err := r.next()
	if err == io.EOF {
		return nil, r.errorf("file ends after %d of %d %s", i, n, what)
	}
	return f, err
}

// end checks that nothing follows the n items.
func (r *tetgenLines) end(n int, what string) error {
	if f, err := r.next(); err == nil {
		return r.errorf("unexpected %q after the %d %s", strings.Join(f, " "), n, what)
	} else if err != io.EOF {
		return err
	}
	return nil
}

func (r *tetgenLines) errorf(format string, args ...any) error {
	return &rigid3d.MeshError{Source: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

func (r *tetgenLines) ints(f []string, what string) ([]int, error) {
	out := make([]int, len(f))
	for i, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, r.errorf("%s: expected an integer, got %q", what, s)
		}
		out[i] = v
	}
	return out, nil
}

// ReadTetGen reads a tetrahedral mesh in TetGen's .node/.ele format:
//
//	.node: <points> 3 <attributes> <markers 0|1>, then per point
//	       <index> <x> <y> <z> [attributes…] [marker]
//	.ele:  <tetrahedra> 4 <attributes>, then per tetrahedron
//	       <index> <n1> <n2> <n3> <n4> [attributes…]
//
// with '#' comments. Indices count from the first point's index (0 or 1)
// and must be consecutive. Linear (4-node) elements only. Tetrahedra of
// negative orientation are reoriented; the mesh is then validated
// (Mesh.Validate). Errors name the file and line.
func ReadTetGen(node io.Reader, nodeName string, ele io.Reader, eleName string) (*Mesh, error) {
	nr := &tetgenLines{sc: bufio.NewScanner(node), name: nodeName}
	nr.sc.Buffer(make([]byte, 1<<16), 1<<20)
	h, err := nr.header(4, "<points> 3 <attributes> <markers>")
	if err != nil {
		return nil, err
	}
	np, nattr, nmark := h[0], h[2], h[3]
	switch {
	case np < 4 || np > maxTetGenItems:
		return nil, nr.errorf("header: point count %d, expected 4..%d", np, maxTetGenItems)
	case h[1] != 3:
		return nil, nr.errorf("header: dimension %d, expected 3", h[1])
	case nattr < 0 || nattr > 64:
		return nil, nr.errorf("header: attribute count %d, expected 0..64", nattr)
	case nmark != 0 && nmark != 1:
		return nil, nr.errorf("header: boundary marker count %d, expected 0 or 1", nmark)
	}
	m := &Mesh{V: make([]r3.Vec, 0, min(np, 1<<16))}
	base := 0
	for i := 0; i < np; i++ {
		f, err := nr.record(i, np, "points")
		if err != nil {
			return nil, err
		}
		if want := 4 + nattr + nmark; len(f) != want {
			return nil, nr.errorf("point: expected %d fields (index, x, y, z, %d attributes, %d markers), got %d", want, nattr, nmark, len(f))
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, nr.errorf("point index: expected an integer, got %q", f[0])
		}
		if i == 0 {
			if idx != 0 && idx != 1 {
				return nil, nr.errorf("first point index %d, expected 0 or 1", idx)
			}
			base = idx
		} else if idx != base+i {
			return nil, nr.errorf("point index %d, expected %d (indices must be consecutive)", idx, base+i)
		}
		var c [3]float64
		for k := 0; k < 3; k++ {
			x, err := strconv.ParseFloat(f[1+k], 64)
			if err != nil || !finite(x) {
				return nil, nr.errorf("point %d: coordinate %q is not a finite number", idx, f[1+k])
			}
			c[k] = x
		}
		m.V = append(m.V, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	}
	if err := nr.end(np, "points"); err != nil {
		return nil, err
	}

	er := &tetgenLines{sc: bufio.NewScanner(ele), name: eleName}
	er.sc.Buffer(make([]byte, 1<<16), 1<<20)
	if h, err = er.header(3, "<tetrahedra> 4 <attributes>"); err != nil {
		return nil, err
	}
	nt, npt, nattr := h[0], h[1], h[2]
	switch {
	case nt < 1 || nt > maxTetGenItems:
		return nil, er.errorf("header: tetrahedron count %d, expected 1..%d", nt, maxTetGenItems)
	case npt != 4:
		return nil, er.errorf("header: %d nodes per tetrahedron, expected 4 (linear elements; write TetGen meshes without -o2)", npt)
	case nattr < 0 || nattr > 64:
		return nil, er.errorf("header: attribute count %d, expected 0..64", nattr)
	}
	m.T = make([][4]int, 0, min(nt, 1<<16))
	for k := 0; k < nt; k++ {
		f, err := er.record(k, nt, "tetrahedra")
		if err != nil {
			return nil, err
		}
		if want := 5 + nattr; len(f) != want {
			return nil, er.errorf("tetrahedron: expected %d fields (index, 4 nodes, %d attributes), got %d", want, nattr, len(f))
		}
		v, err := er.ints(f[:5], "tetrahedron")
		if err != nil {
			return nil, err
		}
		if v[0] != base+k {
			return nil, er.errorf("tetrahedron index %d, expected %d (indices must be consecutive from the .node file's first index %d)", v[0], base+k, base)
		}
		var t [4]int
		for a := 0; a < 4; a++ {
			if v[1+a] < base || v[1+a] >= base+np {
				return nil, er.errorf("tetrahedron %d: node %d outside %d..%d", v[0], v[1+a], base, base+np-1)
			}
			t[a] = v[1+a] - base
		}
		if SignedVolume(m.V[t[0]], m.V[t[1]], m.V[t[2]], m.V[t[3]]) < 0 {
			t[2], t[3] = t[3], t[2]
		}
		m.T = append(m.T, t)
	}
	if err := er.end(nt, "tetrahedra"); err != nil {
		return nil, err
	}
	if err := m.Validate(eleName); err != nil {
		return nil, err
	}
	return m, nil
}

// WriteTetGen writes m as TetGen .node and .ele files (indices from 1, no
// attributes or markers), readable by ReadTetGen and TetGen's tools.
func WriteTetGen(m *Mesh, node, ele io.Writer) error {
	bn := bufio.NewWriter(node)
	fmt.Fprintf(bn, "%d 3 0 0\n", len(m.V))
	for i, v := range m.V {
		fmt.Fprintf(bn, "%d %s %s %s\n", i+1, fmtFloat(v.X), fmtFloat(v.Y), fmtFloat(v.Z))
	}
	if err := bn.Flush(); err != nil {
		return err
	}
	be := bufio.NewWriter(ele)
	fmt.Fprintf(be, "%d 4 0\n", len(m.T))
	for k, t := range m.T {
		fmt.Fprintf(be, "%d %d %d %d %d\n", k+1, t[0]+1, t[1]+1, t[2]+1, t[3]+1)
	}
	return be.Flush()
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

package output

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// EnergyHeader is the column list of a 2D run's energy.csv, for
// NewSeriesWriter.
var EnergyHeader = EnergyColumns(2)

// EnergyColumns returns the column list of energy.csv for a system of
// spatial dimension dim (2 or 3): one momentum column per dimension.
func EnergyColumns(dim int) []string {
	cols := []string{"step", "time", "kinetic", "potential", "total"}
	cols = append(cols, []string{"px", "py", "pz"}[:dim]...)
	return append(cols, "contacts", "impact_iterations", "seconds", "capped", "residual", "wall_work", "overlap", "correction_pe", "correction_passes",
		"redetect_rounds", "redetect_added", "redetect_missing")
}

// SeriesWriter writes a CSV time series: a header line, then one row of
// numbers per Write. Rows go to path+".tmp" through a buffer and Close
// renames the file to path (NewSeriesWriter), or they are written in
// place, one write system call per row (NewLiveSeriesWriter).
type SeriesWriter struct {
	f     sink
	path  string
	ncols int
	buf   []byte
	err   error
}

// NewSeriesWriter starts the CSV file path with the given header. Column
// names must be non-empty and contain no comma, quote or newline. An existing
// file at path is removed at once (see NewTrajectoryWriter).
func NewSeriesWriter(path string, header []string) (*SeriesWriter, error) {
	return newSeriesWriter(path, header, false)
}

// NewLiveSeriesWriter is NewSeriesWriter for a series that grows over a
// long run (energy.csv): the file is written in place under its final
// name, one write system call per row, so a reader or a crash sees whole
// rows (and at most one cut row at the end, which ReadSeries leaves out)
// and a write error (a full disk) is returned by the Write that meets it.
func NewLiveSeriesWriter(path string, header []string) (*SeriesWriter, error) {
	return newSeriesWriter(path, header, true)
}

func newSeriesWriter(path string, header []string, live bool) (*SeriesWriter, error) {
	if len(header) == 0 {
		return nil, errors.New("output: series: empty header")
	}
	for _, h := range header {
		if h == "" || strings.ContainsAny(h, ",\"\r\n") {
			return nil, fmt.Errorf("output: series: bad column name %q", h)
		}
	}
	var f sink
	var err error
	if live {
		f, err = createLive(path)
	} else {
		f, err = createAtomic(path, true)
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.Write([]byte(strings.Join(header, ",") + "\n")); err != nil {
		f.Abort()
		return nil, fmt.Errorf("output: writing %s: %w", path, err)
	}
	return &SeriesWriter{f: f, path: path, ncols: len(header)}, nil
}

// Write appends one row. It needs exactly one value per header column.
// Values are formatted with strconv 'g' and precision −1 (the shortest
// string that round-trips), so integral values print as integers ("12")
// below 1e21. NaN and ±Inf print as NaN, +Inf, -Inf.
func (w *SeriesWriter) Write(values ...float64) error {
	if w.err != nil {
		return w.err
	}
	if len(values) != w.ncols {
		w.err = fmt.Errorf("output: %s: %d values for %d columns", w.path, len(values), w.ncols)
		return w.err
	}
	b := w.buf[:0]
	for i, x := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	b = append(b, '\n')
	w.buf = b
	if _, err := w.f.Write(b); err != nil {
		w.err = fmt.Errorf("output: writing %s: %w", w.path, err)
		return w.err
	}
	return nil
}

// Close flushes and renames the file to its final name; after a failed
// Write it removes the temporary file and returns that error.
func (w *SeriesWriter) Close() error {
	if w.err != nil {
		w.f.Abort()
		return w.err
	}
	return w.f.Close()
}

// Abort removes the temporary file without creating the final file.
func (w *SeriesWriter) Abort() { w.f.Abort() }

// Series is one named curve: Y[i] against X[i]. Non-finite points are
// skipped by the plotter (the line is broken there).
type Series struct {
	Name string
	X, Y []float64
}

// Table is a CSV time series read back by ReadSeries: Columns[j] holds the
// values of Header[j], one per data row.
type Table struct {
	Header  []string
	Columns [][]float64
}

// Column returns the values of the named column, or nil if there is none.
func (t *Table) Column(name string) []float64 {
	for j, h := range t.Header {
		if h == name {
			return t.Columns[j]
		}
	}
	return nil
}

// Series returns the curve ycol against xcol, named ycol, for PlotSeries.
func (t *Table) Series(xcol, ycol string) (Series, error) {
	x, y := t.Column(xcol), t.Column(ycol)
	if x == nil || y == nil {
		return Series{}, fmt.Errorf("output: table has no column %q or %q (columns: %s)", xcol, ycol, strings.Join(t.Header, ","))
	}
	return Series{Name: ycol, X: x, Y: y}, nil
}

// ReadSeries reads a numeric CSV file with a header line, as written by
// SeriesWriter (energy.csv for example). Every row ends with a newline; a
// last line without one (a row cut by a crash, or not yet complete in a
// live file) is left out. Errors name the file and line.
func ReadSeries(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	defer f.Close()
	r, err := completeLines(f)
	if err != nil {
		return nil, fmt.Errorf("output: reading %s: %w", path, err)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	t := &Table{}
	line := 0
	for sc.Scan() {
		line++
		text := string(bytes.TrimRight(sc.Bytes(), "\r"))
		if line == 1 {
			t.Header = strings.Split(text, ",")
			t.Columns = make([][]float64, len(t.Header))
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) != len(t.Header) {
			return nil, fmt.Errorf("output: %s:%d: %d fields, header has %d", path, line, len(fields), len(t.Header))
		}
		for j, s := range fields {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("output: %s:%d: column %s: bad number %q", path, line, t.Header[j], s)
			}
			t.Columns[j] = append(t.Columns[j], x)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("output: reading %s: %w", path, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("output: %s: empty file (no header)", path)
	}
	return t, nil
}

// WriteColumns writes a CSV time series at path from equally long columns
// (the header names them): row i holds cols[0][i], cols[1][i], ….
func WriteColumns(path string, header []string, cols ...[]float64) error {
	if len(cols) != len(header) {
		return fmt.Errorf("output: %s: %d columns for a header of %d", path, len(cols), len(header))
	}
	w, err := NewSeriesWriter(path, header)
	if err != nil {
		return err
	}
	row := make([]float64, len(cols))
	for i := range cols[0] {
		for k, c := range cols {
			if len(c) != len(cols[0]) {
				w.Abort()
				return fmt.Errorf("output: %s: column %q has %d values, %q has %d", path, header[k], len(c), header[0], len(cols[0]))
			}
			row[k] = c[i]
		}
		if err := w.Write(row...); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

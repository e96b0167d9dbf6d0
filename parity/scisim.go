package parity

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// SCISimProgram returns the path of system's command-line program inside a
// SCISim build directory.
func SCISimProgram(buildDir, system string) string {
	return filepath.Join(buildDir, system+"cli", system+"_cli")
}

// RunSCISim runs SCISim's program for system on the scene at path up to
// time end (its -e option) and returns the last saved state, read from the
// HDF5 output with h5dump (which must be on PATH). dt, if positive, is the
// scene's time step: it lets the run save fewer frames (-f) when the last
// step still falls on a saved frame; with dt ≤ 0 every step is saved.
// SCISim's warnings (lines containing "arning") are returned as well.
func RunSCISim(buildDir, system, path string, end, dt float64) (*State, []string, error) {
	prog := SCISimProgram(buildDir, system)
	dir, err := os.MkdirTemp("", "parity-scisim-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	freq := saveFrequency(end, dt)
	args := []string{path, "-e", fmtF(end), "-o", dir, "-f", strconv.Itoa(freq)}
	cmd := exec.Command(prog, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, lastLines(out.String(), 5))
	}
	var warnings []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "arning") {
			warnings = append(warnings, l)
		}
	}
	frames, _ := filepath.Glob(filepath.Join(dir, "config_*.h5"))
	if len(frames) == 0 {
		return nil, warnings, fmt.Errorf("%s wrote no frames:\n%s", prog, lastLines(out.String(), 5))
	}
	sort.Strings(frames)
	last := frames[len(frames)-1]
	s := &State{System: system, Command: fmt.Sprintf("%s_cli %s -e %s -o DIR -f %d", system, filepath.Base(path), fmtF(end), freq), End: end}
	var it []float64
	if it, err = h5read(last, "/iteration"); err == nil && len(it) == 1 {
		s.Iteration = int(it[0])
	} else {
		return nil, warnings, fmt.Errorf("%s: /iteration: %v", last, err)
	}
	var t []float64
	if t, err = h5read(last, "/time"); err != nil || len(t) != 1 {
		return nil, warnings, fmt.Errorf("%s: /time: %v", last, err)
	}
	s.Time = t[0]
	for _, prefix := range []string{"/state", ""} {
		if s.Q, err = h5read(last, prefix+"/q"); err == nil {
			if s.V, err = h5read(last, prefix+"/v"); err == nil {
				break
			}
		}
	}
	if err != nil {
		return nil, warnings, fmt.Errorf("%s: %v", last, err)
	}
	return s, warnings, nil
}

// saveFrequency picks SCISim's output rate f (Hz) so that a frame is saved
// every k = 1/(f dt) steps with k dividing the number of steps to end, the
// fewest frames; 0 (every step) when dt is unknown.
func saveFrequency(end, dt float64) int {
	if !(dt > 0) {
		return 0
	}
	steps := int(math.Ceil(end/dt - 1e-9))
	for _, f := range []int{1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 200, 250, 500, 1000} {
		k := 1 / (dt * float64(f))
		kr := math.Round(k)
		if kr >= 1 && math.Abs(k-kr) <= 1e-9*kr && steps%int(kr) == 0 {
			return f
		}
	}
	return 0
}

// h5read returns the numbers of an HDF5 dataset, printed by h5dump with 17
// significant digits.
func h5read(file, dataset string) ([]float64, error) {
	out, err := exec.Command("h5dump", "-m", "%.17g", "-y", "-w", "1", "-d", dataset, file).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("h5dump -d %s: %v: %s", dataset, err, lastLines(string(out), 2))
	}
	txt := string(out)
	i := strings.Index(txt, "DATA {")
	if i < 0 {
		return nil, fmt.Errorf("h5dump -d %s: no DATA block", dataset)
	}
	txt = txt[i+len("DATA {"):]
	if j := strings.Index(txt, "}"); j >= 0 {
		txt = txt[:j]
	}
	var xs []float64
	for _, f := range strings.FieldsFunc(txt, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("h5dump -d %s: %q is not a number", dataset, f)
		}
		xs = append(xs, x)
	}
	return xs, nil
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// MUMPSCopy returns the path of a copy of the scene at path whose Ipopt
// linear_solvers attribute asks for MUMPS only (changed true), or path
// itself when it has none. Debian's Ipopt has no HSL solvers (ma97, ma57,
// …): SCISim exits at its first Ipopt solve unless the scene asks for MUMPS
// only; the linear solver changes only Ipopt's inner linear algebra.
// cleanup removes the copy.
func MUMPSCopy(path string) (string, func(), bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, false, err
	}
	hsl := regexp.MustCompile(`linear_solvers="[^"]*"`)
	if !hsl.Match(data) {
		return path, func() {}, false, nil
	}
	cp := filepath.Join(filepath.Dir(path), ".mumps-"+filepath.Base(path))
	if err := os.WriteFile(cp, hsl.ReplaceAll(data, []byte(`linear_solvers="mumps"`)), 0o644); err != nil {
		return "", nil, false, err
	}
	return cp, func() { os.Remove(cp) }, true, nil
}

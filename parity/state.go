package parity

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// State is a final state in SCISim's layout (package documentation) with
// where it came from.
type State struct {
	System    string  // ball2d, rigidbody2d or rigidbody3d
	Scene     string  // scene path relative to the testdata directory
	SCISim    string  // commit of the SCISim build that produced it ("" for impactsim)
	Command   string  // how it was produced
	End       float64 // requested end time
	Iteration int     // time steps taken
	Time      float64 // simulated time reached
	Q, V      []float64
}

// WriteState writes s in the reference file format.
func WriteState(w io.Writer, s *State, comments ...string) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		fmt.Fprintf(bw, "# %s\n", c)
	}
	fmt.Fprintf(bw, "system %s\nscene %s\nscisim %s\ncommand %s\n", s.System, s.Scene, s.SCISim, s.Command)
	fmt.Fprintf(bw, "end %s\niteration %d\ntime %s\n", fmtF(s.End), s.Iteration, fmtF(s.Time))
	for _, blk := range []struct {
		name string
		x    []float64
	}{{"q", s.Q}, {"v", s.V}} {
		fmt.Fprintf(bw, "%s %d\n", blk.name, len(blk.x))
		for _, x := range blk.x {
			fmt.Fprintln(bw, fmtF(x))
		}
	}
	return bw.Flush()
}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }

// ReadState reads a reference file; source names it in errors.
func ReadState(r io.Reader, source string) (*State, error) {
	s := &State{}
	sc := bufio.NewScanner(r)
	line := 0
	fail := func(format string, a ...any) (*State, error) {
		return nil, fmt.Errorf("%s:%d: %s", source, line, fmt.Sprintf(format, a...))
	}
	next := func() (string, bool) {
		for sc.Scan() {
			line++
			t := strings.TrimSpace(sc.Text())
			if t != "" && !strings.HasPrefix(t, "#") {
				return t, true
			}
		}
		return "", false
	}
	seen := map[string]bool{}
	for {
		t, ok := next()
		if !ok {
			break
		}
		key, val, _ := strings.Cut(t, " ")
		val = strings.TrimSpace(val)
		if seen[key] {
			return fail("duplicate %q", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "system":
			s.System = val
		case "scene":
			s.Scene = val
		case "scisim":
			s.SCISim = val
		case "command":
			s.Command = val
		case "end":
			s.End, err = strconv.ParseFloat(val, 64)
		case "iteration":
			s.Iteration, err = strconv.Atoi(val)
		case "time":
			s.Time, err = strconv.ParseFloat(val, 64)
		case "q", "v":
			n, e := strconv.Atoi(val)
			if e != nil || n < 0 {
				return fail("%s: expected a count, got %q", key, val)
			}
			// grown as the numbers come: a count line must not allocate
			// what it claims (found by FuzzReadState)
			x := make([]float64, 0, min(n, 1<<16))
			for i := 0; i < n; i++ {
				t, ok := next()
				if !ok {
					return fail("%s: %d numbers, want %d", key, i, n)
				}
				v, e := strconv.ParseFloat(t, 64)
				if e != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return fail("%s[%d]: expected a finite number, got %q", key, i, t)
				}
				x = append(x, v)
			}
			if key == "q" {
				s.Q = x
			} else {
				s.V = x
			}
		default:
			return fail("unknown key %q", key)
		}
		if err != nil {
			return fail("%s: %v", key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	for _, k := range []string{"system", "scene", "iteration", "q", "v"} {
		if !seen[k] {
			return fail("missing %q", k)
		}
	}
	return s, nil
}

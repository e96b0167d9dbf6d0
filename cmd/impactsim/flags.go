package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"

	"impactsim/output"
)

// newFlags returns a FlagSet that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args, allowing positional arguments before and after flags,
// and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpRequest{fs}
			}
			// the flag package's `invalid value "X" for flag -name: why`
			// told as `--name: why` (why quotes the value)
			if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
				return nil, badInput("%s: --%s: %s", fs.Name(), m[1], m[2])
			}
			return nil, badInput("%s: %v", fs.Name(), err)
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

var invalidValue = regexp.MustCompile(`^invalid value ".*" for flag -([^:]+): (.*)$`)

// optFloat is a flag.Value for an optional float64.
type optFloat struct{ v *float64 }

func (o *optFloat) String() string {
	if o.v == nil {
		return ""
	}
	return fmt.Sprint(*o.v)
}

func (o *optFloat) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("expected a number, got %q", s)
	}
	o.v = &x
	return nil
}

// progress returns a progress bar on w for total units, or a silent one
// when quiet is set.
func progress(w io.Writer, quiet bool, total float64, label string) *output.Progress {
	if quiet {
		return output.NewProgress(io.Discard, total, "")
	}
	return output.NewProgress(w, total, label)
}

// startCPUProfile starts a CPU profile into path (if not empty) and
// returns the function that stops it.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := createFile(path)
	if err != nil {
		return nil, usageError{err}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// countFlag is an integer flag with the range it accepts. A value outside
// it is refused when the flags are parsed (exit status 2, one line), so no
// command starts with a count it cannot hold in time or memory; with
// bytesEach set, a count whose memory (bytesEach per item) exceeds this
// machine's physical memory is refused with both figures. Every integer
// flag of every command is a countFlag (TestEveryCommandHelp).
type countFlag struct {
	v         *int
	min, max  int
	bytesEach float64 // memory per counted item (0: not checked)
	noun      string  // what is counted, for the memory message
}

func (c *countFlag) String() string {
	if c.v == nil {
		return "0"
	}
	return strconv.Itoa(*c.v)
}

func (c *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < c.min || n > c.max {
		return fmt.Errorf("expected an integer from %d to %d, got %q", c.min, c.max, s)
	}
	if c.bytesEach > 0 {
		need := c.bytesEach * float64(n)
		if mem, ok := physicalMemory(); ok && need > mem {
			return fmt.Errorf("%d %s would need about %s of memory (%s per %s); this machine has %s",
				n, c.noun+"s", fmtBytes(need), fmtBytes(c.bytesEach), c.noun, fmtBytes(mem))
		}
	}
	*c.v = n
	return nil
}

// count defines an integer flag that accepts min…max (see countFlag).
func count(fs *flag.FlagSet, name string, def, min, max int, usage string) *int {
	p := new(int)
	countVar(fs, p, name, def, min, max, usage)
	return p
}

// countVar is count storing into p.
func countVar(fs *flag.FlagSet, p *int, name string, def, min, max int, usage string) {
	*p = def
	fs.Var(&countFlag{v: p, min: min, max: max}, name, fmt.Sprintf("%s (%d…%d)", usage, min, max))
}

// countMemory is count with a memory check: bytesEach per noun.
func countMemory(fs *flag.FlagSet, name string, def, min, max int, bytesEach float64, noun, usage string) *int {
	p := new(int)
	*p = def
	fs.Var(&countFlag{v: p, min: min, max: max, bytesEach: bytesEach, noun: noun}, name,
		fmt.Sprintf("%s (%d…%d; about %s per %s)", usage, min, max, fmtBytes(bytesEach), noun))
	return p
}

// maxWorkers bounds every --workers flag: goroutines beyond it only cost
// memory (each has its own buffers) on any machine of today.
const maxWorkers = 1024

// physicalMemory returns the machine's physical memory (MemTotal of
// /proc/meminfo); ok is false where it cannot be read.
func physicalMemory() (bytes float64, ok bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			return kb * 1024, err == nil && kb > 0
		}
	}
	return 0, false
}

// fmtBytes prints 895 B, 1.2 GB.
func fmtBytes(b float64) string {
	for _, u := range []string{"B", "kB", "MB", "GB", "TB", "PB"} {
		if b < 1000 || u == "PB" {
			if u == "B" {
				return fmt.Sprintf("%.0f B", b)
			}
			return fmt.Sprintf("%.3g %s", b, u)
		}
		b /= 1000
	}
	return ""
}

// outDir is where the commands put what they write when given a bare
// file name, as run directories default to out/NAME: nothing lands in the
// working directory (the repository root, for README's commands).
const outDir = "out"

// fileFlag is a flag naming a file. For a file the command writes
// (out), a bare name (no directory) means outDir/NAME; for a file it reads
// (!out), a bare name not found in the working directory is looked up in
// outDir, where an earlier command wrote it.
type fileFlag struct {
	v   *string
	out bool
}

func (f *fileFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f *fileFlag) Set(s string) error {
	*f.v = s
	if s == "" || filepath.Dir(s) != "." || filepath.IsAbs(s) {
		return nil
	}
	under := filepath.Join(outDir, s)
	if f.out {
		*f.v = under
	} else if _, err := os.Stat(s); err != nil {
		if _, err := os.Stat(under); err == nil {
			*f.v = under
		}
	}
	return nil
}

// outFile defines a flag naming a file the command writes (see fileFlag).
func outFile(fs *flag.FlagSet, name, usage string) *string {
	p := new(string)
	fs.Var(&fileFlag{v: p, out: true}, name, usage+" (a bare file name goes under out/)")
	return p
}

// inFile defines a flag naming a file the command reads (see fileFlag).
func inFile(fs *flag.FlagSet, name, usage string) *string {
	p := new(string)
	fs.Var(&fileFlag{v: p}, name, usage+" (a bare file name not in the working directory is looked up under out/)")
	return p
}

// createFile creates path and its directory.
func createFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}

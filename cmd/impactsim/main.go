// Command impactsim simulates rigid bodies whose motion is dominated by
// collisions, with the multi-impact operators of Smith et al. 2012 and
// their baselines. Run `impactsim help` for the subcommands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// usageError marks bad input (scene, flags, options): exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitStatus ends a command with a status and no message of its own: an
// MPI rank whose error another rank reports.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr, commandTable())
		return 2
	}
	err := dispatch(args, stdout, stderr)
	if err == nil {
		return 0
	}
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	fmt.Fprintf(stderr, "impactsim: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

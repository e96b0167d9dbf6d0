//go:build unix

package domain

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time (user + system): the benchmarks'
// cpu-ns/op, steadier than wall time on a shared machine.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

package mpi

import (
	"os"
	"os/exec"
	"strconv"
)

// JobSize is the number of ranks mpirun started this process among, 0
// when it was not started by mpirun. A pure-Go build started on several
// ranks must refuse to run (each process would run the whole job).
func JobSize() int { return launchedSize() }

// launchedSize is the job size mpirun announced in the environment (Open
// MPI's OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE), 0 when not launched by it.
func launchedSize() int {
	for _, k := range []string{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"} {
		if n, err := strconv.Atoi(os.Getenv(k)); err == nil {
			return n
		}
	}
	return 0
}

// Mpirun returns the path of mpirun, or "" when it is not installed.
func Mpirun() string {
	p, _ := exec.LookPath("mpirun")
	return p
}

// Command returns the command running exe with args on np ranks of this
// machine under mpirun, oversubscribed (more ranks than cores allowed),
// with extra environment variables env (KEY=VALUE). Open MPI refuses to run
// as root without its two confirmation variables; they are set when the
// user is root.
func Command(np int, env []string, exe string, args ...string) *exec.Cmd {
	a := []string{"-np", strconv.Itoa(np), "--oversubscribe"}
	for _, e := range env {
		a = append(a, "-x", e)
	}
	cmd := exec.Command(Mpirun(), append(append(a, exe), args...)...)
	cmd.Env = append(os.Environ(), env...)
	if os.Geteuid() == 0 {
		cmd.Env = append(cmd.Env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	}
	return cmd
}

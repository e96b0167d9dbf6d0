package mpi

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	MainScenario(scenarios)
	os.Exit(m.Run())
}

// SkipWithoutMPI skips a test of real MPI ranks unless the binary was built
// with the binding (-tags mpi, cgo) and mpirun is installed.
func skipWithoutMPI(t *testing.T) {
	t.Helper()
	if !Enabled {
		t.Skip("MPI tests skipped: built without the MPI binding; run CGO_ENABLED=1 go test -tags mpi ./mpi ./domain")
	}
	if Mpirun() == "" {
		t.Skip("MPI tests skipped: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)")
	}
}

// The scenarios on 1, 2 and 4 MPI ranks (oversubscribed).
func TestMPIScenarios(t *testing.T) {
	skipWithoutMPI(t)
	for _, name := range []string{"ring", "halo", "allreduce", "cartshift"} {
		for _, np := range []int{1, 2, 4} {
			out, err := LaunchScenario(np, name)
			if err != nil {
				t.Errorf("%s on %d ranks: %v\n%s", name, np, err, out)
				continue
			}
			for r := 0; r < np; r++ {
				if !strings.Contains(string(out), fmt.Sprintf("rank %d of %d: ok", r, np)) {
					t.Errorf("%s on %d ranks: rank %d did not report ok:\n%s", name, np, r, out)
				}
			}
		}
	}
}

// A rank that fails makes the job fail, and the output names it.
func TestMPIFailureNamesRank(t *testing.T) {
	skipWithoutMPI(t)
	out, err := LaunchScenario(3, "fail1")
	if err == nil {
		t.Fatalf("job with a failing rank succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "rank 1 of 3") || !strings.Contains(string(out), "rank 1 gives up") {
		t.Fatalf("output does not name rank 1:\n%s", out)
	}
}

// Sendrecv timings between two MPI ranks (logged with -v; nothing
// asserted): CGO_ENABLED=1 go test -tags mpi ./mpi -run PingPong -v
func TestMPIPingPong(t *testing.T) {
	skipWithoutMPI(t)
	out, err := LaunchScenario(2, "pingpong")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("\n%s", out)
}

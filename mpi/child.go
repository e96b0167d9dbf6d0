package mpi

import (
	"fmt"
	"os"
)

// ScenarioEnv names the scenario that a process LaunchScenario started
// runs (MainScenario).
const ScenarioEnv = "IMPACTSIM_MPI_SCENARIO"

// MainScenario is for a test binary's TestMain, before m.Run (on the main
// goroutine, as the MPI binding requires): in a process that LaunchScenario
// started under mpirun it initialises MPI, runs the scenario named by
// ScenarioEnv on the world communicator, prints "rank R of N: ok" and
// exits with status 0, or prints the error and exits with 1 (the other
// ranks are aborted through MPI_Abort, so the job fails naming the rank).
// Without ScenarioEnv it returns at once.
func MainScenario(scenarios map[string]func(Comm) error) {
	name := os.Getenv(ScenarioEnv)
	if name == "" {
		return
	}
	f, ok := scenarios[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "mpi: unknown scenario %q\n", name)
		os.Exit(2)
	}
	c, err := Init()
	if err == nil && JobSize() > 1 && c.Size() == 1 {
		err = fmt.Errorf("launched on %d ranks but built without MPI (-tags mpi, cgo)", launchedSize())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := f(c); err != nil {
		if c.Size() > 1 {
			c.Abort(1, fmt.Sprintf("scenario %s: %v", name, err))
		}
		fmt.Fprintf(os.Stderr, "rank %d of %d: scenario %s: %v\n", c.Rank(), c.Size(), name, err)
		os.Exit(1)
	}
	if err := Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("rank %d of %d: ok\n", c.Rank(), c.Size())
	os.Exit(0)
}

// LaunchScenario runs this test binary (os.Args[0]) on np oversubscribed
// ranks under mpirun with the scenario name in ScenarioEnv and returns the
// combined output; its TestMain must call MainScenario.
func LaunchScenario(np int, name string) ([]byte, error) {
	cmd := Command(np, []string{ScenarioEnv + "=" + name}, os.Args[0], "-test.run=^$")
	return cmd.CombinedOutput()
}

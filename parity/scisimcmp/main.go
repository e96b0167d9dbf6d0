// Command scisimcmp runs SCISim's program and impactsim side by side on
// SCISim scenes and prints the relative difference of their final q and v
// (parity.Compare), for scenes outside the parity table:
//
//	go run ./parity/scisimcmp -scisim SCISIM_BUILD_DIR SYSTEM END SCENE...
//
// SYSTEM is ball2d, rigidbody2d or rigidbody3d; END the time both programs
// run to. Lines start with OK (≤ 1e-9) or BAD.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"

	"impactsim/parity"
)

func main() {
	dir := flag.String("scisim", "/work/scisim/build/build", "SCISim build directory")
	flag.Parse()
	if flag.NArg() < 3 {
		fmt.Fprintln(os.Stderr, "usage: scisimcmp [-scisim DIR] SYSTEM END SCENE...")
		os.Exit(2)
	}
	system := flag.Arg(0)
	end, err := strconv.ParseFloat(flag.Arg(1), 64)
	if err != nil || !(end > 0) {
		fmt.Fprintf(os.Stderr, "scisimcmp: END: expected a positive time, got %q\n", flag.Arg(1))
		os.Exit(2)
	}
	status := 0
	for _, path := range flag.Args()[2:] {
		if err := compare(*dir, system, path, end); err != nil {
			fmt.Printf("%s: %v\n", path, err)
			status = 1
		}
	}
	os.Exit(status)
}

func compare(dir, system, path string, end float64) error {
	run, cleanup, _, err := parity.MUMPSCopy(path)
	if err != nil {
		return err
	}
	defer cleanup()
	ref, warnings, err := parity.RunSCISim(dir, system, run, end, parity.SceneDt(system, path))
	if err != nil {
		return fmt.Errorf("SCISim: %v", err)
	}
	got, err := parity.Simulate(system, path, ref.Iteration)
	if err != nil {
		return fmt.Errorf("impactsim: %v", err)
	}
	d := parity.Compare(ref, got)
	flag := "OK "
	if !(d.Max() <= 1e-9) || math.IsNaN(d.Max()) {
		flag = "BAD"
	}
	fmt.Printf("%s %s t=%g steps=%d scisim-warnings=%d %v\n", flag, path, ref.Time, ref.Iteration, len(warnings), d)
	return nil
}

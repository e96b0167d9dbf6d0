package desiderata_test

import (
	"fmt"

	"impactsim/desiderata"
	"impactsim/impact"
)

// Table 1 of Smith et al. 2012, measured: which desiderata each operator
// keeps on Newton's cradle and Bernoulli's problem (and WAV against the
// Hertz chain). Only the marks are printed; the numbers behind them are in
// desiderata.Row.
func Example() {
	names := []string{"BRK", "SYM", "KIN", "MOM", "ONE", "WAV"}
	for _, name := range []string{"gr", "lcp", "gauss_seidel", "jacobi"} {
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			panic(err)
		}
		row, err := desiderata.Measure(op)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-12s", name)
		for i, ok := range row.Holds() {
			if !ok {
				fmt.Printf(" no-%s", names[i])
			}
		}
		fmt.Println()
	}
	// Output:
	// gr           no-WAV
	// lcp          no-BRK no-WAV
	// gauss_seidel no-SYM
	// jacobi       no-KIN no-WAV
}

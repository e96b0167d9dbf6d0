package main

import (
	"io"

	"impactsim/desiderata"
	"impactsim/impact"
)

func cmdDesiderata(args []string, stdout, _ io.Writer) error {
	pos, err := parse(newFlags("desiderata"), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("desiderata takes no arguments")
	}
	var rows []desiderata.Row
	for _, name := range []string{"gr", "grr", "lcp", "gauss_seidel", "jacobi", "qce", "qce_lcp"} {
		op, err := impact.New(impact.Config{Name: name})
		if err != nil {
			return err
		}
		row, err := desiderata.Measure(op)
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	desiderata.WriteTable(stdout, rows)
	return nil
}

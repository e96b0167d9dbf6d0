package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"impactsim/mpi"
	"impactsim/par"
)

// Under mpirun no rank builds the whole layer: on 2 and 4 goroutine
// ranks (setupPatternsMPI, the mpirun path) each rank's layer holds only
// the spheres its subdomain owns — the parts add up to N and the largest
// is near N/ranks, not N — for a fresh layer and for --resume (the rank
// reads its part of the file). Counts, not times.
func TestPatternsRanksBuildTheirPartOnly(t *testing.T) {
	var o patternOpts
	fs := newFlags("patterns")
	o.register(fs, "all")
	if err := fs.Parse([]string{"--pattern", "hexagons", "--n", "3600"}); err != nil {
		t.Fatal(err)
	}
	pts, err := o.points("patterns")
	if err != nil {
		t.Fatal(err)
	}
	one, err := o.layer("patterns", pts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(t.TempDir(), "layer.state")
	var buf bytes.Buffer
	if err := one.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ck, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, resume := range []string{"", ck} {
		for _, np := range []int{2, 4} {
			built := make([]int, np)
			err := mpi.RunLocal(np, func(c mpi.Comm) error {
				pool := par.New(1)
				defer pool.Close()
				y, _, _, err := setupPatternsMPI(c, &o, pts, patternsRun{resume: resume}, pool, io.Discard)
				if err != nil {
					return err
				}
				built[c.Rank()] = y.Sys.N()
				return nil
			})
			if err != nil {
				t.Fatalf("resume %q, %d ranks: %v", resume, np, err)
			}
			sum, most := 0, 0
			for _, n := range built {
				sum += n
				most = max(most, n)
			}
			t.Logf("resume %q, %d ranks: spheres built per rank %v (N = %d)", resume, np, built, o.n)
			if sum != o.n || float64(most) > 1.2*float64(o.n)/float64(np) {
				t.Errorf("resume %q, %d ranks: the ranks built %v spheres; want N = %d together and at most 1.2 N/%d each", resume, np, built, o.n, np)
			}
		}
	}
}

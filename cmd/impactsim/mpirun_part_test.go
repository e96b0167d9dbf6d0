package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"impactsim/ball2d"
	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/scene"
)

// writeGasScene writes DrumGrid's gas of n balls as a SCISim scene file
// (GR at c = 1; numbers written so they read back exactly).
func writeGasScene(t *testing.T, n int) string {
	t.Helper()
	sc := scene.DrumGrid(n, "gas", 1)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var b bytes.Buffer
	b.WriteString("<ball2d_scene>\n  <integrator type=\"verlet\" dt=\"0.01\"/>\n")
	b.WriteString("  <impact_operator type=\"gr\" CoR=\"1.0\" v_tol=\"1.0e-9\" cache_impulses=\"0\">\n    <solver name=\"ipopt\" linear_solvers=\"ma97\" tol=\"1.0e-12\"/>\n  </impact_operator>\n")
	for _, d := range sc.Drums {
		fmt.Fprintf(&b, "  <static_drum x=\"%s\" y=\"%s\" r=\"%s\"/>\n", g(d.X), g(d.Y), g(d.R))
	}
	for _, l := range sc.Balls {
		fmt.Fprintf(&b, "  <ball x=\"%s\" y=\"%s\" vx=\"%s\" vy=\"%s\" m=\"%s\" r=\"%s\" fixed=\"0\"/>\n", g(l.X), g(l.Y), g(l.VX), g(l.VY), g(l.M), g(l.R))
	}
	b.WriteString("</ball2d_scene>\n")
	path := filepath.Join(t.TempDir(), fmt.Sprintf("gas%d.xml", n))
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Under mpirun, ranks other than 0 read a scene file in parts: on 2 and 4
// goroutine ranks (setupMPI and domain.NewPart, the mpirun path) rank 0
// builds the whole system (its driver's) and every other rank only the
// balls its subdomain owns — near N/ranks, not N (counts) — and the
// split equals the whole system's (domain.New) ball for ball.
func TestRunRanksBuildTheirPartOnly(t *testing.T) {
	const n = 1000
	path := writeGasScene(t, n)
	for _, np := range []int{2, 4} {
		built := make([]int, np)
		err := mpi.RunLocal(np, func(c mpi.Comm) error {
			rc := &runConfig{sceneArg: path}
			su, err := setupMPI(c, rc)
			if err != nil {
				return err
			}
			b, err := domain.NewPart(c, su.n, su.cfg, su.build)
			if err != nil {
				return err
			}
			built[c.Rank()] = su.r.Sys.N()
			// the whole system split as before, for comparison
			whole, err := scene.LoadBall2D(path)
			if err != nil {
				return err
			}
			sys, err := ball2d.FromScene(whole)
			if err != nil {
				return err
			}
			cfg := su.cfg
			cfg.NewLaw = su.cfg.NewLaw
			a, err := domain.New(c, sys, cfg)
			if err != nil {
				return err
			}
			ia, pa, va, _ := a.Owned()
			ib, pb, vb, _ := b.Owned()
			if fmt.Sprint(ia, pa, va) != fmt.Sprint(ib, pb, vb) {
				return fmt.Errorf("rank %d: the part's balls differ from the whole system's split", c.Rank())
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%d ranks: %v", np, err)
		}
		t.Logf("%d ranks: balls built per rank %v (N = %d; rank 0 drives the run with the whole system)", np, built, n)
		if built[0] != n {
			t.Errorf("%d ranks: rank 0 built %d balls, want the whole %d", np, built[0], n)
		}
		for r := 1; r < np; r++ {
			if float64(built[r]) > 1.3*n/float64(np) {
				t.Errorf("%d ranks: rank %d built %d balls, want about N/%d = %d", np, r, built[r], np, n/np)
			}
		}
	}
}

// mpirun -np N impactsim run SCENEFILE (ranks other than 0 read their
// part of the file) writes one process's trajectory.csv byte for byte and
// its energies to rounding, on 2 and 4 ranks.
func TestMPIRunSceneFileInParts(t *testing.T) {
	skipWithoutMPI(t)
	path := writeGasScene(t, 1000)
	args := []string{"run", path, "--end", "1", "--quiet", "--frames", "5"}
	one, traj := oneProcessRun(t, args)
	for _, np := range []int{2, 4} {
		checkMPIRun(t, np, args, one, traj)
	}
}

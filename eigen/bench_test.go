package eigen_test

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"impactsim/eigen"
	"impactsim/par"
	"impactsim/rigid3d"
)

// TestBunnyScale is a measurement, not a check: the bunny meshed at
// IMPACTSIM_EIGEN_CELLS cells, IMPACTSIM_EIGEN_MODES modes (default 45),
// IMPACTSIM_EIGEN_WORKERS workers; it logs sizes, times and memory.
func TestBunnyScale(t *testing.T) {
	cells, _ := strconv.Atoi(os.Getenv("IMPACTSIM_EIGEN_CELLS"))
	if cells == 0 {
		t.Skip("set IMPACTSIM_EIGEN_CELLS")
	}
	modes := 45
	if s := os.Getenv("IMPACTSIM_EIGEN_MODES"); s != "" {
		modes, _ = strconv.Atoi(s)
	}
	workers, _ := strconv.Atoi(os.Getenv("IMPACTSIM_EIGEN_WORKERS"))
	basis, _ := strconv.Atoi(os.Getenv("IMPACTSIM_EIGEN_BASIS"))
	block, _ := strconv.Atoi(os.Getenv("IMPACTSIM_EIGEN_BLOCK"))
	tol, _ := strconv.ParseFloat(os.Getenv("IMPACTSIM_EIGEN_TOL"), 64)
	f, err := os.Open("../../shared/meshes/bunny.obj")
	if err != nil {
		t.Skip(err)
	}
	vs, fs, err := rigid3d.ReadOBJ(f, "bunny.obj")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	md := model(t, vs, fs, cells)
	t.Logf("mesh + assembly: %d vertices, %d tets, %d dof, %v", len(md.Mesh.V), len(md.Mesh.T), md.N, time.Since(t0))
	pool := par.New(workers)
	defer pool.Close()
	runtime.GC()
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t1 := time.Now()
	res, err := eigen.Solve(pencil(md), eigen.Options{Modes: modes, Deflate: rigidModes(md), Pool: pool, MaxBasis: basis, Block: block, Tol: tol})
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("solve %v (factor %v, nnz(L) %d, iterations %v): %d solves, %d restarts, basis %d, residual %.2g, orth %.2g; total alloc %.0f MB, sys %.0f MB; f1 %.1f Hz f%d %.1f Hz",
		time.Since(t1), res.FactorTime, res.FactorNNZ, res.IterationTime, res.Solves, res.Restarts, res.Basis, res.Residual, res.Orthonormality,
		float64(ms.TotalAlloc-ms0.TotalAlloc)/1e6, float64(ms.Sys)/1e6, sqrtHz(res.Values[0]), modes, sqrtHz(res.Values[modes-1]))
}

func sqrtHz(l float64) float64 { return math.Sqrt(l) / (2 * math.Pi) }

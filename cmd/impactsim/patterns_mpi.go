package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/output"
	"impactsim/par"
	"impactsim/patterns"
	"impactsim/spheres"
)

// patternsMPIOperators are the impact operators `patterns` runs across
// ranks (with --friction alg3): the ones whose across-ranks results were
// compared with one process (TestMPIPatterns, domain's tests).
var patternsMPIOperators = []string{"gr", "grr", "lcp"}

// patternsRun is one `patterns` run's settings besides the layer flags.
type patternsRun struct {
	cycles, every float64
	out           string
	quiet         bool
	save, resume  string
}

// patternsMPI is `patterns` as one rank of an mpirun job: every rank
// builds the layer (or reads --resume) and keeps the spheres of its
// subdomain of the periodic cell (domain.Spheres, a grid of ranks over x
// and y); every step the floor's pose and velocity (spheres.Plane.Follow)
// go to every rank's local system (domain.Spheres.SetPlane) and the
// ranks take one step of Alg. 4 together, islands crossing subdomains
// solved exactly on rank 0. At each sample and at the end the state is
// gathered to rank 0, which writes what one process writes (series.csv,
// the pictures, --save-state). Bad input is refused on every rank before
// anything is written (exit status 2, one message).
func patternsMPI(o *patternOpts, pts []patterns.Point, pr patternsRun, stdout, stderr io.Writer) error {
	world, err := mpi.Init()
	if err != nil {
		return err
	}
	pool := par.New(o.workers)
	defer pool.Close()
	warn := io.Discard
	if world.Rank() == 0 {
		warn = stderr
	}
	y, d, dims, setupErr := setupPatternsMPI(world, o, pts, pr, pool, warn)
	if err := agree(world, setupErr, stderr); err != nil {
		return err
	}
	fail := func(err error) error {
		world.Abort(1, err.Error()) // does not return
		return err
	}
	y.Remote = &layerRanks{d: d, rank: world.Rank()}
	ro := patterns.RunOptions{Cycles: pr.cycles, SampleEvery: pr.every}
	dir := ""
	if world.Rank() == 0 {
		dir = filepath.Join(pr.out, pts[0].Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fail(err)
		}
		ro.Dir = dir
		if !pr.quiet {
			ro.Progress = stderr
			lx, ly := y.Cfg.Sides()
			fmt.Fprintf(stderr, "impactsim: %d ranks, subdomains %d × %d of the periodic cell %.4g × %.4g m\n", world.Size(), dims[0], dims[1], lx, ly)
		}
		if pr.save != "" {
			ro.Checkpoint = func() error { return output.WriteAtomic(pr.save, y.WriteState) }
		}
	}
	res, err := y.Run(ro)
	if err != nil {
		return fail(err)
	}
	if world.Rank() == 0 {
		printPatternRun(stdout, y, res, dir)
	}
	return mpi.Finalize()
}

// setupPatternsMPI is one rank's set-up of patternsMPI: the refusals, the
// layer and its decomposition. Errors are bad input.
func setupPatternsMPI(world mpi.Comm, o *patternOpts, pts []patterns.Point, pr patternsRun, pool *par.Pool, warn io.Writer) (*patterns.Layer, *domain.Spheres, [3]int, error) {
	if len(pts) != 1 {
		return nil, nil, [3]int{}, badInput("patterns: under mpirun, one --pattern (hexagons, squares or stripes), got %q", o.pattern)
	}
	if o.corr.Mode == "on" {
		return nil, nil, [3]int{}, badInput("patterns: under mpirun: position correction is not decomposed across ranks; add --position-correction off")
	}
	if o.friction != "alg3" || !slices.Contains(patternsMPIOperators, o.operator) {
		return nil, nil, [3]int{}, badInput("patterns: under mpirun: --operator %s --friction %s is not run across ranks; use --friction alg3 with --operator gr, grr or lcp", o.operator, o.friction)
	}
	y, err := o.layer("patterns", pts[0], warn)
	if err != nil {
		return nil, nil, [3]int{}, err
	}
	if err := resumeLayer("patterns", y, pr.resume); err != nil {
		return nil, nil, [3]int{}, err
	}
	s := *y.Sys
	for i, id := range s.ID {
		if id != int64(i) {
			return nil, nil, [3]int{}, badInput("patterns: under mpirun: sphere %d has ID %d; the spheres must be in ID order (a state written by an mpirun run or a fresh layer)", i, id)
		}
	}
	// The decomposition's periodic images replace the system's own.
	s.Periodic = spheres.Periodic{}
	lx, ly := y.Cfg.Sides()
	top := 0.0
	for i := 0; i < s.N(); i++ {
		top = max(top, s.X[3*i+2])
	}
	dims := mpi.DimsCreate(world.Size(), 2)
	if (ly > lx) != (dims[1] > dims[0]) {
		dims[0], dims[1] = dims[1], dims[0]
	}
	cfg := domain.SpheresConfig{
		Lo:       [3]float64{0, 0, -y.Cfg.Amplitude() - y.Cfg.Sigma},
		Hi:       [3]float64{lx, ly, math.Max(top, 0) + y.Cfg.Sigma},
		Dims:     [3]int{dims[0], dims[1], 1},
		Periodic: [2]bool{true, true},
		H:        y.Cfg.H,
		Law:      y.Cfg.Law(),
		Pool:     pool,
	}
	d, err := domain.NewSpheres(world, &s, cfg)
	if err != nil {
		return nil, nil, [3]int{}, usageError{fmt.Errorf("patterns: under mpirun: %w", err)}
	}
	return y, d, cfg.Dims, nil
}

// layerRanks is patterns.Remote for a layer split over ranks.
type layerRanks struct {
	d    *domain.Spheres
	rank int
}

func (r *layerRanks) Step(floor spheres.Plane) error {
	if err := r.d.SetPlane(0, floor); err != nil {
		return err
	}
	return r.d.Step()
}

func (r *layerRanks) Sync(sys *spheres.System) (bool, error) {
	return r.rank == 0, r.d.GatherState(0, sys)
}

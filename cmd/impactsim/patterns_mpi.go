package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

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
	t0 := time.Now()
	y, d, dims, setupErr := setupPatternsMPI(world, o, pts, pr, pool, warn)
	if errors.Is(setupErr, domain.ErrOtherRank) {
		// Not this rank's fault: the rank whose part failed reports.
		setupErr = nil
	}
	if err := agree(world, setupErr, stderr); err != nil {
		return err
	}
	fail := func(err error) error {
		world.Abort(1, err.Error()) // does not return
		return err
	}
	// The set-up's time (the slowest rank's) and every rank's peak
	// resident set after it.
	setup := []float64{time.Since(t0).Seconds(), 0}
	if err := world.Allreduce(setup[:1], setup[1:], mpi.Max); err != nil {
		return fail(err)
	}
	rssSetup, err := rankPeakRSS(world)
	if err != nil {
		return fail(err)
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
			fmt.Fprintf(stderr, "impactsim: %d ranks, subdomains %d × %d of the periodic cell %.4g × %.4g m; set-up %.3f s (each rank built its own spheres only)\n", world.Size(), dims[0], dims[1], lx, ly, setup[1])
		}
		if pr.save != "" {
			ro.Checkpoint = func() error { return output.WriteAtomic(pr.save, y.WriteState) }
		}
	}
	res, err := y.Run(ro)
	if err != nil {
		return fail(err)
	}
	rssEnd, err := rankPeakRSS(world)
	if err != nil {
		return fail(err)
	}
	if world.Rank() == 0 {
		printPatternRun(stdout, y, res, dir)
		fmt.Fprintf(stdout, "set-up     %.3f s (slowest rank)\n", setup[1])
		fmt.Fprintf(stdout, "peak RSS   per rank after set-up %s MiB; at the end %s MiB (rank 0 holds the gathered layer from the first sample on)\n", mibList(rssSetup), mibList(rssEnd))
	}
	if err := d.Report(stdout); err != nil {
		return fail(err)
	}
	return mpi.Finalize()
}

// setupPatternsMPI is one rank's set-up of patternsMPI: the refusals, the
// rank's part of the layer and its decomposition (collective). No rank
// builds the whole layer: each generates only the spheres its subdomain
// owns (patterns.NewPart: New's spheres there, bit for bit) or reads only
// those of the --resume file (patterns.Layer.ReadStatePart), and
// domain.NewSpheresPart checks that the parts make the whole layer. The
// returned layer holds the rank's part; on rank 0 the first Sync makes
// it the whole layer (the gathered state for the samples and files).
// Errors are bad input.
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
	c, err := o.config("patterns", pts[0], warn, world.Size())
	if err != nil {
		return nil, nil, [3]int{}, err
	}
	lx, ly := c.Sides()
	dims := mpi.DimsCreate(world.Size(), 2)
	if (ly > lx) != (dims[1] > dims[0]) {
		dims[0], dims[1] = dims[1], dims[0]
	}
	// One subdomain along z owns every height (centres outside [Lo, Hi]
	// belong to the nearest subdomain), so the z bounds only describe the
	// layer: from below the floor's lowest position to the lattice's top.
	cfg := domain.SpheresConfig{
		Lo:       [3]float64{0, 0, -c.Amplitude() - c.Sigma},
		Hi:       [3]float64{lx, ly, c.LatticeTop() + c.Sigma},
		Dims:     [3]int{dims[0], dims[1], 1},
		Periodic: [2]bool{true, true},
		H:        c.H,
		Law:      c.Law(),
		Pool:     pool,
	}
	var y *patterns.Layer
	d, err := domain.NewSpheresPart(world, c.N, cfg, func(owns func(x [3]float64) bool) (*spheres.System, error) {
		keep := owns
		if pr.resume != "" {
			keep = func([3]float64) bool { return false }
		}
		var err error
		if y, err = patterns.NewPart(c, keep); err != nil {
			return nil, usageError{fmt.Errorf("patterns: %w", err)}
		}
		if err := resumeLayerPart("patterns", y, pr.resume, owns); err != nil {
			return nil, err
		}
		// The decomposition's periodic images replace the system's own.
		s := *y.Sys
		s.Periodic = spheres.Periodic{}
		return &s, nil
	})
	if err != nil {
		var ue usageError
		if !errors.As(err, &ue) {
			err = usageError{fmt.Errorf("patterns: under mpirun: %w", err)}
		}
		return nil, nil, [3]int{}, err
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

// rankPeakRSS returns on every rank each rank's peak resident set size
// (VmHWM, bytes; 0 where unknown) so far (collective).
func rankPeakRSS(world mpi.Comm) ([]float64, error) {
	mine := make([]float64, world.Size())
	mine[world.Rank()], _ = peakRSSBytes()
	all := make([]float64, world.Size())
	err := world.Allreduce(mine, all, mpi.Sum)
	return all, err
}

// mibList formats byte counts as "a / b / …" in MiB.
func mibList(b []float64) string {
	s := ""
	for i, v := range b {
		if i > 0 {
			s += " / "
		}
		s += fmt.Sprintf("%.1f", v/(1<<20))
	}
	return s
}

package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"impactsim/ball2d"
	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/output"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/sim"
)

// underMpirun reports whether cmd (`run`, `patterns`) was started by mpirun on several
// ranks and must run as one rank of a distributed job. A job of one rank
// has nothing to split: it runs the one-process path (the same states,
// bitwise, without the decomposition's own work and without initialising
// MPI). A pure-Go build started on several ranks is refused (every
// process would run the whole job and write the same files).
func underMpirun(cmd string) (bool, error) {
	n := mpi.JobSize()
	if n <= 1 {
		return false, nil
	}
	if !mpi.Enabled {
		return false, badInput("%s: started by mpirun on %d ranks, but this impactsim was built without MPI (build it with CGO_ENABLED=1 go build -tags mpi ./cmd/impactsim)", cmd, n)
	}
	return true, nil
}

// runMPI is `run` as one rank of an mpirun job (ball2d scenes): every rank
// reads the scene and keeps the balls of its subdomain (package domain);
// rank 0 drives the run with the same driver as one process
// (runner.Distributed): energy.csv from reductions after every step,
// trajectory.csv from the state gathered at its frames (and checkpoints)
// only, and with --vtk every rank writes its own piece of each frame
// (vtk/frame_NNNNN_rRRRR.vtp) while rank 0 writes the index
// (vtk/frame_NNNNN.pvtp, listed in vtk/trajectory.pvd). Bad input is refused before anything is written (exit
// status 2, one message); a rank that fails during the run aborts the job
// with a line naming it.
func runMPI(c *runConfig, stdout, stderr io.Writer) error {
	world, err := mpi.Init()
	if err != nil {
		return err
	}
	r, cfg, start, setupErr := setupMPI(world, c)
	// Every rank sets up alone (a file one node cannot read must not leave
	// the others waiting in a collective), then all agree: the lowest rank
	// that failed reports, every rank exits with status 2 and writes
	// nothing.
	if err := agree(world, setupErr, stderr); err != nil {
		return err
	}
	b, err := domain.New(world, start, cfg)
	if err != nil {
		err = fmt.Errorf("run: %s: %w", c.sceneArg, err)
	}
	if err := agree(world, err, stderr); err != nil {
		return err
	}
	b.N = r.Stepper.N
	fail := func(err error) error {
		if world.Size() > 1 {
			world.Abort(1, err.Error()) // does not return
		}
		return err
	}
	n := r.Sys.N()
	if c.vtk {
		dir := filepath.Join(c.out, "vtk")
		b.OnFrame = func(k int) error {
			ids, pos, vel, rad := b.Owned()
			return output.WriteVTP(filepath.Join(dir, output.PieceFile(k, world.Rank())), pos, pieceFields(ids, vel, rad), output.VTKBinary)
		}
	}
	if world.Rank() != 0 {
		if err := b.Follow(n); err != nil {
			return fail(err)
		}
		if err := b.Report(io.Discard); err != nil {
			return fail(err)
		}
		return mpi.Finalize()
	}
	if world.Size() > 1 && !c.quiet {
		fmt.Fprintf(stderr, "impactsim: %d ranks, subdomains %d × %d over [%.4g, %.4g] × [%.4g, %.4g]\n",
			world.Size(), cfg.Dims[0], cfg.Dims[1], cfg.Lo[0], cfg.Hi[0], cfg.Lo[1], cfg.Hi[1])
	}
	b.Attach(r.Stepper, n)
	runErr := runAndReport(&distributedBalls{System: runner.Ball2D(r), r: r, b: b, n0: b.N, ranks: world.Size()}, c, stdout, stderr)
	if err := b.Stop(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil && world.Size() > 1 {
		return fail(runErr)
	}
	if err := b.Report(stdout); err != nil {
		return fail(err)
	}
	if err := mpi.Finalize(); runErr == nil {
		runErr = err
	}
	return runErr
}

// setupMPI is one rank's set-up of runMPI: the scene, the system, the
// decomposition's configuration and the starting state (the scene's, or
// the checkpoint's, which holds the whole system's state whatever the
// number of ranks that wrote it). Errors are bad input.
func setupMPI(world mpi.Comm, c *runConfig) (*scenario.Ball2D, domain.Config, *ball2d.System, error) {
	var cfg domain.Config
	sc, name, err := loadScene(c.sceneArg)
	if err != nil {
		return nil, cfg, nil, err
	}
	r, err := scenario.NewBall2D(sc, c.opts)
	if err != nil {
		return nil, cfg, nil, usageError{err}
	}
	if r.Stepper.Correction() != nil {
		return nil, cfg, nil, badInput("run: %s: position correction is not decomposed across ranks; add --position-correction off", c.sceneArg)
	}
	if c.out == "" {
		c.out = filepath.Join("out", name)
	}
	if c.end == 0 {
		c.end = sc.EndTime
	}
	if c.end == 0 {
		c.end = 1
	}
	cfg = domain.Config{NewLaw: func() (sim.ContactLaw, error) { return r.Stepper.Law, nil }, Pool: r.Pool}
	cfg.Lo, cfg.Hi = region(r)
	d := mpi.DimsCreate(world.Size(), 2)
	if cfg.Hi[1]-cfg.Lo[1] > cfg.Hi[0]-cfg.Lo[0] {
		d[0], d[1] = d[1], d[0]
	}
	cfg.Dims = [2]int{d[0], d[1]}
	start := *r.Sys
	if c.resume != "" {
		if err := readStateAs("run", r.Stepper, c.resume, runner.Ball2D(r).Info().Scene); err != nil {
			return nil, cfg, nil, err
		}
		start.Q, start.V = r.Stepper.Q, r.Stepper.V
	}
	return r, cfg, &start, nil
}

// agree is a collective check of a step every rank took: nil when no rank
// failed; otherwise the lowest failing rank writes its error to stderr
// (one message), every rank waits for that, finalizes MPI and exits with
// status 2 (bad input) without a message of its own.
func agree(world mpi.Comm, err error, stderr io.Writer) error {
	me := float64(world.Size())
	if err != nil {
		me = float64(world.Rank())
	}
	first := []float64{0}
	if e := world.Allreduce([]float64{me}, first, mpi.Min); e != nil {
		return e
	}
	if int(first[0]) == world.Size() {
		return nil
	}
	if int(first[0]) == world.Rank() {
		if world.Size() > 1 {
			fmt.Fprintf(stderr, "impactsim: rank %d of %d: %v\n", world.Rank(), world.Size(), err)
		} else {
			fmt.Fprintf(stderr, "impactsim: %v\n", err)
		}
	}
	// The others must not exit (and have mpirun end the job) before the
	// message is out.
	world.Barrier()
	mpi.Finalize()
	return exitStatus(2)
}

// region is the decomposed region of a ball scene: the box of the balls'
// centres and the drums, grown by the largest radius.
func region(r *scenario.Ball2D) (lo, hi [2]float64) {
	s := r.Sys
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	rmax := 0.0
	add := func(x, y, e float64) {
		lo[0], lo[1] = min(lo[0], x-e), min(lo[1], y-e)
		hi[0], hi[1] = max(hi[0], x+e), max(hi[1], y+e)
	}
	for i := range s.M {
		add(s.Q[2*i], s.Q[2*i+1], 0)
		rmax = max(rmax, s.R[i])
	}
	for _, d := range s.Drums {
		add(d.C[0], d.C[1], d.R)
	}
	for k := 0; k < 2; k++ {
		lo[k] -= rmax
		hi[k] += rmax
		if !(hi[k] > lo[k]) {
			lo[k], hi[k] = lo[k]-1, hi[k]+1
		}
	}
	return lo, hi
}

// distributedBalls is a ball scene run across ranks as rank 0's driver
// sees it (runner.Distributed): the state lives on the ranks, the
// stepper's Q and V hold it after Sync.
type distributedBalls struct {
	runner.System
	r      *scenario.Ball2D
	b      *domain.Balls
	n0     int // the step the run started from
	ranks  int
	frames int // VTK frames written
}

// Observe returns the reductions of the last step (the stepper's own
// state before the first).
func (d *distributedBalls) Observe(p []float64) (ke, pe float64) {
	if d.b.N == d.n0 {
		st := d.r.Stepper
		d.System.Momentum(p, st.V)
		return d.System.Energy(st.Q, st.V)
	}
	o := &d.b.Observed
	copy(p, o.Momentum[:])
	return o.Kinetic, o.Potential
}

func (d *distributedBalls) Sync() error { return d.b.Sync(d.r.Stepper, d.r.Sys.N()) }

// WriteVTK writes frame name as pieces, one per rank, and their index
// (name with .pvtp for .vtp), once every rank wrote its piece.
func (d *distributedBalls) WriteVTK(pvd *output.PVDWriter, name string, t float64, _, _ []float64) error {
	k := d.frames
	if err := d.b.Frame(k); err != nil {
		return err
	}
	d.frames++
	pieces := make([]string, d.ranks)
	for r := range pieces {
		pieces[r] = output.PieceFile(k, r)
	}
	ids, _, vel, rad := d.b.Owned()
	return pvd.AddPVTP(t, strings.TrimSuffix(name, ".vtp")+".pvtp", pieceFields(ids, vel, rad), pieces)
}

func (d *distributedBalls) Close() { d.r.Close() }

// pieceFields are the point arrays of a rank's VTK piece: those of a
// one-process frame (radius, velocity) and the balls' global ids.
func pieceFields(ids []float64, vel [][3]float64, r []float64) []output.PointField {
	if vel == nil {
		vel = [][3]float64{} // a vector field also when the rank holds no ball
	}
	return []output.PointField{output.ScalarField(output.RadiusField, r), output.VectorField("velocity", vel), output.ScalarField("id", ids)}
}

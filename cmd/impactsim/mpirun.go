package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"impactsim/ball2d"
	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/output"
	"impactsim/runner"
	"impactsim/scenario"
	"impactsim/scene"
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
	su, setupErr := setupMPI(world, c)
	// Every rank sets up alone (a file one node cannot read must not leave
	// the others waiting in a collective), then all agree: the lowest rank
	// that failed reports, every rank exits with status 2 and writes
	// nothing.
	if err := agree(world, setupErr, stderr); err != nil {
		return err
	}
	cfg := su.cfg
	b, err := domain.NewPart(world, su.n, cfg, su.build)
	if errors.Is(err, domain.ErrOtherRank) {
		err = nil // the rank whose part failed reports
	} else if err != nil {
		err = fmt.Errorf("run: %s: %w", c.sceneArg, err)
	}
	if err := agree(world, err, stderr); err != nil {
		return err
	}
	r := su.r
	if su.cfg.Pool == nil && r.Pool != nil {
		b.SetPool(r.Pool) // a part's pool came with its scenario
	}
	b.N = r.Stepper.N
	fail := func(err error) error {
		if world.Size() > 1 {
			world.Abort(1, err.Error()) // does not return
		}
		return err
	}
	n := su.n
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

// mpiSetup is one rank's set-up of runMPI: the decomposition's
// configuration, the whole system's ball count, and the builder of the
// rank's part (domain.NewPart), which leaves the rank's scenario in r.
type mpiSetup struct {
	r     *scenario.Ball2D
	cfg   domain.Config
	n     int
	build func(owns func(x [2]float64) bool) (*ball2d.System, []int64, error)
}

// setupMPI is one rank's set-up of runMPI: the scene, the decomposition's
// configuration and the builder of the rank's part. Rank 0, which drives
// the run with the one-process driver, builds the whole system (and reads
// --resume: sim's checkpoint holds the whole system's state whatever the
// number of ranks that wrote it). Every other rank, given a scene file,
// builds only its own balls: it reads the file twice as a stream
// (scene.ReadBall2DPart), first keeping no ball (the region: the box of
// the centres and drums), then keeping the balls its subdomain owns, and
// builds its scenario from those (their global ids are their indices in
// the file); its memory is its part's. Built-in scenes (generated whole),
// scenes with motions or scripts, and --resume make every rank build the
// whole system, as before. Errors are bad input.
func setupMPI(world mpi.Comm, c *runConfig) (*mpiSetup, error) {
	if world.Rank() != 0 && c.resume == "" && !strings.HasPrefix(c.sceneArg, "builtin:") {
		su, err := setupMPIPart(c, world.Size())
		if err == nil || !errors.Is(err, errWholeScene) {
			return su, err
		}
	}
	sc, name, err := loadScene(c.sceneArg)
	if err != nil {
		return nil, err
	}
	r, err := scenario.NewBall2D(sc, c.opts)
	if err != nil {
		return nil, usageError{err}
	}
	// Neither the correction nor ball2d's mirror order (package domain
	// builds its problems in the detection's order) runs across ranks;
	// both are on by default for the built-in scenes with gravity.
	switch corr, mirror := r.Stepper.Correction() != nil, r.Sys.MirrorOrder; {
	case corr && mirror:
		return nil, badInput("run: %s: position correction and the mirror-invariant contact order are not decomposed across ranks; add --position-correction off --mirror-order off", c.sceneArg)
	case corr:
		return nil, badInput("run: %s: position correction is not decomposed across ranks; add --position-correction off", c.sceneArg)
	case mirror:
		return nil, badInput("run: %s: the mirror-invariant contact order is not decomposed across ranks; add --mirror-order off", c.sceneArg)
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
	su := &mpiSetup{r: r, n: r.Sys.N()}
	lo, hi := region(r.Sys.Q, r.Sys.R, r.Sys.Drums)
	su.cfg = mpiConfig(world.Size(), lo, hi, r)
	start := *r.Sys
	if c.resume != "" {
		if err := readStateAs("run", r.Stepper, c.resume, runner.Ball2D(r).Info().Scene); err != nil {
			return nil, err
		}
		start.Q, start.V = r.Stepper.Q, r.Stepper.V
	}
	su.build = func(func(x [2]float64) bool) (*ball2d.System, []int64, error) { return &start, nil, nil }
	return su, nil
}

// errWholeScene: the scene cannot be read in parts (motions, scripts);
// the rank reads it whole.
var errWholeScene = errors.New("the scene is read whole")

// setupMPIPart is setupMPI on a rank other than 0 for a scene file: two
// streaming passes (scene.ReadBall2DPart), the first for the region, the
// second, in the builder, keeping the rank's own balls.
func setupMPIPart(c *runConfig, ranks int) (*mpiSetup, error) {
	read := func(keep func(id int, b *scene.Ball) bool) (*scene.Ball2DScene, error) {
		f, err := os.Open(c.sceneArg)
		if err != nil {
			return nil, badInput("run: %v", err)
		}
		defer f.Close()
		sc, err := scene.ReadBall2DPart(f, c.sceneArg, keep)
		if err != nil {
			if sc == nil && (strings.Contains(err.Error(), "<motion>") || strings.Contains(err.Error(), "<scripting>")) {
				return nil, errWholeScene
			}
			return nil, usageError{err}
		}
		return sc, nil
	}
	// First pass: the region, from every ball's centre and radius as they
	// stream by (none kept).
	var q, rad []float64
	var lo, hi [2]float64
	rmax := 0.0
	first := true
	sc, err := read(func(_ int, b *scene.Ball) bool {
		q, rad = append(q[:0], b.X, b.Y), append(rad[:0], b.R)
		if first {
			lo, hi, first = [2]float64{b.X, b.Y}, [2]float64{b.X, b.Y}, false
		}
		lo = [2]float64{min(lo[0], b.X), min(lo[1], b.Y)}
		hi = [2]float64{max(hi[0], b.X), max(hi[1], b.Y)}
		rmax = max(rmax, b.R)
		return false
	})
	if err != nil {
		return nil, err
	}
	drums := make([]ball2d.Drum, len(sc.Drums))
	for i, d := range sc.Drums {
		drums[i] = ball2d.Drum{C: [2]float64{d.X, d.Y}, R: d.R}
	}
	// region over the box's corners (the same extremes as over every
	// ball) and the largest radius
	if first {
		q, rad = nil, nil
	} else {
		q, rad = []float64{lo[0], lo[1], hi[0], hi[1]}, []float64{rmax, rmax}
	}
	su := &mpiSetup{n: sc.NBalls}
	if c.end == 0 {
		c.end = sc.EndTime
	}
	if c.end == 0 {
		c.end = 1
	}
	rlo, rhi := region(q, rad, drums)
	su.cfg = mpiConfig(ranks, rlo, rhi, nil)
	su.cfg.NewLaw = func() (sim.ContactLaw, error) { return su.r.Stepper.Law, nil }
	su.build = func(owns func(x [2]float64) bool) (*ball2d.System, []int64, error) {
		part, err := read(func(_ int, b *scene.Ball) bool { return owns([2]float64{b.X, b.Y}) })
		if err != nil {
			return nil, nil, err
		}
		r, err := scenario.NewBall2D(part, c.opts)
		if err != nil {
			return nil, nil, usageError{err}
		}
		su.r = r
		ids := make([]int64, len(part.BallIDs))
		for i, id := range part.BallIDs {
			ids[i] = int64(id)
		}
		return r.Sys, ids, nil
	}
	return su, nil
}

// mpiConfig is the decomposition of the region [lo, hi] over ranks (more
// cuts along the longer side), with r's law and pool when r is given.
func mpiConfig(ranks int, lo, hi [2]float64, r *scenario.Ball2D) domain.Config {
	cfg := domain.Config{Lo: lo, Hi: hi}
	if r != nil {
		cfg.NewLaw = func() (sim.ContactLaw, error) { return r.Stepper.Law, nil }
		cfg.Pool = r.Pool
	}
	d := mpi.DimsCreate(ranks, 2)
	if cfg.Hi[1]-cfg.Lo[1] > cfg.Hi[0]-cfg.Lo[0] {
		d[0], d[1] = d[1], d[0]
	}
	cfg.Dims = [2]int{d[0], d[1]}
	return cfg
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
// centres (q: x, y per ball) and the drums, grown by the largest radius.
func region(q, rad []float64, drums []ball2d.Drum) (lo, hi [2]float64) {
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	rmax := 0.0
	add := func(x, y, e float64) {
		lo[0], lo[1] = min(lo[0], x-e), min(lo[1], y-e)
		hi[0], hi[1] = max(hi[0], x+e), max(hi[1], y+e)
	}
	for i := range rad {
		add(q[2*i], q[2*i+1], 0)
		rmax = max(rmax, rad[i])
	}
	for _, d := range drums {
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

package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"impactsim/channelflow"
	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/output"
	"impactsim/par"
)

// channelMPIOpts are the flags of `channel` and `bench channel` across
// MPI ranks: the flow is split over the ranks (channelflow.Distribute)
// under mpirun on more than one rank, or on one rank when --mpi-sweeps is
// given (the decomposed path in one process: the same numbers as any
// rank count in colour mode).
type channelMPIOpts struct {
	sweeps string
	blocks string
	grid   string
	mode   domain.Sweeps
	bl     [3]int
	dims   [3]int
}

func (m *channelMPIOpts) register(fs *flag.FlagSet) {
	fs.StringVar(&m.sweeps, "mpi-sweeps", "", "distributed NBGS across MPI ranks: `colours|pe`; colours (the default under mpirun) gives bitwise the same flow on any number of ranks, pe is waLBerla pe's relaxed exchange; given without mpirun, the decomposed path runs on one rank")
	fs.StringVar(&m.grid, "dims", "", "subdomains `NX,NY,NZ` across MPI ranks, their product the number of ranks (default: the ranks over x and y, the longer side getting more, one along z)")
	fs.StringVar(&m.blocks, "blocks", "", "colour blocks `NX,NY,NZ` of --mpi-sweeps colours, each a multiple of the ranks along it and 1 or even (default: blocks at least 5 radii wide, multiples of 4)")
}

// init starts MPI when the flow runs across ranks and returns the world
// (nil: one process, the plain path).
func (m *channelMPIOpts) init(fs *flag.FlagSet) (mpi.Comm, error) {
	dist, err := underMpirun(fs.Name())
	if err != nil {
		return nil, err
	}
	if !dist && m.sweeps == "" {
		if m.blocks != "" || m.grid != "" {
			return nil, badInput("%s: --blocks and --dims are for the flow across MPI ranks (mpirun, or --mpi-sweeps)", fs.Name())
		}
		return nil, nil
	}
	return mpi.Init()
}

// check validates the MPI flags against the flow's configuration (bad
// input: every rank finds the same).
func (m *channelMPIOpts) check(fs *flag.FlagSet, c *channelflow.Config) error {
	if m.sweeps == "" && m.blocks == "" && !underMpirunNow() {
		return nil
	}
	switch m.sweeps {
	case "", "colours":
		m.mode = domain.Colours
	case "pe":
		m.mode = domain.PE
	default:
		return badInput("%s: --mpi-sweeps: expected colours or pe, got %q", fs.Name(), m.sweeps)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["domains"] {
		return badInput("%s: --domains is the one-process Gauss–Seidel/Jacobi blend; across MPI ranks the ranks are the domains (--mpi-sweeps pe) or the colour blocks are (--blocks)", fs.Name())
	}
	if m.blocks != "" {
		if m.mode != domain.Colours {
			return badInput("%s: --blocks is for --mpi-sweeps colours, got --mpi-sweeps %s", fs.Name(), m.sweeps)
		}
		var err error
		if m.bl, err = triple(fs.Name(), "blocks", m.blocks, true); err != nil {
			return err
		}
	}
	if m.grid != "" {
		var err error
		if m.dims, err = triple(fs.Name(), "dims", m.grid, false); err != nil {
			return err
		}
		if n := mpi.JobSize(); m.dims[0]*m.dims[1]*m.dims[2] != max(n, 1) {
			return badInput("%s: --dims %s: %d subdomains for %d ranks", fs.Name(), m.grid, m.dims[0]*m.dims[1]*m.dims[2], max(n, 1))
		}
	}
	return nil
}

// triple parses a flag's NX,NY,NZ counts (even: each 1 or even).
func triple(cmd, name, v string, even bool) ([3]int, error) {
	var t [3]int
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		return t, badInput("%s: --%s: expected NX,NY,NZ, got %q", cmd, name, v)
	}
	for d, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1<<20 || even && n > 1 && n%2 != 0 {
			want := "a count ≥ 1"
			if even {
				want = "1 or an even count"
			}
			return t, badInput("%s: --%s: %q along dimension %d: expected %s", cmd, name, p, d, want)
		}
		t[d] = n
	}
	return t, nil
}

// underMpirunNow reports whether the job has more than one rank.
func underMpirunNow() bool { return mpi.JobSize() > 1 }

// agree is the collective verdict on a set-up step under MPI (agree:
// one message, exit status 2 on every rank); in one process err itself.
func (m *channelMPIOpts) agree(world mpi.Comm, err error, stderr io.Writer) error {
	if world == nil {
		return err
	}
	return agree(world, err, stderr)
}

// distribute splits f over the ranks of world (nothing in one process).
func (m *channelMPIOpts) distribute(world mpi.Comm, f *channelflow.Flow, pool *par.Pool) error {
	if world == nil {
		return nil
	}
	if err := f.Distribute(world, channelflow.RanksConfig{Mode: m.mode, Blocks: m.bl, Dims: m.dims, Pool: pool}); err != nil {
		return usageError{fmt.Errorf("channel: across %d ranks: %w", world.Size(), err)}
	}
	return nil
}

// root reports whether this process writes the run's files.
func (m *channelMPIOpts) root(world mpi.Comm) bool { return world == nil || world.Rank() == 0 }

// fail ends a run that failed after set-up: across ranks the job is
// aborted with the message (a rank that failed alone must not leave the
// others waiting in a collective).
func (m *channelMPIOpts) fail(world mpi.Comm, err error) error {
	if world != nil && world.Size() > 1 {
		world.Abort(1, err.Error()) // does not return under MPI
	}
	return err
}

// finalize ends MPI (nothing in one process).
func (m *channelMPIOpts) finalize(world mpi.Comm) error {
	if world == nil {
		return nil
	}
	return mpi.Finalize()
}

// channelPieceFields are the point arrays of a rank's piece of a channel
// frame: those of a one-process frame (radius, velocity, omega) and the
// spheres' IDs.
func channelPieceFields(ids, r []float64, vel, om [][3]float64) []output.PointField {
	if vel == nil {
		vel, om = [][3]float64{}, [][3]float64{} // vector fields also when the rank holds no sphere
	}
	return []output.PointField{output.ScalarField("radius", r), output.VectorField("velocity", vel), output.VectorField("omega", om), output.ScalarField("id", ids)}
}

// writeChannelPieces writes frame k of a distributed flow (collective):
// every rank its spheres as vtk/frame_NNNNN_rRRRR.vtp, then, once every
// rank has, rank 0 the index vtk/frame_NNNNN.pvtp, listed in
// vtk/spheres.pvd at time t.
func writeChannelPieces(f *channelflow.Flow, world mpi.Comm, pvd *output.PVDWriter, k int, t float64) error {
	d := f.Ranks()
	ids, pos, vel, om, r := d.Owned()
	fields := channelPieceFields(ids, r, vel, om)
	err := output.WriteVTP(fmt.Sprintf("%s/%s", pvd.Dir(), output.PieceFile(k, world.Rank())), pos, fields, output.VTKBinary)
	if err := d.AllDone(err, fmt.Sprintf("VTK frame %d", k)); err != nil {
		return err
	}
	if world.Rank() != 0 {
		return nil
	}
	pieces := make([]string, world.Size())
	for i := range pieces {
		pieces[i] = output.PieceFile(k, i)
	}
	return pvd.AddPVTP(t, fmt.Sprintf("frame_%05d.pvtp", k), fields, pieces)
}

// channelRanksSummary is summary.json's "ranks" entry of a distributed
// flow: the grid and rank 0's communication per step (`bench channel`
// reports every rank's).
func channelRanksSummary(f *channelflow.Flow, world mpi.Comm) map[string]any {
	d := f.Ranks()
	t := &d.Total
	k := float64(max(t.Steps, 1))
	rc := f.RanksConfig()
	m := map[string]any{
		"ranks": world.Size(), "dims": rc.Dims, "sweeps": rc.Mode.String(),
		"rank0_bytes_sent_per_step": float64(t.BytesSent) / k, "rank0_comm_seconds_per_step": t.Comm.Seconds() / k,
		"rank0_step_seconds": t.Total.Seconds() / k, "rank0_ghosts_per_step": float64(t.Ghosts) / k,
	}
	if rc.Mode == domain.Colours {
		m["colour_blocks"] = rc.Blocks
	}
	return m
}

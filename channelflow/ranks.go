package channelflow

import (
	"fmt"
	"time"

	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/par"
	"impactsim/spheres"
)

// RanksConfig says how Distribute spreads a flow over the ranks of an MPI
// job.
type RanksConfig struct {
	// Dims is the grid of subdomains over x, y and z (the paper's run:
	// 16 × 10 × 4), its product the number of ranks; zero: mpi.DimsCreate
	// over x and y, the longer side getting more ranks, one along z.
	Dims [3]int
	// Mode chooses the distributed sweeps: domain.Colours (reproducible:
	// bitwise the same on any number of ranks) or domain.PE.
	Mode domain.Sweeps
	// Blocks is the colour blocks' grid (Colours); zero: DefaultBlocks.
	Blocks [3]int
	// Pool runs each rank's detection and drift on its workers.
	Pool *par.Pool
}

// DefaultBlocks is the colour blocks' grid of a channel: per dimension the
// largest multiple of 4 (else 2, else 1) of blocks at least 5 radii wide
// (the sweeps need more than twice the interaction halo 2r + h(2|v| +
// |V|): 4.2r at 2 m/s and the paper's step). It depends on the channel
// alone, so the sweeps are the same for 1, 2 and 4 ranks along a side.
func DefaultBlocks(c *Config) [3]int {
	var b [3]int
	for d, l := range [3]float64{c.Length, c.Width, c.Height} {
		n := int(l / (5 * c.Radius))
		switch {
		case n >= 4:
			b[d] = n / 4 * 4
		case n >= 2:
			b[d] = 2
		default:
			b[d] = 1
		}
	}
	return b
}

// ranks is a flow spread over the ranks of an MPI job.
type ranks struct {
	d      *domain.Spheres
	comm   mpi.Comm
	nextID int64 // the ID the next spawned sphere gets (as one process numbers them)
	n      int   // spheres on all ranks after the last step
	added  int   // spheres spawned in the current step (every rank counts all)
	census domain.Census
	rc     RanksConfig // as resolved (dims, blocks)
	drop   func(x *[3]float64, id int64) bool
}

// Distribute spreads the flow's spheres over the ranks of c (collective):
// every rank must hold the same flow (New with the same Config, or the
// same ReadState), and keeps the spheres whose centres lie in its
// subdomain of the channel [0, Length] × [0, Width] × [0, Height]. From
// then on Step is collective: the spheres move by distributed NBGS
// (package domain) and every rank applies the same inflow rule — the same
// random draws and IDs as one process — keeping only the new spheres of
// its subdomain, and deletes its own spheres past the outflow. Stats
// holds the whole flow's statistics on every rank (reductions); Sys is
// only brought up to date by Sync.
func (f *Flow) Distribute(c mpi.Comm, rc RanksConfig) error {
	cfg := &f.Cfg
	if rc.Dims == [3]int{} {
		d := mpi.DimsCreate(c.Size(), 2)
		if (cfg.Width > cfg.Length) != (d[1] > d[0]) {
			d[0], d[1] = d[1], d[0]
		}
		rc.Dims = [3]int{d[0], d[1], 1}
	}
	if rc.Dims[2] == 0 {
		rc.Dims[2] = 1
	}
	if p := rc.Dims[0] * rc.Dims[1] * rc.Dims[2]; p != c.Size() || min(rc.Dims[0], rc.Dims[1], rc.Dims[2]) < 1 {
		return fmt.Errorf("channelflow: a grid of %d × %d × %d subdomains for %d ranks", rc.Dims[0], rc.Dims[1], rc.Dims[2], c.Size())
	}
	nb := &domain.NBGSConfig{Law: cfg.Law, Mode: rc.Mode}
	if rc.Mode == domain.Colours {
		nb.Blocks = rc.Blocks
		if nb.Blocks == [3]int{} {
			nb.Blocks = DefaultBlocks(cfg)
		}
		for d := range nb.Blocks {
			if rc.Dims[d] < 1 || nb.Blocks[d]%rc.Dims[d] != 0 {
				return fmt.Errorf("channelflow: %d colour blocks along dimension %d are not a multiple of its %d ranks (blocks %v, ranks %v)", nb.Blocks[d], d, rc.Dims[d], nb.Blocks, rc.Dims)
			}
		}
	}
	sc := domain.SpheresConfig{
		Hi:      [3]float64{cfg.Length, cfg.Width, cfg.Height},
		Dims:    rc.Dims,
		H:       cfg.H,
		NBGS:    nb,
		Epsilon: cfg.Epsilon,
		Pool:    rc.Pool,
	}
	d, err := domain.NewSpheres(c, f.Sys, sc)
	if err != nil {
		return fmt.Errorf("channelflow: %w", err)
	}
	L := cfg.Length
	rc.Blocks = nb.Blocks
	f.ranks = &ranks{d: d, comm: c, nextID: f.Sys.NextID(), n: f.Sys.N(), rc: rc,
		drop: func(x *[3]float64, _ int64) bool { return x[0] > L }}
	return nil
}

// Ranks returns the flow's decomposition (nil for a flow in one process).
func (f *Flow) Ranks() *domain.Spheres {
	if f.ranks == nil {
		return nil
	}
	return f.ranks.d
}

// Dims returns the grid of subdomains of a distributed flow.
func (f *Flow) Dims() [3]int {
	if f.ranks == nil {
		return [3]int{1, 1, 1}
	}
	return f.ranks.rc.Dims
}

// RanksConfig returns a distributed flow's configuration as Distribute
// resolved it (grid of subdomains, sweeps, colour blocks).
func (f *Flow) RanksConfig() RanksConfig {
	if f.ranks == nil {
		return RanksConfig{}
	}
	return f.ranks.rc
}

// N returns the number of spheres of the whole flow.
func (f *Flow) N() int {
	if f.ranks == nil {
		return f.Sys.N()
	}
	return f.ranks.n
}

// Sync gathers a distributed flow's spheres into Sys on root, in ID order,
// with the planes and the next ID (collective); other ranks' Sys is left
// as it was. A flow in one process has nothing to do.
func (f *Flow) Sync(root int) error {
	if f.ranks == nil {
		return nil
	}
	if err := f.ranks.d.GatherSystem(root, f.Sys); err != nil {
		return fmt.Errorf("channelflow: %w", err)
	}
	f.Sys.SetNextID(f.ranks.nextID)
	return nil
}

// add adds a spawned sphere: to Sys in one process, to the rank that owns
// its centre otherwise (every rank draws and numbers every sphere).
func (f *Flow) add(p, v [3]float64) error {
	c := &f.Cfg
	if f.ranks == nil {
		f.Sys.Add(p, v, [3]float64{}, c.Radius, c.Density)
		return nil
	}
	r := f.ranks
	id := r.nextID
	r.nextID++
	r.added++
	_, err := r.d.AddSphere(id, p, v, [3]float64{}, c.Radius, c.Density)
	return err
}

// stepRanks is Step of a distributed flow (collective): the step across
// the ranks, the inflow (every rank), the outflow (each rank its own
// spheres), and the census: the whole flow's count must be the last one
// plus the spheres spawned minus those deleted (none lost or duplicated
// by migration), else the step's Err says so.
func (f *Flow) stepRanks() spheres.StepStats {
	var st spheres.StepStats
	r := f.ranks
	d := r.d
	if st.Err = d.Step(); st.Err != nil {
		return st
	}
	f.Steps++
	t1 := time.Now()
	r.added = 0
	if st.Err = f.inflow(); st.Err != nil {
		return st
	}
	d.RemoveSpheres(r.drop)
	cen, err := d.Census()
	if err != nil {
		st.Err = err
		return st
	}
	if want := r.n + r.added - cen.Removed; cen.Bodies != want {
		st.Err = fmt.Errorf("channelflow: step %d: the ranks hold %d spheres, want %d (%d before, %d spawned, %d deleted)", f.Steps, cen.Bodies, want, r.n, r.added, cen.Removed)
		return st
	}
	r.n, r.census = cen.Bodies, cen
	l := &d.Last
	st.Contacts, st.PairContacts = cen.Contacts, cen.Pairs
	st.MaxPenetration, st.MaxWallPenetration = cen.MaxPenetration, cen.MaxWallPenetration
	st.Law = l.Law
	st.Detect = l.Detect
	st.Solve = l.Total - l.Detect
	st.Integrate = time.Since(t1)
	return st
}

// kinetic is the whole flow's kinetic energy (collective under ranks).
func (f *Flow) kinetic() (float64, error) {
	if f.ranks == nil {
		return f.Sys.KineticEnergy(), nil
	}
	return f.ranks.d.KineticEnergy()
}

// inflowPlane returns plane 0 (the inflow), setPlane sets it.
func (f *Flow) inflowPlane() spheres.Plane {
	if f.ranks == nil {
		return f.Sys.Planes[0]
	}
	return f.ranks.d.Plane(0)
}

func (f *Flow) setInflowPlane(p spheres.Plane) error {
	if f.ranks == nil {
		f.Sys.Planes[0] = p
		return nil
	}
	return f.ranks.d.SetPlane(0, p)
}

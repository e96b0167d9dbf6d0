package channelflow

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"impactsim/domain"
	"impactsim/mpi"
	"impactsim/spheres"
)

// The distributed channel's tests run the tiny channel with its fill and
// inflow plane moved 3.5 steps short of a diameter downstream (a layer
// spawned at step 3, the next at step 97) and its outflow at 2.05 cm
// (the last fill layer, at 2.04 cm, leaves from step 10 on).

// early is that channel's configuration (newEarly moves the fill).
func early() Config {
	c := Tiny()
	c.Length = 0.0205
	return c
}

// newEarly builds the flow of cfg with its fill, obstacle and inflow
// plane moved downstream by 3.5 steps short of a diameter.
func newEarly(cfg Config) (*Flow, error) {
	f, err := New(cfg)
	if err != nil {
		return nil, err
	}
	shift := 2*cfg.Radius - 3.5*cfg.H*cfg.Speed
	f.Sys.Planes[0].P[0] = shift
	for i := 0; i < f.Sys.N(); i++ {
		f.Sys.X[3*i] += shift
	}
	// the obstacle moves with the fill
	f.Cfg.Obstacle.X += shift
	f.Sys.Cylinders[0].P[0] += shift
	f.Sys.Boxes[0].C[0] += shift
	return f, nil
}

// snapshot is a flow's spheres by ID: the IDs, and per sphere its radius,
// x, v, ω and q.
type snapshot struct {
	ids   []int64
	r     []float64
	state []float64 // 13 per sphere: x, v, ω, q
}

func snap(s *spheres.System) snapshot {
	idx := make([]int, s.N())
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(s.ID[a] - s.ID[b]) })
	var sn snapshot
	for _, i := range idx {
		sn.ids = append(sn.ids, s.ID[i])
		sn.r = append(sn.r, s.R[i])
		sn.state = append(sn.state, s.X[3*i:3*i+3]...)
		sn.state = append(sn.state, s.VW[6*i:6*i+6]...)
		sn.state = append(sn.state, s.Q[4*i:4*i+4]...)
	}
	return sn
}

// diff returns the largest differences of two snapshots' positions and
// velocities (v and rω, in velocity units), and an error when they hold
// different spheres.
func (a snapshot) diff(b snapshot) (dx, dv float64, err error) {
	if !slices.Equal(a.ids, b.ids) {
		return 0, 0, fmt.Errorf("%d spheres vs %d, or different IDs", len(a.ids), len(b.ids))
	}
	for i := range a.ids {
		p, q := a.state[13*i:13*i+13], b.state[13*i:13*i+13]
		for k := 0; k < 3; k++ {
			dx = math.Max(dx, math.Abs(p[k]-q[k]))
			dv = math.Max(dv, math.Abs(p[3+k]-q[3+k]))
			dv = math.Max(dv, a.r[i]*math.Abs(p[6+k]-q[6+k]))
		}
	}
	return dx, dv, nil
}

// identical reports whether two snapshots are bitwise the same.
func (a snapshot) identical(b snapshot) bool {
	return slices.Equal(a.ids, b.ids) && slices.Equal(a.state, b.state) && slices.Equal(a.r, b.r)
}

// oneProcess runs cfg in one process and returns a snapshot after every
// step (index k: after step k+1) and the steps' statistics.
func oneProcess(t testing.TB, cfg Config, steps int) ([]snapshot, []spheres.StepStats) {
	f, err := newEarly(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []snapshot
	var sts []spheres.StepStats
	for range steps {
		sts = append(sts, f.Step())
		out = append(out, snap(f.Sys))
	}
	return out, sts
}

// distributed runs cfg on the ranks of c and returns on rank 0 a snapshot
// after every step and the steps' statistics. Every step it checks that
// each sphere is held by exactly one rank and that their number is the
// census's (Step itself checks count = last count + spawned − deleted).
func distributed(c mpi.Comm, cfg Config, rc RanksConfig, steps int) ([]snapshot, []spheres.StepStats, error) {
	f, err := newEarly(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := f.Distribute(c, rc); err != nil {
		return nil, nil, err
	}
	var out []snapshot
	var sts []spheres.StepStats
	for k := range steps {
		st := f.Step()
		if st.Err != nil {
			return nil, nil, fmt.Errorf("step %d: %w", k+1, st.Err)
		}
		sts = append(sts, st)
		n, err := f.Ranks().CheckIDs()
		if err != nil {
			return nil, nil, err
		}
		if n != f.N() {
			return nil, nil, fmt.Errorf("step %d: %d IDs on the ranks, census %d", k+1, n, f.N())
		}
		if err := f.Sync(0); err != nil {
			return nil, nil, err
		}
		if c.Rank() == 0 {
			out = append(out, snap(f.Sys))
		}
	}
	return out, sts, nil
}

// onRanks runs distributed on np goroutine ranks and returns rank 0's
// results.
func onRanks(t *testing.T, np int, cfg Config, rc RanksConfig, steps int) ([]snapshot, []spheres.StepStats) {
	var got []snapshot
	var sts []spheres.StepStats
	err := mpi.RunLocal(np, func(c mpi.Comm) error {
		s, st, err := distributed(c, cfg, rc, steps)
		if c.Rank() == 0 {
			got, sts = s, st
		}
		return err
	})
	if err != nil {
		t.Fatalf("%v sweeps on %d ranks: %v", rc.Mode, np, err)
	}
	return got, sts
}

// TestChannelRanksColoursBitwise: the channel with the preset's sweeps
// (at most 10, tolerance 1e-6) in the reproducible colour mode on 1, 2 and
// 4 goroutine ranks — spheres spawned at the inflow (steps 3 and 97) and
// deleted at the outflow (from step 10) — is bitwise the same on every
// rank count at every one of 120 steps, and every step holds each sphere
// on exactly one rank (distributed; Step checks count = last count +
// spawned − deleted). (Against one process see
// TestChannelRanksAgainstOneProcess: with sweeps stopped at a cap the
// orders' results differ by more than rounding.)
func TestChannelRanksColoursBitwise(t *testing.T) {
	const steps = 120
	cfg := early()
	ref, sts := onRanks(t, 1, cfg, RanksConfig{Mode: domain.Colours}, steps)
	spawned, deleted := 0, 0
	for k := 1; k < steps; k++ {
		prev, now := ref[k-1].ids, ref[k].ids
		gone := countGone(prev, now)
		spawned += len(now) - len(prev) + gone
		deleted += gone
	}
	if spawned == 0 || deleted == 0 {
		t.Fatalf("%d spheres spawned and %d deleted in %d steps: the test proves nothing", spawned, deleted, steps)
	}
	for _, np := range []int{2, 4} {
		got, gsts := onRanks(t, np, cfg, RanksConfig{Mode: domain.Colours}, steps)
		for k := range ref {
			if !got[k].identical(ref[k]) {
				dx, dv, err := got[k].diff(ref[k])
				t.Fatalf("%d ranks, step %d: not bitwise one rank's: |Δx| %.3g, |Δv| %.3g, %v", np, k+1, dx, dv, err)
			}
			if gsts[k].Contacts != sts[k].Contacts || gsts[k].Law.Iterations != sts[k].Law.Iterations || gsts[k].MaxPenetration != sts[k].MaxPenetration {
				t.Fatalf("%d ranks, step %d: %d contacts, %d sweeps, penetration %v; one rank %d, %d, %v", np, k+1,
					gsts[k].Contacts, gsts[k].Law.Iterations, gsts[k].MaxPenetration, sts[k].Contacts, sts[k].Law.Iterations, sts[k].MaxPenetration)
			}
		}
	}
	t.Logf("colours on 1, 2, 4 ranks bitwise over %d steps: %d → %d spheres (%d spawned, %d deleted), %d contacts and %d sweeps at the last step",
		steps, len(ref[0].ids), len(ref[steps-1].ids), spawned, deleted, sts[steps-1].Contacts, sts[steps-1].Law.Iterations)
}

// countGone is the number of IDs of a not in b (both sorted).
func countGone(a, b []int64) int {
	n := 0
	for _, id := range a {
		if _, ok := slices.BinarySearch(b, id); !ok {
			n++
		}
	}
	return n
}

// TestChannelRanksAgainstOneProcess: with the sweeps converged (tolerance
// 1e-10, cap 2000), 40 steps of the channel on 2 and 4 goroutine ranks in
// both modes — a layer spawned at step 3, spheres deleted from step 10 —
// hold the one-process channel's spheres every step, with velocities (v
// and rω) within 100 tol and centres within 100 tol·h·k of it after step
// k: the sweep orders differ (colour blocks or rank domains against
// spheres.Step's), so convergence sets the difference.
func TestChannelRanksAgainstOneProcess(t *testing.T) {
	const steps = 40
	cfg := early()
	cfg.Law.Tol, cfg.Law.MaxIter = 1e-10, 2000
	tol := cfg.Law.Tol
	one, ones := oneProcess(t, cfg, steps)
	for _, mode := range []domain.Sweeps{domain.Colours, domain.PE} {
		for _, np := range []int{2, 4} {
			got, sts := onRanks(t, np, cfg, RanksConfig{Mode: mode}, steps)
			wx, wv := 0.0, 0.0
			for k := range one {
				if ones[k].Law.Capped > 0 || sts[k].Law.Capped > 0 {
					t.Fatalf("%v, %d ranks, step %d: sweeps capped (one process %d, ranks %d)", mode, np, k+1, ones[k].Law.Iterations, sts[k].Law.Iterations)
				}
				dx, dv, err := got[k].diff(one[k])
				if err != nil {
					t.Fatalf("%v, %d ranks, step %d: %v", mode, np, k+1, err)
				}
				if dv > 100*tol || dx > 100*tol*cfg.H*float64(k+1) {
					t.Fatalf("%v, %d ranks, step %d: |Δv| %.3g (%.3g tol), |Δx| %.3g from one process", mode, np, k+1, dv, dv/tol, dx)
				}
				wx, wv = max(wx, dx/(cfg.H*float64(k+1))), max(wv, dv)
			}
			t.Logf("%v, %d ranks: largest |Δv| %.3g = %.3g tol, largest |Δx|/(h k) %.3g = %.3g tol", mode, np, wv, wv/tol, wx, wx/tol)
		}
	}
}

// TestChannelRanksAlongZ: subdomains stacked along z too (as the paper's
// 16 × 10 × 4 grid): a 6 mm high channel with colour blocks 8 × 4 × 2 on
// 1 × 1 × 2 and 2 × 1 × 2 goroutine ranks equals one rank bitwise at
// every one of 60 steps (a layer spawned at step 3, deletions from step
// 10).
func TestChannelRanksAlongZ(t *testing.T) {
	const steps = 60
	cfg := early()
	cfg.Height = 0.006
	blocks := [3]int{8, 4, 2}
	ref, _ := onRanks(t, 1, cfg, RanksConfig{Mode: domain.Colours, Blocks: blocks}, steps)
	for _, dims := range [][3]int{{1, 1, 2}, {2, 1, 2}} {
		np := dims[0] * dims[1] * dims[2]
		got, _ := onRanks(t, np, cfg, RanksConfig{Mode: domain.Colours, Blocks: blocks, Dims: dims}, steps)
		for k := range ref {
			if !got[k].identical(ref[k]) {
				dx, dv, err := got[k].diff(ref[k])
				t.Fatalf("%v ranks, step %d: not bitwise one rank's: |Δx| %.3g, |Δv| %.3g, %v", dims, k+1, dx, dv, err)
			}
		}
	}
	t.Logf("%d → %d spheres over %d steps, bitwise on 1 × 1 × 2 and 2 × 1 × 2 ranks", len(ref[0].ids), len(ref[steps-1].ids), steps)
}

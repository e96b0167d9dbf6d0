package domain

import (
	"fmt"
	"math"
	"time"

	"impactsim/mpi"
	"impactsim/sim"
)

// Commands Root broadcasts to the other ranks (Follow) before each
// collective of a driven run.
const (
	cmdStop   = 0
	cmdStep   = 1 // take a step
	cmdGather = 2 // gather the state on Root
	cmdFrame  = 3 // write this rank's part of a frame (OnFrame)
	tagCmd    = 40
	tagObs    = 41
)

// Observed is the whole system's energies and momentum after a step,
// summed on Root from the ranks' partial sums (each rank sums its balls
// in global-id order, Root adds the ranks' sums in rank order): the same
// numbers for a given rank count on every run, equal to one process's
// (ball2d.System.KineticEnergy, PotentialEnergy, LinearMomentum, summed
// over all balls in id order) up to rounding (the order of the additions
// differs), bitwise on one rank.
type Observed struct {
	Kinetic, Potential float64
	Momentum           [2]float64
}

// Attach makes st — the stepper of the whole system on Root, as built from
// the scene — step the distributed system: st.External broadcasts "step",
// takes the step on every rank and fills st.Last (contacts of the whole
// system, the law's iterations, times) and b.Observed by reductions; the
// state is not gathered (Sync does that). A step after which some ball is
// not finite is undone on every rank and returned as a *sim.CheckError
// wrapping a *sim.NonFiniteError naming the ball. The other ranks run
// Follow meanwhile; Root ends them with Stop.
func (b *Balls) Attach(st *sim.Stepper, n int) {
	st.External = func(s *sim.Stepper) error {
		if _, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdStep}); err != nil {
			return err
		}
		nf, err := b.followStep(n)
		if err != nil {
			return err
		}
		if nf != nil {
			return &sim.CheckError{Step: s.N + 1, T: float64(s.N+1) * s.H, Err: nf}
		}
		s.N = b.N
		s.T = float64(b.N) * s.H
		s.Last = sim.StepStats{Contacts: b.contacts, Law: b.Last.Law, Impact: b.Last.Total}
		return nil
	}
}

// Sync gathers the state of all n balls into st.Q and st.V on Root (the
// other ranks take part in Follow).
func (b *Balls) Sync(st *sim.Stepper, n int) error {
	if _, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdGather}); err != nil {
		return err
	}
	q, v, err := b.timedGather(n)
	if err != nil {
		return err
	}
	copy(st.Q, q)
	copy(st.V, v)
	return nil
}

// Frame has every rank call b.OnFrame(k) (collective; Root calls Frame,
// the other ranks follow) and returns nil on Root once every rank's call
// succeeded, else an error naming the lowest failing rank.
func (b *Balls) Frame(k int) error {
	if _, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdFrame, float64(k)}); err != nil {
		return err
	}
	return b.frame(k)
}

func (b *Balls) frame(k int) error {
	var err error
	if b.OnFrame != nil {
		err = b.OnFrame(k)
	}
	return b.AllDone(err, fmt.Sprintf("frame %d", k))
}

func (b *Balls) timedGather(n int) (q, v []float64, err error) {
	t := time.Now()
	q, v, err = b.Gather(b.root, n)
	b.Total.Gather += time.Since(t)
	return q, v, err
}

// followStep takes one step and reduces its diagnostics: the ranks agree
// (Allreduce) on the first ball, by id and component, that is not finite
// — then every rank restores the state before the step and nf names it —
// and Root gets, in a fixed order, the ball count (checked: none lost or
// duplicated), the contacts of the whole system (each once), the law's
// iterations (the largest) and Observed.
func (b *Balls) followStep(n int) (nf *sim.NonFiniteError, err error) {
	b.syncOwn()
	b.prev = append(b.prev[:0], b.own...)
	if err := b.Step(); err != nil {
		return nil, err
	}
	b.syncOwn()
	g := b.m.tmpl.Gravity
	none := float64(4 * n)
	bad := none
	var ke, pe, px, py float64
	for i := range b.own {
		o := &b.own[i]
		for c, x := range [4]float64{o.x[0], o.x[1], o.p[0], o.p[1]} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				bad = min(bad, float64(4*o.gid)+float64(c))
			}
		}
		if o.fixed {
			continue
		}
		m, vx, vy := o.p[2], o.p[0], o.p[1]
		ke += 0.5 * m * (vx*vx + vy*vy)
		pe -= m * (g[0]*o.x[0] + g[1]*o.x[1])
		px += m * vx
		py += m * vy
	}
	first := []float64{0}
	if err := b.cart.Allreduce([]float64{bad}, first, mpi.Min); err != nil {
		return nil, err
	}
	if first[0] < none {
		code := int64(first[0])
		id, c := code/4, int(code%4)
		val := []float64{0}
		for i := range b.own {
			if o := &b.own[i]; o.gid == id {
				val[0] = [4]float64{o.x[0], o.x[1], o.p[0], o.p[1]}[c]
			}
		}
		if err := b.cart.Allreduce(val, val, mpi.Sum); err != nil {
			return nil, err
		}
		b.own = append(b.own[:0], b.prev...)
		b.reuse = false // the local system holds the undone step
		b.N--
		return &sim.NonFiniteError{Velocity: c >= 2, Index: int(2*id) + c%2, Value: val[0]}, nil
	}
	mine := []float64{float64(len(b.own)), float64(b.Last.Local + b.Last.Solved), float64(b.Last.Law.Iterations), ke, pe, px, py}
	rows, err := b.gatherAt(b.root, tagObs, mine)
	if err != nil || rows == nil {
		return nil, err
	}
	var count, contacts, iters int
	var o Observed
	for r, m := range rows {
		if len(m) != len(mine) {
			return nil, fmt.Errorf("domain: step %d: rank %d reported %d values, want %d", b.N, r, len(m), len(mine))
		}
		count += int(m[0])
		contacts += int(m[1])
		iters = max(iters, int(m[2]))
		o.Kinetic += m[3]
		o.Potential += m[4]
		o.Momentum[0] += m[5]
		o.Momentum[1] += m[6]
	}
	if count != n {
		return nil, fmt.Errorf("domain: after step %d the ranks hold %d balls, the system has %d", b.N, count, n)
	}
	b.contacts, b.Last.Law.Iterations, b.Observed = contacts, iters, o
	return nil, nil
}

// Follow is the loop of the ranks other than Root while Root's driver
// runs: step, gather the state or write a frame each time Root says so,
// until Stop.
func (b *Balls) Follow(n int) error {
	cmd := make([]float64, 2)
	for {
		var err error
		if cmd, err = mpi.Bcast(b.cart, b.root, tagCmd, cmd); err != nil {
			return err
		}
		if len(cmd) == 0 {
			return fmt.Errorf("domain: empty command from rank %d", b.root)
		}
		switch cmd[0] {
		case cmdStop:
			return nil
		case cmdStep:
			// A step that left a ball non-finite was undone; Root reports it.
			if _, err := b.followStep(n); err != nil {
				return err
			}
		case cmdGather:
			if _, _, err := b.timedGather(n); err != nil {
				return err
			}
		case cmdFrame:
			if len(cmd) != 2 {
				return fmt.Errorf("domain: frame command of %d values from rank %d", len(cmd), b.root)
			}
			if err := b.frame(int(cmd[1])); err != nil {
				return err
			}
		default:
			return fmt.Errorf("domain: unknown command %v from rank %d", cmd[0], b.root)
		}
	}
}

// Stop ends the other ranks' Follow (Root, after its driver returned).
func (b *Balls) Stop() error {
	_, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdStop})
	return err
}

// Owned returns this rank's balls in global-id order: ids (as float64,
// exact below 2⁵³), positions and velocities (z = 0) and radii, in slices
// reused by the next call.
func (b *Balls) Owned() (ids []float64, pos, vel [][3]float64, r []float64) {
	b.syncOwn()
	m := b.m
	k := len(b.own)
	m.oid, m.or = grow(m.oid, k), grow(m.or, k)
	if cap(m.opos) < k {
		m.opos, m.ovel = make([][3]float64, k), make([][3]float64, k)
	}
	m.opos, m.ovel = m.opos[:k], m.ovel[:k]
	for i := range b.own {
		o := &b.own[i]
		m.oid[i], m.or[i] = float64(o.gid), o.p[3]
		m.opos[i] = [3]float64{o.x[0], o.x[1], 0}
		m.ovel[i] = [3]float64{o.p[0], o.p[1], 0}
	}
	return m.oid, m.opos, m.ovel, m.or
}

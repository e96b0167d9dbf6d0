package domain

import (
	"fmt"
	"time"

	"impactsim/mpi"
	"impactsim/sim"
)

// Commands Root broadcasts to the other ranks (Follow) before each step.
const (
	cmdStop = 0
	cmdStep = 1
	tagCmd  = 40
)

// Attach makes st — the stepper of the whole system on Root, as built from
// the scene — step the distributed system: st.External broadcasts "step",
// takes the step on every rank, gathers the state into st.Q and st.V and
// fills st.Last (contacts of the whole system, the law's iterations,
// times), so that a driver of st (package runner: trajectory, energy,
// summary) writes the same files as in one process. The other ranks run
// Follow meanwhile; Root ends them with Stop.
func (b *Balls) Attach(st *sim.Stepper, n int) {
	st.External = func(s *sim.Stepper) error {
		if _, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdStep}); err != nil {
			return err
		}
		if err := b.followStep(n); err != nil {
			return err
		}
		t := time.Now()
		q, v, err := b.Gather(b.root, n)
		b.Total.Gather += time.Since(t)
		if err != nil {
			return err
		}
		copy(s.Q, q)
		copy(s.V, v)
		s.N = b.N
		s.T = float64(b.N) * s.H
		s.Last = sim.StepStats{Contacts: b.contacts, Law: b.Last.Law, Impact: b.Last.Total}
		return nil
	}
}

// followStep takes one step and checks the ball count; the contacts of the
// whole system (each once) are summed on every rank.
func (b *Balls) followStep(n int) error {
	if err := b.Step(); err != nil {
		return err
	}
	loc := []float64{float64(len(b.own)), float64(b.Last.Local + b.Last.Solved)}
	all := make([]float64, 2)
	if err := b.cart.Allreduce(loc, all, mpi.Sum); err != nil {
		return err
	}
	it := []float64{float64(b.Last.Law.Iterations)}
	if err := b.cart.Allreduce(it, it, mpi.Max); err != nil {
		return err
	}
	b.Last.Law.Iterations = int(it[0])
	if int(all[0]) != n {
		return fmt.Errorf("domain: after step %d the ranks hold %v balls, the system has %d", b.N, all[0], n)
	}
	b.contacts = int(all[1])
	return nil
}

// Follow is the loop of the ranks other than Root while Root's driver
// runs: step and report the state each time Root says so, until Stop.
func (b *Balls) Follow(n int) error {
	cmd := make([]float64, 1)
	for {
		var err error
		if cmd, err = mpi.Bcast(b.cart, b.root, tagCmd, cmd); err != nil {
			return err
		}
		if len(cmd) != 1 || cmd[0] == cmdStop {
			return nil
		}
		if err := b.followStep(n); err != nil {
			return err
		}
		t := time.Now()
		_, _, err = b.Gather(b.root, n)
		b.Total.Gather += time.Since(t)
		if err != nil {
			return err
		}
	}
}

// Stop ends the other ranks' Follow (Root, after its driver returned).
func (b *Balls) Stop() error {
	_, err := mpi.Bcast(b.cart, b.root, tagCmd, []float64{cmdStop})
	return err
}

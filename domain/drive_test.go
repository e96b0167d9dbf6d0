package domain

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"impactsim/ball2d"
	"impactsim/mech"
	"impactsim/mpi"
	"impactsim/sim"
)

// nanLaw is GR whose impulses turn NaN once there are contacts: the
// state after that step is not finite.
type nanLaw struct{ sim.ContactLaw }

func (l nanLaw) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	st, err := l.ContactLaw.Solve(p, lambda, beta)
	for i := range lambda {
		lambda[i] = math.NaN()
	}
	return st, err
}

// A driven run (Attach, Follow) across two ranks: after every step Root's
// Observed is the one-process energies and momentum of the gathered state
// (bitwise here: rank 0 holds balls 0 and 1, rank 1 ball 2, so the ranks'
// partial sums add up in id order), and the step whose impulses are NaN
// is refused on every rank with the ball named, the state before it
// restored and gathered by Sync. Also on one rank, whose owned balls lag
// its local system between steps (syncOwn).
func TestAttachObservesAndRefusesNonFinite(t *testing.T) {
	for _, np := range []int{1, 2} {
		attachObservesAndRefuses(t, np)
	}
}

func attachObservesAndRefuses(t *testing.T, np int) {
	sys := &ball2d.System{Dt: 0.01, CoR: 1, NoFrictionBasis: true, Gravity: [2]float64{0, -9.81}}
	sys.AddBall(0.5, 1, 0, 0.5, 1, 0.25, false)
	sys.AddBall(1.7, 1, 1, 0, 2, 0.25, false)
	sys.AddBall(2.3, 1, 0, 0.25, 3, 0.25, false)
	n := sys.N()
	cfg := Config{Hi: [2]float64{4, 2}, Dims: [2]int{np, 1}, NewLaw: func() (sim.ContactLaw, error) {
		l, err := grLaw()
		return nanLaw{l}, err
	}}
	err := mpi.RunLocal(np, func(c mpi.Comm) error {
		b, err := New(c, sys, cfg)
		if err != nil {
			return err
		}
		if c.Rank() != 0 {
			return b.Follow(n)
		}
		st := &sim.Stepper{H: sys.Dt, Q: append([]float64(nil), sys.Q...), V: append([]float64(nil), sys.V...)}
		b.Attach(st, n)
		defer b.Stop()
		for {
			err := st.Step()
			var ce *sim.CheckError
			var nf *sim.NonFiniteError
			if errors.As(err, &ce) && errors.As(err, &nf) {
				if ce.Step != st.N+1 || st.N < 5 || nf.Velocity || nf.Index != 2 {
					return fmt.Errorf("refused step %d at stepper step %d, %+v: want ball 1's x at the first contact", ce.Step, st.N, nf)
				}
				if err := b.Sync(st, n); err != nil {
					return err
				}
				if err := sim.CheckFinite(st.Q, st.V); err != nil {
					return fmt.Errorf("the restored state: %w", err)
				}
				if b.N != st.N {
					return fmt.Errorf("ranks at step %d, stepper at %d", b.N, st.N)
				}
				return nil
			}
			if err != nil {
				return err
			}
			if err := b.Sync(st, n); err != nil {
				return err
			}
			s := *sys
			s.Q, s.V = st.Q, st.V
			p := s.LinearMomentum(st.V)
			o := b.Observed
			if o.Kinetic != s.KineticEnergy(st.V) || o.Potential != s.PotentialEnergy(st.Q) || o.Momentum != p {
				return fmt.Errorf("step %d: observed %+v, one process %v %v %v", st.N, o, s.KineticEnergy(st.V), s.PotentialEnergy(st.Q), p)
			}
			if st.N > 100 {
				return fmt.Errorf("no contact in 100 steps")
			}
		}
	})
	if err != nil {
		t.Fatalf("%d ranks: %v", np, err)
	}
}

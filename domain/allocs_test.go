package domain

import (
	"fmt"
	"testing"

	"impactsim/mpi"
)

// TestOneRankStepAllocs: on one rank a steady step of the decomposition
// allocates nothing — balls (Alg. 4, GR), spheres (Alg. 4, GR + Alg. 3)
// and spheres with the distributed NBGS sweeps (both modes). (The laws
// grow their workspaces whenever a larger island appears, in one process
// as here; the scenes are gases, whose islands stop growing.)
func TestOneRankStepAllocs(t *testing.T) {
	type stepper interface{ Step() error }
	cases := []struct {
		name string
		make func(c mpi.Comm) (stepper, error)
	}{
		{"balls", func(c mpi.Comm) (stepper, error) {
			return New(c, gasBox(20, 10), Config{Hi: [2]float64{25, 12.5}, NewLaw: grLaw})
		}},
	}
	for _, mode := range []string{"gr", "colours", "pe"} {
		cases = append(cases, struct {
			name string
			make func(c mpi.Comm) (stepper, error)
		}{"spheres " + mode, func(c mpi.Comm) (stepper, error) {
			sys, hi := sphereGas(8, 4, 4)
			// no gravity: a gas, whose islands stay small, so that the
			// laws' workspaces stop growing
			sys.Gravity = [3]float64{}
			cfg := benchConfig(mode, hi)
			if cfg.NBGS != nil {
				cfg.NBGS.Blocks = [3]int{2, 2, 1}
			}
			return NewSpheres(c, sys, cfg)
		}})
	}
	// the channel's step on one rank: a sphere deleted and a new one
	// inserted every step (RemoveSpheres, AddSphere), and the census
	cases = append(cases, struct {
		name string
		make func(c mpi.Comm) (stepper, error)
	}{"spheres colours, insert and delete", func(c mpi.Comm) (stepper, error) {
		sys, hi := sphereGas(8, 4, 4)
		sys.Gravity = [3]float64{}
		cfg := benchConfig("colours", hi)
		cfg.NBGS.Blocks = [3]int{2, 2, 1}
		d, err := NewSpheres(c, sys, cfg)
		if err != nil {
			return nil, err
		}
		return &churn{d: d, next: int64(sys.N())}, nil
	}})
	for _, tc := range cases {
		err := mpi.RunLocal(1, func(c mpi.Comm) error {
			d, err := tc.make(c)
			if err != nil {
				return err
			}
			for range 150 { // the workspaces (the laws' too) reach their sizes
				if err := d.Step(); err != nil {
					return err
				}
			}
			var serr error
			a := testing.AllocsPerRun(20, func() {
				if err := d.Step(); err != nil && serr == nil {
					serr = err
				}
			})
			if serr != nil {
				return serr
			}
			if a != 0 {
				t.Errorf("%s: %v allocations per step on one rank, want 0", tc.name, a)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
}

// churn steps a distributed sphere system and then replaces its sphere of
// lowest ID by a new one at the same place (the next ID), as an inflow and
// an outflow would, and takes the census.
type churn struct {
	d    *Spheres
	next int64
	x    [3]float64
	r    float64
	lo   int64
	drop func(x *[3]float64, id int64) bool
}

func (c *churn) Step() error {
	if err := c.d.Step(); err != nil {
		return err
	}
	if c.drop == nil {
		c.drop = func(x *[3]float64, id int64) bool {
			if id == c.lo {
				c.x = *x
				return true
			}
			return false
		}
	}
	c.lo, c.r = c.d.own[0].gid, c.d.own[0].p[10]
	if c.d.RemoveSpheres(c.drop) != 1 {
		return fmt.Errorf("sphere %d not deleted", c.lo)
	}
	if ok, err := c.d.AddSphere(c.next, c.x, [3]float64{}, [3]float64{}, c.r, 1000); !ok || err != nil {
		return fmt.Errorf("sphere %d not inserted: %v", c.next, err)
	}
	c.next++
	_, err := c.d.Census()
	return err
}

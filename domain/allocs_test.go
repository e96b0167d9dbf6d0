package domain

import (
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

package domain

import (
	"fmt"

	"impactsim/friction"
)

// NBGSConfig configures the sweeps of a distributed NBGS step.
type NBGSConfig struct {
	Law friction.NBGS
}

func (c *NBGSConfig) check() error { return c.Law.Check() }

type nbgsWork struct{}

func (d *Spheres) stepNBGS() error { return fmt.Errorf("not yet") }

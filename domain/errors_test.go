package domain

import (
	"fmt"
	"strings"
	"testing"

	"impactsim/ball2d"
	"impactsim/mpi"
)

// What the decomposition cannot do is refused with a message saying why.
func TestRefusals(t *testing.T) {
	base := func() *ball2d.System { return boxScene(40, 1, true, true, 3) }
	cfg := Config{Hi: [2]float64{4, 2}, NewLaw: grLaw}
	cases := []struct {
		name string
		sys  func() *ball2d.System
		cfg  func() Config
		np   int
		want string
	}{
		{"portal", func() *ball2d.System {
			s := base()
			s.Portals = []ball2d.Portal{{}}
			return s
		}, func() Config { return cfg }, 1, "portals are not decomposed"},
		{"moving plane", func() *ball2d.System {
			s := base()
			s.Planes[0].V = [2]float64{0, 1}
			return s
		}, func() Config { return cfg }, 1, "plane 0 moves"},
		{"no law", base, func() Config { c := cfg; c.NewLaw = nil; return c }, 1, "NewLaw is nil"},
		{"empty region", base, func() Config { c := cfg; c.Hi[1] = 0; return c }, 1, "along dimension 1 is empty"},
		{"grid", base, func() Config { c := cfg; c.Dims = [2]int{3, 1}; return c }, 2, "hold 3 ranks, the communicator has 2"},
		// 8 subdomains of width 0.5 along x against a halo of 2·0.05 + 2h·v:
		// fine; 40 of width 0.1 are narrower than the halo.
		{"halo", base, func() Config { c := cfg; c.Dims = [2]int{40, 1}; return c }, 40, "exceeds the subdomain width"},
	}
	for _, tc := range cases {
		err := mpi.RunLocal(tc.np, func(c mpi.Comm) error {
			b, err := New(c, tc.sys(), tc.cfg())
			if err != nil {
				return err
			}
			return b.Step()
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// Three balls on a line across two ranks: the middle one hits the right
// one, which sits in the other subdomain; the collision is one island
// across the boundary, solved on rank 0, and the result is gathered there.
func ExampleNew() {
	sys := &ball2d.System{Dt: 0.01, CoR: 1, NoFrictionBasis: true}
	sys.AddBall(0.5, 1, 0, 0, 1, 0.25, false)
	sys.AddBall(1.7, 1, 1, 0, 1, 0.25, false)
	sys.AddBall(2.3, 1, 0, 0, 1, 0.25, false)
	cfg := Config{Hi: [2]float64{4, 2}, Dims: [2]int{2, 1}, NewLaw: grLaw}
	err := mpi.RunLocal(2, func(c mpi.Comm) error {
		b, err := New(c, sys, cfg)
		if err != nil {
			return err
		}
		for range 20 {
			if err := b.Step(); err != nil {
				return err
			}
		}
		_, v, err := b.Gather(0, sys.N())
		if c.Rank() == 0 {
			fmt.Printf("velocities after 20 steps: %.3g %.3g %.3g\n", v[0], v[2], v[4])
		}
		return err
	})
	fmt.Println("error:", err)
	// Output:
	// velocities after 20 steps: 0 0 1
	// error: <nil>
}

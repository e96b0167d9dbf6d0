package domain

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"impactsim/mpi"
	"impactsim/spheres"
)

// partOf returns the spheres of whole whose centres keep accepts, with
// their IDs (what a generator or reader building one rank's part gives).
func partOf(whole *spheres.System, keep func(x [3]float64) bool) *spheres.System {
	p := &spheres.System{Gravity: whole.Gravity, Mu: whole.Mu, Planes: whole.Planes}
	for i := 0; i < whole.N(); i++ {
		if keep([3]float64(whole.X[3*i : 3*i+3])) {
			p.Put(spheres.Sphere{X: [3]float64(whole.X[3*i : 3*i+3]), Q: [4]float64(whole.Q[4*i : 4*i+4]), VW: [6]float64(whole.VW[6*i : 6*i+6]),
				R: whole.R[i], InvM: whole.InvM[i], InvI: whole.InvI[i], ID: whole.ID[i]})
		}
	}
	return p
}

// TestSpheresPartEqualsWhole: a split built from the ranks' parts
// (NewSpheresPart: no rank holds the whole system; each builds only the
// spheres its subdomain owns) runs bitwise as the split of the whole
// system (NewSpheres) over 100 steps on 1, 2 and 4 goroutine ranks, in a
// walled box (GR + Alg. 3) and periodic (migration across the faces).
// Each rank's part holds its owned spheres only: the largest part is
// about N/ranks, not N. GatherState into a part makes it the whole
// system.
func TestSpheresPartEqualsWhole(t *testing.T) {
	const n, steps = 300, 100
	for _, periodic := range []bool{false, true} {
		for _, np := range []int{1, 2, 4} {
			err := mpi.RunLocal(np, func(c mpi.Comm) error {
				cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, H: 1e-3, Law: spheres.Law{Operator: "gr", Friction: "alg3", CoR: 0.5}}
				whole := func() *spheres.System { return sphereBox(n, !periodic, 0.3, 3) }
				if periodic {
					cfg.Periodic = [2]bool{true, true}
					cfg.Law = spheres.Law{Operator: "gr", Friction: "none", CoR: 1}
				}
				if c.Size() == 4 {
					cfg.Dims = [3]int{2, 2, 1}
				}
				a, err := NewSpheres(c, whole(), cfg)
				if err != nil {
					return err
				}
				built := 0
				b, err := NewSpheresPart(c, n, cfg, func(owns func(x [3]float64) bool) (*spheres.System, error) {
					p := partOf(whole(), owns)
					built = p.N()
					return p, nil
				})
				if err != nil {
					return err
				}
				// the largest part over the ranks
				most := []float64{0}
				if err := c.Allreduce([]float64{float64(built)}, most, mpi.Max); err != nil {
					return err
				}
				if built != len(b.own) || (c.Size() > 1 && most[0] > 0.75*n) {
					return fmt.Errorf("rank %d built %d spheres and owns %d; the largest part is %v of %d", c.Rank(), built, len(b.own), most[0], n)
				}
				for k := 1; k <= steps; k++ {
					if err := a.Step(); err != nil {
						return err
					}
					if err := b.Step(); err != nil {
						return err
					}
					if err := b.Count(n); err != nil {
						return err
					}
				}
				sa, sb := whole(), partOf(whole(), func([3]float64) bool { return false })
				if err := a.GatherState(0, sa); err != nil {
					return err
				}
				if err := b.GatherState(0, sb); err != nil {
					return err
				}
				if c.Rank() != 0 {
					return nil
				}
				var wa, wb bytes.Buffer
				if err := sa.WriteState(&wa); err != nil {
					return err
				}
				if err := sb.WriteState(&wb); err != nil {
					return err
				}
				if !bytes.Equal(wa.Bytes(), wb.Bytes()) {
					return fmt.Errorf("after %d steps the parts' state file differs from the whole split's", steps)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("periodic %v, %d ranks: %v", periodic, np, err)
			}
		}
	}
}

// TestSpheresPartRefused: parts that do not make the system — a sphere on
// no rank, one on two ranks, an ID out of range, a failed build — fail on
// every rank with one message, not a hang.
func TestSpheresPartRefused(t *testing.T) {
	const n = 300
	cfg := SpheresConfig{Hi: [3]float64{2, 1, 0.6}, H: 1e-3, Law: spheres.Law{Operator: "gr", Friction: "none", CoR: 1}}
	for _, tc := range []struct {
		name, want string
		part       func(c mpi.Comm, owns func(x [3]float64) bool) (*spheres.System, error)
	}{
		{"missing", "keep 299 bodies together", func(c mpi.Comm, owns func(x [3]float64) bool) (*spheres.System, error) {
			p := partOf(sphereBox(n, true, 0, 1), owns)
			if p.N() > 0 && c.Rank() == 1 {
				p.Remove(func(i int) bool { return i == 0 })
			}
			return p, nil
		}},
		{"duplicated", "ids are not 0", func(c mpi.Comm, owns func(x [3]float64) bool) (*spheres.System, error) {
			p := partOf(sphereBox(n, true, 0, 1), owns)
			if c.Rank() == 1 {
				p.ID[0] = 7 // sphere 7 (rank 0's) twice; the count stays
			}
			return p, nil
		}},
		{"range", "the IDs must be 0", func(c mpi.Comm, owns func(x [3]float64) bool) (*spheres.System, error) {
			p := partOf(sphereBox(n, true, 0, 1), owns)
			p.ID[0] = n
			return p, nil
		}},
		{"build", "no such file", func(c mpi.Comm, owns func(x [3]float64) bool) (*spheres.System, error) {
			if c.Rank() == 1 {
				return nil, fmt.Errorf("no such file")
			}
			return partOf(sphereBox(n, true, 0, 1), owns), nil
		}},
	} {
		errs := make([]error, 2)
		mpi.RunLocal(2, func(c mpi.Comm) error {
			_, errs[c.Rank()] = NewSpheresPart(c, n, cfg, func(owns func(x [3]float64) bool) (*spheres.System, error) { return tc.part(c, owns) })
			return nil
		})
		for r, err := range errs {
			if err == nil {
				t.Errorf("%s: rank %d accepted the parts", tc.name, r)
			}
		}
		if !strings.Contains(errs[0].Error()+errs[1].Error(), tc.want) {
			t.Errorf("%s: %v / %v, want %q", tc.name, errs[0], errs[1], tc.want)
		}
	}
}

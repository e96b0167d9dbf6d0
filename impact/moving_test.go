package impact_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"impactsim/desiderata"
	"impactsim/impact"
	"impactsim/mech"
)

// wallProblem is one ball of mass 2 against a wall with unit normal n that
// moves with velocity w: NRel = −n·w, DRel = −t·w.
func wallProblem(v, w, n [2]float64, cor float64) *mech.Problem {
	p := &mech.Problem{}
	p.Reset(2, 2)
	p.M.AppendScalarBlock(2, 2)
	p.MInv.AppendScalarBlock(2, 0.5)
	p.V[0], p.V[1] = v[0], v[1]
	t := [2]float64{-n[1], n[0]}
	p.G.Append(0, n[0])
	p.G.Append(1, n[1])
	p.G.EndCol()
	p.D.Append(0, t[0])
	p.D.Append(1, t[1])
	p.D.EndCol()
	p.DContact = []int{0}
	p.AppendContact(cor, 0, 0, -1)
	p.NRel = []float64{-(n[0]*w[0] + n[1]*w[1])}
	p.DRel = []float64{-(t[0]*w[0] + t[1]*w[1])}
	return p
}

// TestMovingWallRebound: a ball hits a wall moving at constant velocity w;
// every operator reverses the normal relative velocity n·(v − w) scaled by
// c (QCE is elastic: c = 1 only) and leaves the tangential one alone.
func TestMovingWallRebound(t *testing.T) {
	n := [2]float64{0.6, 0.8}
	w := [2]float64{0.3, -1.1}
	v := [2]float64{-0.4, -0.9}
	rel := func(v []float64, d [2]float64) float64 { return d[0]*(v[0]-w[0]) + d[1]*(v[1]-w[1]) }
	u0 := rel([]float64{v[0], v[1]}, n)
	if !(u0 < -0.2) {
		t.Fatalf("set-up: relative normal velocity %v does not approach", u0)
	}
	tg := [2]float64{-n[1], n[0]}
	for _, name := range impact.Names() {
		for _, c := range []float64{0, 0.3, 1} {
			if name == "qce" && c != 1 {
				continue
			}
			p := wallProblem(v, w, n, c)
			op := mustOp(t, impact.Config{Name: name})
			lambda := make([]float64, 1)
			if _, err := op.Resolve(p, lambda); err != nil {
				t.Fatalf("%s c=%g: %v", name, c, err)
			}
			vp := make([]float64, 2)
			p.ApplyImpulses(vp, p.V, lambda, nil, make([]float64, 2))
			if got := rel(vp, n); math.Abs(got-(-c*u0)) > 1e-15 {
				t.Errorf("%s c=%g: relative normal velocity %.17g, want %.17g", name, c, got, -c*u0)
			}
			if got, want := rel(vp, tg), rel([]float64{v[0], v[1]}, tg); math.Abs(got-want) > 1e-15 {
				t.Errorf("%s c=%g: relative tangential velocity %v, want %v", name, c, got, want)
			}
		}
	}
}

// TestGalileanInvariance: a cluster of balls resting on and hit against a
// floor, seen from a frame moving at −w (bodies gain w, the floor moves at
// w: desiderata.Boost), gets the same impulses from every operator, to
// 1e-12 relative, at c = 0.5 and c = 1.
func TestGalileanInvariance(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 4; trial++ {
		p := desiderata.FloorPile(rng, 0.5, 0.3)
		for _, c := range []float64{0.5, 1} {
			for i := range p.CoR {
				p.CoR[i] = c
			}
			w := []float64{0.7 * rng.NormFloat64(), 0.7 * rng.NormFloat64()}
			q := desiderata.Boost(p, w)
			for _, name := range impact.Names() {
				if name == "qce" && c != 1 {
					continue
				}
				l0, l1 := make([]float64, p.NContacts()), make([]float64, p.NContacts())
				if _, err := mustOp(t, impact.Config{Name: name}).Resolve(p, l0); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if _, err := mustOp(t, impact.Config{Name: name}).Resolve(q, l1); err != nil {
					t.Fatalf("%s boosted: %v", name, err)
				}
				scale := 0.0
				for _, x := range l0 {
					scale = math.Max(scale, math.Abs(x))
				}
				for i := range l0 {
					if math.Abs(l0[i]-l1[i]) > 1e-12*scale {
						t.Errorf("trial %d c=%g %s: λ%d = %.17g at rest, %.17g boosted", trial, c, name, i, l0[i], l1[i])
						break
					}
				}
			}
		}
	}
}

// TestGRRVectorMovingRefused: grr's per-contact rule bounds the kinetic
// energy, which moving walls change, so grr with unequal coefficients and
// known relative velocities is one error (gr and lcp take the problem).
func TestGRRVectorMovingRefused(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	p := desiderata.Boost(desiderata.FloorPile(rng, 0.5, 0), []float64{0.3, -0.2})
	p.CoR[0] = 0.9
	lambda := make([]float64, p.NContacts())
	_, err := mustOp(t, impact.Config{Name: "grr"}).Resolve(p, lambda)
	if err == nil || !strings.Contains(err.Error(), "grr with per-contact coefficients (0.5 … 0.9) and moving geometry") || strings.Contains(err.Error(), "\n") {
		t.Errorf("grr, unequal coefficients against moving geometry: %v", err)
	}
	for _, name := range []string{"gr", "lcp"} {
		if _, err := mustOp(t, impact.Config{Name: name}).Resolve(p, lambda); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

package ball2d

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"impactsim/mech"
)

// mirrorSystem returns n random balls at x < 0 followed by their mirror
// images about x = 0 (ball i's image is ball n+i), with a floor and a
// mirror pair of walls, crowded enough to overlap.
func mirrorSystem(n int, seed uint64) *System {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &System{Dt: 0.01, CoR: 1, Gravity: [2]float64{0, -9.81}}
	side := math.Sqrt(float64(n)) * 1.2
	type ball struct{ x, y, vx, vy, m, r float64 }
	bs := make([]ball, n)
	for i := range bs {
		bs[i] = ball{-side * rng.Float64(), side * rng.Float64(), rng.NormFloat64(), rng.NormFloat64(), 0.5 + rng.Float64(), 0.3 + 0.4*rng.Float64()}
		s.AddBall(bs[i].x, bs[i].y, bs[i].vx, bs[i].vy, bs[i].m, bs[i].r, false)
	}
	for _, b := range bs {
		s.AddBall(-b.x, b.y, -b.vx, b.vy, b.m, b.r, false)
	}
	s.Planes = []Plane{{P: [2]float64{0, 0.2}, N: [2]float64{0, 1}}, {P: [2]float64{-side, 0}, N: [2]float64{1, 0}}, {P: [2]float64{side, 0}, N: [2]float64{-1, 0}}}
	return s
}

// TestOrderContactsMirrorInvariant: on an exactly mirror-symmetric state
// (balls on both sides of x = 0, some overlapping their images across it)
// every contact's mirror image is a contact with the same key
// (ContactKeys), and the order by key puts any two contacts in the order
// of their images — the detection's index order does not (checked).
func TestOrderContactsMirrorInvariant(t *testing.T) {
	const n = 600
	s := mirrorSystem(n, 1)
	var p mech.Problem
	q1 := step1(s, &p)
	cs := s.Contacts()
	if len(cs) < 400 {
		t.Fatalf("only %d contacts: the test is too easy", len(cs))
	}
	mir := func(b int32) int32 {
		if b < 0 {
			return b
		}
		return (b + n) % (2 * n)
	}
	type key struct {
		i, j, obj int32
	}
	idx := map[key]int{}
	for k, c := range cs {
		idx[key{c.I, c.J, c.Obj}] = k
	}
	image := make([]int, len(cs))
	axis := 0
	for k, c := range cs {
		i, j, obj := mir(c.I), mir(c.J), c.Obj
		if j >= 0 && j < i {
			i, j = j, i
		}
		if c.Kind == BallPlane && obj > 0 {
			obj = 3 - obj
		}
		m, ok := idx[key{i, j, obj}]
		if !ok {
			t.Fatalf("contact %d (%d,%d) has no mirror image", k, c.I, c.J)
		}
		image[k] = m
		if m == k {
			axis++
		}
	}
	if axis == 0 {
		t.Fatal("no contact across the axis: the test does not cover one")
	}
	check := func(order []int) (bad int) {
		at := make([]int, len(cs))
		for o := range at {
			at[o] = -1
		}
		for o, k := range order {
			if at[k] >= 0 {
				t.Fatalf("contact %d twice in the order", k)
			}
			at[k] = o
		}
		if len(order) != len(cs) {
			t.Fatalf("order of %d for %d contacts", len(order), len(cs))
		}
		for a := range cs {
			for b := range cs {
				if image[a] != b && at[a] < at[b] && at[image[a]] > at[image[b]] {
					bad++
				}
			}
		}
		return bad
	}
	keys := s.ContactKeys(q1, nil)
	for k := range cs {
		if keys[k] != keys[image[k]] {
			t.Fatalf("contact %d key %v, its mirror image's %v", k, keys[k], keys[image[k]])
		}
	}
	order := make([]orderKey, len(cs))
	for k, key := range keys {
		order[k] = orderKey{key[0], key[1], int32(k)}
	}
	slices.SortFunc(order, orderCmp)
	byKey := make([]int, len(cs))
	for o, e := range order {
		byKey[o] = int(e.k)
	}
	if bad := check(byKey); bad != 0 {
		t.Errorf("%d pairs of contacts in another order than their mirror images", bad)
	}
	index := make([]int, len(cs))
	for k := range index {
		index[k] = k
	}
	if check(index) == 0 {
		t.Error("the index order is mirror-invariant here: the test does not discriminate")
	}
	if a := testing.AllocsPerRun(10, func() { keys = s.ContactKeys(q1, keys) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

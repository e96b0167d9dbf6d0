package ball2d

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/par"
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

// mirrorImages returns, for each contact of cs on mirrorSystem(n, …),
// the index of its mirror image in cs, and how many contacts are their
// own image (across the axis).
func mirrorImages(t *testing.T, cs []Contact, n int32) (image []int, axis int) {
	t.Helper()
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
	image = make([]int, len(cs))
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
	return image, axis
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
	image, axis := mirrorImages(t, cs, n)
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

// TestMirrorOrder: with MirrorOrder, BuildProblem lists the detection's
// contacts (the same set, the same normals) in the order of their keys at
// q0, index order breaking ties, the same with 1 and 3 workers and
// without allocating; the missed-contact test (known) and the closed
// active set (MissingContacts, AddMissing) see the same contacts as
// without it, and the merged list is in key order again.
func TestMirrorOrder(t *testing.T) {
	const n = 600
	ref, s := mirrorSystem(n, 2), mirrorSystem(n, 2)
	s.MirrorOrder = true
	var pr, p mech.Problem
	q1 := step1(ref, &pr)
	step1(s, &p)
	sorted := func(q []float64) {
		t.Helper()
		f := s.contactFrame(q, s.Contacts())
		cs := s.Contacts()
		at := map[[3]int32]int{}
		for k, c := range s.det.cmpOrdered() {
			at[[3]int32{c.I, c.J, c.Obj}] = k
		}
		prev := orderKey{math.Inf(-1), 0, -1}
		for k := range cs {
			h, d := f.key(q, &cs[k])
			o := orderKey{h, d, int32(at[[3]int32{cs[k].I, cs[k].J, cs[k].Obj}])}
			if orderCmp(prev, o) >= 0 {
				t.Fatalf("contact %d (%d,%d) key %v after %v", k, cs[k].I, cs[k].J, o, prev)
			}
			prev = o
		}
	}
	same := func(what string) {
		t.Helper()
		if !slices.Equal(s.det.cmpOrdered(), ref.Contacts()) {
			t.Fatalf("%s: the detection-ordered list differs from the run without MirrorOrder", what)
		}
		if len(s.Contacts()) != len(ref.Contacts()) {
			t.Fatalf("%s: %d contacts, want %d", what, len(s.Contacts()), len(ref.Contacts()))
		}
		if slices.Equal(s.Contacts(), ref.Contacts()) {
			t.Fatalf("%s: the mirror order is the index order here: the test does not discriminate", what)
		}
		for k, c := range s.Contacts() {
			if !ref.det.known(c) || !s.det.known(c) {
				t.Fatalf("%s: contact %d (%d,%d) not known", what, k, c.I, c.J)
			}
		}
	}
	same("BuildProblem")
	sorted(s.Q)
	// a column of G per contact, in the list's order
	for k, c := range s.Contacts() {
		if g := column(&p.G, k); g[2*int(c.I)] != c.N[0] || g[2*int(c.I)+1] != c.N[1] {
			t.Fatalf("column %d is not contact %d's gradient", k, k)
		}
	}
	// the same with 3 workers
	s3 := mirrorSystem(n, 2)
	s3.MirrorOrder = true
	pool := par.New(3)
	defer pool.Close()
	s3.SetPool(pool)
	var p3 mech.Problem
	step1(s3, &p3)
	if !slices.Equal(s3.Contacts(), s.Contacts()) {
		t.Fatal("the mirror order differs with 3 workers")
	}
	// the closed active set: the motion to a perturbed q1 finds more
	rng := rand.New(rand.NewPCG(5, 5))
	qm := slices.Clone(q1)
	for i := range qm {
		qm[i] += 0.2 * rng.NormFloat64()
	}
	nr, ns := ref.MissingContacts(ref.Q, qm), s.MissingContacts(s.Q, qm)
	if nr == 0 || ns != nr {
		t.Fatalf("MissingContacts: %d with MirrorOrder, %d without (want equal, > 0)", ns, nr)
	}
	same("MissingContacts")
	ref.AddMissing(ref.Q, ref.V, &pr)
	s.AddMissing(s.Q, s.V, &p)
	same("AddMissing")
	sorted(s.Q)
	var q []float64
	if a := testing.AllocsPerRun(5, func() {
		q = s.Q
		s.BuildProblem(q, q1, s.V, &p)
	}); a != 0 {
		t.Errorf("BuildProblem with MirrorOrder: %v allocations", a)
	}
}

// TestMirrorOrderImpulses: with MirrorOrder, BuildProblem gives the
// problem its contacts' keys (mech.Problem.Keys, in the list's order), and
// GR and LCP then give every contact of an exactly mirror-symmetric state
// the same impulse as its mirror image, bit for bit, islands that span
// the axis included (their mirror pairs averaged); without the keys those
// islands' solves round some pairs apart (checked, so the test
// discriminates), and the solution is the same to 1e-9.
func TestMirrorOrderImpulses(t *testing.T) {
	const n = 600
	s := mirrorSystem(n, 1)
	s.MirrorOrder = true
	// Equal masses: a contact's Delassus diagonal sums its two balls'
	// terms in index order, which an axis-spanning contact's image runs
	// the other way round; with unequal masses the two sums may round
	// apart, the island is then not bitwise invariant under the swap and
	// keeps its solve's rounding (the drop's balls are all alike).
	for i := range s.M {
		s.M[i] = 1
	}
	var p mech.Problem
	step1(s, &p)
	cs := s.Contacts()
	image, axis := mirrorImages(t, cs, n)
	if axis == 0 {
		t.Fatal("no contact across the axis")
	}
	if len(p.Keys) != len(cs) || p.ContactKeys() == nil {
		t.Fatalf("%d keys for %d contacts", len(p.Keys), len(cs))
	}
	f := s.contactFrame(s.Q, cs)
	for k := range cs {
		if h, d := f.key(s.Q, &cs[k]); p.Keys[k] != [2]float64{h, d} {
			t.Fatalf("key %d: %v, want (%v, %v)", k, p.Keys[k], h, d)
		}
	}
	gr, err := impact.NewGR(0, "")
	if err != nil {
		t.Fatal(err)
	}
	lcp, err := impact.NewLCP("")
	if err != nil {
		t.Fatal(err)
	}
	keys := p.Keys
	for _, op := range []impact.Operator{gr, lcp} {
		asym := func(lambda []float64) (bad int) {
			for k, m := range image {
				if math.Float64bits(lambda[k]) != math.Float64bits(lambda[m]) {
					bad++
				}
			}
			return bad
		}
		p.Keys = keys
		with := make([]float64, len(cs))
		if _, err := op.Resolve(&p, with); err != nil {
			t.Fatal(err)
		}
		if bad := asym(with); bad != 0 {
			t.Errorf("%s with the keys: %d contacts' impulses differ from their mirror images'", op.Name(), bad)
		}
		p.Keys = nil
		without := make([]float64, len(cs))
		if _, err := op.Resolve(&p, without); err != nil {
			t.Fatal(err)
		}
		if asym(without) == 0 {
			t.Errorf("%s: symmetric without the keys too: the test does not discriminate", op.Name())
		}
		for k := range with {
			if math.Abs(with[k]-without[k]) > 1e-9*max(1, math.Abs(without[k])) {
				t.Errorf("%s: contact %d: %.17g with the keys, %.17g without", op.Name(), k, with[k], without[k])
			}
		}
	}
}

// BenchmarkMirrorOrder: BuildProblem with and without the mirror order
// on a crowded mirror system (5,000 balls and their images, 11,438
// contacts), and the order alone (keys, frame, sort, gather: "order").
func BenchmarkMirrorOrder(b *testing.B) {
	for _, name := range []string{"off", "on", "order"} {
		b.Run(name, func(b *testing.B) {
			s := mirrorSystem(5000, 1)
			s.MirrorOrder = name == "on"
			var p mech.Problem
			q1 := step1(s, &p)
			saved := slices.Clone(s.Contacts())
			b.ResetTimer()
			for range b.N {
				if name == "order" {
					copy(s.det.contacts, saved)
					s.det.mirrorOrder(s, s.Q)
					continue
				}
				s.BuildProblem(s.Q, q1, s.V, &p)
			}
			b.ReportMetric(float64(len(saved)), "contacts")
		})
	}
}

// TestSortOrderKeys: the radix sort gives slices.SortFunc's order by
// orderCmp, on keys with ties in h (runs short and long), in h and d,
// ±0, negative and positive heights, below and above its threshold, and
// allocates nothing once its scratch has grown.
func TestSortOrderKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var tmp []orderKey
	for _, n := range []int{0, 1, 5, 63, 64, 65, 500, 4000} {
		for trial := range 4 {
			keys := make([]orderKey, n)
			for k := range keys {
				h := math.Round(rng.NormFloat64()*40) / 4 // many ties
				switch {
				case trial == 1:
					h = rng.NormFloat64() * 1e3 // few
				case trial == 2 && k%3 == 0:
					h = math.Copysign(0, rng.NormFloat64())
				case trial == 3:
					h = float64(k / 40) // runs of 40
				}
				d := math.Abs(math.Round(rng.NormFloat64() * 4))
				keys[k] = orderKey{h, d, int32(k)}
			}
			want := slices.Clone(keys)
			slices.SortFunc(want, orderCmp)
			tmp = sortOrderKeys(keys, tmp)
			for k := range keys {
				if orderCmp(keys[k], want[k]) != 0 || keys[k].k != want[k].k {
					t.Fatalf("n %d trial %d: at %d got %v, want %v", n, trial, k, keys[k], want[k])
				}
			}
		}
	}
	keys := make([]orderKey, 4000)
	if a := testing.AllocsPerRun(5, func() { tmp = sortOrderKeys(keys, tmp) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

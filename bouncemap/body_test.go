package bouncemap

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/impact"
	"impactsim/mech"
	"impactsim/rigid3d"
	"impactsim/sim"
)

// TestMappedDrop: the rod with its bounce map, dropped end first onto a
// plane (no gravity, 1 m/s): one contact, at the pole, whose restitution
// is the map's value there (the face sample nearest to the pole and −z),
// and after the impact step the rod moves up at ε·1 m/s to 1e-9 without
// spinning; with grr, lcp and gr alike (one contact).
func TestMappedDrop(t *testing.T) {
	mp, err := smallMap()
	if err != nil {
		t.Fatal(err)
	}
	vs, fs := rigid3d.CapsuleMesh(0.01, 0.18, 16, 4, 12)
	mesh, com, q, err := rigid3d.NewMesh(vs, fs, 10, "rod")
	if err != nil {
		t.Fatal(err)
	}
	bm, err := NewBodyMap(mp, vs, fs, com, q, 1, "rod", "rod.bmap")
	if err != nil {
		t.Fatal(err)
	}
	pole := r3.Vec{Z: -0.1} // lowest point of the OBJ
	want := mp.Lookup(pole, r3.Vec{Z: -1})
	for _, op := range []string{"grr", "lcp", "gr"} {
		s := &rigid3d.System{CoR: 0.3, Integrator: rigid3d.DMV}
		s.Planes = append(s.Planes, rigid3d.NewPlane(r3.Vec{}, r3.Vec{Z: 1}))
		// Body placed as the OBJ, its pole 1 mm above the plane.
		s.AddBody(rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: mesh}, 2000, r3.Add(com, r3.Vec{Z: 0.1 + 1e-3}), q, r3.Vec{Z: -1}, r3.Vec{}, false)
		s.Maps = []rigid3d.RestitutionMap{bm}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		o, err := impact.New(impact.Config{Name: op})
		if err != nil {
			t.Fatal(err)
		}
		st, err := sim.NewStepper(s, &sim.Staggered{Impact: o}, 1e-4, s.Q, s.V)
		if err != nil {
			t.Fatal(err)
		}
		var p mech.Problem
		for k := 0; k < 40 && st.V[2] < 0; k++ {
			s.BuildProblem(st.Q, st.Q, st.V, &p) // q1 = q0: what touches now
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if st.V[2] < 0 {
			t.Fatalf("%s: the rod never bounced", op)
		}
		if st.Last.Contacts != 1 || p.NContacts() > 1 {
			t.Fatalf("%s: %d contacts at the impact, want 1", op, st.Last.Contacts)
		}
		t.Logf("%s: ε from the map %.12f, rebound %.12f m/s, ω %v", op, want, st.V[2], st.V[3:6])
		if math.Abs(st.V[2]-want) > 1e-9 || math.Abs(st.V[0])+math.Abs(st.V[1]) > 1e-9 || r3.Norm(r3.Vec{X: st.V[3], Y: st.V[4], Z: st.V[5]}) > 1e-9 {
			t.Errorf("%s: v⁺ = %v, want (0, 0, %v) and no spin", op, st.V[:6], want)
		}
	}
}

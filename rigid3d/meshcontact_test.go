package rigid3d

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/impact"
	"impactsim/mech"
)

// bunnyWedge is the pair of bunnies 559 and 569 of BunnyPile(…, 1000, c = 1,
// μ = 0, seed 1) at the start of step 44 (t = 0.043) as the pile ran when
// mesh contacts took their normals at the free-flight prediction: poses
// (x, quaternion) and velocities (v, world ω); the step was 10⁻³ s
// (BunnyPileDt was 10⁻³ then). Bunny 559 spins at 72 rad/s;
// in the step its vertices end up to 1.5 mm inside 569's field near a thin
// part, where ∇φ points every way: the 11 contacts between the two had
// normals up to 160° apart, and GR reflected between two violator sets
// until its cap (contact 114 of that step at −7.86393 m/s).
var bunnyWedge = struct{ q, v [2][]float64 }{
	q: [2][]float64{
		{0.6486786407897339, 0.9152389403211227, 0.10619856855544867, 0.3229648860726909, -0.2509228637526163, -0.9071817995053958, 0.09875515913809983},
		{0.7331760360484167, 0.9159715243387048, 0.16109970812781588, 0.8144476776520081, -0.4180563901808234, -0.3667392874064781, 0.16554796908696384},
	},
	v: [2][]float64{
		{-1.203671480177877, 0.03476109522854151, 0.7131183958601167, -7.451605663481512, -70.42082121209124, 13.469325385944655},
		{-0.04070186320043945, 0.2013727034158643, -1.950597610717752, 0.4115313227572312, -0.387674793215899, 0.10206820513814888},
	},
}

// wedgeProblem builds the step's impact problem for the bunnyWedge pair
// with restitution c.
func wedgeProblem(t *testing.T, m *Mesh, c float64) (*System, *mech.Problem) {
	t.Helper()
	s := &System{CoR: c, Integrator: DMV, Gravity: r3.Vec{Y: -9.81}}
	for b := 0; b < 2; b++ {
		q, v := bunnyWedge.q[b], bunnyWedge.v[b]
		s.AddBody(Shape{Kind: MeshShape, Mesh: m}, 1000, r3.Vec{X: q[0], Y: q[1], Z: q[2]}, Quat{q[3], q[4], q[5], q[6]},
			r3.Vec{X: v[0], Y: v[1], Z: v[2]}, r3.Vec{X: v[3], Y: v[4], Z: v[5]}, false)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	q1, v1 := make([]float64, s.NQ()), make([]float64, s.NDof())
	s.FreeFlight(s.Q, s.V, 1e-3, q1, v1) // the pile's step then
	p := new(mech.Problem)
	s.BuildProblem(s.Q, q1, s.V, p)
	return s, p
}

// TestMeshContactNormalsAtStart is the regression test of the 1,000-bunny
// pile's failure at step 44: mesh contacts take the gradient of their
// constraint at the step's start (Alg. 4, lines 3–7), ∇φ of the other
// body at the sample's position at q0. The pair's normals then lie within
// 90° of each other (75° measured; at the prediction they were up to 160°
// apart);
// GR at c = 1 then ends in a few reflections (it reached 1,000 and more
// before) with every contact separating or sliding, the kinetic energy
// kept to 1e-12 and the momentum to 1e-12; grr at c = 0.5 ends too.
func TestMeshContactNormalsAtStart(t *testing.T) {
	m, _ := sharedBunny(t)
	s, p := wedgeProblem(t, m, 1)
	cs := s.Contacts()
	if len(cs) < 5 {
		t.Fatalf("%d contacts between the wedged bunnies, want the step's several", len(cs))
	}
	minDot := 1.0
	for k := range cs {
		c := &cs[k]
		if c.I != 0 || c.J != 1 {
			t.Fatalf("contact %d between %d and %d", k, c.I, c.J)
		}
		for l := range cs[:k] {
			minDot = math.Min(minDot, r3.Dot(c.N, cs[l].N))
		}
	}
	t.Logf("%d contacts, smallest cosine between two normals %.3f", len(cs), minDot)
	if minDot <= 0 {
		t.Errorf("two contact normals of the pair are %.1f° apart: the constraints pin the pair from opposite sides", math.Acos(minDot)*180/math.Pi)
	}

	o, err := impact.New(impact.Config{Name: "gr", MaxIter: 1000})
	if err != nil {
		t.Fatal(err)
	}
	lambda := make([]float64, p.NContacts())
	st, err := o.Resolve(p, lambda)
	if err != nil {
		t.Fatalf("gr at c = 1: %v", err)
	}
	t.Logf("gr: %d reflections", st.Iterations)
	vp := make([]float64, p.NDof())
	p.ApplyImpulses(vp, p.V, lambda, nil, make([]float64, p.NDof()))
	u := make([]float64, p.NContacts())
	p.RelNormalVelocities(u, vp)
	for k, x := range u {
		if x < -1e-10 {
			t.Errorf("contact %d still approaches at %g after gr", k, x)
		}
	}
	t0, t1 := p.KineticEnergy(p.V), p.KineticEnergy(vp)
	if math.Abs(t1-t0) > 1e-12*t0 {
		t.Errorf("gr changed the kinetic energy %v → %v", t0, t1)
	}
	m0, m1 := s.LinearMomentum(p.V), s.LinearMomentum(vp)
	if d := r3.Norm(r3.Sub(m1, m0)); d > 1e-12*r3.Norm(m0) {
		t.Errorf("gr changed the momentum by %g", d)
	}

	_, p5 := wedgeProblem(t, m, 0.5)
	g, err := impact.New(impact.Config{Name: "grr", MaxIter: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Resolve(p5, make([]float64, p5.NContacts())); err != nil {
		t.Errorf("grr at c = 0.5: %v", err)
	}
}

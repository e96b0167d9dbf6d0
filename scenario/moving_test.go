package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"impactsim/scene"
)

// TestLeesEdwardsEnergyBalance: the impact operators now read the sheared
// images' relative velocities, so SCISim's Lees–Edwards scene runs with gr;
// at c = 1 GR dissipates nothing and every step's change of the total
// energy is the work the sheared images did through the impulses
// (StepStats.WallWork), to rounding. A ball crossing a sheared plane
// gains the shear velocity in AfterStep, outside the impulses: those steps
// are left out of the balance.
func TestLeesEdwardsEnergyBalance(t *testing.T) {
	sc, err := scene.LoadBall2D("../parity/testdata/ball2d/lees_edwards/portal_lots_of_collisions.xml")
	if err != nil {
		t.Fatal(err)
	}
	one, zero := 1.0, 0.0
	r, err := NewBall2D(sc, Options{Operator: "gr", CoR: &one, Mu: &zero})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stepper
	e0 := r.Sys.Energy(st.Q, st.V)
	var work, worst, scale float64
	crossings := 0
	q := append([]float64(nil), st.Q...)
	for i := 0; i < 3000; i++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		e := r.Sys.Energy(st.Q, st.V)
		crossed := false
		for k := range q {
			crossed = crossed || math.Abs(st.Q[k]-q[k]) > 1
		}
		copy(q, st.Q)
		if crossed {
			crossings++
			e0, work = e, 0
			continue
		}
		work += st.Last.WallWork
		worst = math.Max(worst, math.Abs(e-e0-work))
		scale = math.Max(scale, math.Abs(work))
	}
	if scale < 0.1 || worst > 1e-13*scale || crossings > 1000 {
		t.Errorf("work of the sheared images up to %.6g between crossings (%d), largest |ΔE − W| %.3g", scale, crossings, worst)
	}
}

// TestSceneMotions: a scene's <motion> elements drive its geometry: after
// N steps the floor, the drum and the kinematic ball are where the
// formulas put them at t = N h, with their velocities (ball2d), the floor
// and a kinematic box likewise (rigidbody2d), and the cylinder and the
// fixed box (3D).
func TestSceneMotions(t *testing.T) {
	doc := `<ball2d_scene>
  <integrator type="verlet" dt="0.001"/>
  <gravity fx="0" fy="-9.81"/>
  <static_plane x="0 -4" n="0 1"/>
  <static_drum x="0" y="0" r="5"/>
  <ball x="2" y="2" vx="0" vy="0" m="1" r="0.3" fixed="1"/>
  <ball x="-1" y="-3" vx="0" vy="0" m="1" r="0.3" fixed="0"/>
  <motion static_plane="0"><oscillation axis="0 1" amplitude="0.05" frequency="7" phase="0.3"/></motion>
  <motion static_drum="0"><rotation omega="2"/><linear v="0.1 0" start="0.05"/></motion>
  <motion ball="0"><rotation omega="1.5" center="0 0"/></motion>
</ball2d_scene>`
	sc, err := scene.ReadBall2D(strings.NewReader(doc), "m.xml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewBall2D(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stepper
	for i := 0; i < 200; i++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	tt := st.T
	pl, d := r.Sys.Planes[0], r.Sys.Drums[0]
	w := 2 * math.Pi * 7
	if y := -4 + 0.05*(math.Sin(w*tt+0.3)-math.Sin(0.3)); math.Abs(pl.P[1]-y) > 1e-15 || math.Abs(pl.V[1]-0.05*w*math.Cos(w*tt+0.3)) > 1e-13 {
		t.Errorf("floor at %v moving %v, want y %g", pl.P, pl.V, y)
	}
	if math.Abs(d.C[0]-0.1*(tt-0.05)) > 1e-15 || d.W != 2 || d.V != [2]float64{0.1, 0} {
		t.Errorf("drum %+v at t = %g", d, tt)
	}
	th := 1.5 * tt
	x, y := 2*math.Cos(th)-2*math.Sin(th), 2*math.Sin(th)+2*math.Cos(th)
	if math.Abs(st.Q[0]-x) > 1e-14 || math.Abs(st.Q[1]-y) > 1e-14 {
		t.Errorf("kinematic ball at (%g, %g), want (%g, %g)", st.Q[0], st.Q[1], x, y)
	}

	doc2 := `<rigidbody2d_scene>
  <integrator type="verlet" dt="0.001"/>
  <near_earth_gravity f="0 -10"/>
  <static_plane x="0 -4" n="0 1"/>
  <geometry type="box" r="0.5 0.25"/>
  <rigid_body x="2 2" theta="0.3" v="0 0" omega="0" rho="1" geo_idx="0" fixed="1"/>
  <motion static_plane="0"><oscillation axis="0 1" gamma="2" frequency="7"/></motion>
  <motion rigid_body="0"><rotation omega="1.5" center="0 0"/><linear v="0 -1"/></motion>
</rigidbody2d_scene>`
	sc2, err := scene.ReadRigidBody2D(strings.NewReader(doc2), "m2.xml")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := NewRigid2D(sc2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if err := r2.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
	}
	tt = r2.Stepper.T
	a := 2 * 10 / (w * w) // Γ = A(2πf)²/g
	if pl := r2.Sys.Planes[0]; math.Abs(pl.P[1]-(-4+a*math.Sin(w*tt))) > 1e-15 || math.Abs(pl.V[1]-a*w*math.Cos(w*tt)) > 1e-13 {
		t.Errorf("rigidbody2d floor at %v moving %v at t = %g, want y %g", pl.P, pl.V, tt, -4+a*math.Sin(w*tt))
	}
	q2, v2 := r2.Stepper.Q, r2.Stepper.V
	x, y = 2*math.Cos(th)-2*math.Sin(th), 2*math.Sin(th)+2*math.Cos(th)-tt
	if math.Abs(q2[0]-x) > 1e-14 || math.Abs(q2[1]-y) > 1e-14 || math.Abs(q2[2]-(0.3+th)) > 1e-14 || v2[2] != 1.5 ||
		math.Abs(v2[0]+1.5*q2[1]+1.5*tt) > 1e-13 || math.Abs(v2[1]-1.5*q2[0]+1) > 1e-13 {
		t.Errorf("rigidbody2d kinematic box at %v moving %v, want (%g, %g, %g)", q2, v2, x, y, 0.3+th)
	}

	doc3 := `<rigidbody3d_scene>
  <integrator type="dmv" dt="0.01"/>
  <static_cylinder x="0 0 0" axis="0 0 1" R="4"/>
  <geometry type="box" r="0.5 0.5 0.5"/>
  <rigid_body_with_density x="1 0 0" v="0 0 0" omega="0 0 0" rho="1" fixed="1" geo_idx="0"/>
  <motion static_cylinder="0"><rotation axis="1 0 0" omega="0.5"/></motion>
  <motion rigid_body="0"><rotation axis="0 0 1" omega="1" center="0 0 0"/><linear v="0 0 2"/></motion>
</rigidbody3d_scene>`
	sc3, err := scene.ReadRigidBody3D(strings.NewReader(doc3), "m3.xml")
	if err != nil {
		t.Fatal(err)
	}
	r3d, err := NewRigid3D(sc3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		if err := r3d.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
	}
	tt = r3d.Stepper.T
	c := r3d.Sys.Cyls[0]
	if want := [3]float64{0, -math.Sin(0.5 * tt), math.Cos(0.5 * tt)}; math.Abs(c.A.Y-want[1]) > 1e-15 || math.Abs(c.A.Z-want[2]) > 1e-15 || c.W.X != 0.5 {
		t.Errorf("cylinder axis %v, want %v", c.A, want)
	}
	q := r3d.Stepper.Q
	if math.Abs(q[0]-math.Cos(tt)) > 1e-14 || math.Abs(q[1]-math.Sin(tt)) > 1e-14 || math.Abs(q[2]-2*tt) > 1e-14 ||
		math.Abs(q[3]-math.Cos(tt/2)) > 1e-14 || math.Abs(q[6]-math.Sin(tt/2)) > 1e-14 {
		t.Errorf("fixed box at %v, t = %g", q, tt)
	}
}

// TestVelocityRestitutionOption: with Options.RestitutionV0 a ball dropped
// on a floor rebounds with e(v) of its impact speed: nearly elastic when
// slow, the scene's c when faster than v₀.
func TestVelocityRestitutionOption(t *testing.T) {
	for _, drop := range []float64{0.05, 2} {
		doc := `<ball2d_scene>
  <integrator type="verlet" dt="0.0001"/>
  <gravity fx="0" fy="-10"/>
  <static_plane x="0 0" n="0 1"/>
  <ball x="0" y="DROP" vx="0" vy="0" m="1" r="0.5" fixed="0"/>
  <impact_operator type="gr" CoR="0.6" v_tol="1e-9" cache_impulses="0"><solver name="ql" tol="1e-12"/></impact_operator>
</ball2d_scene>`
		sc, err := scene.ReadBall2D(strings.NewReader(strings.Replace(doc, "DROP", fmt.Sprint(0.5+drop), 1)), "d.xml")
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewBall2D(sc, Options{RestitutionV0: 2})
		if err != nil {
			t.Fatal(err)
		}
		st := r.Stepper
		for st.Last.Contacts == 0 {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
		}
		p := &st.Problem
		v := -p.V[1]
		e := 1 - 0.4*math.Pow(v/2, 0.75)
		if v >= 2 {
			e = 0.6
		}
		if got := p.V[1] + st.Lambda[0]; math.Abs(got-e*v) > 1e-12 || math.Abs(p.CoR[0]-e) > 1e-15 {
			t.Errorf("drop %g: impact at %g, rebound %g, want e(v)·v = %g (e = %g, contact has %g)", drop, v, got, e*v, e, p.CoR[0])
		}
	}
}

// TestRigid2DEnergyBalance: a box and a circle on a rigidbody2d floor
// shaken by <motion> (Γ = 3 at 5 Hz), next to a kinematic box turning in
// place, with gr at c = 1: kinetic + potential energy changes by the
// floor's work (energy.csv's wall_work), to 1e-9 of the energy.
func TestRigid2DEnergyBalance(t *testing.T) {
	doc := `<rigidbody2d_scene>
  <integrator type="verlet" dt="0.001"/>
  <impact_operator type="gr" CoR="1" v_tol="1e-9" cache_impulses="0"><solver name="ql" tol="1e-12"/></impact_operator>
  <near_earth_gravity f="0 -9.81"/>
  <static_plane x="0 0" n="0 1"/>
  <geometry type="box" r="0.5 0.25"/>
  <geometry type="circle" r="0.3"/>
  <rigid_body x="0 0.3" theta="0.1" v="0 0" omega="0" rho="1" geo_idx="0"/>
  <rigid_body x="1.5 0.31" theta="0" v="0 0" omega="0" rho="1" geo_idx="1"/>
  <rigid_body x="3 0.5" theta="0" v="0 0" omega="0" rho="1" geo_idx="0" fixed="1"/>
  <motion static_plane="0"><oscillation axis="0 1" gamma="3" frequency="5"/></motion>
  <motion rigid_body="2"><rotation omega="2"/></motion>
</rigidbody2d_scene>`
	sc, err := scene.ReadRigidBody2D(strings.NewReader(doc), "shaken.xml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRigid2D(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stepper
	energy := func() float64 { return r.Sys.KineticEnergy(st.V) + r.Sys.PotentialEnergy(st.Q) }
	e0 := energy()
	var work, worst, scale float64
	contacts := 0
	for k := 0; k < 2000; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		work += st.Last.WallWork
		contacts += st.Last.Contacts
		e := energy()
		scale = math.Max(scale, math.Abs(e)+math.Abs(work))
		worst = math.Max(worst, math.Abs(e-e0-work))
	}
	t.Logf("%d contacts, floor work %.6g, largest |ΔE − W| %.3g of %.3g", contacts, work, worst, scale)
	if contacts < 5 || math.Abs(work) < 1 || worst > 1e-9*scale {
		t.Errorf("%d contacts, work %g: balance off by %.3g of %.3g", contacts, work, worst, scale)
	}
}

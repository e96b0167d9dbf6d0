package script_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/impact"
	"impactsim/scenario"
	"impactsim/scene"
)

func ball2dScene(t *testing.T, name string) *scenario.Ball2D {
	t.Helper()
	return ball2dSceneWith(t, name, scenario.Options{})
}

func ball2dSceneWith(t *testing.T, name string, opt scenario.Options) *scenario.Ball2D {
	t.Helper()
	sc, err := scene.LoadBall2D(filepath.Join("..", "parity", "testdata", "ball2d", "tests_python_serialization", name+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewBall2D(sc, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rigid3dScene(t *testing.T, name string) *scenario.Rigid3D {
	t.Helper()
	sc, err := scene.LoadRigidBody3D(filepath.Join("testdata", "rigidbody3d", name+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewRigid3D(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOscillatingBox: SCISim's oscillating_box.py moves the four walls of
// a box; after every step the walls are where the script's formulas put
// them at the end of the step, with the formulas' velocities, and the
// balls stay inside.
func TestOscillatingBox(t *testing.T) {
	r := ball2dScene(t, "oscillating_box")
	st := r.Stepper
	for st.T < 6-1e-9 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		tt := float64(st.N) * st.H
		var yo, vy, xo, vx float64
		if tt >= 2 {
			yo, vy = -0.1*math.Sin(4*math.Pi*(tt-2)), -0.4*math.Pi*math.Cos(4*math.Pi*(tt-2))
		}
		if tt >= 4 {
			xo, vx = -0.1*math.Sin(3*math.Pi*(tt-4)), -0.3*math.Pi*math.Cos(3*math.Pi*(tt-4))
		}
		want := [4][2]float64{{xo, -1 + yo}, {xo, 1 + yo}, {-1 + xo, yo}, {1 + xo, yo}}
		for i, p := range r.Sys.Planes {
			if p.P != want[i] || p.V != [2]float64{vx, vy} {
				t.Fatalf("t = %g: plane %d at %v moving %v, want %v and %v", tt, i, p.P, p.V, want[i], [2]float64{vx, vy})
			}
		}
		for b := 0; b < r.Sys.N(); b++ {
			x, y := st.Q[2*b], st.Q[2*b+1]
			if math.Abs(x-xo) > 1 || math.Abs(y-yo) > 1 {
				t.Fatalf("t = %g: ball %d at (%g, %g) left the box", tt, b, x, y)
			}
		}
	}
}

// TestScriptedPlanes3D: oscillating_plane.py and translating_plane.py
// place the floor by their formulas (checked after every step, through
// t = 21 so that both branches of translating_plane run), and the
// spheres stay above it; sphere_in_cylinder.py spins the cylinder from
// t = 5 and the sphere is dragged round (its speed grows).
func TestScriptedPlanes3D(t *testing.T) {
	type vec = [3]float64
	cases := map[string]func(tt float64) (p, v vec){
		"oscillating_plane": func(tt float64) (vec, vec) {
			if tt < 5 {
				return vec{}, vec{}
			}
			return vec{0, math.Sin(2 * math.Pi * (tt - 5)), 0}, vec{0, 2 * math.Pi * math.Cos(2*math.Pi*(tt-5)), 0}
		},
		"translating_plane": func(tt float64) (vec, vec) {
			switch {
			case tt < 5:
				return vec{}, vec{}
			case tt < 20:
				return vec{1 - math.Cos(math.Pi*(tt-5)), 0, math.Sin(2 * math.Pi * (tt - 5))},
					vec{math.Pi * math.Sin(math.Pi*(tt-5)), 0, 2 * math.Pi * math.Cos(2*math.Pi*(tt-5))}
			}
			return vec{1 - math.Cos(math.Pi*(tt-5)), math.Sin(math.Pi * (tt - 20)), math.Sin(2 * math.Pi * (tt - 5))},
				vec{math.Pi * math.Sin(math.Pi*(tt-5)), math.Pi * math.Cos(math.Pi*(tt-20)), 2 * math.Pi * math.Cos(2*math.Pi*(tt-5))}
		},
	}
	for name, formula := range cases {
		r := rigid3dScene(t, name)
		st := r.Stepper
		end := 7.0
		if name == "translating_plane" {
			end = 21
		}
		for st.T < end-1e-9 {
			if err := st.Step(); err != nil {
				t.Fatal(err)
			}
			tt := float64(st.N) * st.H
			p, v := formula(tt)
			pl := r.Sys.Planes[0]
			if (vec{pl.P.X, pl.P.Y, pl.P.Z}) != p || (vec{pl.V.X, pl.V.Y, pl.V.Z}) != v {
				t.Fatalf("%s t = %g: plane at %v moving %v, want %v and %v", name, tt, pl.P, pl.V, p, v)
			}
		}
	}
	r := rigid3dScene(t, "sphere_in_cylinder")
	st := r.Stepper
	var speed5 float64
	for st.T < 8-1e-9 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		tt := float64(st.N) * st.H
		c := r.Sys.Cyls[0]
		if tt >= 5 && (c.W.Z != 2*math.Pi || c.A.Z != 1) {
			t.Fatalf("t = %g: cylinder axis %v, angular velocity %v", tt, c.A, c.W)
		}
		if math.Abs(tt-5) < 1e-9 {
			speed5 = math.Hypot(st.V[0], st.V[1])
		}
	}
	if speed := math.Hypot(st.V[0], st.V[1]); !(speed > speed5+1) {
		t.Errorf("sphere speed %g at t = 8, %g at t = 5: the spinning cylinder does not drag it", speed, speed5)
	}
}

// TestScriptedCoefficients: different_restitution.py gives the three
// balls' floor contacts c = 0, 0.5, 1 (SCISim's balls2d and rigidbody3d
// versions): at its first impact each ball leaves at −c times its impact
// speed, with the scene's operator and every operator that takes
// per-contact coefficients (all but qce, which is elastic);
// different_friction.py (3D) gives the three contacts μ = 0, 0.2, 5.
func TestScriptedCoefficients(t *testing.T) {
	for _, op := range append([]string{""}, impact.Names()...) {
		if op != "qce" {
			scriptedRestitution(t, op)
		}
	}
	r3 := rigid3dScene(t, "different_friction")
	st := r3.Stepper
	for k := 0; k < 300 && st.Last.Contacts < 3; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if mu := st.Problem.Mu; len(mu) != 3 || mu[0] != 0 || mu[1] != 0.2 || mu[2] != 5 {
		t.Errorf("friction coefficients %v, want [0 0.2 5]", mu)
	}
}

// scriptedRestitution runs different_restitution with operator op (""
// the scene's) and checks each ball's first rebound.
func scriptedRestitution(t *testing.T, op string) {
	r := ball2dSceneWith(t, "different_restitution", scenario.Options{Operator: op})
	st := r.Stepper
	hit := [3]bool{}
	for k := 0; k < 200; k++ {
		v0 := append([]float64(nil), st.V...)
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.Last.Contacts == 0 {
			continue
		}
		p := &st.Problem
		for i, c := range r.Sys.Contacts() {
			b := int(c.I)
			if hit[b] {
				continue
			}
			hit[b] = true
			want := []float64{0, 0.5, 1}[b]
			if p.CoR[i] != want {
				t.Errorf("%s: ball %d: contact restitution %g, want %g", op, b, p.CoR[i], want)
			}
			// v⁺ from the impulse: −c times the velocity at impact (v0
			// plus the step's gravity is what the impulse met).
			vp := p.V[2*b+1] + st.Lambda[i]/2
			if math.Abs(vp+want*p.V[2*b+1]) > 1e-9*math.Abs(p.V[2*b+1]) {
				t.Errorf("%s: ball %d (c = %g): leaves at %.12g after meeting the floor at %.12g (v before the step %g)", op, b, want, vp, p.V[2*b+1], v0[2*b+1])
			}
		}
	}
	if hit != [3]bool{true, true, true} {
		t.Fatalf("%s: impacts %v", op, hit)
	}
}

// TestWallDeleteAndInsertion: wall_delete.py removes plane 2 at t = 2;
// insertion_test.py inserts a ball at x = 8 sin(2t) every quarter second.
func TestWallDeleteAndInsertion(t *testing.T) {
	r := ball2dScene(t, "wall_delete")
	for r.Stepper.T < 2.5 {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 3, false: 4}[float64(r.Stepper.N)*r.Stepper.H >= 2]; len(r.Sys.Planes) != want {
			t.Fatalf("t = %g: %d planes, want %d", r.Stepper.T, len(r.Sys.Planes), want)
		}
	}
	r = ball2dScene(t, "insertion_test")
	st := r.Stepper
	for st.T < 1.1 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if r.Sys.N() != 4 || len(st.Q) != 8 {
		t.Fatalf("%d balls (state %d) at t = %g, want 4", r.Sys.N(), len(st.Q), st.T)
	}
	for b := 0; b < 4; b++ {
		tb := 0.25 * float64(b+1)
		if want := 8 * math.Sin(2*tb); math.Abs(r.Sys.Q[2*b]-want) > 1e-12 {
			t.Errorf("ball %d inserted at x = %g, want %g", b, r.Sys.Q[2*b], want)
		}
	}
}

// TestScriptErrors: bad scripts are one line naming the script's line;
// loading errors come before the run, errors in a step stop it there.
func TestScriptErrors(t *testing.T) {
	dir := t.TempDir()
	xml := `<ball2d_scene>
<scripting callback="s"/>
<integrator type="verlet" dt="0.01"/>
<gravity fx="0" fy="-10"/>
<static_plane x="0 0" n="0 1"/>
<ball x="0" y="0.5" vx="0" vy="0" m="1" r="0.5" fixed="0"/>
<impact_operator type="gr" CoR="0.5" v_tol="1e-9" cache_impulses="0"><solver name="ql" tol="1e-12"/></impact_operator>
</ball2d_scene>
`
	cases := []struct {
		name, py string
		atLoad   bool
		want     string
	}{
		{"missing function", "import balls2d\ndef startOfStep():\n  balls2d.setStaticPlaneAngle(0, 1)\n", true, "s.py:3: balls2d.setStaticPlaneAngle is not provided by impactsim"},
		{"syntax", "def startOfStep(:\n  pass\n", true, "s.py:1:"},
		{"unknown module", "import scipy\n", true, "s.py:1: import scipy: expected one of the modules"},
		{"endOfSim", "def endOfSim():\n  pass\n", true, "endOfSim is not supported"},
		{"raise at load", "raise ValueError('bad setup')\n", true, "s.py:1: ValueError: bad setup (in top level)"},
		{"raise", "def startOfStep():\n  if balls2d.nextIteration() == 3:\n    raise RuntimeError('stop here')\n", false, "step 3 (t = 0.02 → 0.03): hook script s.py: s.py:3: RuntimeError: stop here (in startOfStep)"},
		{"plane index", "import balls2d\ndef startOfStep():\n  balls2d.setStaticPlanePosition(7, 0.0, 1.0)\n", false, "s.py:3: balls2d.setStaticPlanePosition: plane index 7 out of range [0, 1) (in startOfStep)"},
		{"assert", "import balls2d\ndef startOfStep():\n  assert balls2d.numStaticPlanes() == 4\n", false, "s.py:3: assertion failed (in startOfStep)"},
		{"bad coefficient", "import balls2d\ndef restitutionCoefficient():\n  c = balls2d.cor()\n  c[0] = 1.5\n", false, "s.py:4: balls2d.cor()[0] = 1.5: expected a coefficient of restitution in [0, 1]"},
		{"sys.exit", "import sys\ndef startOfStep():\n  sys.exit(1)\n", false, "s.py:3: the script called sys.exit(1,)"},
		{"contacts outside", "import balls2d\ndef startOfStep():\n  balls2d.numCollisions()\n", false, "s.py:3: balls2d.numCollisions: the step's contacts are known in restitutionCoefficient and frictionCoefficient only"},
	}
	for _, c := range cases {
		if err := os.WriteFile(filepath.Join(dir, "s.py"), []byte(c.py), 0o644); err != nil {
			t.Fatal(err)
		}
		sc, err := scene.ReadBall2D(strings.NewReader(xml), filepath.Join(dir, "scene.xml"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.NewBall2D(sc, scenario.Options{})
		if c.atLoad {
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "scene.xml:2: scripting: ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: got %v, want a load error with %q", c.name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k := 0; k < 20 && err == nil; k++ {
			err = r.Stepper.Step()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func rigid2dScene(t *testing.T, path string) *scenario.Rigid2D {
	t.Helper()
	sc, err := scene.LoadRigidBody2D(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewRigid2D(sc, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestScriptedPlanes2D: SCISim's rigidbody2d kinematic tests.
// translating_plane.py moves the floor up and down for 2 ≤ t ≤ 6 and
// sideways from t = 10 (checked after every step through t = 10.5, both
// branches): the floor is where the script puts it with the script's
// velocity, and when it moves sideways (at up to 2π) the circle, held by
// friction, rolls with it from t = 10.1 on (slip 1e-12; friction needs
// a few steps to bring it to the floor's speed). rotating_plane.py turns plane 1
// about its point by a quarter turn in the first second: its normal and
// angular velocity are the script's after every step, and the circle
// never goes through it.
func TestScriptedPlanes2D(t *testing.T) {
	dir := filepath.Join("..", "parity", "testdata", "rigidbody2d", "tests_serialization", "kinematic_tests")
	r := rigid2dScene(t, filepath.Join(dir, "translating_plane.xml"))
	st := r.Stepper
	for st.T < 10.5 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		tt := float64(st.N) * st.H
		p, v := [2]float64{0, -2}, [2]float64{}
		switch {
		case tt >= 2 && tt <= 6:
			p[1], v[1] = -2-math.Sin(2*math.Pi*(tt-2)), -2*math.Pi*math.Cos(2*math.Pi*(tt-2))
		case tt >= 10:
			p[0], v[0] = math.Sin(2*math.Pi*(tt-10)), 2*math.Pi*math.Cos(2*math.Pi*(tt-10))
		}
		pl := r.Sys.Planes[0]
		if pl.P != p || pl.V != v || pl.N != [2]float64{0, 1} {
			t.Fatalf("t = %g: floor at %v moving %v, want %v moving %v", tt, pl.P, pl.V, p, v)
		}
		// From t = 10 the floor shakes sideways and friction (μ = 10) makes
		// the circle roll with it: its contact point moves with the floor.
		if slip := st.V[0] + 0.5*st.V[2] - v[0]; tt > 10.1 && (st.Last.Contacts != 1 || math.Abs(slip) > 1e-12) {
			t.Fatalf("t = %g: %d contacts, the circle's contact point slips at %g on the floor moving at %g", tt, st.Last.Contacts, slip, v[0])
		}
	}

	r = rigid2dScene(t, filepath.Join(dir, "rotating_plane.xml"))
	st = r.Stepper
	for st.N < 200 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		tt := float64(st.N) * st.H
		n, w := [2]float64{-1, 0}, 0.0
		if tt <= 1 {
			n, w = [2]float64{-math.Sin(0.5 * math.Pi * tt), math.Cos(0.5 * math.Pi * tt)}, 0.5*math.Pi
		}
		pl := r.Sys.Planes[1]
		if math.Abs(pl.N[0]-n[0]) > 1e-15 || math.Abs(pl.N[1]-n[1]) > 1e-15 || pl.W != w || pl.P != [2]float64{2, -4} {
			t.Fatalf("t = %g: plane 1 through %v with normal %v turning at %g, want normal %v turning at %g", tt, pl.P, pl.N, pl.W, n, w)
		}
		if d := pl.Dist([2]float64{st.Q[0], st.Q[1]}); d < 0.5-1e-6 {
			t.Fatalf("t = %g: the circle's centre is %g from plane 1 (radius 0.5)", tt, d)
		}
	}
}

// TestRigidBody2DInsertionDeletion: insertion_test.py adds a circle at
// x = 8 sin(2t) every quarter second; insertion_deletion_test.py adds one
// every 25 steps and at step 401 deletes all but the last, which goes on
// from where it was; circles_falling_on_wedge_wall_delete.py (on a copy of
// its scene with a larger time step) deletes plane 3 at t = 1.5.
func TestRigidBody2DInsertionDeletion(t *testing.T) {
	dir := filepath.Join("..", "parity", "testdata", "rigidbody2d")
	r := rigid2dScene(t, filepath.Join(dir, "tests_python_serialization", "insertion_test.xml"))
	st := r.Stepper
	for st.T < 1.1 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if r.Sys.N() != 5 || len(st.Q) != 15 {
		t.Fatalf("%d bodies (state %d) at t = %g, want 5", r.Sys.N(), len(st.Q), st.T)
	}
	for b := 0; b < 5; b++ {
		tb := 0.25 * float64(b)
		if want := 8 * math.Sin(2*tb); math.Abs(r.Sys.Q[3*b]-want) > 1e-12 || r.Sys.Shapes[b].R != 0.25 {
			t.Errorf("body %d inserted at x = %g (r = %g), want %g (0.25)", b, r.Sys.Q[3*b], r.Sys.Shapes[b].R, want)
		}
	}

	r = rigid2dScene(t, filepath.Join(dir, "tests_python_serialization", "insertion_deletion_test.xml"))
	st = r.Stepper
	var last []float64
	for st.N < 405 {
		if st.N == 400 {
			if r.Sys.N() != 16 {
				t.Fatalf("%d bodies after 400 steps, want 16", r.Sys.N())
			}
			last = append([]float64(nil), st.Q[3*15:]...)
		}
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if st.N == 401 {
			if r.Sys.N() != 1 || len(st.Q) != 3 || len(st.V) != 3 || len(r.Sys.M) != 1 {
				t.Fatalf("%d bodies (state %d) after step 401, want 1", r.Sys.N(), len(st.Q))
			}
			// The survivor took step 401 from where step 400 left it.
			if math.Abs(st.Q[0]-last[0]) > 0.02*10 || math.Abs(st.Q[1]-last[1]) > 0.02*10 {
				t.Errorf("the last circle jumped from %v to %v", last, st.Q)
			}
		}
	}

	src, err := os.ReadFile(filepath.Join(dir, "tests_serialization", "circles_falling_on_wedge_wall_delete.xml"))
	if err != nil {
		t.Fatal(err)
	}
	py, err := os.ReadFile(filepath.Join(dir, "tests_serialization", "circles_falling_on_wedge_wall_delete.py"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "circles_falling_on_wedge_wall_delete.py"), py, 0o644); err != nil {
		t.Fatal(err)
	}
	xml := strings.Replace(string(src), `dt="0.0001"`, `dt="0.01"`, 1)
	if err := os.WriteFile(filepath.Join(tmp, "wedge.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	r = rigid2dScene(t, filepath.Join(tmp, "wedge.xml"))
	st = r.Stepper
	for st.N < 160 {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 3, false: 4}[st.N >= 151]; len(r.Sys.Planes) != want {
			t.Fatalf("after step %d: %d planes, want %d", st.N, len(r.Sys.Planes), want)
		}
	}
}

// TestScriptErrors2D: the rigidbody2d module's arguments are checked, one
// line with the script's line: a plane index, a normal that is not a unit
// vector, a body index to delete twice, a missing function.
func TestScriptErrors2D(t *testing.T) {
	dir := t.TempDir()
	xml := `<rigidbody2d_scene>
<scripting callback="s"/>
<integrator type="verlet" dt="0.01"/>
<near_earth_gravity f="0 -10"/>
<static_plane x="0 0" n="0 1"/>
<geometry type="circle" r="0.5"/>
<rigid_body x="0 2" theta="0" v="0 0" omega="0" rho="1" geo_idx="0"/>
<impact_operator type="gr" CoR="0.5" v_tol="1e-9" cache_impulses="0"><solver name="ql" tol="1e-12"/></impact_operator>
</rigidbody2d_scene>
`
	cases := []struct{ name, py, want string }{
		{"missing function", "import rigidbody2d\ndef startOfStep():\n  rigidbody2d.setStaticPlaneAngle(0, 1)\n", "scene.xml:2: scripting: s.py:3: rigidbody2d.setStaticPlaneAngle is not provided by impactsim"},
		{"plane index", "import rigidbody2d\ndef startOfStep():\n  rigidbody2d.setStaticPlaneNormal(1, 0.0, 1.0)\n", "s.py:3: rigidbody2d.setStaticPlaneNormal: plane index 1 out of range [0, 1) (in startOfStep)"},
		{"normal", "import rigidbody2d\ndef startOfStep():\n  rigidbody2d.setStaticPlaneNormal(0, 1.0, 1.0)\n", "s.py:3: rigidbody2d.setStaticPlaneNormal: normal (1, 1) has length 1.4142135623730951, expected a unit vector (in startOfStep)"},
		{"delete twice", "import rigidbody2d\ndef startOfStep():\n  rigidbody2d.delete_bodies([0, 0])\n", "s.py:3: rigidbody2d.delete_bodies: body index 0 given twice"},
		{"geometry", "import rigidbody2d\ndef startOfStep():\n  rigidbody2d.addBody(0, 0, 0, 0, 0, 0, 1, 3, 0)\n", "s.py:3: rigidbody2d.addBody: geometry instance index 3 out of range [0, 1)"},
	}
	for _, c := range cases {
		if err := os.WriteFile(filepath.Join(dir, "s.py"), []byte(c.py), 0o644); err != nil {
			t.Fatal(err)
		}
		sc, err := scene.ReadRigidBody2D(strings.NewReader(xml), filepath.Join(dir, "scene.xml"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.NewRigid2D(sc, scenario.Options{})
		for k := 0; err == nil && k < 3; k++ {
			err = r.Stepper.Step()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

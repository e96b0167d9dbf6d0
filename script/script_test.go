package script_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"impactsim/scenario"
	"impactsim/scene"
)

func ball2dScene(t *testing.T, name string) *scenario.Ball2D {
	t.Helper()
	sc, err := scene.LoadBall2D(filepath.Join("..", "parity", "testdata", "ball2d", "tests_python_serialization", name+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewBall2D(sc, scenario.Options{})
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
// speed; different_friction.py (3D) gives the three contacts μ = 0, 0.2, 5.
func TestScriptedCoefficients(t *testing.T) {
	r := ball2dScene(t, "different_restitution")
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
				t.Errorf("ball %d: contact restitution %g, want %g", b, p.CoR[i], want)
			}
			// v⁺ from the impulse: −c times the velocity at impact (v0
			// plus the step's gravity is what the impulse met).
			vp := p.V[2*b+1] + st.Lambda[i]/2
			if math.Abs(vp+want*p.V[2*b+1]) > 1e-9*math.Abs(p.V[2*b+1]) {
				t.Errorf("ball %d (c = %g): leaves at %.12g after meeting the floor at %.12g (v before the step %g)", b, want, vp, p.V[2*b+1], v0[2*b+1])
			}
		}
	}
	if hit != [3]bool{true, true, true} {
		t.Fatalf("impacts %v", hit)
	}
	r3 := rigid3dScene(t, "different_friction")
	st = r3.Stepper
	for k := 0; k < 300 && st.Last.Contacts < 3; k++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if mu := st.Problem.Mu; len(mu) != 3 || mu[0] != 0 || mu[1] != 0.2 || mu[2] != 5 {
		t.Errorf("friction coefficients %v, want [0 0.2 5]", mu)
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

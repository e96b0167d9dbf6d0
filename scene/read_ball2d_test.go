package scene

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sharedBall2D is the project's copy of SCISim's ball2d scenes, relative to
// this package's directory.
const sharedBall2D = "../../shared/scisim-scenes/ball2d"

// sharedScenes lists the shared ball2d scene files, skipping the test if the
// directory is not there.
func sharedScenes(tb testing.TB) []string {
	tb.Helper()
	if _, err := os.Stat(sharedBall2D); err != nil {
		tb.Skipf("shared scenes not available: %v", err)
	}
	var files []string
	err := filepath.WalkDir(sharedBall2D, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".xml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Skip("no shared ball2d scenes")
	}
	return files
}

// refusedShared lists the shared scenes SCISim refuses, with the message
// impactsim gives (SCISim: "Error, CoR must be set to 0 for the
// symplectic_euler staggering.").
var refusedShared = map[string]string{
	"three_ball_collision_cor_0_5.xml": `:7: sobogus_friction_solver attribute "CoR": expected 0 with staggering="symplectic_euler" (SCISim refuses other values), got "0.5"`,
	"three_ball_collision_cor_1_0.xml": `:7: sobogus_friction_solver attribute "CoR": expected 0 with staggering="symplectic_euler" (SCISim refuses other values), got "1.0"`,
}

func TestReadSharedScenes(t *testing.T) {
	for _, f := range sharedScenes(t) {
		s, err := LoadBall2D(f)
		if want, ok := refusedShared[filepath.Base(f)]; ok {
			if err == nil || err.Error() != f+want {
				t.Errorf("%s: error %v, want %s%s", f, err, f, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if s.Source != f {
			t.Errorf("%s: Source = %q", f, s.Source)
		}
		if s.Integrator.Dt <= 0 || s.Integrator.Line == 0 {
			t.Errorf("%s: integrator %+v", f, s.Integrator)
		}
		if s.ImpactOperator.Type == "" && s.Friction.Kind == "" {
			t.Errorf("%s: neither impact operator nor friction solver", f)
		}
		if len(s.Balls) == 0 {
			t.Errorf("%s: no balls", f)
		}
		for _, b := range s.Balls {
			if b.Line == 0 || b.M <= 0 || b.R <= 0 {
				t.Errorf("%s: bad ball %+v", f, b)
			}
		}
		for _, p := range s.Planes {
			if math.Abs(math.Hypot(p.NX, p.NY)-1) > 1e-15 {
				t.Errorf("%s:%d: plane normal not normalized: %v %v", f, p.Line, p.NX, p.NY)
			}
		}
	}
}

func TestReadPoolBreak(t *testing.T) {
	s, err := LoadBall2D("testdata/pool_break_standard.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Balls) != 16 {
		t.Fatalf("%d balls, want 16", len(s.Balls))
	}
	if s.Balls[0].Line != 15 || s.Balls[0].X != -4 || s.Balls[0].VX != 1 {
		t.Errorf("cue ball %+v", s.Balls[0])
	}
	if s.Integrator != (Integrator{"verlet", 0.1, 9}) {
		t.Errorf("integrator %+v", s.Integrator)
	}
	op := s.ImpactOperator
	if op.Type != "gr" || op.CoR != 1 || op.VTol != 1e-9 || op.CacheImpulses || op.Solver != "ipopt" || op.Line != 11 {
		t.Errorf("impact operator %+v", op)
	}
	sc := op.SolverConfig
	if sc == nil || sc.Tol != 1e-12 || !reflect.DeepEqual(sc.LinearSolvers, []string{"ma97", "ma57", "mumps", "ma27", "ma86"}) || sc.Line != 12 {
		t.Errorf("solver %+v", sc)
	}
	if c := s.Camera; c == nil || *c != (Camera{CX: 1.52627, ScaleFactor: 6.19968, FPS: 10, Line: 7}) {
		t.Errorf("camera %+v", s.Camera)
	}
	if s.Friction.Kind != "" || s.EndTime != 0 || s.Gravity != (Gravity{}) {
		t.Errorf("unexpected friction/end time/gravity: %+v %v %+v", s.Friction, s.EndTime, s.Gravity)
	}
}

func TestReadLongNumbers(t *testing.T) {
	s, err := LoadBall2D("testdata/ball_slide_at_threshold.xml")
	if err != nil {
		t.Fatal(err)
	}
	p := s.Planes[0]
	// n = (−1, 2)/√5 to 250 digits, then normalized.
	if math.Abs(p.NX+1/math.Sqrt(5)) > 2e-16 || math.Abs(p.NY-2/math.Sqrt(5)) > 2e-16 {
		t.Errorf("normal %v %v", p.NX, p.NY)
	}
	if p.X != 0.22360679774997896964 || p.Y != -0.44721359549995793928 {
		t.Errorf("point %v %v", p.X, p.Y)
	}
	f := s.Friction
	if f.Kind != "sobogus" || f.Mu != 0.5 || f.CoR != 0 || f.MaxIters != 5000 || f.Tol != 1e-12 || f.EvalEvery != 1 ||
		f.Staggering != "symplectic_euler" || f.CacheImpulses != "normal_and_friction" || f.Stabilization || f.PenetrationThreshold != 1e-5 {
		t.Errorf("friction %+v", f)
	}
	if s.Gravity.Y != -10 || s.Gravity.X != 0 {
		t.Errorf("gravity %+v", s.Gravity)
	}
}

func TestReadGRR(t *testing.T) {
	s, err := LoadBall2D("testdata/balls_bouncing_on_wedge_apgd.xml")
	if err != nil {
		t.Fatal(err)
	}
	op := s.ImpactOperator
	if op.Type != "grr" || op.CoR != 1 || op.Elastic == nil || op.Inelastic == nil || op.Solver != "" {
		t.Fatalf("operator %+v", op)
	}
	el, in := op.Elastic, op.Inelastic
	if el.Type != "gr" || el.VTol != 1e-6 || el.Solver != "apgd" || el.SolverConfig.Tol != 1e-7 || el.SolverConfig.MaxIters != 5000 || el.Line != 8 {
		t.Errorf("elastic %+v %+v", el, el.SolverConfig)
	}
	if in.Type != "lcp" || in.CoR != 0 || in.Solver != "apgd" || in.Line != 11 {
		t.Errorf("inelastic %+v", in)
	}
	if len(s.Planes) != 3 || len(s.Balls) != 7 {
		t.Errorf("%d planes %d balls", len(s.Planes), len(s.Balls))
	}
}

func TestReadPortalScene(t *testing.T) {
	s, err := LoadBall2D("testdata/everything_no_friction.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Planes) != 3 || len(s.Portals) != 1 || len(s.Drums) != 1 || len(s.Balls) != 4 {
		t.Fatalf("planes %d portals %d drums %d balls %d", len(s.Planes), len(s.Portals), len(s.Drums), len(s.Balls))
	}
	if s.Portals[0] != (Portal{PlaneA: 0, PlaneB: 1, Line: 17}) {
		t.Errorf("portal %+v", s.Portals[0])
	}
	if s.Drums[0] != (Drum{0, 0, 10, 20}) {
		t.Errorf("drum %+v", s.Drums[0])
	}
	r := 1 / math.Sqrt2
	if p := s.Planes[2]; p.X != 0 || p.Y != -8 || math.Abs(p.NX-r) > 2e-16 || math.Abs(p.NY-r) > 2e-16 {
		t.Errorf("plane 2 %+v", p)
	}
}

func TestReadMinimalAndOptional(t *testing.T) {
	const doc = `<?xml version="1.0"?>
<!-- comment -->
<ball2d_scene>
  <integrator type="symplectic_euler" dt="0.5"/>
  <impact_operator CoR="0.25" name="apgd" tol="3.0e-8" max_iters="50" cache_impulses="1"/>
  <end_time t="2.5"/>
  <gravity fx="1" fy="-2"/>
  <gravity fx="0.5" fy="0"/>
  <some_renderer anything="x"><child/></some_renderer>
  <ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="1"/>
</ball2d_scene>
`
	s, err := ReadBall2D(strings.NewReader(doc), "mini.xml")
	if err != nil {
		t.Fatal(err)
	}
	op := s.ImpactOperator
	if !op.Legacy || op.Type != "lcp" || op.CoR != 0.25 || op.Solver != "apgd" || op.SolverConfig.Tol != 3e-8 || op.SolverConfig.MaxIters != 50 || !op.CacheImpulses {
		t.Errorf("legacy operator %+v %+v", op, op.SolverConfig)
	}
	if s.EndTime != 2.5 || s.EndTimeLine != 6 {
		t.Errorf("end time %v line %d", s.EndTime, s.EndTimeLine)
	}
	if s.Gravity != (Gravity{1.5, -2, 7}) {
		t.Errorf("gravity %+v", s.Gravity)
	}
	if !s.Balls[0].Fixed || s.Balls[0].Line != 10 || s.Camera != nil {
		t.Errorf("ball %+v camera %v", s.Balls[0], s.Camera)
	}
	if s.Integrator.Type != "symplectic_euler" {
		t.Errorf("integrator %+v", s.Integrator)
	}
}

func TestReadStaggeredProjections(t *testing.T) {
	const doc = `<ball2d_scene>
  <integrator type="verlet" dt="0.01"/>
  <staggered_projections_friction_solver mu="2.0" CoR="0.8" max_iters="50" tol="1.0e-8" staggering="geometric" internal_warm_start_alpha="1" internal_warm_start_beta="0">
    <lcp_impact_solver name="ipopt" tol="1.0e-12" linear_solvers="ma97"/>
    <mdp_friction_solver name="ql" tol="1.0e-12"/>
  </staggered_projections_friction_solver>
  <ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="0"/>
</ball2d_scene>`
	s, err := ReadBall2D(strings.NewReader(doc), "sp.xml")
	if err != nil {
		t.Fatal(err)
	}
	f := s.Friction
	if f.Kind != "staggered_projections" || f.Mu != 2 || f.CoR != 0.8 || f.MaxIters != 50 || f.Tol != 1e-8 || f.Staggering != "geometric" ||
		!f.InternalWarmStartAlpha || f.InternalWarmStartBeta || f.ImpactSolver.Name != "ipopt" || f.MDPSolver.Name != "ql" || f.MDPSolver.Line != 5 {
		t.Errorf("friction %+v", f)
	}
}

func TestReadErrors(t *testing.T) {
	const head = "<ball2d_scene>\n  <integrator type=\"verlet\" dt=\"0.1\"/>\n"
	const ball = `  <ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="0"/>` + "\n"
	const tail = "</ball2d_scene>\n"
	const gr = `  <impact_operator type="gr" CoR="1" v_tol="1e-9" cache_impulses="0"><solver name="ipopt" linear_solvers="ma27" tol="1e-12"/></impact_operator>` + "\n"
	cases := []struct {
		name, doc string
		want      []string // substrings of the message
	}{
		{"malformed", head + "  <ball x=\"0\"\n" + tail, []string{"bad.xml:4:", "malformed XML"}},
		{"unclosed", head + ball, []string{"bad.xml:", "malformed XML"}},
		{"empty", "", []string{"bad.xml:1:", "no root"}},
		{"root", "<scene/>", []string{"bad.xml:1:", "unsupported element <scene>"}},
		{"unknown element", head + ball + "  <balll x=\"1\"/>\n" + tail, []string{"bad.xml:4:", "unsupported element <balll>"}},
		{"unsupported scisim element", head + "  <penalty k=\"1\"/>\n" + tail, []string{"bad.xml:3:", "unsupported element <penalty>"}},
		{"lees-edwards bounds", head + "  <lees_edwards_portal planeA=\"0\" planeB=\"1\" v=\"1\" bounds=\"0\"/>\n" + tail, []string{"bad.xml:3:", `lees_edwards_portal attribute "bounds"`}},
		{"lees-edwards planes", head + "  <lees_edwards_portal planeA=\"0\" planeB=\"1\" v=\"1\" bounds=\"2\"/>\n" + tail, []string{"bad.xml:3:", `lees_edwards_portal attribute "planeA": expected the index of a static_plane`}},
		{"child of leaf", head + "  <ball x=\"0\" y=\"0\" vx=\"0\" vy=\"0\" m=\"1\" r=\"1\" fixed=\"0\">\n    <spin w=\"1\"/>\n  </ball>\n" + tail, []string{"bad.xml:4:", "unsupported element <spin>"}},
		{"unknown attribute", head + `  <ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="0" z="3"/>` + "\n" + tail, []string{"bad.xml:3:", `unsupported attribute "z"`}},
		{"missing attribute", head + `  <ball x="0" y="0" vx="0" vy="0" m="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `missing required attribute "r"`}},
		{"nan mass", head + ball + `  <ball x="3" y="0" vx="0" vy="0" m="NaN" r="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:4:", `ball attribute "m": expected a positive number from 1e-30 to 1e30, got "NaN"`}},
		{"negative radius", head + `  <ball x="0" y="0" vx="0" vy="0" m="1" r="-0.5" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `ball attribute "r"`, `got "-0.5"`}},
		{"bad number", head + `  <ball x="0,5" y="0" vx="0" vy="0" m="1" r="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `ball attribute "x": expected a number from -1e30 to 1e30, got "0,5"`}},
		{"bad bool", head + `  <ball x="0" y="0" vx="0" vy="0" m="1" r="1" fixed="yes"/>` + "\n" + tail, []string{"bad.xml:3:", `ball attribute "fixed"`}},
		{"tiny mass", head + `  <ball x="0" y="0" vx="0" vy="0" m="1e-320" r="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `ball attribute "m": expected a positive number from 1e-30 to 1e30, got "1e-320"`}},
		{"huge mass", head + `  <ball x="0" y="0" vx="0" vy="0" m="1e308" r="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `attribute "m"`}},
		{"huge speed", head + `  <ball x="0" y="0" vx="1e308" vy="0" m="1" r="1" fixed="0"/>` + "\n" + tail, []string{"bad.xml:3:", `ball attribute "vx": expected a number from -1e30 to 1e30, got "1e308"`}},
		{"huge gravity", head + "  <gravity fx=\"0\" fy=\"-1e308\"/>\n" + ball + tail, []string{"bad.xml:3:", `gravity attribute "fy"`}},
		{"tiny dt", "<ball2d_scene>\n  <integrator type=\"verlet\" dt=\"1e-300\"/>\n" + ball + tail, []string{"bad.xml:2:", `integrator attribute "dt": expected a positive number from 1e-30 to 1e30, got "1e-300"`}},
		{"huge dt", "<ball2d_scene>\n  <integrator type=\"verlet\" dt=\"1e300\"/>\n" + ball + tail, []string{"bad.xml:2:", `attribute "dt"`}},
		{"dt zero", "<ball2d_scene>\n\n  <integrator type=\"verlet\" dt=\"0\"/>\n" + tail, []string{"bad.xml:3:", `integrator attribute "dt": expected a positive number from 1e-30 to 1e30, got "0"`}},
		{"dt negative", "<ball2d_scene>\n  <integrator type=\"verlet\" dt=\"-1e-3\"/>\n" + tail, []string{"bad.xml:2:", `integrator attribute "dt"`}},
		{"integrator type", "<ball2d_scene>\n  <integrator type=\"rk4\" dt=\"0.1\"/>\n" + tail, []string{"bad.xml:2:", `integrator attribute "type": expected one of verlet, symplectic_euler, got "rk4"`}},
		{"no integrator", "<ball2d_scene>\n" + ball + tail, []string{"bad.xml:1:", "missing required element <integrator>"}},
		{"unknown operator", head + `  <impact_operator type="newton" CoR="1" v_tol="1e-9" cache_impulses="0"/>` + "\n" + tail, []string{"bad.xml:3:", `impact_operator attribute "type": expected one of gr, grr, lcp, gauss_seidel, jacobi, got "newton"`}},
		{"unknown solver", head + `  <impact_operator type="lcp" CoR="1" cache_impulses="0">` + "\n" + `    <solver name="mosek" tol="1"/>` + "\n  </impact_operator>\n" + tail, []string{"bad.xml:4:", `solver attribute "name": expected one of ipopt, ql, ql_vp, apgd, got "mosek"`}},
		{"gr without solver", head + `  <impact_operator type="gr" CoR="1" v_tol="1e-9" cache_impulses="0"/>` + "\n" + tail, []string{"bad.xml:3:", "missing required element <solver>"}},
		{"CoR range", head + `  <impact_operator type="gauss_seidel" CoR="1.5" v_tol="1e-9" cache_impulses="0"/>` + "\n" + tail, []string{"bad.xml:3:", `impact_operator attribute "CoR": expected a number in [0, 1], got "1.5"`}},
		{"grr missing inelastic", head + `  <impact_operator type="grr" CoR="1" cache_impulses="0">` + "\n" + `    <elastic_operator type="gauss_seidel" v_tol="1e-6"/>` + "\n  </impact_operator>\n" + tail, []string{"bad.xml:3:", "missing required element <inelastic_operator>"}},
		{"conflict", head + gr + `  <sobogus_friction_solver mu="0.5" CoR="0" max_iters="10" tol="1e-9" eval_every="1" staggering="geometric" cache_impulses="none"/>` + "\n" + tail, []string{"bad.xml:4:", "conflicts with <impact_operator> on line 3"}},
		{"staggering", head + `  <sobogus_friction_solver mu="0.5" CoR="0" max_iters="10" tol="1e-9" eval_every="1" staggering="leapfrog" cache_impulses="none"/>` + "\n" + tail, []string{"bad.xml:3:", `sobogus_friction_solver attribute "staggering"`, `"leapfrog"`}},
		{"eval_every", head + `  <sobogus_friction_solver mu="0.5" CoR="0" max_iters="10" tol="1e-9" eval_every="11" staggering="geometric" cache_impulses="none"/>` + "\n" + tail, []string{"bad.xml:3:", `attribute "eval_every"`}},
		{"duplicate integrator", head + "  <integrator type=\"verlet\" dt=\"0.1\"/>\n" + tail, []string{"bad.xml:3:", "duplicate element <integrator> (first on line 2)"}},
		{"plane components", head + `  <static_plane x="0" n="0 1"/>` + "\n" + tail, []string{"bad.xml:3:", `static_plane attribute "x": expected two numbers`}},
		{"plane zero normal", head + `  <static_plane x="0 0" n="0 0"/>` + "\n" + tail, []string{"bad.xml:3:", `static_plane attribute "n": expected a non-zero vector, got "0 0"`}},
		{"portal index", head + `  <static_plane x="0 0" n="0 1"/>` + "\n" + `  <static_plane x="0 5" n="0 -1"/>` + "\n" + `  <planar_portal planeA="0" planeB="2"/>` + "\n" + tail, []string{"bad.xml:5:", `planar_portal attribute "planeB"`, `got "2"`}},
		{"portal reuse", head + `  <static_plane x="0 0" n="0 1"/>` + "\n" + `  <static_plane x="0 5" n="0 -1"/>` + "\n" + `  <planar_portal planeA="0" planeB="0"/>` + "\n" + tail, []string{"bad.xml:5:", `planar_portal attribute "planeB"`}},
		{"text", head + "  hello\n" + tail, []string{"bad.xml:3:", `unexpected text "hello"`}},
		{"ratio dt", strings.Replace(head, `dt="0.1"`, `dt="1/0"`, 1) + tail, []string{"bad.xml:2:", `integrator attribute "dt": expected a positive number or a ratio "p/q" of positive integers, got "1/0"`}},
		{"end_time", head + `  <end_time t="0"/>` + "\n" + tail, []string{"bad.xml:3:", `end_time attribute "t"`}},
		{"camera", head + `  <camera cx="0" cy="0" scale_factor="1" fps="-3" render_at_fps="0" locked="0"/>` + "\n" + tail, []string{"bad.xml:3:", `camera attribute "fps"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBall2D(strings.NewReader(c.doc), "bad.xml")
			if err == nil {
				t.Fatal("no error")
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not *scene.Error", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			t.Log(err)
			if strings.Count(err.Error(), "\n") != 0 {
				t.Errorf("multi-line error %q", err)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := LoadBall2D("testdata/does-not-exist.xml"); err == nil {
		t.Fatal("no error")
	}
}

// stripLines zeroes Source and every Line field so that a generated scene
// can be compared with a file.
func stripLines(s *Ball2DScene) *Ball2DScene {
	c := *s
	c.Source = ""
	c.Integrator.Line = 0
	c.Gravity.Line = 0
	c.EndTimeLine = 0
	c.ImpactOperator = stripOp(c.ImpactOperator)
	c.Friction.Line = 0
	if c.Camera != nil {
		cam := *c.Camera
		cam.Line = 0
		c.Camera = &cam
	}
	c.Balls = append([]Ball(nil), c.Balls...)
	for i := range c.Balls {
		c.Balls[i].Line = 0
	}
	c.Planes = append([]Plane(nil), c.Planes...)
	for i := range c.Planes {
		c.Planes[i].Line = 0
	}
	c.Drums = append([]Drum(nil), c.Drums...)
	for i := range c.Drums {
		c.Drums[i].Line = 0
	}
	c.Portals = append([]Portal(nil), c.Portals...)
	for i := range c.Portals {
		c.Portals[i].Line = 0
	}
	return &c
}

func stripOp(op ImpactOperatorConfig) ImpactOperatorConfig {
	op.Line = 0
	if op.SolverConfig != nil {
		sc := *op.SolverConfig
		sc.Line = 0
		op.SolverConfig = &sc
	}
	if op.Elastic != nil {
		e := stripOp(*op.Elastic)
		op.Elastic = &e
	}
	if op.Inelastic != nil {
		e := stripOp(*op.Inelastic)
		op.Inelastic = &e
	}
	return op
}

func TestGeneratorsMatchFiles(t *testing.T) {
	for _, c := range []struct {
		file string
		gen  *Ball2DScene
	}{
		{"testdata/pool_break_standard.xml", PoolBreak()},
		{"testdata/bernoullis_problem.xml", Bernoulli()},
		{"testdata/newtons_cradle.xml", NewtonsCradle(3)},
	} {
		f, err := LoadBall2D(c.file)
		if err != nil {
			t.Fatal(err)
		}
		got, want := stripLines(c.gen), stripLines(f)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: generated scene differs\n got %+v\nwant %+v", c.file, got, want)
		}
		// Bit-identical coordinates, including the signs of zeros.
		for i := range f.Balls {
			a, b := c.gen.Balls[i], f.Balls[i]
			if math.Float64bits(a.X) != math.Float64bits(b.X) || math.Float64bits(a.Y) != math.Float64bits(b.Y) {
				t.Errorf("%s ball %d: (%v, %v) vs (%v, %v)", c.file, i, a.X, a.Y, b.X, b.Y)
			}
		}
	}
}

func TestNewtonsCradle(t *testing.T) {
	s := NewtonsCradle(5)
	if len(s.Balls) != 5 || s.Balls[0].VX != 2 || s.Balls[4].X != 3 {
		t.Errorf("%+v", s.Balls)
	}
}

func TestDrumGrid(t *testing.T) {
	for _, n := range []int{1, 2, 7, 9, 10, 100, 1000} {
		for _, mode := range []string{"drop", "gas"} {
			s := DrumGrid(n, mode, 42)
			if len(s.Balls) != n {
				t.Fatalf("n=%d: %d balls", n, len(s.Balls))
			}
			k := int(math.Ceil(math.Sqrt(float64(n))))
			var dmax, sx, sy float64
			for i, b := range s.Balls {
				if b.M != 1 || b.R != 1 {
					t.Fatalf("ball %d: %+v", i, b)
				}
				// On the lattice of spacing 2.25 centred on the k×k grid.
				gx := b.X/DrumGridSpacing + float64(k-1)/2
				gy := b.Y/DrumGridSpacing + float64(k-1)/2
				if math.Abs(gx-math.Round(gx)) > 1e-12 || math.Abs(gy-math.Round(gy)) > 1e-12 || int(math.Round(gx)) != i%k || int(math.Round(gy)) != i/k {
					t.Fatalf("n=%d ball %d at (%v, %v) not in cell %d", n, i, b.X, b.Y, i)
				}
				dmax = math.Max(dmax, math.Hypot(b.X, b.Y))
				sx += b.X
				sy += b.Y
				switch mode {
				case "drop":
					if b.VX != 0 || b.VY != 0 {
						t.Fatalf("drop ball moving: %+v", b)
					}
				case "gas":
					if math.Abs(math.Hypot(b.VX, b.VY)-1) > 1e-15 {
						t.Fatalf("gas ball speed %v", math.Hypot(b.VX, b.VY))
					}
				}
			}
			if k*k == n && (math.Abs(sx) > 1e-9 || math.Abs(sy) > 1e-9) {
				t.Errorf("n=%d: full grid not centred: (%v, %v)", n, sx, sy)
			}
			if len(s.Drums) != 1 || s.Drums[0].R != math.Ceil(dmax+2) || s.Drums[0].X != 0 || s.Drums[0].Y != 0 {
				t.Errorf("n=%d: drum %+v, dmax %v", n, s.Drums, dmax)
			}
			wantG := Gravity{}
			if mode == "drop" {
				wantG.Y = -10
			}
			if s.Gravity != wantG || s.Integrator.Dt != 0.01 || s.ImpactOperator.Type != "gr" || s.ImpactOperator.CoR != 1 {
				t.Errorf("n=%d %s: gravity %+v integrator %+v operator %+v", n, mode, s.Gravity, s.Integrator, s.ImpactOperator)
			}
		}
	}
	a, b, c := DrumGrid(50, "gas", 7), DrumGrid(50, "gas", 7), DrumGrid(50, "gas", 8)
	if !reflect.DeepEqual(a, b) {
		t.Error("DrumGrid not deterministic")
	}
	if reflect.DeepEqual(a.Balls, c.Balls) {
		t.Error("DrumGrid ignores the seed")
	}
	s := DrumRandom9x9(3)
	if len(s.Balls) != 81 || s.Gravity != (Gravity{}) || s.Integrator.Dt != 0.01 || len(s.Drums) != 1 {
		t.Errorf("DrumRandom9x9: %d balls, %+v", len(s.Balls), s.Gravity)
	}
}

// TestReadLenientAsSCISim: a repeated attribute is read as RapidXML reads
// it (the first value) with a warning naming the line, and dt may be a
// ratio of integers, as in SCISim.
func TestReadLenientAsSCISim(t *testing.T) {
	doc := `<ball2d_scene>
  <integrator type="verlet" dt="1/10800"/>
  <ball x="0" x="1" y="0" vx="0" vy="0" m="1" r="1" fixed="0"/>
</ball2d_scene>`
	s, err := ReadBall2D(strings.NewReader(doc), "dup.xml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Balls[0].X != 0 {
		t.Errorf("x = %v, want the first value 0", s.Balls[0].X)
	}
	if s.Integrator.Dt != 1.0/10800 {
		t.Errorf("dt = %v, want 1/10800", s.Integrator.Dt)
	}
	want := `dup.xml:3: ball: attribute "x" given twice; the first value "0" is used (as SCISim's RapidXML does), "1" is ignored`
	if len(s.Warnings) != 1 || s.Warnings[0] != want {
		t.Errorf("warnings %q, want [%q]", s.Warnings, want)
	}
}

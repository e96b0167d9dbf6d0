package parity

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var (
	scisimDir    = flag.String("scisim", "", "SCISim build directory: rerun SCISim and rewrite the reference states of the parity table")
	scisimCommit = flag.String("scisim-commit", "f9990a7c9e9ce395aa3345dd830157e17810d7c0", "SCISim commit the programs of -scisim were built from")
)

// entry is one row of the parity table: a SCISim scene (relative to
// testdata), the end time both programs run to, and what is expected.
type entry struct {
	system, scene string
	end           float64
	// tol is the largest relative error allowed (Compare); 0 means 1e-9.
	tol float64
	// known, when set, is a documented difference: the test measures and
	// logs it, and fails if the scene starts agreeing (update the table).
	known string
	// long runs only with IMPACTSIM_LONG=1.
	long bool
	// early marks a comparison before the scene's end (chaotic scenes and
	// scenes SCISim gets wrong later): its reference file and test name
	// carry the time.
	early bool
}

// sphereLever is the documented difference of frictional contacts between
// two free spheres: SCISim puts the contact point of such a pair where the
// centre segment at qᵗ divides in the ratio of the radii (lever arm
// r·d/(r_a + r_b), longer than r across a gap), impactsim at each sphere's
// radius, as the analytic impact has it (rigid3d
// TestSphereSphereFrictionalImpact). SCISim itself uses the radius when the
// other sphere is fixed (one_dim_test_2/3 agree). With SCISim's point
// impactsim reproduces sphere_sphere_smooth_friction to 9.3e-14,
// friction_collide_in_portal (balls of two radii colliding directly and
// through a planar portal) to 6.7e-15 and balls_rolling_in_container to
// 1.7e-7 (measured with that point swapped in).
const sphereLever = "issue 17 item 4: SCISim's free sphere pairs use the ratio point of the centre segment, impactsim the radius"

// sobogusAccuracy is the documented difference of frictional scenes with
// several simultaneous contacts (issue 17 item 1): SCISim's so-bogus and
// impactsim's coupled Coulomb law both stop once the error ‖FB‖² (the
// squared Fischer–Burmeister residual of Coulomb's law, largest over the
// contacts) is below the scene's tol, 1e-12 here, so both answers are only
// about 1e-6 from the exact one (SCISim's breaks symmetric scenes by 7e-7:
// sphere_falling_on_fixed_spheres, spheres_in_planes_0/1), and the two
// Gauss–Seidel sweeps stop at different such iterates. Rolling and
// stacking scenes amplify the difference. The *.tol1e-24 rows run copies of
// three such scenes with tol 1e-24, where both codes solve to rounding:
// they agree to 1e-9 (measured 2.2e-12, 9.9e-13 and 1.4e-12), so the
// tolerance is the whole difference there. On card_house and
// box_stair_case (1 s) impactsim reaches the 5000-sweep cap at 1 and 2
// steps (worst error 2.4e-11 and 2.8e-11), SCISim at 1 and 9 (1.3e-10 and
// 6.4e-9).
const sobogusAccuracy = "issue 17 item 1: so-bogus and impactsim stop at different iterates within tol (‖FB‖² < 1e-12: impulses ~1e-6 from the exact ones)"

// boxTilt and boxSpin are the documented box–box differences (issue 17
// item 3; TestBoxBoxSCISimDifferences checks impactsim's side).
//
// box_box_test_0 (sobogus): SCISim's first bounce leaves the box turning at
// |ω| ≈ 4e-10 (its friction solve stops at tol 1e-12); at the second bounce
// (step 82) the face arrives tilted by 2e-10 rad and penetrating by only
// 8e-11, so two incident corners are 4e-11 outside, SCISim's exact depth
// test drops them, and the face impact becomes an edge impact: ω = (0,
// −11.9, −11.9). impactsim counts corners within 1e-9 of the size as
// touching (as for box–plane) and bounces straight back. The scenes agree
// to 1e-10 up to t = 0.81 (the early row); the frictionless ipopt variant,
// without the tilt, agrees to the end.
//
// box_box_test_1: a box spinning about the normal hits an equal fixed box
// face-on, a configuration symmetric under the half turn about the x axis.
// SCISim's contact set breaks that symmetry at the impact (step 28): in the
// elastic frictionless ipopt variant it returns v = (1.0175, 0, 0),
// ω = (5, 1.70, 19.9) and loses 4.4% of the kinetic energy (4.981 → 4.76)
// in an impact GR must keep it in. impactsim keeps the symmetry (v_y, v_z,
// ω_y, ω_z = 0) and, with GR, the energy.
const (
	boxTilt = "issue 17 item 3: SCISim's second bounce hits with a 2e-10 rad solver-noise tilt and drops two corners 4e-11 outside"
	boxSpin = "issue 17 item 3: SCISim's face–face contact set breaks the scene's half-turn symmetry at step 28"
)

// parityTable lists every scene with a SCISim reference state. End times
// are those of SCISim's own serialization tests (rigidbody3dcli's
// CMakeLists.txt) unless an entry says otherwise.
var parityTable = []entry{
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/card_house.xml", end: 1, known: sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/friction_collide_in_portal.xml", end: 5, known: sphereLever},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/ball_rolling_in_container.xml", end: 2.35},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/balls_rolling_in_container.xml", end: 2.35, known: sphereLever},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/one_dim_test_0.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/one_dim_test_1.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/one_dim_test_2.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/one_dim_test_3.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/box_box_test_0.xml", end: 2, known: boxTilt},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/box_box_test_0.xml", end: 0.81, early: true},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/box_box_test_1.xml", end: 2, known: boxSpin},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/box_box_test_2.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/sphere_in_off_center_cylinder.xml", end: 4},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/sphere_in_off_center_cylinder_sym_eul.xml", end: 4},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/drift_safe_ball_on_plane.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/drift_safe_balls_on_planes_00.xml", end: 2.5, known: sphereLever + "; " + sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/drift_safe_balls_on_planes_01.xml", end: 3, known: sphereLever + "; " + sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_serialization/box_stair_case.xml", end: 1, known: sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/sphere_falling_on_fixed_spheres.xml", end: 1, known: sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/sphere_falling_on_fixed_spheres.tol1e-24.xml", end: 1},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/sphere_falling_on_plane.xml", end: 1},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/spheres_rolling_on_planes.xml", end: 2, known: sphereLever + "; " + sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/spheres_in_planes_0.xml", end: 2.5, known: sphereLever + "; " + sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_symplectic_euler/spheres_in_planes_1.xml", end: 7, known: sphereLever + "; " + sobogusAccuracy},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/one_dim_test_0.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/one_dim_test_1.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/one_dim_test_2.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/one_dim_test_3.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/box_box_test_0.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/box_box_test_1.xml", end: 2, known: boxSpin},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/box_box_test_2.xml", end: 2},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/kinematic_object_test.xml", end: 3},
	{system: "rigidbody3d", scene: "rigidbody3d/tests_ipopt_serialization/sphere_sphere_smooth_friction.xml", end: 2, known: sphereLever},
	// ball2d Lees–Edwards portals (ball2dcli's serialization tests 07–13).
	// ball2d staggerings (issue 17 item 2); end times of SCISim's ball2dcli tests (balls_in_wedge has none: 2)
	{system: "ball2d", scene: "ball2d/tests_st/ball_on_plane.xml", end: 2},
	{system: "ball2d", scene: "ball2d/tests_st/ball_on_frictional_plane.xml", end: 2},
	{system: "ball2d", scene: "ball2d/tests_st/three_ball_collision_cor_0_0.xml", end: 2},
	{system: "ball2d", scene: "ball2d/tests_st/balls_in_wedge.xml", end: 2, known: sobogusAccuracy},
	{system: "ball2d", scene: "ball2d/tests_st/balls_in_wedge.tol1e-24.xml", end: 2},
	{system: "ball2d", scene: "ball2d/tests_serialization/drift_safe_ball_on_plane.xml", end: 4.5},
	{system: "ball2d", scene: "ball2d/tests_serialization/drift_safe_balls_on_planes_00.xml", end: 2.7, known: sobogusAccuracy},
	{system: "ball2d", scene: "ball2d/tests_serialization/drift_safe_balls_on_planes_01.xml", end: 3, known: sobogusAccuracy},
	{system: "ball2d", scene: "ball2d/tests_serialization/drift_safe_symmetric_break.xml", end: 24, known: sobogusAccuracy},
	{system: "ball2d", scene: "ball2d/tests_serialization/drift_safe_symmetric_break.tol1e-24.xml", end: 24},
	{system: "ball2d", scene: "ball2d/lees_edwards/balls_collide_in_portal_test_00.xml", end: 1},
	{system: "ball2d", scene: "ball2d/lees_edwards/balls_collide_in_portal_test_01.xml", end: 4.5},
	{system: "ball2d", scene: "ball2d/lees_edwards/balls_collide_in_portal_test_02.xml", end: 4.5},
	{system: "ball2d", scene: "ball2d/lees_edwards/balls_collide_in_portal_test_03.xml", end: 1},
	{system: "ball2d", scene: "ball2d/lees_edwards/portal_collision_00.xml", end: 4},
	{system: "ball2d", scene: "ball2d/lees_edwards/portal_collision_01.xml", end: 2},
	{system: "ball2d", scene: "ball2d/lees_edwards/portal_lots_of_collisions.xml", end: 10},
	// rigidbody2d: every SCISim asset scene that runs (not the five with
	// Python scripting), to the end time of rigidbody2dcli's serialization
	// tests (2 s for the four box_slide friction tests) unless stated.
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/box_circle_0.xml", end: 0.5},
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/box_circle_1.xml", end: 0.5},
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/cd_test.xml", end: 7},
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/fixed_box_circle_0.xml", end: 1.2}, // tol 9e-5: the solvers' different stopping tests part at step 1272 (2.6e-3; SCISim's test: 3.5 s)
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/fixed_box_circle_1.xml", end: 4},
	{system: "rigidbody2d", scene: "rigidbody2d/box_circle/fixed_box_circle_2.xml", end: 4},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/balls_collide_in_portal_test_00.xml", end: 1},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/balls_collide_in_portal_test_01.xml", end: 4.5},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/balls_collide_in_portal_test_02.xml", end: 4.5},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/balls_collide_in_portal_test_03.xml", end: 1},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/portal_collision_00.xml", end: 4},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/portal_collision_01.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/lees_edwards/portal_lots_of_collisions.xml", end: 10},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/balls_in_box.xml", end: 3}, // chaotic by design (its comment: symmetric until round-off breaks it): 7e-14 at t = 3, 1e-9 at t = 4.97 (SCISim's test: 10 s)
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/circle_circle_0.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/circle_circle_1.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/circle_circle_2.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/circle_circle_3.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/horizontal_plane_collision.xml", end: 2.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_ipopt_serialization/vertical_plane_collision.xml", end: 2.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/ball_rolling_down_hill.xml", end: 3},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_00.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_01.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_02.xml", end: 0.5, known: sobogusAccuracy},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_03.xml", end: 4},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_plane_00.xml", end: 1}, // chaotic (three elastic boxes): round-off grows ×10 every 10 steps, 4.5e-11 at t = 1 (SCISim's test: 3.5 s)
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_box_plane_01.xml", end: 2, known: sobogusAccuracy},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_plane_00.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_plane_01.xml", end: 3.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_plane_02.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_plane_03.xml", end: 4.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_plane_04.xml", end: 6},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_slide_above_threshold.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_slide_at_threshold.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_slide_below_threshold.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/boxes/box_slide_flat_plane.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_0.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_1.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_2.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_3.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_4.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_5.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_6.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_7.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circle_circle_8.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/circles_falling_on_wedge.xml", end: 0.8}, // tol 2e-8: the solvers' stopping tests part at step 8023 (2.9e-5; 2.2e-8 with tol 1e-14 in both; SCISim's test: 4 s)
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/drift_safe_ball_on_plane.xml", end: 4.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/drift_safe_balls_on_planes_00.xml", end: 2.7, known: sobogusAccuracy},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/drift_safe_balls_on_planes_01.xml", end: 1.7, known: sobogusAccuracy},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/drift_safe_circle_circle_00.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_0.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_1.xml", end: 2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_2.xml", end: 1.2},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_3.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_4.xml", end: 3},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_5.xml", end: 4.5}, // stick–slip event at step 4512 (t = 4.512) where the two Coulomb solvers part by 3e-8 (SCISim's test runs to 6 s: 4e-6)
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_6.xml", end: 4},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/fixed_body_7.xml", end: 10},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/forty_five_plane_collision.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/horizontal_no_initial_rotation_0.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/horizontal_no_initial_rotation_1.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/horizontal_plane_collision.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/kinematic_tests/kinematic_circle_circle_0.xml", end: 0.9},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/kinematic_tests/kinematic_circle_circle_1.xml", end: 2.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/kinematic_tests/kinematic_circle_circle_2.xml", end: 3},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/portal_lots_of_collisions.xml", end: 10},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/rotating_circles.xml", end: 3},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/rotating_translating_circles.xml", end: 1},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/vertical_no_horizontal_with_rotation_0.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/vertical_no_horizontal_with_rotation_1.xml", end: 1.5},
	{system: "rigidbody2d", scene: "rigidbody2d/tests_serialization/vertical_plane_collision.xml", end: 1.5},
}

func (e entry) path() string { return filepath.Join("testdata", e.scene) }

func (e entry) refPath() string {
	if e.early {
		return strings.TrimSuffix(e.path(), ".xml") + ".t" + strconv.FormatFloat(e.end, 'g', -1, 64) + ".scisim.txt"
	}
	return strings.TrimSuffix(e.path(), ".xml") + ".scisim.txt"
}

func (e entry) name() string {
	if e.early {
		return strings.TrimSuffix(e.scene, ".xml") + "@t=" + strconv.FormatFloat(e.end, 'g', -1, 64)
	}
	return strings.TrimSuffix(e.scene, ".xml")
}

func TestParity(t *testing.T) {
	long := os.Getenv("IMPACTSIM_LONG") != ""
	for _, e := range parityTable {
		t.Run(e.name(), func(t *testing.T) {
			if *scisimDir != "" {
				regenerate(t, e)
				return
			}
			if e.long && !long {
				t.Skip("long: set IMPACTSIM_LONG=1")
			}
			f, err := os.Open(e.refPath())
			if err != nil {
				t.Fatal(err)
			}
			ref, err := ReadState(f, e.refPath())
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			got, err := Simulate(e.system, e.path(), ref.Iteration)
			if err != nil {
				if e.known != "" {
					t.Logf("known difference (%s): impactsim fails: %v", e.known, err)
					return
				}
				t.Fatal(err)
			}
			if math.Abs(got.Time-ref.Time) > 1e-9*math.Max(1, ref.Time) {
				t.Errorf("time %v after %d steps, SCISim %v", got.Time, got.Iteration, ref.Time)
			}
			d := Compare(ref, got)
			tol := e.tol
			if tol == 0 {
				tol = 1e-9
			}
			switch {
			case e.known != "" && d.Max() <= tol:
				t.Errorf("documented difference (%s) is gone: %v ≤ %g; update the table", e.known, d, tol)
			case e.known != "":
				t.Logf("known difference (%s): %v", e.known, d)
			case d.Max() > tol:
				t.Errorf("t = %g (%d steps): %v > %g", ref.Time, ref.Iteration, d, tol)
			default:
				t.Logf("t = %g: %v", ref.Time, d)
			}
		})
	}
}

// regenerate reruns SCISim for e and rewrites its reference file.
func regenerate(t *testing.T, e entry) {
	comments := []string{"SCISim reference state for impactsim's parity table (package parity); regenerate with",
		"go test ./parity -run TestParity -scisim SCISIM_BUILD_DIR"}
	path, cleanup, changed, err := MUMPSCopy(e.path())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if changed {
		comments = append(comments, `run on a copy of the scene with linear_solvers="mumps" (SCISim's build has no HSL solvers)`)
	}
	s, warnings, err := RunSCISim(*scisimDir, e.system, path, e.end, SceneDt(e.system, e.path()))
	if err != nil {
		t.Fatal(err)
	}
	s.Scene, s.SCISim = e.scene, *scisimCommit
	if len(warnings) > 0 {
		comments = append(comments, "SCISim warned "+itoa(len(warnings))+" times, first: "+strings.TrimSpace(warnings[0]))
	}
	f, err := os.Create(e.refPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteState(f, s, comments...); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d steps, t = %g, %d warnings)", e.refPath(), s.Iteration, s.Time, len(warnings))
}

func itoa(n int) string { return fmtF(float64(n)) }

package scenario

import (
	"math"
	"os"
	"strings"
	"testing"

	"impactsim/scene"
	"impactsim/sim"
)

// drumMirrorAsymmetry is the largest |x_i + x_i'|, |y_i − y_i'|, over the
// balls i of a full k×k DrumGrid and their mirror images i' about x = 0
// (same row, column k−1−c), for positions or velocities (both flip x).
func drumMirrorAsymmetry(k int, q []float64) float64 {
	var a float64
	for row := 0; row < k; row++ {
		for c := 0; c < k/2; c++ {
			i, j := row*k+c, row*k+k-1-c
			a = max(a, math.Abs(q[2*i]+q[2*j]), math.Abs(q[2*i+1]-q[2*j+1]))
		}
		if k%2 == 1 {
			i := row*k + k/2
			a = max(a, math.Abs(q[2*i]))
		}
	}
	return a
}

// TestDrumDropMirrorSymmetry: the mirror-symmetric 10,000-ball drop of
// Table 2 (a 100×100 grid, symmetric about x = 0) stays mirror-symmetric to
// 1e-8 for 200 steps under gr (SCISim: 1.5e-12 at step 200), with the
// default solvers (7.1e-12 at step 200) and with every island solved by the
// interior-point method (8.2e-11). With IMPACTSIM_LONG=1 it keeps going and
// logs the first step at which the asymmetry exceeds 1e-3.
func TestDrumDropMirrorSymmetry(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s")
	}
	t.Run("auto", func(t *testing.T) { drumDropMirror(t, Options{}, 0) })
	// Every island of two or more contacts through the interior-point
	// solver (in the run itself only islands above 160 contacts use it).
	t.Run("interior", func(t *testing.T) { drumDropMirror(t, Options{Solver: "interior"}, 0) })
	// Island solves started from the previous steps' impulses.
	t.Run("warm", func(t *testing.T) { drumDropMirror(t, Options{WarmStart: true}, 0) })
	// With the position correction after every step. Its passes are
	// exactly mirror-symmetric (TestDrumDropCorrectionMirrorExact; here
	// the state is bitwise symmetric through step 123, corrections
	// included: asserted through 123). In every variant the first
	// asymmetry is born in the step, not in the correction: a 1-ulp
	// difference between the GR impulses of mirror contacts in one island
	// solve — step 144 (auto), 131 (interior), 141 (warm); with the
	// correction step 124, on its different trajectory (contacts (402,403)
	// and (496,497), λ 8.7680735600010262 against …244, from exactly
	// symmetric positions, velocities and gradients: GR's island columns
	// come in the detection's index order, which the mirror does not
	// keep). The pile then amplifies it at the same rate with and without
	// the correction: 5.0e-10 at step 200 (7.1e-12 without); with
	// IMPACTSIM_LONG=1, 1e-8 is first exceeded at step 220 (234 without)
	// and 1e-3 at step 263 (278 without). Issue 18 asked for symmetry at
	// least as long as without the correction: not met, by 20 steps at
	// the onset and 15 at 1e-3, for want of a step (impact operator and
	// contact order) whose rounding is invariant under the mirror
	// permutation; the correction cannot move an onset that the step
	// makes on its trajectory. Giving the step's contacts the correction's
	// mirror-invariant order (--mirror-order on; not the default: it
	// changes the impact's bits and SCISim parity) moves the first
	// asymmetry to step 291 without the correction and 297 with it (ngs
	// 296), and 1e-3 to step 332 in both (ngs 323): the subtest
	// mirror-order below.
	t.Run("correction", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Mode: "on"}}, 123) })
	// With the closed active set (--redetect on; issue 18): exactly
	// symmetric through step 118, the first asymmetry again 1 ulp at step
	// 119 (1.78e-15), on its own trajectory (more contacts take impulses);
	// 3.7e-10 at step 200; with IMPACTSIM_LONG=1, 1e-3 is first exceeded at
	// step 255 (252 with the correction too, which needs 2 s more).
	t.Run("redetect", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Redetect: "on"}}, 118) })
	// With the nonlinear Gauss–Seidel correction (--position-correction
	// ngs): exactly symmetric through step 99. At step 100 (18 contacts)
	// the impulses λ are exactly symmetric, and v⁺ = v⁻ + M⁻¹Gλ is not,
	// by 1.78e-15 at balls 101 and 198: each sums its three contacts'
	// terms in contact order, (c4 + c5) + c6 against the mirror's
	// (c9 + c11) + c10 — the step again, not the correction. Since the
	// sweep visits each layer's contacts in a mirror-invariant order
	// (corrsym) the asymmetry grows as slowly as with the projection:
	// 2.3e-10 at step 200, 1e-8 first exceeded at step 218 and (with
	// IMPACTSIM_LONG=1) 1e-3 at step 260; before, the sweep's index order
	// within a layer made 4.8e-3 at step 139.
	t.Run("ngs", func(t *testing.T) { drumDropMirror(t, Options{Correction: CorrectionOptions{Mode: "ngs"}}, 99) })
	// Issue 18's requirement in the default configuration of impactsim's
	// own scenes with gravity (the drop as builtin:drum_drop_10000 names
	// it): there the step's contacts are listed by the correction's
	// mirror-invariant key (ball2d's MirrorOrder, on by default where the
	// correction is, in the corrected and uncorrected runs alike) instead
	// of by ball index, so GR's island columns and the stepper's v⁺ sum
	// over a ball's contacts run in corresponding orders on both sides,
	// and an island that spans the axis gets its mirror pairs averaged
	// (mech.Problem.Keys): the drop stays exactly mirror-symmetric through
	// every step run, with and without the correction — 400 here, 2,000
	// with IMPACTSIM_LONG=1 (it was 290 with the order alone: at step
	// 291 one axis-spanning island of 13 contacts, (148,150)/(149,151)
	// 69.522535011169538 against …481; and 143, 123, 99 in the
	// detection's order, the subtests above, which fail this).
	t.Run("default", drumMirrorDefault)
}

// drumMirrorDefault asserts issue 18's mirror requirement in the default
// configuration of impactsim's own scenes with gravity: the drop named as
// a built-in scene gets the mirror order without being asked, and with the
// projection (the default correction), with ngs and without the
// correction it stays exactly mirror-symmetric through step 400 (2,000
// with IMPACTSIM_LONG=1: 80 s); beyond, each corrected run's first asymmetric
// step must be no earlier than the uncorrected run's.
func drumMirrorDefault(t *testing.T) {
	exact := 400
	if os.Getenv("IMPACTSIM_LONG") != "" {
		exact = 2000
	}
	run := func(mode string) int {
		sc := scene.DrumGrid(100*100, "drop", 1)
		sc.Source = "builtin:drum_drop_10000"
		first := drumDropMirrorScene(t, sc, Options{Correction: CorrectionOptions{Mode: mode}}, exact)
		if first == 0 {
			return math.MaxInt // symmetric through every step run
		}
		return first
	}
	off := run("off")
	for _, mode := range []string{"", "ngs"} {
		if got := run(mode); got < off {
			t.Errorf("--position-correction %q: first asymmetric step %d, before the uncorrected run's %d", mode, got, off)
		}
	}
}

// drumDropMirror drops the 100×100 grid with options opt: its state must be
// exactly mirror-symmetric through step exact and within 1e-8 through step
// 200 (through step within, if it is not 0). It returns the first step at
// which the state is not exactly symmetric, running on past step 200 (to
// step 400 at most) until there is one; 0 if none.
func drumDropMirror(t *testing.T, opt Options, exact int, within ...int) int {
	return drumDropMirrorScene(t, scene.DrumGrid(100*100, "drop", 1), opt, exact, within...)
}

// drumDropMirrorScene is drumDropMirror on sc, the 100×100 grid under a
// source of the caller's choice; it requires the mirror order to be on
// when the scene's source is a built-in's (the default there).
func drumDropMirrorScene(t *testing.T, sc *scene.Ball2DScene, opt Options, exact int, within ...int) int {
	bound := 200
	if len(within) > 0 {
		bound = within[0]
	}
	const k = 100
	opt.Operator, opt.Workers = "gr", -1
	r, err := NewBall2D(sc, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if own := ownScene(sc.Source); own != r.Sys.MirrorOrder && opt.Correction.MirrorOrder == "" {
		t.Fatalf("%s: mirror order %v by default, want %v", sc.Source, r.Sys.MirrorOrder, own)
	}
	if a := drumMirrorAsymmetry(k, r.Stepper.Q); a != 0 {
		t.Fatalf("initial asymmetry %g", a)
	}
	long := os.Getenv("IMPACTSIM_LONG") != ""
	steps := max(200, exact)
	if long {
		steps = max(2000, exact)
	}
	first, first8 := 0, 0
	for s := 1; s <= steps || first == 0 && s <= 400; s++ {
		if err := r.Stepper.Step(); err != nil {
			t.Fatal(err)
		}
		a := max(drumMirrorAsymmetry(k, r.Stepper.Q), drumMirrorAsymmetry(k, r.Stepper.V))
		if a > 0 && first == 0 {
			first = s
			t.Logf("step %d: first asymmetry, %.3g", s, a)
			// the correction never changes velocities: if they are
			// symmetric, the correction started the asymmetry
			if opt.Correction.Mode != "" && opt.Correction.Mode != "off" && drumMirrorAsymmetry(k, r.Stepper.V) == 0 {
				t.Fatalf("step %d: positions asymmetric by %.3g with symmetric velocities: the correction broke the symmetry", s, a)
			}
		}
		if s <= exact && a != 0 {
			t.Fatalf("step %d: mirror asymmetry %.3g, want exactly 0 through step %d", s, a, exact)
		}
		if a > 1e-8 && first8 == 0 {
			first8 = s
			t.Logf("step %d: asymmetry first exceeds 1e-8 (%.3g)", s, a)
		}
		if s <= bound && a > 1e-8 {
			t.Fatalf("step %d: mirror asymmetry %.3g > 1e-8", s, a)
		}
		if s == 200 || (long && s%50 == 0) {
			t.Logf("step %d: mirror asymmetry %.3g (%d contacts)", s, a, r.Stepper.Last.Contacts)
		}
		if a > 1e-3 {
			t.Logf("asymmetry first exceeds 1e-3 at step %d (%.3g)", s, a)
			return first
		}
	}
	return first
}

// mirrorImpose makes a state of the full k×k DrumGrid exactly
// mirror-symmetric about x = 0: every ball of the right half gets the
// mirror image of its partner's (positions or velocities).
func mirrorImpose(k int, q []float64) {
	for row := 0; row < k; row++ {
		for c := 0; c < k/2; c++ {
			i, j := row*k+c, row*k+k-1-c
			q[2*j], q[2*j+1] = -q[2*i], q[2*i+1]
		}
	}
}

// TestDrumDropCorrectionMirrorExact: the position correction's own
// arithmetic is mirror-invariant. The 10K mirror drop runs with the
// correction driven by a hook after each step instead of by the stepper,
// on a state made exactly mirror-symmetric first (the step's own rounding
// breaks the symmetry — TestDrumDropMirrorSymmetry — and is taken out):
// the corrected positions must then be exactly mirror-symmetric at every
// step. Both corrections keep it through the whole pile (steps 1–400, 294
// corrected steps, up to 12,437 contacts with ngs and 13,136 with the
// projection; the projection also through 1,000 steps, 894 corrected):
// the sweep visits each layer's contacts in a mirror-invariant order
// (ball2d.ContactKeys); the projection's islands list their columns and
// Δq sums its terms in that order, so a mirror pair of islands is the
// same QP bit for bit, and an island that spans the axis, whose mirror
// pairs one QP solve rounds apart (first at step 284: contacts (748,749)
// and (750,751), 1 ulp), is exactly invariant under swapping its pairs
// and gets the average of its solution and the swapped one. On main
// bae40dc (index order) the sweep broke the symmetry at step 139 by
// 4.8e-3 and the projection at step 259 by 1.4e-14.
func TestDrumDropCorrectionMirrorExact(t *testing.T) {
	if testing.Short() {
		t.Skip("6 s")
	}
	t.Run("ngs", func(t *testing.T) { drumCorrectionMirror(t, "ngs", 400, 294) })
	t.Run("projection", func(t *testing.T) { drumCorrectionMirror(t, "on", 400, 294) })
}

// drumCorrectionMirror runs the mirror drop for steps steps with the
// correction mode applied by a hook to the exactly mirror-symmetric image
// of each step's end state, requiring exact symmetry after every
// correction and at least corrected steps that moved balls.
func drumCorrectionMirror(t *testing.T, mode string, steps, corrected int) {
	const k = 100
	r, err := NewBall2D(scene.DrumGrid(k*k, "drop", 1), Options{Operator: "gr", Workers: -1, Correction: CorrectionOptions{Mode: mode}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := r.Stepper
	corr := st.Correction()
	if corr == nil || !corr.Config().Project {
		t.Fatalf("mode %q installs no correction", mode)
	}
	if err := st.SetCorrection(nil); err != nil {
		t.Fatal(err)
	}
	// what the stepper does: the prediction for the missed-contact
	// search, the correction of the step's end positions with its problem
	qt, vt := make([]float64, len(st.Q)), make([]float64, len(st.V))
	var cs sim.CorrectionStats
	st.AddHook(sim.Hook{Name: "mirror correction", Begin: func(s *sim.Stepper) error {
		s.Sys.FreeFlight(s.Q, s.V, s.H, qt, vt)
		corr.Prepare(qt)
		return nil
	}, End: func(s *sim.Stepper) error {
		mirrorImpose(k, s.Q)
		mirrorImpose(k, s.V)
		cs = sim.CorrectionStats{}
		if s.Last.Contacts == 0 {
			return nil
		}
		var err error
		cs, err = corr.Correct(&s.Problem, s.Q)
		return err
	}})
	n, most := 0, 0
	for s := 1; s <= steps; s++ {
		if err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if cs.Capped {
			t.Fatalf("step %d: correction capped, overlap %.3g", s, cs.Overlap)
		}
		if cs.Passes > 0 {
			n++
			most = max(most, cs.Contacts)
		}
		if a := drumMirrorAsymmetry(k, st.Q); a != 0 {
			t.Fatalf("step %d: the correction made the mirror-symmetric state asymmetric by %.3g (%d passes, %d contacts, %d missed, overlap before %.3g)", s, a, cs.Passes, cs.Contacts, cs.Missed, cs.OverlapBefore)
		}
	}
	t.Logf("%d steps exactly mirror-symmetric after the correction; %d corrected, up to %d contacts", steps, n, most)
	if n < corrected {
		t.Fatalf("%d corrected steps, want ≥ %d (the test must exercise the correction)", n, corrected)
	}
}

// TestMirrorOrderOption: the scene's <mirror_order/> turns ball2d's
// mirror order on, --mirror-order decides over it, it is on by default for
// impactsim's own scenes with gravity (whether the correction is on or
// not) and off for the generated scenes and those without gravity, and a
// bad value is an error naming the option.
func TestMirrorOrderOption(t *testing.T) {
	for _, c := range []struct {
		source     string
		scene      bool
		correction string
		opt        string
		want       bool
	}{
		{"", false, "", "", false}, {"", true, "", "", true}, {"", true, "", "off", false}, {"", false, "", "on", true},
		// the default of impactsim's own scenes with gravity, with and
		// without the correction; not without gravity
		{"builtin:drum_drop_100", false, "", "", true}, {"builtin:drum_drop_100", false, "off", "", true},
		{"builtin:drum_drop_100", false, "ngs", "", true}, {"builtin:drum_drop_100", false, "", "off", false},
		{"builtin:drum_gas_100", false, "", "", false},
	} {
		sc := scene.DrumGrid(100, "drop", 1)
		if strings.Contains(c.source, "gas") {
			sc = scene.DrumGrid(100, "gas", 1)
		}
		if c.source != "" {
			sc.Source = c.source
		}
		if c.scene {
			sc.MirrorOrderLine = 1
		}
		r, err := NewBall2D(sc, Options{Correction: CorrectionOptions{Mode: c.correction, MirrorOrder: c.opt}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Sys.MirrorOrder != c.want {
			t.Errorf("%s, scene element %v, --position-correction %q, --mirror-order %q: MirrorOrder %v, want %v", sc.Source, c.scene, c.correction, c.opt, r.Sys.MirrorOrder, c.want)
		}
		r.Close()
	}
	if _, err := NewBall2D(scene.DrumGrid(100, "drop", 1), Options{Correction: CorrectionOptions{MirrorOrder: "yes"}}); err == nil || !strings.Contains(err.Error(), "--mirror-order") {
		t.Errorf("--mirror-order yes: %v", err)
	}
}

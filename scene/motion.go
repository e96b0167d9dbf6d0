package scene

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"impactsim/motion"
)

// Motion is impactsim's <motion> extension element (SCISim has no such
// element; it scripts motions in Python, see Script): the prescribed
// motion of one piece of kinematic geometry, a sum of terms (package
// motion has the mathematics).
//
//	<motion static_plane="0">
//	  <oscillation axis="0 1" amplitude="0.01" frequency="20" phase="0" start="0"/>
//	  <linear v="0.5 0" start="1"/>
//	  <rotation omega="3.14" center="0 0" start="0"/>
//	</motion>
//
// The target is one attribute naming the geometry and its index in file
// order: static_plane, static_drum or ball (a fixed ball) in ball2d
// scenes; static_plane or rigid_body (a fixed rigid_body) in rigidbody2d
// scenes; static_plane, static_cylinder or rigid_body (a fixed
// rigid_body_with_density) in rigidbody3d scenes.
type Motion struct {
	Target string // static_plane, static_drum, ball, static_cylinder, rigid_body
	Index  int
	Terms  []MotionTerm
	Line   int
}

// MotionTerm is one term of a Motion: <oscillation axis [amplitude | gamma]
// [frequency | fstar H] [phase] [start]>, <linear v [start]> or <rotation
// omega [axis] [center] [start]>. Vectors have the scene's dimension (2 or
// 3 numbers; Z = 0 in 2D).
type MotionTerm struct {
	Kind string // oscillation, linear, rotation
	// Axis is the unit direction of an oscillation or the unit axis of a
	// rotation (z in 2D, where a rotation takes no axis).
	Axis [3]float64
	// Amplitude and Frequency of an oscillation, given or derived from
	// Γ = A(2πf)²/g (gamma) and f* = f√(H/g) (fstar, H) with the scene's
	// gravity g.
	Amplitude, Frequency, Phase float64
	// Gamma, FStar and H are the vibrated-bed parameters as given (0 when
	// the amplitude and frequency were given instead).
	Gamma, FStar, H float64
	Velocity        [3]float64
	Omega           float64
	// Center is the point the rotation's axis passes through; when
	// HasCenter is false the target's reference point (a plane's x, a
	// drum's or cylinder's centre, a body's centre).
	Center    [3]float64
	HasCenter bool
	Start     float64
	// Stop, if > 0, is when the term stops (it then holds its value).
	Stop float64
	Line int
}

// motionTargets are the target attributes of <motion> per scene root.
var motionTargets = map[string][]string{
	"ball2d_scene":      {"static_plane", "static_drum", "ball"},
	"rigidbody2d_scene": {"static_plane", "rigid_body"},
	"rigidbody3d_scene": {"static_plane", "static_cylinder", "rigid_body"},
}

// motionDim is the dimension of the scenes with the root element root.
func motionDim(root string) int {
	if root == "rigidbody3d_scene" {
		return 3
	}
	return 2
}

// motion reads <motion TARGET="i"> and its terms in a scene whose root
// element is root. gravity and counts are resolved later
// (finishMotions), when the whole file is read.
func (rd *reader) motion(e *elem, root string) Motion {
	targets, dim := motionTargets[root], motionDim(root)
	rd.checkAttrs(e, targets...)
	m := Motion{Line: e.line}
	for _, t := range targets {
		if _, ok := rd.attr(e, t); !ok {
			continue
		}
		if m.Target != "" {
			rd.fail(e.line, "motion: attributes %q and %q: expected one target", m.Target, t)
			return m
		}
		m.Target = t
		m.Index, _ = rd.integer(e, t, true, 0)
	}
	if m.Target == "" && rd.err == nil {
		rd.fail(e.line, "motion: missing the target: expected one attribute of %s with the geometry's index", strings.Join(targets, ", "))
		return m
	}
	if len(e.children) == 0 && rd.err == nil {
		rd.fail(e.line, "motion: no terms: expected <oscillation>, <linear> or <rotation> inside")
	}
	rotations := 0
	for _, c := range e.children {
		if rd.err != nil {
			break
		}
		t := MotionTerm{Kind: c.name, Line: c.line}
		switch c.name {
		case "oscillation":
			rd.checkAttrs(c, "axis", "amplitude", "gamma", "frequency", "fstar", "H", "phase", "start", "stop")
			t.Axis = rd.unitVec(c, "axis", dim)
			// amplitude or gamma; frequency or fstar with H: NaN marks
			// what resolveMotions derives once gravity is known.
			t.Amplitude, t.Gamma = rd.either(c, "amplitude", "gamma", anyFinite, nonNegative)
			t.Frequency, t.FStar = rd.either(c, "frequency", "fstar", positive, positive)
			if _, ok := rd.attr(c, "fstar"); ok {
				t.H = rd.num(c, "H", positive)
			} else if _, ok := rd.attr(c, "H"); ok {
				rd.fail(c.line, "oscillation: attribute \"H\" goes with \"fstar\" (f = fstar·√(g/H))")
			}
			t.Phase, _ = rd.optNum(c, "phase", anyFinite, 0)
		case "linear":
			rd.checkAttrs(c, "v", "start", "stop")
			t.Velocity = rd.vec(c, "v", dim)
		case "rotation":
			if dim == 2 {
				rd.checkAttrs(c, "omega", "center", "start", "stop")
				t.Axis = [3]float64{0, 0, 1}
			} else {
				rd.checkAttrs(c, "omega", "axis", "center", "start", "stop")
				t.Axis = rd.unitVec(c, "axis", 3)
			}
			t.Omega = rd.num(c, "omega", anyFinite)
			if _, ok := rd.attr(c, "center"); ok {
				t.Center, t.HasCenter = rd.vec(c, "center", dim), true
			}
			rotations++
			if rotations > 1 {
				rd.fail(c.line, "rotation: a motion has at most one <rotation> (the translations add up; rotations about different axes do not commute)")
			}
		default:
			rd.fail(c.line, "unsupported element <%s> inside <motion>: expected oscillation, linear or rotation", c.name)
			continue
		}
		rd.noChildren(c)
		t.Start, _ = rd.optNum(c, "start", nonNegative, 0)
		if stop, ok := rd.optNum(c, "stop", positive, 0); ok {
			if rd.err == nil && !(stop > t.Start) {
				rd.fail(c.line, "%s attribute \"stop\": expected a time after start = %g, got %q", c.name, t.Start, fmt.Sprint(stop))
			}
			t.Stop = stop
		}
		m.Terms = append(m.Terms, t)
	}
	return m
}

// either reads exactly one of the attributes a (check ca) and b (check
// cb): a's value and 0, or NaN and b's value.
func (rd *reader) either(e *elem, a, b string, ca, cb check) (float64, float64) {
	_, hasA := rd.attr(e, a)
	_, hasB := rd.attr(e, b)
	switch {
	case hasA && hasB:
		rd.fail(e.line, "%s: attributes %q and %q: expected one of them", e.name, a, b)
	case hasA:
		return rd.num(e, a, ca), 0
	case hasB:
		return math.NaN(), rd.num(e, b, cb)
	default:
		rd.fail(e.line, "%s: missing required attribute %q (or %q)", e.name, a, b)
	}
	return 0, 0
}

// vec reads dim numbers (Z = 0 in 2D).
func (rd *reader) vec(e *elem, name string, dim int) [3]float64 {
	if dim == 3 {
		return rd.vec3(e, name)
	}
	x, y := rd.vec2(e, name)
	return [3]float64{x, y, 0}
}

// unitVec reads a non-zero vector of dim numbers and normalizes it.
func (rd *reader) unitVec(e *elem, name string, dim int) [3]float64 {
	v := rd.vec(e, name, dim)
	if rd.err != nil {
		return v
	}
	n := norm3(v)
	if !(n > 0) {
		s, _ := rd.attr(e, name)
		rd.bad(e, name, "a non-zero vector", s)
		return v
	}
	return [3]float64{v[0] / n, v[1] / n, v[2] / n}
}

// finishMotions checks the motions of a scene with the root element root
// against the number of geometries of each kind (fixed says which bodies
// are fixed) and the portals (whose planes do not move), and derives
// amplitudes and frequencies given as Γ and f* from the gravity g = |g|.
func (rd *reader) finishMotions(root string, ms []Motion, counts map[string]int, fixed func(i int) bool, g float64, portals []Portal) {
	seen := map[[2]any]int{}
	for k := range ms {
		m := &ms[k]
		if rd.err != nil {
			return
		}
		if m.Index >= counts[m.Target] {
			rd.fail(m.Line, "motion attribute %q: expected the index of a <%s> (the scene has %d), got %d", m.Target, targetElement(root, m.Target), counts[m.Target], m.Index)
			return
		}
		if (m.Target == "ball" || m.Target == "rigid_body") && !fixed(m.Index) {
			rd.fail(m.Line, "motion attribute %q: %s %d is not fixed: only fixed (kinematic) bodies follow a prescribed motion", m.Target, m.Target, m.Index)
			return
		}
		key := [2]any{m.Target, m.Index}
		if first, dup := seen[key]; dup {
			rd.fail(m.Line, "motion: %s %d already has a motion (line %d)", m.Target, m.Index, first)
			return
		}
		seen[key] = m.Line
		for _, po := range portals {
			if m.Target == "static_plane" && (m.Index == po.PlaneA || m.Index == po.PlaneB) {
				rd.fail(m.Line, "motion attribute \"static_plane\": plane %d belongs to the %s on line %d (portal planes do not move)", m.Index, po.Element(), po.Line)
				return
			}
		}
		for i := range m.Terms {
			t := &m.Terms[i]
			if t.Kind != "oscillation" {
				continue
			}
			if math.IsNaN(t.Frequency) {
				if !(g > 0) {
					rd.fail(t.Line, "oscillation attribute \"fstar\": f = fstar·√(g/H) needs gravity, and the scene has none")
					return
				}
				t.Frequency = motion.FrequencyFromFStar(t.FStar, t.H, g)
			}
			if math.IsNaN(t.Amplitude) {
				if !(g > 0) {
					rd.fail(t.Line, "oscillation attribute \"gamma\": A = Γg/(2πf)² needs gravity, and the scene has none")
					return
				}
				t.Amplitude = motion.AmplitudeFromGamma(t.Gamma, t.Frequency, g)
			}
		}
	}
}

// targetElement names the scene element a motion target refers to in a
// scene with the root element root.
func targetElement(root, target string) string {
	switch {
	case target == "ball":
		return "ball fixed=\"1\""
	case target == "rigid_body" && root == "rigidbody3d_scene":
		return "rigid_body_with_density fixed=\"1\""
	case target == "rigid_body":
		return "rigid_body fixed=\"1\""
	}
	return target
}

// Script is SCISim's <scripting callback="NAME"/>: the Python module
// NAME.py beside the scene file, whose functions startOfStep, endOfStep,
// restitutionCoefficient, frictionCoefficient, startOfSim and endOfSim the
// simulation calls (package script runs them).
type Script struct {
	Callback string
	Path     string // NAME.py in the scene file's directory
	Line     int
}

// script reads <scripting callback="NAME"/>.
func (rd *reader) script(e *elem) *Script {
	rd.checkAttrs(e, "callback")
	rd.noChildren(e)
	name, ok := rd.required(e, "callback")
	name = strings.TrimSpace(name)
	if !ok {
		return nil
	}
	if name == "" || strings.ContainsAny(name, "/\\ ") {
		rd.bad(e, "callback", "the name of a Python module (NAME.py beside the scene file)", name)
		return nil
	}
	return &Script{Callback: name, Path: filepath.Join(filepath.Dir(rd.src), name+".py"), Line: e.line}
}

package scene

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"impactsim/bounded"
)

// Error is a problem in a scene file: File:Line: Msg. Line is 0 when the
// problem has no single line (a generated scene).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Maximum element nesting the reader accepts (real scenes are far
// shallower); the input size is bounded.Text.
const maxDepth = 32

// LoadBall2D reads the SCISim ball2d scene file at path.
func LoadBall2D(path string) (*Ball2DScene, error) {
	return loadFile(path, ReadBall2D)
}

// ReadBall2D reads a SCISim <ball2d_scene> document from r. source names the
// input in error messages (usually the file name). Every problem is reported
// as one *Error of the form
//
//	FILE:LINE: <element> attribute "name": expected <what>, got "<value>"
//
// (or "unsupported element <x>", "unsupported attribute", "missing required
// attribute", malformed XML with its line). Unknown elements are rejected
// except SCISim's display-only ones (camera, *_renderer). Comments are
// ignored.
func ReadBall2D(r io.Reader, source string) (*Ball2DScene, error) {
	return readWith(r, source, (*reader).scene)
}

// ReadBall2DPart is ReadBall2D keeping only the balls keep accepts (one
// MPI rank's part of a scene too large to hold on every rank): each
// top-level <ball> is read and checked as the file streams by and offered
// to keep with its index among the file's balls (its global id); the
// others are let go at once, so the memory is the kept balls' and the
// rest of the scene's, not the file's. The scene's Balls are the kept
// ones in file order, BallIDs their indices and NBalls the file's count.
// Scenes with <motion> or <scripting> are refused (they name balls by
// their index in the whole file).
func ReadBall2DPart(r io.Reader, source string, keep func(id int, b *Ball) bool) (*Ball2DScene, error) {
	rd := &reader{src: source, part: &ballPart{}}
	p := rd.part
	root, err := parseTreeLeaf(r, source, func(e *elem) bool {
		if e.name != "ball" {
			return false
		}
		b := rd.ball(e)
		if rd.err == nil && keep(p.n, &b) {
			p.balls = append(p.balls, b)
			p.ids = append(p.ids, p.n)
		}
		p.n++
		return true
	})
	if err != nil {
		return nil, err
	}
	s := rd.scene(root)
	if rd.err != nil {
		return nil, rd.err
	}
	return s, nil
}

// ballPart holds the balls ReadBall2DPart kept.
type ballPart struct {
	balls []Ball
	ids   []int
	n     int
}

// ---------------------------------------------------------------------------
// XML → element tree with line numbers

type elem struct {
	name     string
	line     int
	attrs    []xml.Attr
	children []*elem
}

func parseTree(r io.Reader, src string) (*elem, error) { return parseTreeLeaf(r, src, nil) }

// parseTreeLeaf is parseTree handing each child of the root element, once
// read whole, to leaf (when set); a child for which leaf returns true is
// not kept in the tree (a streaming reader takes it and lets it go).
func parseTreeLeaf(r io.Reader, src string, leaf func(e *elem) bool) (*elem, error) {
	d := xml.NewDecoder(bounded.TextReader(r, src, bounded.Text, "scene file"))
	d.Strict = true
	var root *elem
	var stack []*elem
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			var tl *bounded.TooLargeError
			var be *bounded.BinaryError
			if errors.As(err, &tl) || errors.As(err, &be) {
				return nil, err
			}
			if errors.As(err, &se) {
				return nil, &Error{src, se.Line, "malformed XML: " + se.Msg}
			}
			l, _ := d.InputPos()
			return nil, &Error{src, l, "malformed XML: " + err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			if t.Name.Space != "" {
				name = t.Name.Space + ":" + name
			}
			// The decoder stands just before '<' when we ask for the
			// position, except at the very start of the document.
			if line < 1 {
				line = 1
			}
			e := &elem{name: name, line: line, attrs: append([]xml.Attr(nil), t.Attr...)}
			if len(stack) == 0 {
				if root != nil {
					return nil, &Error{src, line, fmt.Sprintf("unexpected element <%s> after the root element", name)}
				}
				root = e
			} else {
				if len(stack) >= maxDepth {
					return nil, &Error{src, line, fmt.Sprintf("element <%s> nested too deeply", name)}
				}
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			if len(stack) > 0 {
				e := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if leaf != nil && len(stack) == 1 && leaf(e) {
					// e is its parent's last child so far
					p := stack[0]
					p.children[len(p.children)-1] = nil
					p.children = p.children[:len(p.children)-1]
				}
			}
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				lead := len(t) - len(bytes.TrimLeft(t, " \t\r\n"))
				l := max(line, 1) + bytes.Count(t[:lead], []byte{'\n'})
				if len(stack) == 0 {
					return nil, &Error{src, l, fmt.Sprintf("unexpected text %s outside the root element", quote(string(bytes.TrimSpace(t))))}
				}
				return nil, &Error{src, l, fmt.Sprintf("unexpected text %s in <%s>", quote(string(bytes.TrimSpace(t))), stack[len(stack)-1].name)}
			}
		case xml.Comment, xml.ProcInst, xml.Directive:
			// ignored
		}
	}
	if root == nil {
		return nil, &Error{src, 1, "malformed XML: no root element"}
	}
	return root, nil
}

// quote returns s quoted, shortened if very long.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		// cut at a rune boundary
		cut := max
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// ---------------------------------------------------------------------------
// Element tree → Ball2DScene

type reader struct {
	src      string
	err      error
	warnings []string
	part     *ballPart // ReadBall2DPart's kept balls (nil: a whole scene)
}

// warn records a warning "FILE:LINE: message" (the scene is still read).
func (rd *reader) warn(line int, format string, args ...any) {
	rd.warnings = append(rd.warnings, fmt.Sprintf("%s:%d: %s", rd.src, line, fmt.Sprintf(format, args...)))
}

func (rd *reader) fail(line int, format string, args ...any) {
	if rd.err == nil {
		rd.err = &Error{rd.src, line, fmt.Sprintf(format, args...)}
	}
}

// checkAttrs rejects attributes not in allowed. A repeated attribute is
// accepted with a warning and its first value is the one read (attr), as
// SCISim's XML parser, RapidXML, does (first_attribute).
func (rd *reader) checkAttrs(e *elem, allowed ...string) {
	for i, a := range e.attrs {
		name := a.Name.Local
		if a.Name.Space != "" {
			name = a.Name.Space + ":" + name
		}
		ok := a.Name.Space == ""
		if ok {
			ok = false
			for _, al := range allowed {
				if al == name {
					ok = true
					break
				}
			}
		}
		if !ok {
			if len(allowed) == 0 {
				rd.fail(e.line, "%s: unsupported attribute %q", e.name, name)
			} else {
				rd.fail(e.line, "%s: unsupported attribute %q (valid: %s)", e.name, name, strings.Join(allowed, ", "))
			}
			return
		}
		for _, b := range e.attrs[:i] {
			if b.Name == a.Name {
				rd.warn(e.line, "%s: attribute %q given twice; the first value %q is used (as SCISim's RapidXML does), %q is ignored", e.name, name, b.Value, a.Value)
				break
			}
		}
	}
}

// noChildren rejects any nested element.
func (rd *reader) noChildren(e *elem) {
	if len(e.children) > 0 {
		c := e.children[0]
		rd.fail(c.line, "unsupported element <%s> inside <%s>", c.name, e.name)
	}
}

func (rd *reader) attr(e *elem, name string) (string, bool) {
	for _, a := range e.attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func (rd *reader) required(e *elem, name string) (string, bool) {
	v, ok := rd.attr(e, name)
	if !ok {
		rd.fail(e.line, "%s: missing required attribute %q", e.name, name)
	}
	return v, ok
}

func (rd *reader) bad(e *elem, name, want, got string) {
	rd.fail(e.line, "%s attribute %q: expected %s, got %s", e.name, name, want, quote(got))
}

// Value checks for numbers.
type check int

const (
	anyFinite      check = iota
	positive             // > 0, finite
	nonNegative          // ≥ 0, finite
	unitInterval         // in [0, 1]
	halfOpenUnit         // in [0, 1)
	openClosedUnit       // in (0, 1]
	zeroOnly             // exactly 0
	// quantity is a physical quantity that may be negative or zero (a
	// position, velocity, angular velocity, gravity): |x| ≤ MaxQuantity.
	quantity
	// posQuantity is a positive physical quantity (a mass, radius, size,
	// density, time step): MinQuantity ≤ x ≤ MaxQuantity.
	posQuantity
)

// The admissible range of the physical quantities of a scene (positions,
// sizes, velocities, angular velocities, masses, densities, gravity, time
// steps, end times). Within it every product the simulation forms stays
// inside float64 (ρ·r⁵ of a sphere's inertia: 1e-180…1e180; m·v²:
// ≤ 1e90); beyond it masses, inertias or energies overflow to Inf or
// underflow to 0 and the run would turn into NaN.
const (
	MinQuantity = 1e-30
	MaxQuantity = 1e30
)

func (c check) ok(x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	switch c {
	case quantity:
		return math.Abs(x) <= MaxQuantity
	case posQuantity:
		return x >= MinQuantity && x <= MaxQuantity
	case positive:
		return x > 0
	case nonNegative:
		return x >= 0
	case unitInterval:
		return x >= 0 && x <= 1
	case halfOpenUnit:
		return x >= 0 && x < 1
	case openClosedUnit:
		return x > 0 && x <= 1
	case zeroOnly:
		return x == 0
	}
	return true
}

func (c check) want() string {
	switch c {
	case positive:
		return "a positive finite number"
	case nonNegative:
		return "a non-negative finite number"
	case unitInterval:
		return "a number in [0, 1]"
	case halfOpenUnit:
		return "a number in [0, 1)"
	case openClosedUnit:
		return "a number in (0, 1]"
	case zeroOnly:
		return "0 (the law is purely inelastic)"
	case quantity:
		return "a number from -1e30 to 1e30"
	case posQuantity:
		return "a positive number from 1e-30 to 1e30"
	}
	return "a finite number"
}

func parseFloat(s string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, false
	}
	return x, true
}

// timeStep reads an integrator's dt: a positive number, or, as SCISim
// (which keeps dt as a rational number), a ratio "p/q" of positive
// integers (dt="1/10800" in SCISim's two_dragon_drop.xml), read as p/q.
func (rd *reader) timeStep(e *elem) float64 {
	s, ok := rd.required(e, "dt")
	if !ok {
		return 0
	}
	if p, q, isRatio := strings.Cut(strings.TrimSpace(s), "/"); isRatio {
		a, errA := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		b, errB := strconv.ParseInt(strings.TrimSpace(q), 10, 64)
		if errA != nil || errB != nil || a <= 0 || b <= 0 {
			rd.bad(e, "dt", "a positive number or a ratio \"p/q\" of positive integers", s)
			return 0
		}
		if dt := float64(a) / float64(b); posQuantity.ok(dt) {
			return dt
		}
		rd.bad(e, "dt", posQuantity.want(), s)
		return 0
	}
	return rd.numValue(e, "dt", s, posQuantity)
}

// num reads a required number.
func (rd *reader) num(e *elem, name string, c check) float64 {
	s, ok := rd.required(e, name)
	if !ok {
		return 0
	}
	return rd.numValue(e, name, s, c)
}

// optNum reads an optional number (def if absent).
func (rd *reader) optNum(e *elem, name string, c check, def float64) (float64, bool) {
	s, ok := rd.attr(e, name)
	if !ok {
		return def, false
	}
	return rd.numValue(e, name, s, c), true
}

func (rd *reader) numValue(e *elem, name, s string, c check) float64 {
	x, ok := parseFloat(s)
	if !ok || !c.ok(x) {
		rd.bad(e, name, c.want(), s)
		return 0
	}
	return x
}

// vec2 reads a required attribute holding two whitespace-separated numbers.
func (rd *reader) vec2(e *elem, name string) (float64, float64) {
	s, ok := rd.required(e, name)
	if !ok {
		return 0, 0
	}
	f := strings.Fields(s)
	if len(f) != 2 {
		rd.bad(e, name, "two numbers \"x y\"", s)
		return 0, 0
	}
	x, okx := parseFloat(f[0])
	y, oky := parseFloat(f[1])
	if !okx || !oky || !quantity.ok(x) || !quantity.ok(y) {
		rd.bad(e, name, "two numbers \"x y\" from -1e30 to 1e30", s)
		return 0, 0
	}
	return x, y
}

// integer reads an integer attribute, required or optional; minimum is the
// smallest value accepted.
func (rd *reader) integer(e *elem, name string, req bool, minimum int) (int, bool) {
	var s string
	var ok bool
	if req {
		s, ok = rd.required(e, name)
	} else {
		s, ok = rd.attr(e, name)
	}
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < minimum {
		want := "an integer"
		switch minimum {
		case 0:
			want = "a non-negative integer"
		case 1:
			want = "a positive integer"
		}
		rd.bad(e, name, want, s)
		return 0, false
	}
	return n, true
}

func (rd *reader) boolean(e *elem, name string, req bool) (bool, bool) {
	var s string
	var ok bool
	if req {
		s, ok = rd.required(e, name)
	} else {
		s, ok = rd.attr(e, name)
	}
	if !ok {
		return false, false
	}
	switch strings.TrimSpace(s) {
	case "0", "false":
		return false, true
	case "1", "true":
		return true, true
	}
	rd.bad(e, name, "a boolean (0 or 1)", s)
	return false, false
}

// choice reads a required attribute restricted to a set of names.
func (rd *reader) choice(e *elem, name string, valid ...string) string {
	s, ok := rd.required(e, name)
	if !ok {
		return ""
	}
	for _, v := range valid {
		if s == v {
			return s
		}
	}
	rd.bad(e, name, "one of "+strings.Join(valid, ", "), s)
	return ""
}

func (rd *reader) scene(root *elem) *Ball2DScene {
	s := &Ball2DScene{Source: rd.src}
	slots := commonSlots()
	slots["camera"] = "camera"
	slots["redetect"] = "redetect"
	slots["mirror_order"] = "mirror_order"
	found := rd.walk(root, sceneWalk{root: "ball2d_scene", slots: slots, hints: unsupportedSCISim, visit: func(e *elem) bool {
		switch e.name {
		case "integrator":
			s.Integrator = rd.integrator(e)
		case "impact_operator":
			s.ImpactOperator = rd.impactOperator(e, "")
		case "sobogus_friction_solver":
			s.Friction = rd.sobogus(e)
		case "staggered_projections_friction_solver":
			s.Friction = rd.staggered(e)
		case "camera":
			s.Camera = rd.camera(e)
		case "end_time":
			s.EndTime, s.EndTimeLine = rd.endTime(e), e.line
		case "position_correction":
			s.Correction = rd.positionCorrection(e)
		case "redetect":
			s.Redetect = rd.redetect(e)
		case "mirror_order":
			rd.checkAttrs(e)
			rd.noChildren(e)
			s.MirrorOrderLine = e.line
		case "gravity":
			rd.checkAttrs(e, "fx", "fy")
			rd.noChildren(e)
			gx, gy := rd.num(e, "fx", quantity), rd.num(e, "fy", quantity)
			s.Gravity.X += gx
			s.Gravity.Y += gy
			if s.Gravity.Line == 0 {
				s.Gravity.Line = e.line
			}
		case "ball":
			s.Balls = append(s.Balls, rd.ball(e))
		case "static_plane":
			s.Planes = append(s.Planes, rd.plane(e))
		case "static_drum":
			rd.checkAttrs(e, "x", "y", "r")
			rd.noChildren(e)
			s.Drums = append(s.Drums, Drum{
				X: rd.num(e, "x", quantity), Y: rd.num(e, "y", quantity),
				R: rd.num(e, "r", posQuantity), Line: e.line,
			})
		case "planar_portal", "lees_edwards_portal":
			s.Portals = append(s.Portals, rd.portal(e))
		case "motion":
			s.Motions = append(s.Motions, rd.motion(e, "ball2d_scene"))
		case "scripting":
			s.Script = rd.script(e)
		default:
			return false
		}
		return true
	}})
	if p := rd.part; p != nil {
		switch {
		case len(s.Motions) > 0:
			rd.fail(s.Motions[0].Line, "<motion> names bodies by their index in the whole scene: not read in parts (every rank reads the whole scene)")
		case s.Script != nil:
			rd.fail(s.Script.Line, "<scripting> acts on the whole scene: not read in parts (every rank reads the whole scene)")
		}
		s.Balls, s.BallIDs, s.NBalls = p.balls, p.ids, p.n
	}
	rd.conflict(found)
	if rd.err == nil {
		rd.checkPortals(len(s.Planes), s.Portals)
	}
	if rd.err == nil {
		rd.finishMotions("ball2d_scene", s.Motions, map[string]int{"static_plane": len(s.Planes), "static_drum": len(s.Drums), "ball": len(s.Balls)},
			func(i int) bool { return s.Balls[i].Fixed }, math.Hypot(s.Gravity.X, s.Gravity.Y), s.Portals)
	}
	s.Warnings = rd.warnings
	return s
}

// unsupportedSCISim explains the elements SCISim's ball2d parser accepts that
// this project does not (yet).
var unsupportedSCISim = map[string]string{
	"penalty":             "penalty forces are not supported",
	"mdp_friction_solver": "SCISim's ball2d accepts it only inside <staggered_projections_friction_solver>",
	"lcp_impact_solver":   "SCISim's ball2d accepts it only inside <staggered_projections_friction_solver>",
}

// portal reads <planar_portal planeA planeB> or <lees_edwards_portal planeA
// planeB v bounds> (bounds > 0, as SCISim's parsers demand).
func (rd *reader) portal(e *elem) Portal {
	p := Portal{LeesEdwards: e.name == "lees_edwards_portal", Line: e.line}
	if p.LeesEdwards {
		rd.checkAttrs(e, "planeA", "planeB", "v", "bounds")
	} else {
		rd.checkAttrs(e, "planeA", "planeB")
	}
	rd.noChildren(e)
	p.PlaneA, _ = rd.integer(e, "planeA", true, 0)
	p.PlaneB, _ = rd.integer(e, "planeB", true, 0)
	if p.LeesEdwards {
		p.V = rd.num(e, "v", quantity)
		p.Bounds = rd.num(e, "bounds", posQuantity)
	}
	return p
}

// checkPortals checks the portals' plane indices as SCISim does and puts
// the planar portals before the Lees–Edwards ones (SCISim's order).
func (rd *reader) checkPortals(planes int, portals []Portal) {
	slices.SortStableFunc(portals, func(a, b Portal) int {
		switch {
		case a.LeesEdwards == b.LeesEdwards:
			return 0
		case b.LeesEdwards:
			return -1
		}
		return 1
	})
	used := make(map[int]int) // plane index → portal line; only for error reporting
	for _, p := range portals {
		for _, f := range []struct {
			name string
			idx  int
		}{{"planeA", p.PlaneA}, {"planeB", p.PlaneB}} {
			if f.idx >= planes {
				rd.fail(p.Line, "%s attribute %q: expected the index of a static_plane (0 to %d), got %q", p.Element(), f.name, planes-1, strconv.Itoa(f.idx))
				return
			}
			if l, ok := used[f.idx]; ok {
				rd.fail(p.Line, "%s attribute %q: plane %d is already used by the portal on line %d", p.Element(), f.name, f.idx, l)
				return
			}
		}
		if p.PlaneA == p.PlaneB {
			rd.fail(p.Line, "%s attribute \"planeB\": expected a plane other than planeA, got %q", p.Element(), strconv.Itoa(p.PlaneB))
			return
		}
		used[p.PlaneA] = p.Line
		used[p.PlaneB] = p.Line
	}
}

func (rd *reader) integrator(e *elem) Integrator {
	rd.checkAttrs(e, "type", "dt")
	rd.noChildren(e)
	return Integrator{
		Type: rd.choice(e, "type", "verlet", "symplectic_euler"),
		Dt:   rd.timeStep(e),
		Line: e.line,
	}
}

var impactTypes = []string{"gr", "grr", "lcp", "gauss_seidel", "jacobi"}

// impactOperator reads <impact_operator> (nested == "") or a nested
// <elastic_operator>/<inelastic_operator>.
func (rd *reader) impactOperator(e *elem, nested string) ImpactOperatorConfig {
	op := ImpactOperatorConfig{Line: e.line}
	if nested == "" {
		if _, hasType := rd.attr(e, "type"); !hasType {
			if _, hasName := rd.attr(e, "name"); hasName {
				return rd.legacyImpactOperator(e)
			}
		}
		rd.checkAttrs(e, "type", "CoR", "v_tol", "cache_impulses")
		op.CoR = rd.num(e, "CoR", unitInterval)
		op.CacheImpulses, _ = rd.boolean(e, "cache_impulses", true)
	} else {
		rd.checkAttrs(e, "type", "CoR", "v_tol")
		def := 1.0
		if nested == "inelastic_operator" {
			def = 0
		}
		op.CoR, _ = rd.optNum(e, "CoR", unitInterval, def)
	}
	op.Type = rd.choice(e, "type", impactTypes...)
	if rd.err != nil {
		return op
	}
	switch op.Type {
	case "gr", "gauss_seidel", "jacobi":
		op.VTol = rd.num(e, "v_tol", nonNegative)
	default:
		op.VTol, _ = rd.optNum(e, "v_tol", nonNegative, 0)
	}
	var solver, elastic, inelastic *elem
	for _, c := range e.children {
		if rd.err != nil {
			return op
		}
		var slot **elem
		switch {
		case c.name == "solver":
			slot = &solver
		case c.name == "elastic_operator" && op.Type == "grr" && nested == "":
			slot = &elastic
		case c.name == "inelastic_operator" && op.Type == "grr" && nested == "":
			slot = &inelastic
		default:
			rd.fail(c.line, "unsupported element <%s> inside <%s type=%q>", c.name, e.name, op.Type)
			return op
		}
		if *slot != nil {
			rd.fail(c.line, "duplicate element <%s> (first on line %d)", c.name, (*slot).line)
			return op
		}
		*slot = c
	}
	switch op.Type {
	case "gr", "lcp":
		if solver == nil {
			rd.fail(e.line, "%s type %q: missing required element <solver>", e.name, op.Type)
			return op
		}
	case "grr":
		if elastic == nil {
			rd.fail(e.line, "%s type \"grr\": missing required element <elastic_operator>", e.name)
			return op
		}
		if inelastic == nil {
			rd.fail(e.line, "%s type \"grr\": missing required element <inelastic_operator>", e.name)
			return op
		}
		el := rd.impactOperator(elastic, "elastic_operator")
		in := rd.impactOperator(inelastic, "inelastic_operator")
		op.Elastic, op.Inelastic = &el, &in
	}
	if solver != nil {
		sc := rd.solver(solver, "ipopt", "ql", "ql_vp", "apgd")
		op.Solver = sc.Name
		op.SolverConfig = &sc
	}
	return op
}

// legacyImpactOperator reads <impact_operator CoR name tol max_iters
// cache_impulses/>: an lcp operator solved by the named back end.
func (rd *reader) legacyImpactOperator(e *elem) ImpactOperatorConfig {
	rd.checkAttrs(e, "CoR", "name", "tol", "max_iters", "cache_impulses", "linear_solvers")
	rd.noChildren(e)
	op := ImpactOperatorConfig{Type: "lcp", Legacy: true, Line: e.line}
	op.CoR = rd.num(e, "CoR", unitInterval)
	op.CacheImpulses, _ = rd.boolean(e, "cache_impulses", true)
	sc := rd.solver(e, "ipopt", "ql", "ql_vp", "apgd")
	op.Solver = sc.Name
	op.SolverConfig = &sc
	return op
}

// solver reads a numerical back end as SCISim's loadLCPSolver /
// loadMDPOperator do: apgd needs tol > 0 and max_iters; ql and ql_vp need
// tol; ipopt needs linear_solvers and tol > 0.
func (rd *reader) solver(e *elem, valid ...string) SolverConfig {
	if e.name != "impact_operator" {
		rd.checkAttrs(e, "name", "tol", "max_iters", "linear_solvers")
		rd.noChildren(e)
	}
	sc := SolverConfig{Line: e.line}
	sc.Name = rd.choice(e, "name", valid...)
	if rd.err != nil {
		return sc
	}
	switch sc.Name {
	case "apgd":
		sc.Tol = rd.num(e, "tol", positive)
		sc.MaxIters, _ = rd.integer(e, "max_iters", true, 0)
	case "ql", "ql_vp":
		sc.Tol = rd.num(e, "tol", nonNegative)
		sc.MaxIters, _ = rd.integer(e, "max_iters", false, 0)
	case "ipopt":
		s, ok := rd.required(e, "linear_solvers")
		if ok {
			sc.LinearSolvers = strings.Fields(s)
			if len(sc.LinearSolvers) == 0 {
				rd.bad(e, "linear_solvers", "a list of linear solver names", s)
			}
		}
		sc.Tol = rd.num(e, "tol", positive)
		sc.MaxIters, _ = rd.integer(e, "max_iters", false, 0)
	}
	return sc
}

// symplecticEuler reads a sobogus solver's stabilization and
// penetration_threshold, both required with the symplectic_euler
// staggering, and refuses a restitution other than 0 with it, as SCISim's
// parsers do ("CoR must be set to 0 for the symplectic_euler staggering";
// this rejects SCISim's own tests_st/three_ball_collision_cor_0_5 and _1_0
// as SCISim does): that staggering constrains the velocity after gravity's
// kick, not a pre-impact velocity restitution could act on.
func (rd *reader) symplecticEuler(e *elem, f *FrictionConfig) {
	req := f.Staggering == "symplectic_euler"
	f.Stabilization, _ = rd.boolean(e, "stabilization", req)
	if req {
		f.PenetrationThreshold = rd.num(e, "penetration_threshold", nonNegative)
	} else {
		f.PenetrationThreshold, _ = rd.optNum(e, "penetration_threshold", nonNegative, 0)
	}
	if rd.err == nil && req && f.CoR != 0 {
		s, _ := rd.attr(e, "CoR")
		rd.bad(e, "CoR", "0 with staggering=\"symplectic_euler\" (SCISim refuses other values)", s)
	}
}

func (rd *reader) sobogus(e *elem) FrictionConfig {
	rd.checkAttrs(e, "mu", "CoR", "max_iters", "eval_every", "tol", "cache_impulses", "staggering", "stabilization", "penetration_threshold")
	rd.noChildren(e)
	f := FrictionConfig{Kind: "sobogus", Line: e.line}
	f.Mu = rd.num(e, "mu", nonNegative)
	f.CoR = rd.num(e, "CoR", unitInterval)
	f.MaxIters, _ = rd.integer(e, "max_iters", true, 1)
	f.EvalEvery, _ = rd.integer(e, "eval_every", true, 1)
	if rd.err == nil && f.EvalEvery > f.MaxIters {
		s, _ := rd.attr(e, "eval_every")
		rd.bad(e, "eval_every", fmt.Sprintf("an integer ≤ max_iters (%d)", f.MaxIters), s)
	}
	f.Tol = rd.num(e, "tol", nonNegative)
	f.CacheImpulses = rd.choice(e, "cache_impulses", "none", "normal", "normal_and_friction")
	f.Staggering = rd.choice(e, "staggering", "geometric", "symplectic_euler", "stabilized")
	if rd.err != nil {
		return f
	}
	rd.symplecticEuler(e, &f)
	if rd.err != nil {
		return f
	}
	switch f.Staggering {
	case "stabilized":
		if f.CacheImpulses != "none" {
			s, _ := rd.attr(e, "cache_impulses")
			rd.bad(e, "cache_impulses", "\"none\" with staggering=\"stabilized\"", s)
		}
	}
	return f
}

func (rd *reader) staggered(e *elem) FrictionConfig {
	rd.checkAttrs(e, "mu", "CoR", "max_iters", "tol", "staggering", "internal_warm_start_alpha", "internal_warm_start_beta")
	f := FrictionConfig{Kind: "staggered_projections", Line: e.line}
	f.Mu = rd.num(e, "mu", nonNegative)
	f.CoR = rd.num(e, "CoR", unitInterval)
	f.InternalWarmStartAlpha, _ = rd.boolean(e, "internal_warm_start_alpha", true)
	f.InternalWarmStartBeta, _ = rd.boolean(e, "internal_warm_start_beta", true)
	f.Staggering = rd.choice(e, "staggering", "geometric", "stabilized")
	f.Tol = rd.num(e, "tol", nonNegative)
	f.MaxIters, _ = rd.integer(e, "max_iters", true, 1)
	f.CacheImpulses = "none"
	if rd.err != nil {
		return f
	}
	var lcp, mdp *elem
	for _, c := range e.children {
		var slot **elem
		switch c.name {
		case "lcp_impact_solver":
			slot = &lcp
		case "mdp_friction_solver":
			slot = &mdp
		default:
			rd.fail(c.line, "unsupported element <%s> inside <%s>", c.name, e.name)
			return f
		}
		if *slot != nil {
			rd.fail(c.line, "duplicate element <%s> (first on line %d)", c.name, (*slot).line)
			return f
		}
		*slot = c
	}
	if lcp == nil {
		rd.fail(e.line, "%s: missing required element <lcp_impact_solver>", e.name)
		return f
	}
	if mdp == nil {
		rd.fail(e.line, "%s: missing required element <mdp_friction_solver>", e.name)
		return f
	}
	ls := rd.solver(lcp, "ipopt", "ql", "ql_vp", "apgd")
	ms := rd.solver(mdp, "ql", "ipopt")
	f.ImpactSolver, f.MDPSolver = &ls, &ms
	return f
}

func (rd *reader) camera(e *elem) *Camera {
	rd.checkAttrs(e, "cx", "cy", "scale_factor", "fps", "render_at_fps", "locked")
	rd.noChildren(e)
	c := &Camera{Line: e.line}
	c.CX = rd.num(e, "cx", anyFinite)
	c.CY = rd.num(e, "cy", anyFinite)
	c.ScaleFactor = rd.num(e, "scale_factor", anyFinite)
	c.FPS, _ = rd.integer(e, "fps", true, 0)
	c.RenderAtFPS, _ = rd.boolean(e, "render_at_fps", true)
	c.Locked, _ = rd.boolean(e, "locked", true)
	return c
}

func (rd *reader) ball(e *elem) Ball {
	rd.checkAttrs(e, "x", "y", "vx", "vy", "m", "r", "fixed")
	rd.noChildren(e)
	b := Ball{Line: e.line}
	b.X = rd.num(e, "x", quantity)
	b.Y = rd.num(e, "y", quantity)
	b.VX = rd.num(e, "vx", quantity)
	b.VY = rd.num(e, "vy", quantity)
	b.M = rd.num(e, "m", posQuantity)
	b.R = rd.num(e, "r", posQuantity)
	b.Fixed, _ = rd.boolean(e, "fixed", true)
	return b
}

func (rd *reader) plane(e *elem) Plane {
	rd.checkAttrs(e, "x", "n")
	rd.noChildren(e)
	p := Plane{Line: e.line}
	p.X, p.Y = rd.vec2(e, "x")
	nx, ny := rd.vec2(e, "n")
	if rd.err != nil {
		return p
	}
	var ok bool
	p.NX, p.NY, ok = Normalize(nx, ny)
	if !ok {
		s, _ := rd.attr(e, "n")
		rd.bad(e, "n", "a non-zero vector", s)
	}
	return p
}

// Normalize returns (x, y)/‖(x, y)‖ computed as SCISim (Eigen's normalized():
// each component divided by the square root of the squared norm), rescaling
// first only when that would overflow or underflow. ok is false for the zero
// vector or non-finite input.
func Normalize(x, y float64) (nx, ny float64, ok bool) {
	n := math.Sqrt(x*x + y*y)
	if n == 0 || math.IsInf(n, 0) || n < 1e-150 {
		s := math.Max(math.Abs(x), math.Abs(y))
		if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
			return 0, 0, false
		}
		x, y = x/s, y/s
		n = math.Sqrt(x*x + y*y)
	}
	if math.IsNaN(n) || n == 0 {
		return 0, 0, false
	}
	return x / n, y / n, true
}

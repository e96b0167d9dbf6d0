package scene

import (
	"io"
	"strings"

	"impactsim/bounded"
)

// sceneWalk is the structure every SCISim scene file shares, read the same
// way for the three systems: a root element of a given name, without
// attributes, whose children are visited in file order. Elements of one
// slot may appear once between them (a second is "duplicate element <x>
// (first on line N)"); display-only elements (*_renderer, and those listed
// in skip) are ignored; an element the system's visit does not handle is
// "unsupported element <x>", with the reason from hints when SCISim has it
// and impactsim does not.
type sceneWalk struct {
	root  string
	slots map[string]string // element → slot
	skip  []string
	hints map[string]string
	// late names elements visited after all the others, in file order
	// (bodies, which refer to geometries given anywhere in the file).
	late []string
	// visit reads one element; it returns false if the element is not
	// one of the system's.
	visit func(e *elem) bool
}

// walk reads the root's children with w and returns the element found for
// each slot. It reports a wrong root, duplicates, unsupported elements and
// a missing <integrator> (every scene needs one).
func (rd *reader) walk(root *elem, w sceneWalk) map[string]*elem {
	found := make(map[string]*elem)
	if root.name != w.root {
		rd.fail(root.line, "unsupported element <%s>: the root element must be <%s>", root.name, w.root)
		return found
	}
	rd.checkAttrs(root)
	var late []*elem
	for _, e := range root.children {
		if rd.err != nil {
			return found
		}
		if contains(w.late, e.name) {
			late = append(late, e)
			continue
		}
		if slot, ok := w.slots[e.name]; ok {
			if first := found[slot]; first != nil {
				rd.fail(e.line, "duplicate element <%s> (first on line %d)", e.name, first.line)
				return found
			}
			found[slot] = e
		}
		if w.visit(e) {
			continue
		}
		switch {
		case strings.HasSuffix(e.name, "_renderer"), contains(w.skip, e.name):
			// display only
		case w.hints[e.name] != "":
			rd.fail(e.line, "unsupported element <%s>: %s", e.name, w.hints[e.name])
		default:
			rd.fail(e.line, "unsupported element <%s>", e.name)
		}
	}
	if rd.err == nil && found["integrator"] == nil {
		rd.fail(root.line, "%s: missing required element <integrator>", w.root)
	}
	for _, e := range late {
		if rd.err != nil {
			break
		}
		w.visit(e)
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// endTime reads <end_time t> (t > 0).
func (rd *reader) endTime(e *elem) float64 {
	rd.checkAttrs(e, "t")
	rd.noChildren(e)
	return rd.num(e, "t", posQuantity)
}

// frictionSlots are the slots of the elements every system shares.
func commonSlots() map[string]string {
	return map[string]string{
		"integrator":                            "integrator",
		"impact_operator":                       "impact",
		"sobogus_friction_solver":               "friction",
		"staggered_projections_friction_solver": "friction",
		"end_time":                              "end_time",
		"position_correction":                   "position_correction",
	}
}

// conflict reports a scene with both an impact operator and a friction
// solver (SCISim's 2D parsers refuse it).
func (rd *reader) conflict(found map[string]*elem) {
	impact, friction := found["impact"], found["friction"]
	if rd.err == nil && impact != nil && friction != nil {
		rd.fail(friction.line, "%s: conflicts with <impact_operator> on line %d (a scene uses either an impact operator or a friction solver)", friction.name, impact.line)
	}
}

// loadFile reads the scene file at path with read (which names the file in
// its errors).
func loadFile[T any](path string, read func(io.Reader, string) (*T, error)) (*T, error) {
	f, err := bounded.Open(path, bounded.Text, "scene file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, path)
}

// readWith parses r into an element tree and builds the scene from its
// root; the first problem found is the error.
func readWith[T any](r io.Reader, source string, build func(rd *reader, root *elem) *T) (*T, error) {
	root, err := parseTree(r, source)
	if err != nil {
		return nil, err
	}
	rd := &reader{src: source}
	s := build(rd, root)
	if rd.err != nil {
		return nil, rd.err
	}
	return s, nil
}

// CorrectionConfig is impactsim's <position_correction tol max_passes
// method max_sweeps> (no SCISim equivalent; every system's scene may have
// one): the position correction of package sim after every step. Every
// attribute is optional; zero means the default (sim.Correction,
// scenario).
type CorrectionConfig struct {
	Tol       float64 // overlap tolerance, a length > 0
	MaxPasses int     // projection passes per step, ≥ 1
	// Method is "projection" or "ngs" ("": projection).
	Method    string
	MaxSweeps int // ngs sweeps per step, ≥ 1
	Line      int
}

// RedetectConfig is impactsim's <redetect max_rounds> (ball2d scenes; no
// SCISim equivalent): every step's active set closed under the law's
// velocity (sim.Closure). The attribute is optional; zero means the
// default.
type RedetectConfig struct {
	MaxRounds int // re-solves per step, ≥ 1
	Line      int
}

// redetect reads <redetect max_rounds>.
func (rd *reader) redetect(e *elem) *RedetectConfig {
	rd.checkAttrs(e, "max_rounds")
	rd.noChildren(e)
	c := &RedetectConfig{Line: e.line}
	c.MaxRounds, _ = rd.integer(e, "max_rounds", false, 1)
	return c
}

// positionCorrection reads <position_correction tol max_passes method
// max_sweeps>.
func (rd *reader) positionCorrection(e *elem) *CorrectionConfig {
	rd.checkAttrs(e, "tol", "max_passes", "method", "max_sweeps")
	rd.noChildren(e)
	c := &CorrectionConfig{Line: e.line}
	c.Tol, _ = rd.optNum(e, "tol", positive, 0)
	c.MaxPasses, _ = rd.integer(e, "max_passes", false, 1)
	if _, ok := rd.attr(e, "method"); ok {
		c.Method = rd.choice(e, "method", "projection", "ngs")
	}
	c.MaxSweeps, _ = rd.integer(e, "max_sweeps", false, 1)
	return c
}

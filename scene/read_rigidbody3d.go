package scene

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"impactsim/bounded"
)

// LoadRigidBody3D reads the SCISim rigidbody3d scene file at path.
func LoadRigidBody3D(path string) (*RigidBody3DScene, error) {
	return loadFile(path, ReadRigidBody3D)
}

// RootElement returns the name of the root element of the XML document at
// path ("" and an error if it cannot be read), so that callers can dispatch
// between ball2d and rigidbody3d scenes.
func RootElement(path string) (string, error) {
	f, err := bounded.Open(path, bounded.Text, "scene file")
	if err != nil {
		return "", err
	}
	defer f.Close()
	root, err := parseTree(f, path)
	if err != nil {
		return "", err
	}
	return root.name, nil
}

// ReadRigidBody3D reads a SCISim <rigidbody3d_scene> from r with the same
// error style as ReadBall2D (FILE:LINE: element attribute "x": expected …).
// Supported: integrator (dmv, split_ham, symplectic_euler), impact_operator
// (with nested solver / elastic_operator / inelastic_operator),
// sobogus_friction_solver, staggered_projections_friction_solver (with
// lcp_impact_solver and mdp_friction_solver), near_earth_gravity, geometry
// of type sphere and box, rigid_body_with_density, static_plane,
// static_cylinder, planar_portal (with multiplier), end_time;
// camera_perspective and *_renderer elements are display-only and skipped;
// impactsim's bounce_map and bounce_map_combiner (see the package
// documentation). Geometry types are sphere, box and mesh (Wavefront OBJ
// files, or SCISim's HDF5 .h5 mesh files). Any other element or geometry
// type (staple,
// …) is an error naming the element and its line.
func ReadRigidBody3D(r io.Reader, source string) (*RigidBody3DScene, error) {
	return readWith(r, source, (*reader).scene3d)
}

// vec3 reads a required attribute holding three finite numbers.
func (rd *reader) vec3(e *elem, name string) [3]float64 {
	s, ok := rd.required(e, name)
	if !ok {
		return [3]float64{}
	}
	return rd.vec3Value(e, name, s)
}

func (rd *reader) vec3Value(e *elem, name, s string) [3]float64 {
	f := strings.Fields(s)
	var v [3]float64
	if len(f) != 3 {
		rd.bad(e, name, "three numbers \"x y z\"", s)
		return v
	}
	for i := range f {
		x, ok := parseFloat(f[i])
		if !ok || !quantity.ok(x) {
			rd.bad(e, name, "three numbers \"x y z\" from -1e30 to 1e30", s)
			return v
		}
		v[i] = x
	}
	return v
}

func norm3(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }

func (rd *reader) unitVec3(e *elem, name string) [3]float64 { return rd.unitVec(e, name, 3) }

func (rd *reader) scene3d(root *elem) *RigidBody3DScene {
	s := &RigidBody3DScene{Source: rd.src}
	slots := commonSlots()
	slots["nbgs_friction_solver"] = "friction"
	slots["near_earth_gravity"] = "gravity"
	slots["bounce_map_combiner"] = "combiner"
	seen := map[int]int{} // geometry → line of its bounce map
	found := rd.walk(root, sceneWalk{root: "rigidbody3d_scene", slots: slots, skip: []string{"camera_orthographic", "camera"},
		late: []string{"rigid_body_with_density", "bounce_map"}, visit: func(e *elem) bool {
			switch e.name {
			case "integrator":
				rd.checkAttrs(e, "type", "dt")
				rd.noChildren(e)
				s.Integrator = Integrator{Type: rd.choice(e, "type", "dmv", "split_ham", "symplectic_euler"), Dt: rd.timeStep(e), Line: e.line}
			case "impact_operator":
				s.ImpactOperator = rd.impactOperator3D(e, "")
			case "sobogus_friction_solver":
				s.Friction = rd.sobogus3D(e)
			case "staggered_projections_friction_solver":
				s.Friction = rd.staggered(e)
			case "nbgs_friction_solver":
				s.Friction = rd.nbgs(e)
			case "near_earth_gravity":
				rd.checkAttrs(e, "f")
				rd.noChildren(e)
				s.Gravity = rd.vec3(e, "f")
			case "end_time":
				s.EndTime = rd.endTime(e)
			case "position_correction":
				s.Correction = rd.positionCorrection(e)
			case "geometry":
				s.Geometries = append(s.Geometries, rd.geometry3D(e))
			case "rigid_body_with_density":
				s.Bodies = append(s.Bodies, rd.body3D(e, len(s.Geometries)))
			case "bounce_map":
				m := rd.bounceMap(e, s.Geometries)
				if first, dup := seen[m.Geo]; dup && rd.err == nil {
					rd.fail(e.line, "duplicate <bounce_map> for geometry %d (first on line %d)", m.Geo, first)
				}
				seen[m.Geo] = e.line
				s.BounceMaps = append(s.BounceMaps, m)
			case "bounce_map_combiner":
				rd.checkAttrs(e, "name")
				rd.noChildren(e)
				if n, ok := rd.required(e, "name"); ok {
					s.BounceMapCombiner = BounceMapCombiner{Name: strings.TrimSpace(n), Line: e.line}
				}
			case "static_plane":
				rd.checkAttrs(e, "x", "n")
				rd.noChildren(e)
				s.Planes = append(s.Planes, Plane3D{X: rd.vec3(e, "x"), N: rd.unitVec3(e, "n"), Line: e.line})
			case "planar_portal":
				s.Portals = append(s.Portals, rd.portal3D(e))
			case "motion":
				s.Motions = append(s.Motions, rd.motion(e, "rigidbody3d_scene"))
			case "scripting":
				s.Script = rd.script(e)
			case "static_cylinder":
				rd.checkAttrs(e, "x", "axis", "R")
				rd.noChildren(e)
				s.Cylinders = append(s.Cylinders, Cylinder3D{X: rd.vec3(e, "x"), Axis: rd.unitVec3(e, "axis"), R: rd.num(e, "R", posQuantity), Line: e.line})
			case "camera_perspective":
				rd.checkAttrs(e, "theta", "phi", "rho", "lookat", "up", "fps", "render_at_fps", "locked")
				rd.noChildren(e)
				s.Camera = &Camera3D{Theta: rd.num(e, "theta", anyFinite), Phi: rd.num(e, "phi", anyFinite), Rho: rd.num(e, "rho", positive),
					LookAt: rd.vec3(e, "lookat"), Up: rd.unitVec3(e, "up"), Line: e.line}
			default:
				return false
			}
			return true
		}})
	if rd.err != nil {
		return s
	}
	if s.Friction.Kind == "nbgs" && s.Integrator.Type != "symplectic_euler" {
		rd.fail(found["integrator"].line, "integrator: <nbgs_friction_solver> (line %d) steps with semi-implicit Euler: expected type=\"symplectic_euler\", got %q", s.Friction.Line, s.Integrator.Type)
		return s
	}
	rd.checkPortals(len(s.Planes), s.Portals)
	if rd.err == nil {
		rd.finishMotions("rigidbody3d_scene", s.Motions, map[string]int{"static_plane": len(s.Planes), "static_cylinder": len(s.Cylinders), "rigid_body": len(s.Bodies)},
			func(i int) bool { return s.Bodies[i].Fixed }, norm3(s.Gravity), s.Portals)
	}
	s.Warnings = rd.warnings
	return s
}

// bounceMap reads <bounce_map geo_idx file [alpha] [lookup]>.
func (rd *reader) bounceMap(e *elem, geos []Geometry3D) BounceMap3D {
	rd.checkAttrs(e, "geo_idx", "file", "alpha", "lookup")
	rd.noChildren(e)
	m := BounceMap3D{Line: e.line, Alpha: 1, Lookup: "nearest"}
	gi, ok := rd.integer(e, "geo_idx", true, math.MinInt)
	if ok {
		if gi < 0 {
			gi += len(geos)
		}
		s, _ := rd.attr(e, "geo_idx")
		switch {
		case gi < 0 || gi >= len(geos):
			rd.bad(e, "geo_idx", "an index in [−number of geometries, number of geometries − 1]", s)
		case geos[gi].Type != "mesh":
			rd.bad(e, "geo_idx", fmt.Sprintf("a mesh geometry (geometry %d on line %d is a %s)", gi, geos[gi].Line, geos[gi].Type), s)
		}
		m.Geo = gi
	}
	if f, ok := rd.required(e, "file"); ok {
		if strings.TrimSpace(f) == "" {
			rd.bad(e, "file", "a bounce map file name", f)
		} else if filepath.IsAbs(f) {
			m.File = f
		} else {
			m.File = filepath.Join(filepath.Dir(rd.src), f)
		}
	}
	if _, ok := rd.attr(e, "alpha"); ok {
		m.Alpha = rd.num(e, "alpha", unitInterval)
	}
	if _, ok := rd.attr(e, "lookup"); ok {
		m.Lookup = rd.choice(e, "lookup", "nearest", "mls")
	}
	return m
}

// portal3D reads a rigidbody3d <planar_portal planeA planeB multiplier>;
// SCISim requires the multiplier, three integers each −1 or 1.
func (rd *reader) portal3D(e *elem) Portal {
	rd.checkAttrs(e, "planeA", "planeB", "multiplier")
	rd.noChildren(e)
	p := Portal{Line: e.line}
	p.PlaneA, _ = rd.integer(e, "planeA", true, 0)
	p.PlaneB, _ = rd.integer(e, "planeB", true, 0)
	if s, ok := rd.required(e, "multiplier"); ok {
		f := strings.Fields(s)
		good := len(f) == 3
		for i := 0; good && i < 3; i++ {
			switch f[i] {
			case "1", "+1":
				p.Multiplier[i] = 1
			case "-1":
				p.Multiplier[i] = -1
			default:
				good = false
			}
		}
		if !good {
			rd.bad(e, "multiplier", `three signs "±1 ±1 ±1"`, s)
		}
	}
	return p
}

func (rd *reader) geometry3D(e *elem) Geometry3D {
	g := Geometry3D{Line: e.line}
	g.Type = rd.choice(e, "type", "sphere", "box", "mesh", "staple")
	if rd.err != nil {
		return g
	}
	switch g.Type {
	case "sphere":
		rd.checkAttrs(e, "type", "r")
		g.R = rd.num(e, "r", posQuantity)
	case "box":
		rd.checkAttrs(e, "type", "r")
		g.Half = rd.vec3(e, "r")
		if rd.err == nil && !(posQuantity.ok(g.Half[0]) && posQuantity.ok(g.Half[1]) && posQuantity.ok(g.Half[2])) {
			s, _ := rd.attr(e, "r")
			rd.bad(e, "r", "three half widths \"a b c\" from 1e-30 to 1e30", s)
		}
	case "mesh":
		rd.checkAttrs(e, "type", "filename")
		if f, ok := rd.required(e, "filename"); ok {
			if strings.TrimSpace(f) == "" {
				rd.bad(e, "filename", "a mesh file name", f)
			} else if l := strings.ToLower(f); !strings.HasSuffix(l, ".obj") && !strings.HasSuffix(l, ".h5") {
				rd.bad(e, "filename", "a Wavefront .obj file or one of SCISim's HDF5 (.h5) mesh files", f)
			} else if filepath.IsAbs(f) {
				g.File = f
			} else {
				// relative to the scene file; SCISim opens it relative to
				// the working directory, which serves when the first is
				// absent
				g.File = filepath.Join(filepath.Dir(rd.src), f)
				if _, err := os.Stat(g.File); err != nil {
					if _, err := os.Stat(f); err == nil {
						g.File = f
					}
				}
			}
		}
	default:
		rd.fail(e.line, "geometry attribute \"type\": %s geometry is not supported yet (supported: sphere, box, mesh)", g.Type)
	}
	rd.noChildren(e)
	return g
}

func (rd *reader) body3D(e *elem, ngeo int) Body3D {
	rd.checkAttrs(e, "x", "v", "omega", "rho", "fixed", "geo_idx", "R")
	rd.noChildren(e)
	b := Body3D{Line: e.line}
	b.X = rd.vec3(e, "x")
	b.V = rd.vec3(e, "v")
	b.Omega = rd.vec3(e, "omega")
	b.Rho = rd.num(e, "rho", posQuantity)
	b.Fixed, _ = rd.boolean(e, "fixed", true)
	if s, ok := rd.attr(e, "R"); ok {
		b.R = rd.vec3Value(e, "R", s)
	}
	gi, ok := rd.integer(e, "geo_idx", true, math.MinInt)
	if ok {
		if gi < 0 {
			gi += ngeo
		}
		if gi < 0 || gi >= ngeo {
			s, _ := rd.attr(e, "geo_idx")
			rd.bad(e, "geo_idx", "an index in [−number of geometries, number of geometries − 1]", s)
		}
		b.Geo = gi
	}
	return b
}

// impactOperator3D reads a rigidbody3d <impact_operator> (or a nested
// elastic/inelastic operator); rigidbody3d scenes leave v_tol and
// cache_impulses optional.
func (rd *reader) impactOperator3D(e *elem, nested string) ImpactOperatorConfig {
	rd.checkAttrs(e, "type", "CoR", "v_tol", "cache_impulses")
	op := ImpactOperatorConfig{Line: e.line}
	op.Type = rd.choice(e, "type", impactTypes...)
	def := 1.0
	if nested == "inelastic_operator" {
		def = 0
	}
	op.CoR, _ = rd.optNum(e, "CoR", unitInterval, def)
	op.VTol, _ = rd.optNum(e, "v_tol", nonNegative, 0)
	op.CacheImpulses, _ = rd.boolean(e, "cache_impulses", false)
	for _, c := range e.children {
		if rd.err != nil {
			break
		}
		switch {
		case c.name == "solver":
			sc := rd.solver(c, "ipopt", "ql", "ql_vp", "apgd")
			op.Solver, op.SolverConfig = sc.Name, &sc
		case op.Type == "grr" && nested == "" && (c.name == "elastic_operator" || c.name == "inelastic_operator"):
			sub := rd.impactOperator3D(c, c.name)
			if c.name == "elastic_operator" {
				op.Elastic = &sub
			} else {
				op.Inelastic = &sub
			}
		default:
			rd.fail(c.line, "unsupported element <%s> inside <%s>", c.name, e.name)
		}
	}
	return op
}

// sobogus3D reads a rigidbody3d <sobogus_friction_solver>, where
// cache_impulses is optional.
// nbgs reads impactsim's <nbgs_friction_solver mu max_iters tol [CoR]
// [block] [epsilon] [domains] [relax]>: Preclik et al.'s impulse-velocity
// time stepping with non-linear block Gauss–Seidel (friction.NBGS). CoR,
// if present, must be 0; block is maxdiss (default) or coulomb; epsilon
// (default 0) in [0, 1); domains (default 1) ≥ 1; relax (default 0.75) in
// (0, 1].
func (rd *reader) nbgs(e *elem) FrictionConfig {
	rd.checkAttrs(e, "mu", "CoR", "max_iters", "tol", "block", "epsilon", "domains", "relax")
	rd.noChildren(e)
	f := FrictionConfig{Kind: "nbgs", Line: e.line, Block: "maxdiss", Domains: 1, Relax: 0.75}
	f.Mu = rd.num(e, "mu", nonNegative)
	f.CoR, _ = rd.optNum(e, "CoR", zeroOnly, 0)
	f.MaxIters, _ = rd.integer(e, "max_iters", true, 1)
	f.Tol = rd.num(e, "tol", positive)
	if _, ok := rd.attr(e, "block"); ok {
		f.Block = rd.choice(e, "block", "maxdiss", "coulomb")
	}
	f.Epsilon, _ = rd.optNum(e, "epsilon", halfOpenUnit, 0)
	if _, ok := rd.attr(e, "domains"); ok {
		f.Domains, _ = rd.integer(e, "domains", true, 1)
	}
	f.Relax, _ = rd.optNum(e, "relax", openClosedUnit, 0.75)
	return f
}

func (rd *reader) sobogus3D(e *elem) FrictionConfig {
	rd.checkAttrs(e, "mu", "CoR", "max_iters", "eval_every", "tol", "cache_impulses", "staggering", "stabilization", "penetration_threshold")
	rd.noChildren(e)
	f := FrictionConfig{Kind: "sobogus", Line: e.line}
	f.Mu = rd.num(e, "mu", nonNegative)
	f.CoR = rd.num(e, "CoR", unitInterval)
	f.MaxIters, _ = rd.integer(e, "max_iters", true, 1)
	f.EvalEvery, _ = rd.integer(e, "eval_every", true, 1)
	f.Tol = rd.num(e, "tol", nonNegative)
	f.CacheImpulses = "none"
	if _, ok := rd.attr(e, "cache_impulses"); ok {
		f.CacheImpulses = rd.choice(e, "cache_impulses", "none", "normal", "normal_and_friction")
	}
	f.Staggering = rd.choice(e, "staggering", "geometric", "symplectic_euler", "stabilized")
	if rd.err == nil {
		rd.symplecticEuler(e, &f)
	}
	return f
}

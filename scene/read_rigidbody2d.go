package scene

import (
	"io"
	"math"
	"strings"
)

// LoadRigidBody2D reads the SCISim rigidbody2d scene file at path.
func LoadRigidBody2D(path string) (*RigidBody2DScene, error) {
	return loadFile(path, ReadRigidBody2D)
}

// ReadRigidBody2D reads a SCISim <rigidbody2d_scene> from r with the error
// style of ReadBall2D (FILE:LINE: element attribute "x": expected …).
// Supported, as SCISim's RigidBody2DSceneParser reads them: integrator
// (verlet, symplectic_euler), impact_operator (as in ball2d scenes),
// sobogus_friction_solver, near_earth_gravity (several add up),
// static_plane, planar_portal, lees_edwards_portal, geometry (circle, box),
// rigid_body, end_time, camera (display only) and scripting (Python
// callbacks, run by package script), and impactsim's <motion> (static_plane,
// rigid_body with fixed="1"). collision_detection (a broad-phase setting;
// impactsim uses its own) and *_renderer elements are skipped.
// staggered_projections_friction_solver (whose friction operator SCISim's
// rigidbody2d does not implement) is refused with its line.
func ReadRigidBody2D(r io.Reader, source string) (*RigidBody2DScene, error) {
	return readWith(r, source, (*reader).scene2d)
}

var unsupportedRigidBody2D = map[string]string{
	"staggered_projections_friction_solver": "SCISim's rigidbody2d has no MDP friction operator for it (loadMDPOperator is not implemented there)",
}

func (rd *reader) scene2d(root *elem) *RigidBody2DScene {
	s := &RigidBody2DScene{Source: rd.src}
	slots := commonSlots()
	delete(slots, "staggered_projections_friction_solver")
	slots["camera"] = "camera"
	slots["collision_detection"] = "collision_detection"
	found := rd.walk(root, sceneWalk{root: "rigidbody2d_scene", slots: slots, hints: unsupportedRigidBody2D, late: []string{"rigid_body"}, visit: func(e *elem) bool {
		switch e.name {
		case "integrator":
			s.Integrator = rd.integrator(e)
		case "impact_operator":
			s.ImpactOperator = rd.impactOperator(e, "")
		case "sobogus_friction_solver":
			s.Friction = rd.sobogus2D(e)
		case "camera":
			s.Camera = rd.camera2D(e)
		case "end_time":
			s.EndTime = rd.endTime(e)
		case "position_correction":
			s.Correction = rd.positionCorrection(e)
		case "near_earth_gravity":
			rd.checkAttrs(e, "f")
			rd.noChildren(e)
			gx, gy := rd.vec2(e, "f")
			s.Gravity[0] += gx
			s.Gravity[1] += gy
		case "static_plane":
			s.Planes = append(s.Planes, rd.plane(e))
		case "planar_portal", "lees_edwards_portal":
			s.Portals = append(s.Portals, rd.portal(e))
		case "geometry":
			s.Geometries = append(s.Geometries, rd.geometry2D(e))
		case "rigid_body":
			s.Bodies = append(s.Bodies, rd.body2D(e, len(s.Geometries)))
		case "motion":
			s.Motions = append(s.Motions, rd.motion(e, "rigidbody2d_scene"))
		case "scripting":
			s.Script = rd.script(e)
		case "collision_detection":
			rd.checkAttrs(e, "broadphase", "cell_scale", "bandwidth_reduction")
			rd.noChildren(e)
		default:
			return false
		}
		return true
	}})
	rd.conflict(found)
	if rd.err == nil {
		rd.checkPortals(len(s.Planes), s.Portals)
	}
	if rd.err == nil {
		rd.finishMotions("rigidbody2d_scene", s.Motions, map[string]int{"static_plane": len(s.Planes), "rigid_body": len(s.Bodies)},
			func(i int) bool { return s.Bodies[i].Fixed }, math.Hypot(s.Gravity[0], s.Gravity[1]), s.Portals)
	}
	s.Warnings = rd.warnings
	return s
}

// sobogus2D reads a rigidbody2d <sobogus_friction_solver>: every attribute
// required, staggering geometric or stabilized.
func (rd *reader) sobogus2D(e *elem) FrictionConfig {
	rd.checkAttrs(e, "mu", "CoR", "max_iters", "eval_every", "tol", "cache_impulses", "staggering")
	rd.noChildren(e)
	f := FrictionConfig{Kind: "sobogus", Line: e.line}
	f.Mu = rd.num(e, "mu", nonNegative)
	f.CoR = rd.num(e, "CoR", unitInterval)
	f.MaxIters, _ = rd.integer(e, "max_iters", true, 1)
	f.EvalEvery, _ = rd.integer(e, "eval_every", true, 1)
	if rd.err == nil && f.EvalEvery > f.MaxIters {
		v, _ := rd.attr(e, "eval_every")
		rd.bad(e, "eval_every", "an integer ≤ max_iters", v)
	}
	f.Tol = rd.num(e, "tol", nonNegative)
	f.CacheImpulses = rd.choice(e, "cache_impulses", "none", "normal", "normal_and_friction")
	f.Staggering = rd.choice(e, "staggering", "geometric", "stabilized")
	return f
}

// camera2D reads <camera center="x y" scale fps render_at_fps locked>.
func (rd *reader) camera2D(e *elem) *Camera {
	rd.checkAttrs(e, "center", "scale", "fps", "render_at_fps", "locked")
	rd.noChildren(e)
	c := &Camera{Line: e.line}
	c.CX, c.CY = rd.vec2(e, "center")
	c.ScaleFactor = rd.num(e, "scale", positive)
	c.FPS, _ = rd.integer(e, "fps", true, 0)
	c.RenderAtFPS, _ = rd.boolean(e, "render_at_fps", true)
	c.Locked, _ = rd.boolean(e, "locked", true)
	return c
}

func (rd *reader) geometry2D(e *elem) Geometry2D {
	g := Geometry2D{Line: e.line}
	g.Type = rd.choice(e, "type", "circle", "box")
	if rd.err != nil {
		return g
	}
	rd.checkAttrs(e, "type", "r")
	rd.noChildren(e)
	if g.Type == "circle" {
		g.R = rd.num(e, "r", posQuantity)
		return g
	}
	v, ok := rd.required(e, "r")
	if !ok {
		return g
	}
	f := strings.Fields(v)
	ok = len(f) == 2
	for i := 0; ok && i < 2; i++ {
		g.Half[i], ok = parseFloat(f[i])
		ok = ok && posQuantity.ok(g.Half[i])
	}
	if !ok {
		rd.bad(e, "r", `two half widths "a b" from 1e-30 to 1e30`, v)
	}
	return g
}

// body2D reads <rigid_body>. An "r" attribute (in SCISim's
// tests_ipopt_serialization/balls_in_box.xml) is accepted and ignored, as
// SCISim does: a body's size is its geometry's.
func (rd *reader) body2D(e *elem, ngeo int) Body2D {
	rd.checkAttrs(e, "x", "theta", "v", "omega", "rho", "geo_idx", "fixed", "r")
	rd.noChildren(e)
	b := Body2D{Line: e.line}
	b.X[0], b.X[1] = rd.vec2(e, "x")
	b.Theta = rd.num(e, "theta", quantity)
	b.V[0], b.V[1] = rd.vec2(e, "v")
	b.Omega = rd.num(e, "omega", quantity)
	b.Rho = rd.num(e, "rho", posQuantity)
	if gi, ok := rd.integer(e, "geo_idx", true, 0); ok {
		if gi >= ngeo {
			v, _ := rd.attr(e, "geo_idx")
			rd.bad(e, "geo_idx", "the index of a geometry (0 to number of geometries − 1)", v)
		}
		b.Geo = gi
	}
	b.Fixed, _ = rd.boolean(e, "fixed", false)
	return b
}

// Package scene reads SCISim scene files into plain data and generates the
// project's built-in scenes. It has no physics: package ball2d turns a
// Ball2DScene into a simulated system (ball2d.FromScene), and the stepper
// picks the operators the scene names.
//
// # SCISim ball2d scenes
//
// ReadBall2D and LoadBall2D accept the <ball2d_scene> format of SCISim's
// Ball2DSceneParser: integrator, impact_operator (gr, grr with nested
// elastic_operator/inelastic_operator, lcp, gauss_seidel, jacobi; nested
// solver ipopt, ql, ql_vp or apgd; also the legacy form with a name
// attribute), sobogus_friction_solver, staggered_projections_friction_solver
// (with lcp_impact_solver and mdp_friction_solver), gravity, ball,
// static_plane, static_drum, planar_portal, lees_edwards_portal, end_time and the display-only
// camera and *_renderer elements. Numbers are read with strconv.ParseFloat,
// which rounds correctly, so the 250-digit constants of some scenes give the
// nearest float64. Plane normals are normalized on read, as SCISim does.
//
// The reader is stricter than SCISim: unknown elements and attributes,
// missing required attributes, out-of-range values (non-positive mass,
// radius or time step, restitution outside [0, 1], …) and malformed XML are
// errors of the form
//
//	FILE:LINE: <element> attribute "name": expected <what>, got "<value>"
//
// and no input makes it panic (FuzzReadBall2D).
//
// Physical quantities must lie in impactsim's admissible range, so that
// no product the simulation forms leaves float64 (ρ·r⁵ of an inertia stays
// within 1e±180, m·v² below 1e90): positions, velocities, angular
// velocities, angles and gravity from −1e30 to 1e30 (MaxQuantity); masses,
// radii, half widths, densities, time steps and end times from 1e-30 to
// 1e30 (MinQuantity, MaxQuantity). A mass of 1e-320 or a speed of 1e308 is
// refused with its line instead of turning the run into NaN. SCISim
// elements the project does not support (penalty) are rejected with their
// line.
//
// Two things are read as SCISim reads them, not refused: an integrator's
// dt may be a ratio "p/q" of positive integers (SCISim keeps time steps as
// rationals; read as p/q), and an attribute given twice is read with its
// first value, as SCISim's RapidXML does (first_attribute), and noted in
// the scene's Warnings ("FILE:LINE: element: attribute "x" given twice;
// the first value … is used"). As SCISim, a sobogus_friction_solver with
// staggering="symplectic_euler" needs stabilization, penetration_threshold
// and CoR="0" (any other restitution is refused).
//
// # Bounce maps in rigidbody3d scenes (impactsim's elements)
//
// SCISim has no per-contact restitution. A rigidbody3d scene may add
//
//	<bounce_map geo_idx="0" file="bunny.bmap" alpha="1" lookup="nearest"/>
//	<bounce_map_combiner name="arithmetic"/>
//
// <bounce_map> (any number, one per geometry) gives every body of mesh
// geometry geo_idx (negative counts from the end, as for bodies) the
// restitution of the bounce map in file (package bouncemap's format,
// made with `impactsim bouncemap build`; relative to the scene file's
// directory), scaled by alpha ∈ [0, 1] (optional, default 1), looked up
// by the nearest sample or a moving least-squares fit (lookup, optional,
// default nearest). <bounce_map_combiner> (at most one) names how two
// mapped bodies combine (arithmetic, geometric, harmonic,
// geometric_flipped, harmonic_flipped, min, max; default arithmetic). A
// geo_idx outside the geometries or of a sphere or box, a duplicate map
// for one geometry, alpha outside [0, 1], an unknown lookup or combiner,
// an unreadable map and a map made for another surface (its shape hash)
// are FILE:LINE errors naming the element; the scene's impact_operator CoR
// remains the restitution of contacts without maps (rigid3d.System.Maps
// for the rule).
// # Prescribed motions (impactsim's <motion> element)
//
// SCISim moves geometry only from Python scripts (<scripting>, below). A
// ball2d, rigidbody2d or rigidbody3d scene may instead declare motions:
//
//	<motion static_plane="0">
//	  <oscillation axis="0 1" gamma="2.5" frequency="15" phase="0" start="0"/>
//	</motion>
//	<motion static_drum="0"><rotation omega="3.14"/></motion>
//	<motion ball="4"><linear v="0.5 0" start="1"/></motion>
//
// The one target attribute names the geometry by its index among the
// elements of that name in file order: static_plane, static_drum or ball
// (a fixed ball) in ball2d scenes; static_plane or rigid_body (a fixed
// rigid_body, whose angle turns with the rotation) in rigidbody2d scenes;
// static_plane, static_cylinder or rigid_body (a fixed
// rigid_body_with_density) in rigidbody3d scenes. The
// motion is the sum of its terms (Motion, MotionTerm; package motion has
// the formulas): <oscillation axis (amplitude | gamma) (frequency | fstar
// H) [phase] [start]>, the vibrated-bed parameters Γ = A(2πf)²/g and f* =
// f√(H/g) converted with the scene's gravity; <linear v [start]>;
// <rotation omega [axis] [center] [start]> (3D takes an axis; the centre
// defaults to the target's reference point: a plane's x, a drum's or
// cylinder's centre, a body's centre). Every term takes an optional stop
// time after which it holds still (one shake: stop = start + 1/f).
// Vectors have the scene's dimension.
// Errors are FILE:LINE lines: an unknown term, a non-finite number, a
// frequency ≤ 0, a zero axis, a missing or second target, an index
// outside the scene, a body that is not fixed, a portal's plane, a second
// motion of one target, two rotations, Γ or f* without gravity.
//
// # Scripts (<scripting callback="NAME"/>)
//
// SCISim's <scripting> names the Python module NAME.py beside the scene
// file; Script records it (package script runs it).
//
// # Position correction (impactsim's element, every system)
//
//	<position_correction tol="1e-6" max_passes="8"/>
//	<position_correction method="ngs" max_sweeps="1000"/>
//
// turns on the position correction of package sim after every step
// (CorrectionConfig; every attribute optional: tol a length > 0, default
// 10⁻⁵ of the smallest radius; max_passes an integer ≥ 1, default 8;
// method "projection" (the minimal displacement, default) or "ngs" (the
// nonlinear Gauss–Seidel sweeps, ball2d scenes); max_sweeps an integer ≥
// 1, ngs's sweeps per step at most, default 1000). At
// most one per scene; a bad value is a FILE:LINE error naming the
// attribute. Without it, scene files run without correction unless the
// command line asks (package scenario).
//
// # Closed active set (impactsim's element, ball2d scenes)
//
//	<redetect max_rounds="16"/>
//
// closes every step's active set under the law's velocity (package sim,
// "Closed active set"; RedetectConfig; max_rounds, optional, an integer
// ≥ 1, default 16, caps the re-solves of a step). At most one per scene;
// without it (and without --redetect on) a step uses Alg. 4's active set.
//
// # Mirror-invariant contact order (impactsim's element, ball2d scenes)
//
//	<mirror_order/>
//
// lists every step's contacts in ball2d's mirror-invariant order
// (ball2d.System.MirrorOrder; Ball2DScene.MirrorOrderLine) instead of the
// detection's (i, j) order. No attributes; at most one per scene; without
// it (and without --mirror-order on) the detection's order, SCISim's (a
// SCISim file read here is not one of impactsim's built-in scenes, which
// get the mirror order by default: package scenario).
//
// # SCISim rigidbody3d and rigidbody2d scenes
//
// ReadRigidBody3D and ReadRigidBody2D read <rigidbody3d_scene> and
// <rigidbody2d_scene> (see their documentation for the elements); the three
// systems' scenes go through one sceneWalk: the root, the elements that may
// appear once (integrator, impact operator or friction solver, end_time,
// camera), the display-only ones, the bodies (and bounce maps) read after
// their geometries, and the same FILE:LINE errors. A rigidbody2d scene has circles and boxes
// (geometry type circle r / box r="a b"), rigid_body x theta v omega rho
// geo_idx fixed, near_earth_gravity, static_plane, planar_portal and
// lees_edwards_portal, and the ball2d impact operators or a
// sobogus_friction_solver.
//
// # Constraints the scenes describe
//
// With xᵢ the centre and rᵢ the radius of ball i, a scene's geometry is the
// set of one-sided constraints gₖ(q) ≥ 0 of Smith et al. 2012, §2:
//
//	ball–ball   |xᵢ − xⱼ| − rᵢ − rⱼ ≥ 0
//	static_plane (point p, unit normal n)   n·(xᵢ − p) − rᵢ ≥ 0
//	static_drum  (centre c, radius R)       R − rᵢ − |xᵢ − c| ≥ 0
//
// and the integrator is the free-flight map of Alg. 4 (Verlet, §9, or
// symplectic Euler). The impact operator settings select the instantaneous
// operator of §3–5 (GR is Alg. 2; grr blends an elastic and an inelastic
// operator as in Alg. 4, lines 3–5) and the friction settings Alg. 3.
//
// # Generators
//
// PoolBreak, NewtonsCradle and Bernoulli reproduce SCISim's examples_gr
// scenes; DrumGrid is the drum-scaling setup of §11.2 / Table 2 (drop and
// gas) and DrumRandom9x9 the long-term energy test of §9. All are
// deterministic.
package scene

package scenario

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/ball2d"
	"impactsim/geom2d"
	"impactsim/impact"
	"impactsim/mech"
	"impactsim/motion"
	"impactsim/rigid2d"
	"impactsim/rigid3d"
	"impactsim/scene"
	"impactsim/script"
	"impactsim/sim"
)

// driven is one piece of geometry of a scene with its prescribed motion:
// place puts it where the motion has it at time t, with its velocity there.
type driven struct {
	m     motion.Motion
	place func(st *sim.Stepper, s *motion.State)
	// again: the system's integrator moves the piece during the step
	// (rigid2d's kinematic bodies keep their velocity, as SCISim's), so
	// it is placed again at the step's end.
	again bool
}

// sceneMotion converts a scene's <motion> into a motion.Motion whose
// rotation, without a centre, turns about ref; errors name the file and
// line.
func sceneMotion(src string, sm *scene.Motion, ref r3.Vec) (motion.Motion, error) {
	var m motion.Motion
	for _, t := range sm.Terms {
		k := motion.Term{Axis: vec(t.Axis), Amplitude: t.Amplitude, Frequency: t.Frequency, Phase: t.Phase,
			Velocity: vec(t.Velocity), Omega: t.Omega, Center: ref, Start: t.Start, Stop: t.Stop}
		switch t.Kind {
		case "oscillation":
			k.Kind = motion.Oscillation
		case "linear":
			k.Kind = motion.Linear
		case "rotation":
			k.Kind = motion.Rotation
		}
		if t.HasCenter {
			k.Center = vec(t.Center)
		}
		m.Terms = append(m.Terms, k)
	}
	if err := m.Validate(); err != nil {
		return m, fmt.Errorf("%s:%d: %w", src, sm.Line, err)
	}
	return m, nil
}

// motionHook places every driven piece at time 0 now (the initial state)
// and adds the hook that places it at the end of every step (as SCISim's
// scripts place their planes).
func motionHook(st *sim.Stepper, ds []driven) {
	if len(ds) == 0 {
		return
	}
	for _, d := range ds {
		s := d.m.At(st.T)
		d.place(st, &s)
	}
	var t float64 // the end of the step being taken
	h := sim.Hook{Name: "motion", Begin: func(st *sim.Stepper) error {
		t = st.T + st.H
		for _, d := range ds {
			s := d.m.At(t)
			d.place(st, &s)
		}
		return nil
	}}
	if slices.ContainsFunc(ds, func(d driven) bool { return d.again }) {
		h.End = func(st *sim.Stepper) error {
			for _, d := range ds {
				if d.again {
					s := d.m.At(t)
					d.place(st, &s)
				}
			}
			return nil
		}
	}
	st.AddHook(h)
}

// addMotions converts a scene's motions (src names the file) with target,
// which returns for one motion how to place its geometry and the
// reference point of its rotation, and adds their hook to st. walls maps
// the scene's plane indices to the system's (scene.WallPlanes); again
// says which targets the system's integrator moves (driven.again).
func addMotions(st *sim.Stepper, src string, ms []scene.Motion, walls []int, again string, target func(sm *scene.Motion, plane int) (func(*sim.Stepper, *motion.State), r3.Vec)) error {
	planeOf := map[int]int{} // scene plane → system plane
	for k, i := range walls {
		planeOf[i] = k
	}
	var ds []driven
	for i := range ms {
		sm := &ms[i]
		place, ref := target(sm, planeOf[sm.Index])
		if place == nil {
			return fmt.Errorf("%s:%d: motion: unknown target %q", src, sm.Line, sm.Target)
		}
		m, err := sceneMotion(src, sm, ref)
		if err != nil {
			return err
		}
		ds = append(ds, driven{m: m, place: place, again: sm.Target == again})
	}
	motionHook(st, ds)
	return nil
}

// plane2D places the 2D plane planes[k] (a static_plane target), moved
// from its pose now; its reference point is the plane's.
func plane2D(planes []geom2d.Plane, k int) (func(*sim.Stepper, *motion.State), r3.Vec) {
	p0 := planes[k]
	return func(_ *sim.Stepper, s *motion.State) { planes[k] = p0.Moved(s) }, r3.Vec{X: p0.P[0], Y: p0.P[1]}
}

// body2D places body b of a 2D state with stride entries per body (2: a
// ball's x, y; 3: a rigid body's x, y, θ, whose angle turns with the
// motion's rotation), moved from its pose now: its position and velocity
// (and angle and angular velocity) in the stepper's state. Its reference
// point is its centre.
func body2D(st *sim.Stepper, b, stride int) (func(*sim.Stepper, *motion.State), r3.Vec) {
	i := stride * b
	x0 := r3.Vec{X: st.Q[i], Y: st.Q[i+1]}
	var th0 float64
	if stride == 3 {
		th0 = st.Q[i+2]
	}
	return func(st *sim.Stepper, s *motion.State) {
		x := s.Point(x0)
		v := s.VelocityAt(x)
		st.Q[i], st.Q[i+1] = x.X, x.Y
		st.V[i], st.V[i+1] = v.X, v.Y
		if stride == 3 {
			st.Q[i+2], st.V[i+2] = th0+s.RotVec.Z, s.W.Z
		}
	}, x0
}

// ball2dMotions adds the hook of a ball2d scene's <motion> elements to st.
func ball2dMotions(sc *scene.Ball2DScene, sys *ball2d.System, st *sim.Stepper) error {
	return addMotions(st, sc.Source, sc.Motions, scene.WallPlanes(len(sc.Planes), sc.Portals), "",
		func(sm *scene.Motion, k int) (func(*sim.Stepper, *motion.State), r3.Vec) {
			switch sm.Target {
			case "static_plane":
				return plane2D(sys.Planes, k)
			case "static_drum":
				k := sm.Index
				d0 := sys.Drums[k]
				return func(_ *sim.Stepper, s *motion.State) { sys.Drums[k] = d0.Moved(s) }, r3.Vec{X: d0.C[0], Y: d0.C[1]}
			case "ball":
				return body2D(st, sm.Index, 2)
			}
			return nil, r3.Vec{}
		})
}

// rigid3dMotions adds the hook of a rigidbody3d scene's <motion> elements
// to st.
func rigid3dMotions(sc *scene.RigidBody3DScene, sys *rigid3d.System, st *sim.Stepper) error {
	return addMotions(st, sc.Source, sc.Motions, scene.WallPlanes(len(sc.Planes), sc.Portals), "",
		func(sm *scene.Motion, k int) (func(*sim.Stepper, *motion.State), r3.Vec) {
			switch sm.Target {
			case "static_plane":
				p0 := sys.Planes[k]
				return func(_ *sim.Stepper, s *motion.State) { sys.Planes[k] = p0.Moved(s) }, p0.P
			case "static_cylinder":
				k := sm.Index
				c0 := sys.Cyls[k]
				return func(_ *sim.Stepper, s *motion.State) { sys.Cyls[k] = c0.Moved(s) }, c0.P
			case "rigid_body":
				b := sm.Index
				x0, o0 := rigid3d.Pose(st.Q, b)
				return func(st *sim.Stepper, s *motion.State) {
					x := s.Point(x0)
					o := rigid3d.FromRotationVector(s.RotVec).Mul(o0)
					u := s.VelocityAt(x)
					q, v := st.Q[7*b:7*b+7], st.V[6*b:6*b+6]
					q[0], q[1], q[2], q[3], q[4], q[5], q[6] = x.X, x.Y, x.Z, o.W, o.X, o.Y, o.Z
					v[0], v[1], v[2], v[3], v[4], v[5] = u.X, u.Y, u.Z, s.W.X, s.W.Y, s.W.Z
				}, x0
			}
			return nil, r3.Vec{}
		})
}

// rigid2dMotions adds the hook of a rigidbody2d scene's <motion> elements
// to st.
func rigid2dMotions(sc *scene.RigidBody2DScene, sys *rigid2d.System, st *sim.Stepper) error {
	return addMotions(st, sc.Source, sc.Motions, scene.WallPlanes(len(sc.Planes), sc.Portals), "rigid_body",
		func(sm *scene.Motion, k int) (func(*sim.Stepper, *motion.State), r3.Vec) {
			switch sm.Target {
			case "static_plane":
				return plane2D(sys.Planes, k)
			case "rigid_body":
				return body2D(st, sm.Index, 3)
			}
			return nil, r3.Vec{}
		})
}

// driveScene adds what moves a scene's geometry and sets its coefficients
// to st, in this order: its <motion> elements (motions), its script (load
// reads the script of the scene's <scripting> element sc, if any; src names
// the scene file), and the velocity-dependent restitution of opt.
func driveScene(st *sim.Stepper, src string, motions func() error, sc *scene.Script, load func(path string) (*script.Program, error), opt Options) error {
	if err := motions(); err != nil {
		return err
	}
	if sc != nil {
		pr, err := load(sc.Path)
		if err == nil {
			err = pr.Attach(st)
		}
		if err != nil {
			return &scene.Error{File: src, Line: sc.Line, Msg: "scripting: " + err.Error()}
		}
	}
	return velocityRestitution(st, opt)
}

// velocityRestitution makes st's restitution velocity dependent when
// opt.RestitutionV0 > 0 (impact.VelocityRestitution; a hook run after
// the scene's script, which may have set the coefficients it starts from).
func velocityRestitution(st *sim.Stepper, opt Options) error {
	if opt.RestitutionV0 == 0 {
		return nil
	}
	vr := &impact.VelocityRestitution{V0: opt.RestitutionV0}
	if err := vr.Check(); err != nil {
		return fmt.Errorf("option --cor-v0: %w", err)
	}
	st.AddHook(sim.Hook{Name: "velocity-dependent restitution", Coefficients: func(_ *sim.Stepper, p *mech.Problem) error {
		vr.Apply(p)
		return nil
	}})
	return nil
}

package scenario

import (
	"fmt"

	"impactsim/geom2d"
	"impactsim/mech"
	"impactsim/rigid2d"
	"impactsim/scene"
	"impactsim/script"
	"impactsim/sim"
)

// Rigid2D is a runnable 2D rigid-body scene.
type Rigid2D struct {
	Scene   *scene.RigidBody2DScene
	Sys     *rigid2d.System
	Law     sim.ContactLaw
	Stepper *sim.Stepper
	Mapping string
	// Warnings are the law's warnings (qce with restitution below 1),
	// one line each, for the command to print.
	Warnings []string
}

// Rigid2DFromScene builds the rigid2d system of sc (no contact law). The
// planes of portals are not collision planes; portals come in SCISim's
// order (planar, then Lees–Edwards).
func Rigid2DFromScene(sc *scene.RigidBody2DScene) (*rigid2d.System, error) {
	integ, err := rigid2d.ParseIntegrator(sc.Integrator.Type)
	if err != nil {
		return nil, &scene.Error{File: sc.Source, Line: sc.Integrator.Line, Msg: "integrator attribute \"type\": " + err.Error()}
	}
	s := &rigid2d.System{Integrator: integ, Gravity: sc.Gravity, CoR: 1}
	plane := func(i int) geom2d.Plane {
		p := sc.Planes[i]
		return geom2d.Plane{P: [2]float64{p.X, p.Y}, N: [2]float64{p.NX, p.NY}}
	}
	inPortal := make(map[int]bool)
	for _, po := range sc.Portals {
		s.Portals = append(s.Portals, geom2d.Portal{A: plane(po.PlaneA), B: plane(po.PlaneB), V: po.V, Bounds: po.Bounds})
		inPortal[po.PlaneA], inPortal[po.PlaneB] = true, true
	}
	for i := range sc.Planes {
		if !inPortal[i] {
			s.Planes = append(s.Planes, plane(i))
		}
	}
	for _, b := range sc.Bodies {
		sh := shape2D(sc.Geometries[b.Geo])
		if sh.Kind == rigid2d.Box {
			if len(sc.Portals) > 0 {
				return nil, &scene.Error{File: sc.Source, Line: sc.Portals[0].Line, Msg: fmt.Sprintf("%s: portals with box bodies (the box on line %d) are not supported: SCISim images circles only", sc.Portals[0].Element(), b.Line)}
			}
		}
		s.AddBody(sh, b.Rho, b.X, b.Theta, b.V, b.Omega, b.Fixed)
	}
	if err := s.Validate(); err != nil {
		return nil, &scene.Error{File: sc.Source, Msg: err.Error()}
	}
	return s, nil
}

// shape2D is the shape of a rigidbody2d <geometry>.
func shape2D(g scene.Geometry2D) rigid2d.Shape {
	if g.Type == "box" {
		return rigid2d.Shape{Kind: rigid2d.Box, Half: g.Half}
	}
	return rigid2d.Shape{Kind: rigid2d.Circle, R: g.R}
}

// NewRigid2D builds the system, contact law and stepper of a rigidbody2d
// scene with options opt (as NewBall2D). The scene's sobogus friction
// solver maps to friction.Coulomb, an impact operator (scene or
// --operator) to itself followed by maximal-dissipation friction when
// μ > 0. A scene with neither is stepped without contact response, as
// SCISim does (its own collision-detection tests).
func NewRigid2D(sc *scene.RigidBody2DScene, opt Options) (*Rigid2D, error) {
	sys, err := Rigid2DFromScene(sc)
	if err != nil {
		return nil, err
	}
	switch {
	case opt.Operator != "":
	case sc.ImpactOperator.Type != "":
		sys.CoR = sc.ImpactOperator.CoR
	case sc.Friction.Kind != "":
		sys.CoR, sys.Mu = sc.Friction.CoR, sc.Friction.Mu
	}
	if err := opt.override(&sys.CoR, &sys.Mu); err != nil {
		return nil, err
	}
	r := &Rigid2D{Scene: sc, Sys: sys}
	law, st, err := lawStepper(sys, sceneLaw{source: sc.Source, impact: &sc.ImpactOperator, friction: &sc.Friction,
		dt: sc.Integrator.Dt, dtLine: sc.Integrator.Line,
		fallback: noResponse{}, fallbackMapping: "no impact operator or friction solver in the scene: contacts are not resolved (as SCISim)",
		corr: correctionScene{source: sc.Source, elem: sc.Correction, own: ownScene(sc.Source), gravity: sys.Gravity != [2]float64{}}},
		sys.Q, sys.V, sys.Mu, sys.CoR, opt, &r.Mapping, &r.Warnings)
	if err != nil {
		return nil, err
	}
	r.Law = law
	r.Stepper = st
	geos := make([]rigid2d.Shape, len(sc.Geometries))
	for i, g := range sc.Geometries {
		geos[i] = shape2D(g)
	}
	if err := driveScene(st, sc.Source, func() error { return rigid2dMotions(sc, sys, st) }, sc.Script,
		func(path string) (*script.Program, error) { return script.RigidBody2D(path, sys, geos) }, opt); err != nil {
		return nil, err
	}
	return r, nil
}

// noResponse is the contact law of a scene without one: no impulses.
type noResponse struct{}

func (noResponse) Name() string { return "none" }

func (noResponse) Solve(p *mech.Problem, lambda, beta []float64) (mech.Stats, error) {
	clear(lambda[:p.NContacts()])
	clear(beta[:p.D.NCols()])
	return mech.Stats{}, nil
}

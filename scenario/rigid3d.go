package scenario

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/bouncemap"
	"impactsim/bounded"
	"impactsim/impact"
	"impactsim/output"
	"impactsim/rigid3d"
	"impactsim/scene"
	"impactsim/script"
	"impactsim/sim"
)

// Rigid3D is a runnable 3D rigid-body scene.
type Rigid3D struct {
	Scene   *scene.RigidBody3DScene // nil for a built-in scene
	Source  string                  // the scene file, or builtin:NAME
	Sys     *rigid3d.System
	Law     sim.ContactLaw
	Stepper *sim.Stepper
	Mapping string
	// Warnings are the law's warnings (qce with restitution below 1),
	// one line each, for the command to print.
	Warnings []string
}

func vec(a [3]float64) r3.Vec { return r3.Vec{X: a[0], Y: a[1], Z: a[2]} }

// Rigid3DFromScene builds the rigid3d system of sc (no contact law).
func Rigid3DFromScene(sc *scene.RigidBody3DScene) (*rigid3d.System, error) {
	return rigid3DFromScene(sc, nil)
}

// rigid3DFromScene is Rigid3DFromScene showing a progress bar of each
// mesh's distance field on setup (nil: silently).
func rigid3DFromScene(sc *scene.RigidBody3DScene, setup io.Writer) (*rigid3d.System, error) {
	integ, err := rigid3d.ParseIntegrator(sc.Integrator.Type)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: integrator: %w", sc.Source, sc.Integrator.Line, err)
	}
	s := &rigid3d.System{Integrator: integ, Gravity: vec(sc.Gravity), CoR: 1}
	for _, po := range sc.Portals {
		a, b := sc.Planes[po.PlaneA], sc.Planes[po.PlaneB]
		s.Portals = append(s.Portals, rigid3d.Portal{A: rigid3d.NewPlane(vec(a.X), vec(a.N)), B: rigid3d.NewPlane(vec(b.X), vec(b.N)),
			Mult: [3]float64{float64(po.Multiplier[0]), float64(po.Multiplier[1]), float64(po.Multiplier[2])}})
	}
	for _, k := range scene.WallPlanes(len(sc.Planes), sc.Portals) { // a portal's planes are not walls (SCISim removes them)
		p := sc.Planes[k]
		s.Planes = append(s.Planes, rigid3d.NewPlane(vec(p.X), vec(p.N)))
	}
	for _, c := range sc.Cylinders {
		s.Cyls = append(s.Cyls, rigid3d.Cylinder{P: vec(c.X), A: vec(c.Axis), R: c.R})
	}
	meshes := make([]*meshGeo, len(sc.Geometries))
	mapOf := make([]*scene.BounceMap3D, len(sc.Geometries))
	for k := range sc.BounceMaps {
		mapOf[sc.BounceMaps[k].Geo] = &sc.BounceMaps[k]
	}
	bodyMaps := make([]*bouncemap.BodyMap, len(sc.Geometries))
	for _, b := range sc.Bodies {
		g := sc.Geometries[b.Geo]
		var sh rigid3d.Shape
		x, o := vec(b.X), rigid3d.FromRotationVector(vec(b.R))
		switch g.Type {
		case "sphere":
			sh = rigid3d.Shape{Kind: rigid3d.Sphere, R: g.R}
		case "box":
			sh = rigid3d.Shape{Kind: rigid3d.Box, Half: vec(g.Half)}
		case "mesh":
			if meshes[b.Geo] == nil {
				mg, err := loadMesh(g.File, setup)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: geometry: %w", sc.Source, g.Line, err)
				}
				meshes[b.Geo] = mg
			}
			mg := meshes[b.Geo]
			if bm := mapOf[b.Geo]; bm != nil && bodyMaps[b.Geo] == nil {
				m, err := loadBodyMap(bm, mg, g.File)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: bounce_map: %w", sc.Source, bm.Line, err)
				}
				bodyMaps[b.Geo] = m
			}
			sh = rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: mg.mesh}
			// as SCISim: the centre of mass is x + CM (CM of the file's
			// geometry, not rotated) and the orientation R₀ · R_principal
			x = r3.Add(x, mg.com)
			o = o.Mul(mg.frame)
		default:
			return nil, fmt.Errorf("%s:%d: geometry %q is not supported", sc.Source, g.Line, g.Type)
		}
		i := s.AddBody(sh, b.Rho, x, o, vec(b.V), vec(b.Omega), b.Fixed)
		if m := bodyMaps[b.Geo]; g.Type == "mesh" && m != nil {
			if s.Maps == nil {
				s.Maps = make([]rigid3d.RestitutionMap, len(sc.Bodies))
			}
			s.Maps[i] = m
		}
	}
	if c := sc.BounceMapCombiner; c.Name != "" {
		cb, err := bouncemap.CombinerByName(c.Name)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bounce_map_combiner attribute \"name\": %w", sc.Source, c.Line, err)
		}
		s.Combine = cb.F
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Source, err)
	}
	return s, nil
}

type meshGeo struct {
	mesh  *rigid3d.Mesh
	com   r3.Vec
	frame rigid3d.Quat
	vs    []r3.Vec // the file's surface, for bounce maps' shape check
	fs    [][3]int
}

// loadBodyMap reads the bounce map of a scene's <bounce_map> element and
// places it in the mesh's body frame.
func loadBodyMap(bm *scene.BounceMap3D, mg *meshGeo, meshFile string) (*bouncemap.BodyMap, error) {
	f, err := bounded.Open(bm.File, bounded.Text, "Bounce Map file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mp, err := bouncemap.Read(f, bm.File)
	if err != nil {
		return nil, err
	}
	m, err := bouncemap.NewBodyMap(mp, mg.vs, mg.fs, mg.com, mg.frame, bm.Alpha, meshFile, bm.File)
	if err != nil {
		return nil, err
	}
	m.MLS = bm.Lookup == "mls"
	return m, nil
}

// MeshSDFResolution is the number of signed-distance-field cells along the
// longest side of a scene's meshes.
const MeshSDFResolution = 32

// loadMesh reads a mesh file: SCISim's HDF5 meshes (.h5) or Wavefront OBJ,
// with a progress bar of its distance field on setup (nil: silently).
func loadMesh(path string, setup io.Writer) (*meshGeo, error) {
	var vs []r3.Vec
	var fs [][3]int
	if strings.HasSuffix(strings.ToLower(path), ".h5") {
		var err error
		if vs, fs, err = rigid3d.ReadSCISimMesh(path); err != nil {
			return nil, err
		}
	} else {
		f, err := bounded.OpenText(path, bounded.Text, "OBJ mesh")
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if vs, fs, err = rigid3d.ReadOBJ(f, path); err != nil {
			return nil, err
		}
	}
	var progress func(done, total int)
	if setup != nil {
		bar := output.NewProgress(setup, 1, "distance field of "+filepath.Base(path))
		defer bar.Finish()
		progress = func(done, total int) { bar.Update(float64(done) / float64(total)) }
	}
	m, com, q, err := rigid3d.NewMeshProgress(vs, fs, MeshSDFResolution, path, progress)
	if err != nil {
		return nil, err
	}
	return &meshGeo{m, com, q, vs, fs}, nil
}

// NewRigid3D builds the system, contact law and stepper for a rigidbody3d
// scene with options opt (same meaning as for NewBall2D). SCISim's
// sobogus and staggered-projections Coulomb solvers map to
// friction.Coulomb (Newton restitution and Coulomb's law on the friction
// disk, solved together); an impact operator (scene or --operator) is
// followed by maximal-dissipation friction (Alg. 3) when μ > 0.
func NewRigid3D(sc *scene.RigidBody3DScene, opt Options) (*Rigid3D, error) {
	r, err := newRigid3D(sc, opt)
	if err != nil {
		return nil, err
	}
	if err := driveScene(r.Stepper, sc.Source, func() error { return rigid3dMotions(sc, r.Sys, r.Stepper) }, sc.Script,
		func(path string) (*script.Program, error) { return script.RigidBody3D(path, r.Sys) }, opt); err != nil {
		return nil, err
	}
	return r, nil
}

func newRigid3D(sc *scene.RigidBody3DScene, opt Options) (*Rigid3D, error) {
	sys, err := rigid3DFromScene(sc, opt.Setup)
	if err != nil {
		return nil, err
	}
	if err := checkOverlaps3D(sys, sc, sc.Source); err != nil {
		return nil, err
	}
	r := &Rigid3D{Scene: sc, Source: sc.Source, Sys: sys}
	if opt.NBGS != nil && !opt.NBGS.Select && sc.Friction.Kind != "nbgs" {
		return nil, fmt.Errorf("options --epsilon, --tol, --domains and --relax set the nbgs law: pass --law nbgs-maxdiss or nbgs-coulomb, or use a scene with <nbgs_friction_solver>")
	}
	if opt.NBGS != nil && opt.NBGS.Select || sc.Friction.Kind == "nbgs" {
		if opt.Operator != "" {
			return nil, fmt.Errorf("option --operator: the nbgs law solves impacts and friction together; give one or the other")
		}
		var cfg *scene.FrictionConfig
		if sc.Friction.Kind == "nbgs" {
			cfg = &sc.Friction
		}
		law, st, err := nbgsStepper(sys, cfg, sc.Integrator.Dt, opt, &r.Mapping)
		if err != nil {
			if cfg != nil && !strings.HasPrefix(err.Error(), "option ") {
				return nil, fmt.Errorf("%s:%d: nbgs_friction_solver: %w", sc.Source, cfg.Line, err)
			}
			return nil, err
		}
		if err := setCorrection(st, rigid3dCorrection(sys, sc.Source, sc.Correction), opt.correction(), &r.Mapping); err != nil {
			return nil, err
		}
		r.Law, r.Stepper = law, st
		return r, nil
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
	law, st, err := lawStepper(sys, sceneLaw{source: sc.Source, impact: &sc.ImpactOperator, friction: &sc.Friction,
		dt: sc.Integrator.Dt, dtLine: sc.Integrator.Line, corr: rigid3dCorrection(sys, sc.Source, sc.Correction)},
		sys.Q, sys.V, sys.Mu, sys.CoR, opt, &r.Mapping, &r.Warnings)
	if err != nil {
		return nil, err
	}
	r.Law = law
	r.Stepper = st
	return r, nil
}

// NewRigid3DSystem builds the contact law and stepper for a rigid3d system
// made without a scene file (a built-in scene named source): the impact
// operator opt.Operator, or defaultOp, then maximal-dissipation friction
// when μ > 0; opt's restitution and friction override the system's.
func NewRigid3DSystem(sys *rigid3d.System, dt float64, source, defaultOp string, opt Options) (*Rigid3D, error) {
	if opt.NBGS != nil {
		if !opt.NBGS.Select {
			return nil, fmt.Errorf("options --epsilon, --tol, --domains and --relax set the nbgs law: pass --law nbgs-maxdiss or nbgs-coulomb")
		}
		if opt.Operator != "" {
			return nil, fmt.Errorf("option --operator: the nbgs law solves impacts and friction together; give one or the other")
		}
		r := &Rigid3D{Sys: sys, Source: source}
		law, st, err := nbgsStepper(sys, nil, dt, opt, &r.Mapping)
		if err != nil {
			return nil, err
		}
		if err := setCorrection(st, rigid3dCorrection(sys, source, nil), opt.correction(), &r.Mapping); err != nil {
			return nil, err
		}
		r.Law, r.Stepper = law, st
		return r, nil
	}
	if err := opt.override(&sys.CoR, &sys.Mu); err != nil {
		return nil, err
	}
	if err := sys.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if err := checkOverlaps3D(sys, nil, source); err != nil {
		return nil, err
	}
	name := opt.Operator
	if name == "" {
		name = defaultOp
	}
	solver := solverFor(opt)
	op, err := impact.New(impact.Config{Name: name, VTol: opt.VTol, Solver: solver, MaxIter: opt.MaxIter})
	if err != nil {
		return nil, fmt.Errorf("option --operator: %w", err)
	}
	r := &Rigid3D{Sys: sys, Source: source, Mapping: "built-in scene, operator " + op.Name()}
	if w := impact.RestitutionWarning(op.Name(), sys.CoR, opt.RestitutionV0 > 0); w != "" {
		r.Warnings = append(r.Warnings, w)
	}
	if r.Law, err = withFriction(op, sys.Mu, solver, &r.Mapping); err != nil {
		return nil, err
	}
	if r.Stepper, err = sim.NewStepper(sys, r.Law, dt, sys.Q, sys.V); err != nil {
		return nil, err
	}
	if err := velocityRestitution(r.Stepper, opt); err != nil {
		return nil, err
	}
	if err := setCorrection(r.Stepper, rigid3dCorrection(sys, source, nil), opt.correction(), &r.Mapping); err != nil {
		return nil, err
	}
	return r, nil
}

// CameraEye returns the eye, look-at point and up vector of a SCISim
// camera_perspective (ok false if the scene has none).
func CameraEye(c *scene.Camera3D) (eye, lookat, up [3]float64, ok bool) {
	if c == nil {
		return eye, lookat, up, false
	}
	d := r3.Vec{X: math.Sin(c.Theta) * math.Sin(c.Phi), Y: math.Cos(c.Theta), Z: math.Sin(c.Theta) * math.Cos(c.Phi)}
	u := vec(c.Up)
	// rotation taking ŷ to up
	y := r3.Vec{Y: 1}
	if ax := r3.Cross(y, u); r3.Norm(ax) > 1e-12 {
		d = rigid3d.AxisAngle(r3.Unit(ax), math.Acos(math.Max(-1, math.Min(1, r3.Dot(y, u))))).Rotate(d)
	} else if r3.Dot(y, u) < 0 {
		d = r3.Vec{X: -d.X, Y: -d.Y, Z: d.Z}
	}
	e := r3.Add(vec(c.LookAt), r3.Scale(c.Rho, d))
	return [3]float64{e.X, e.Y, e.Z}, c.LookAt, c.Up, true
}

// rigid3dCorrection describes a rigid3d scene for the position correction:
// its gravity and the smallest bounding radius of its free bodies.
func rigid3dCorrection(sys *rigid3d.System, source string, elem *scene.CorrectionConfig) correctionScene {
	scale := math.Inf(1)
	for i := range sys.Shapes {
		if !sys.Fixed[i] {
			scale = math.Min(scale, sys.Shapes[i].BoundingRadius())
		}
	}
	if math.IsInf(scale, 1) {
		scale = 0
	}
	return correctionScene{source: source, elem: elem, own: ownScene(source), gravity: sys.Gravity != r3.Vec{}, scale: scale}
}

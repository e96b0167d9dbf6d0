package scene

// Ball2DScene is the plain-data content of a SCISim <ball2d_scene> file (or of
// a built-in generator). It has no behaviour: ball2d.FromScene turns it into a
// simulated system, and the stepper picks the operators named in
// ImpactOperator and Friction.
//
// Line fields give the 1-based line of the element in Source (0 for scenes
// that were generated rather than read).
type Ball2DScene struct {
	// Warnings are "FILE:LINE: message" lines about input read leniently,
	// as SCISim reads it (a repeated attribute: the first value is used).
	Warnings []string
	// Source names where the scene came from: a file name for scenes read
	// from disk, "generated:<Name>" for built-in generators.
	Source string

	Integrator Integrator
	// ImpactOperator describes <impact_operator>; Type == "" if absent.
	ImpactOperator ImpactOperatorConfig
	// Friction describes a friction solver element; Kind == "" if absent.
	// SCISim rejects scenes that give both an impact operator and a friction
	// solver, and so does the reader.
	Friction FrictionConfig

	// Gravity is the sum of all <gravity> elements (SCISim adds one force
	// per element); zero if there is none.
	Gravity Gravity
	// EndTime is the <end_time t> value, 0 if unset.
	EndTime     float64
	EndTimeLine int
	// Correction is impactsim's <position_correction>, nil if absent.
	Correction *CorrectionConfig
	// Redetect is impactsim's <redetect>, nil if absent.
	Redetect *RedetectConfig
	// MirrorOrderLine is the line of impactsim's <mirror_order/> (the
	// step's contacts in a mirror-invariant order, ball2d.System's
	// MirrorOrder), 0 if absent.
	MirrorOrderLine int
	// Camera holds the display-only <camera> settings, nil if absent.
	Camera *Camera

	Balls []Ball
	// BallIDs and NBalls describe a part of a scene (ReadBall2DPart): Balls
	// are the kept balls, BallIDs[i] the index of Balls[i] among the file's
	// balls, NBalls the file's count. Nil and 0 for a whole scene.
	BallIDs []int
	NBalls  int
	Planes  []Plane
	Drums   []Drum
	// Portals pair two entries of Planes. As in SCISim, the planes a portal
	// uses are portal planes only: they are not collision planes.
	Portals []Portal

	// Motions are impactsim's <motion> elements (prescribed motions of
	// planes, drums and fixed balls; Index counts the target's elements
	// in file order).
	Motions []Motion
	// Script is SCISim's <scripting callback>, nil if absent.
	Script *Script
}

// Integrator is <integrator type dt>.
type Integrator struct {
	Type string // "verlet" or "symplectic_euler"
	Dt   float64
	Line int
}

// SolverConfig is a numerical back end named in a <solver>,
// <lcp_impact_solver> or <mdp_friction_solver> element. The names are
// SCISim's (ipopt, ql, ql_vp, apgd); the project maps each to its own solver
// of the same mathematical problem.
type SolverConfig struct {
	Name          string
	Tol           float64  // 0 if not given
	MaxIters      int      // 0 if not given
	LinearSolvers []string // ipopt only
	Line          int
}

// ImpactOperatorConfig is <impact_operator>, or a nested <elastic_operator>
// / <inelastic_operator> of a grr operator.
type ImpactOperatorConfig struct {
	// Type is one of gr, grr, lcp, gauss_seidel, jacobi ("" if absent).
	Type string
	// CoR is the coefficient of restitution. Nested operators ignore it in
	// SCISim; when they omit it, it is 1 for elastic_operator and 0 for
	// inelastic_operator.
	CoR float64
	// VTol is the velocity tolerance (required for gr, gauss_seidel, jacobi).
	VTol float64
	// CacheImpulses asks for warm starting from the previous step.
	CacheImpulses bool
	// Solver names the nested <solver> ("" if none); SolverConfig has all its
	// settings.
	Solver       string
	SolverConfig *SolverConfig
	// Elastic and Inelastic are the two operators a grr operator blends.
	Elastic, Inelastic *ImpactOperatorConfig
	// Legacy is true for the old form <impact_operator CoR name tol max_iters
	// cache_impulses/>, read as an lcp operator solved by the named solver.
	Legacy bool
	Line   int
}

// FrictionConfig is a <sobogus_friction_solver> or a
// <staggered_projections_friction_solver>.
type FrictionConfig struct {
	// Kind is "sobogus", "staggered_projections", "nbgs" (rigidbody3d), or "" when the scene has no
	// friction solver. ("mdp" is reserved: SCISim's ball2d accepts an
	// <mdp_friction_solver> only inside a staggered_projections solver, where
	// it is MDPSolver.)
	Kind     string
	Mu, CoR  float64
	Tol      float64
	MaxIters int
	// Staggering is geometric, symplectic_euler (sobogus only) or stabilized.
	Staggering string

	// Sobogus settings.
	EvalEvery     int
	CacheImpulses string // none, normal, normal_and_friction
	// Stabilization and PenetrationThreshold are read when present (SCISim
	// requires them for the symplectic_euler staggering).
	Stabilization        bool
	PenetrationThreshold float64

	// NBGS settings (<nbgs_friction_solver>, rigidbody3d only; impactsim's
	// own element): the block law (maxdiss or coulomb), the error
	// reduction ε of the impulse-velocity time stepping, the number of
	// domains of the Gauss–Seidel/Jacobi blend and its relaxation ω.
	Block   string
	Epsilon float64
	Domains int
	Relax   float64

	// Staggered-projections settings.
	InternalWarmStartAlpha bool
	InternalWarmStartBeta  bool
	ImpactSolver           *SolverConfig // <lcp_impact_solver>
	MDPSolver              *SolverConfig // <mdp_friction_solver>

	Line int
}

// Gravity is a uniform acceleration field (SCISim's <gravity fx fy>: the force
// on a ball of mass m is m·(fx, fy)).
type Gravity struct {
	X, Y float64
	Line int // line of the first <gravity>, 0 if none
}

// Camera holds the display-only <camera> settings.
type Camera struct {
	CX, CY      float64
	ScaleFactor float64
	FPS         int
	RenderAtFPS bool
	Locked      bool
	Line        int
}

// Ball is <ball x y vx vy m r fixed>.
type Ball struct {
	X, Y   float64
	VX, VY float64
	M, R   float64
	Fixed  bool
	Line   int
}

// Plane is <static_plane x="px py" n="nx ny">: the half-plane
// n·(x − p) ≥ 0. N is normalized on read, as SCISim does.
type Plane struct {
	X, Y   float64
	NX, NY float64
	Line   int
}

// Drum is <static_drum x y r>: balls stay inside the circle of radius R about
// (X, Y).
type Drum struct {
	X, Y, R float64
	Line    int
}

// Portal is <planar_portal planeA planeB>, a periodic boundary between two
// entries of the scene's planes (indices into that slice), or
// <lees_edwards_portal planeA planeB v bounds>, the same boundary whose
// images slide along the planes at speed V, periodic with period 2·Bounds
// (package geom2d). Scenes list their portals in SCISim's order: planar
// portals first, then Lees–Edwards portals, each in file order.
type Portal struct {
	PlaneA, PlaneB int
	LeesEdwards    bool
	V, Bounds      float64
	// Multiplier is a rigidbody3d portal's multiplier="m0 m1 m2" (each
	// ±1): the signs of the normal and tangent components in the map
	// between the planes (rigid3d.Portal). Unused in 2D.
	Multiplier [3]int
	Line       int
}

// WallPlanes returns, for n static planes and the portals that use some of
// them, the file indices of the planes that stay collision planes, in
// order: SCISim removes a portal's two planes from the static planes, and
// the systems' plane k is the scene's plane WallPlanes(…)[k].
func WallPlanes(n int, portals []Portal) []int {
	inPortal := make([]bool, n)
	for _, po := range portals {
		if po.PlaneA >= 0 && po.PlaneA < n {
			inPortal[po.PlaneA] = true
		}
		if po.PlaneB >= 0 && po.PlaneB < n {
			inPortal[po.PlaneB] = true
		}
	}
	idx := make([]int, 0, n)
	for i, p := range inPortal {
		if !p {
			idx = append(idx, i)
		}
	}
	return idx
}

// Element returns the portal's element name.
func (p Portal) Element() string {
	if p.LeesEdwards {
		return "lees_edwards_portal"
	}
	return "planar_portal"
}

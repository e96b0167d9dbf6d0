package scene

// RigidBody2DScene is a SCISim <rigidbody2d_scene>: circles and boxes in
// the plane with static planes and portals. Vectors are [x, y].
type RigidBody2DScene struct {
	Source string
	// Warnings are "FILE:LINE: message" lines about input read leniently,
	// as in Ball2DScene.
	Warnings   []string
	Integrator Integrator // Type: verlet or symplectic_euler
	// ImpactOperator is the <impact_operator> (Type "" if absent).
	ImpactOperator ImpactOperatorConfig
	// Friction is the <sobogus_friction_solver> (Kind "" if absent).
	Friction FrictionConfig
	// Gravity is the sum of the <near_earth_gravity f> elements.
	Gravity    [2]float64
	Planes     []Plane
	Portals    []Portal
	Geometries []Geometry2D
	Bodies     []Body2D
	EndTime    float64 // 0 if absent
	// Correction is impactsim's <position_correction>, nil if absent.
	Correction *CorrectionConfig
	// Camera is the <camera center scale fps render_at_fps locked> (nil if
	// absent), display only: CX, CY the centre, ScaleFactor the scale.
	Camera *Camera
	// Motions are impactsim's <motion> elements (static_plane, rigid_body).
	Motions []Motion
	// Script is SCISim's <scripting callback>, nil if absent.
	Script *Script
}

// Geometry2D is <geometry type="circle" r="R"> or <geometry type="box"
// r="a b"> (half widths).
type Geometry2D struct {
	Type string // circle or box
	R    float64
	Half [2]float64
	Line int
}

// Body2D is <rigid_body x="x y" theta v="vx vy" omega rho geo_idx fixed>:
// Geo indexes RigidBody2DScene.Geometries; fixed bodies are kinematic
// (they keep their velocity).
type Body2D struct {
	X          [2]float64
	Theta      float64
	V          [2]float64
	Omega, Rho float64
	Geo        int
	Fixed      bool
	Line       int
}

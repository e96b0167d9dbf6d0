package scene

// RigidBody3DScene is a SCISim <rigidbody3d_scene>. Vectors are [x, y, z].
type RigidBody3DScene struct {
	// Warnings are "FILE:LINE: message" lines about input read leniently,
	// as SCISim reads it (a repeated attribute: the first value is used).
	Warnings   []string
	Source     string
	Integrator Integrator // Type: dmv, split_ham or symplectic_euler
	// ImpactOperator is the <impact_operator> (Type "" if absent).
	ImpactOperator ImpactOperatorConfig
	// Friction is the friction solver (Kind "" if absent).
	Friction   FrictionConfig
	Gravity    [3]float64
	Geometries []Geometry3D
	Bodies     []Body3D
	Planes     []Plane3D
	Cylinders  []Cylinder3D
	// Portals are the <planar_portal planeA planeB multiplier> elements;
	// their planes are portal faces, not walls.
	Portals []Portal
	EndTime float64 // 0 if absent
	// Correction is impactsim's <position_correction>, nil if absent.
	Correction *CorrectionConfig
	// BounceMaps are impactsim's <bounce_map> elements (not SCISim's):
	// per-contact restitution for mesh geometries; BounceMapCombiner is
	// the <bounce_map_combiner> (Name "" if absent).
	BounceMaps        []BounceMap3D
	BounceMapCombiner BounceMapCombiner
	// Camera is the <camera_perspective> (nil if absent), display only.
	Camera *Camera3D
	// Motions are impactsim's <motion> elements (planes, cylinders and
	// fixed bodies; Index counts the target's elements in file order).
	Motions []Motion
	// Script is SCISim's <scripting callback>, nil if absent.
	Script *Script
}

// Camera3D is SCISim's <camera_perspective theta phi rho lookat up>: the
// eye sits at lookat + ρ·Q(sin θ sin φ, cos θ, sin θ cos φ), Q the rotation
// taking ŷ to up.
type Camera3D struct {
	Theta, Phi, Rho float64
	LookAt, Up      [3]float64
	Line            int
}

// Geometry3D is <geometry type="sphere" r="R">, <geometry type="box"
// r="a b c"> (half widths) or <geometry type="mesh" filename="F.obj">
// (File resolved relative to the scene file's directory).
type Geometry3D struct {
	Type string  // sphere, box or mesh
	R    float64 // sphere radius
	Half [3]float64
	File string
	Line int
}

// Body3D is <rigid_body_with_density x v omega rho fixed geo_idx [R]>;
// Geo is already resolved to a non-negative index (SCISim allows negative
// indices counting from the end). R is a rotation vector (zero = identity).
type Body3D struct {
	X, V, Omega, R [3]float64
	Rho            float64
	Fixed          bool
	Geo            int
	Line           int
}

// Plane3D is <static_plane x n> (n not necessarily unit in the file; the
// reader normalizes it).
type Plane3D struct {
	X, N [3]float64
	Line int
}

// Cylinder3D is <static_cylinder x axis R> (axis normalized).
type Cylinder3D struct {
	X, Axis [3]float64
	R       float64
	Line    int
}

// BounceMap3D is <bounce_map geo_idx="I" file="F.bmap" [alpha="A"]
// [lookup="nearest|mls"]>: the bodies of mesh geometry I take their
// restitution from the bounce map F (resolved relative to the scene
// file's directory), scaled by α ∈ [0, 1] (default 1).
type BounceMap3D struct {
	Geo    int
	File   string
	Alpha  float64
	Lookup string // nearest (default) or mls
	Line   int
}

// BounceMapCombiner is <bounce_map_combiner name="N">: how two mapped
// bodies' values combine (bouncemap.Combiners; default arithmetic).
type BounceMapCombiner struct {
	Name string
	Line int
}

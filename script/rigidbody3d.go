package script

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
)

// RigidBody3D loads the script at path for a rigidbody3d scene: its
// module rigidbody3d has SCISim's functions timestep, nextIteration,
// configuration, velocity, numStaticPlanes, setStaticPlanePosition(i, x,
// y, z), setStaticPlaneVelocity(i, vx, vy, vz), numStaticCylinders,
// setStaticCylinderOrientation(i, nx, ny, nz, θ) (the axis; θ, the spin
// about it, only turns SCISim's drawing), setStaticCylinderAngularVelocity(i,
// ωx, ωy, ωz), mu, cor, numCollisions, collisionType(i) and
// collisionIndices(i). SCISim's numForces, forceType, setGravityForce and
// setInitialIterate are not provided.
func RigidBody3D(path string, sys *rigid3d.System) (*Program, error) {
	return load(path, rigidbody3dBinding(sys))
}

func rigidbody3dBinding(sys *rigid3d.System) *binding {
	type fn = func(pr *Program, args []starlark.Value) (starlark.Value, error)
	v3 := func(x []float64) r3.Vec { return r3.Vec{X: x[0], Y: x[1], Z: x[2]} }
	b := &binding{module: "rigidbody3d", funcs: map[string]fn{
		"numStaticPlanes": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(sys.Planes)), noArgs("rigidbody3d.numStaticPlanes", args)
		},
		"setStaticPlanePosition": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := indexed("rigidbody3d.setStaticPlanePosition", args, len(sys.Planes), 3, "plane", "plane_idx, x, y, z")
			if err == nil {
				sys.Planes[i].P = v3(x)
			}
			return starlark.None, err
		},
		"setStaticPlaneVelocity": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := indexed("rigidbody3d.setStaticPlaneVelocity", args, len(sys.Planes), 3, "plane", "plane_idx, vx, vy, vz")
			if err == nil {
				sys.Planes[i].V = v3(x)
			}
			return starlark.None, err
		},
		"numStaticCylinders": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(sys.Cyls)), noArgs("rigidbody3d.numStaticCylinders", args)
		},
		"setStaticCylinderOrientation": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := indexed("rigidbody3d.setStaticCylinderOrientation", args, len(sys.Cyls), 4, "cylinder", "cylinder_idx, n_x, n_y, n_z, theta")
			if err != nil {
				return nil, err
			}
			a := v3(x)
			if math.Abs(r3.Norm(a)-1) > 1e-6 {
				return nil, fmt.Errorf("rigidbody3d.setStaticCylinderOrientation: axis %v has length %g, expected a unit vector", a, r3.Norm(a))
			}
			sys.Cyls[i].A = r3.Unit(a)
			return starlark.None, nil
		},
		"setStaticCylinderAngularVelocity": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := indexed("rigidbody3d.setStaticCylinderAngularVelocity", args, len(sys.Cyls), 3, "cylinder", "cylinder_idx, omega_x, omega_y, omega_z")
			if err == nil {
				sys.Cyls[i].W = v3(x)
			}
			return starlark.None, err
		},
	}}
	common(b)
	contactQueries(b, func() int { return len(sys.Contacts()) },
		func(c int) string { return rigid3dContactName(&sys.Contacts()[c]) },
		func(c int) (int, int) { k := &sys.Contacts()[c]; return k.I, k.J })
	return b
}

// rigid3dContactName is SCISim's name of a rigidbody3d constraint.
func rigid3dContactName(c *rigid3d.Contact) string {
	switch c.Kind {
	case rigid3d.SphereSphere:
		return "sphere_sphere"
	case rigid3d.SpherePlane:
		return "static_plane_sphere"
	case rigid3d.BoxPlane:
		return "static_plane_box"
	case rigid3d.MeshPlane:
		return "static_plane_body"
	case rigid3d.SphereCylinder:
		return "static_cylinder_sphere"
	case rigid3d.BodyCylinder:
		return "static_cylinder_body"
	case rigid3d.SphereBox:
		return "sphere_body"
	}
	return "body_body"
}

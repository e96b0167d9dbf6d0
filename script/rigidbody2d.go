package script

import (
	"fmt"
	"math"
	"slices"

	"go.starlark.net/starlark"

	"impactsim/rigid2d"
)

// RigidBody2D loads the script at path for a rigidbody2d scene whose
// geometry instances (<geometry> in file order) are geos: its module
// rigidbody2d has SCISim's functions timestep, nextIteration,
// configuration, velocity, numStaticPlanes, setStaticPlanePosition(i, x,
// y), setStaticPlaneVelocity(i, vx, vy), setStaticPlaneNormal(i, nx, ny),
// setStaticPlaneAngularVelocity(i, ω) (the plane turns about its point),
// deleteStaticPlane(i), numGeometryInstances, num_geometry,
// addCircleGeometry(r), delete_geometry(indices), addBody(x, y, θ, vx, vy,
// ω, ρ, geo_idx, fixed), num_bodies, delete_bodies(indices), and mu, cor,
// numCollisions. Planes are indexed as SCISim's, the collision planes in
// file order without the portals' planes. A body takes its geometry's
// shape when it is added: deleting a geometry instance later renumbers
// the list addBody reads and leaves the bodies as they are.
func RigidBody2D(path string, sys *rigid2d.System, geos []rigid2d.Shape) (*Program, error) {
	return load(path, rigidbody2dBinding(sys, slices.Clone(geos)))
}

func rigidbody2dBinding(sys *rigid2d.System, geos []rigid2d.Shape) *binding {
	type fn = func(pr *Program, args []starlark.Value) (starlark.Value, error)
	plane := func(name string, args []starlark.Value, n int, what string) (int, []float64, error) {
		return indexed(name, args, len(sys.Planes), n, "plane", what)
	}
	b := &binding{module: "rigidbody2d", funcs: map[string]fn{
		"numStaticPlanes": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(sys.Planes)), noArgs("rigidbody2d.numStaticPlanes", args)
		},
		"setStaticPlanePosition": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("rigidbody2d.setStaticPlanePosition", args, 2, "plane_idx, x, y")
			if err == nil {
				sys.Planes[i].P = [2]float64{x[0], x[1]}
			}
			return starlark.None, err
		},
		"setStaticPlaneVelocity": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("rigidbody2d.setStaticPlaneVelocity", args, 2, "plane_idx, vx, vy")
			if err == nil {
				sys.Planes[i].V = [2]float64{x[0], x[1]}
			}
			return starlark.None, err
		},
		"setStaticPlaneNormal": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("rigidbody2d.setStaticPlaneNormal", args, 2, "plane_idx, nx, ny")
			if err != nil {
				return nil, err
			}
			n := math.Hypot(x[0], x[1])
			if math.Abs(n-1) > 1e-6 {
				return nil, fmt.Errorf("rigidbody2d.setStaticPlaneNormal: normal (%g, %g) has length %g, expected a unit vector", x[0], x[1], n)
			}
			sys.Planes[i].N = [2]float64{x[0] / n, x[1] / n}
			return starlark.None, nil
		},
		"setStaticPlaneAngularVelocity": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("rigidbody2d.setStaticPlaneAngularVelocity", args, 1, "plane_idx, omega")
			if err == nil {
				sys.Planes[i].W = x[0]
			}
			return starlark.None, err
		},
		"deleteStaticPlane": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			if err := pr.between("rigidbody2d.deleteStaticPlane"); err != nil {
				return nil, err
			}
			i, _, err := plane("rigidbody2d.deleteStaticPlane", args, 0, "plane_idx")
			if err == nil {
				sys.Planes = slices.Delete(sys.Planes, i, i+1)
			}
			return starlark.None, err
		},
		"numGeometryInstances": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(geos)), noArgs("rigidbody2d.numGeometryInstances", args)
		},
		"num_geometry": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(geos)), noArgs("rigidbody2d.num_geometry", args)
		},
		"num_bodies": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(sys.N()), noArgs("rigidbody2d.num_bodies", args)
		},
		"addCircleGeometry": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			x, err := numbers("rigidbody2d.addCircleGeometry", args, 1, "r")
			if err != nil {
				return nil, err
			}
			sh := rigid2d.Shape{Kind: rigid2d.Circle, R: x[0]}
			if err := sh.Validate(); err != nil {
				return nil, fmt.Errorf("rigidbody2d.addCircleGeometry: %w", err)
			}
			geos = append(geos, sh)
			return starlark.None, nil
		},
		"delete_geometry": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			del, err := indices("rigidbody2d.delete_geometry", args, len(geos), "geometry instance")
			if err != nil {
				return nil, err
			}
			geos = deleteAt(geos, del)
			return starlark.None, nil
		},
		"addBody": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			const name, what = "rigidbody2d.addBody", "x, y, theta, vx, vy, omega, rho, geo_idx, fixed"
			if err := pr.between(name); err != nil {
				return nil, err
			}
			x, err := numbers(name, args, 9, what)
			if err != nil {
				return nil, err
			}
			g, err := index(name, args, 7, len(geos), "geometry instance")
			switch {
			case err != nil:
				return nil, err
			case !(x[6] > 0):
				return nil, fmt.Errorf("%s: rho %v, expected > 0", name, x[6])
			case x[8] != 0 && x[8] != 1:
				return nil, fmt.Errorf("%s: fixed %v, expected 0 or 1", name, x[8])
			}
			st := pr.st
			sys.AddBody(geos[g], x[6], [2]float64{x[0], x[1]}, x[2], [2]float64{x[3], x[4]}, x[5], x[8] == 1)
			return starlark.None, st.SetState(append(st.Q, x[0], x[1], x[2]), append(st.V, x[3], x[4], x[5]))
		},
		"delete_bodies": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			const name = "rigidbody2d.delete_bodies"
			if err := pr.between(name); err != nil {
				return nil, err
			}
			del, err := indices(name, args, sys.N(), "body")
			if err != nil {
				return nil, err
			}
			st := pr.st
			return starlark.None, st.SetState(sys.DeleteBodies(del, st.Q, st.V))
		},
	}}
	common(b)
	return b
}

// indices reads the only argument, an iterable of distinct indices in
// [0, n) of what (SCISim passes a numpy array), sorted.
func indices(name string, args []starlark.Value, n int, what string) ([]int, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("%s: %d arguments, expected 1 (a list of %s indices)", name, len(args), what)
	}
	it, ok := args[0].(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s: argument 1 is a %s, expected a list of %s indices", name, args[0].Type(), what)
	}
	var out []int
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		i, err := index(name, starlark.Tuple{v}, 0, n, what)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	slices.Sort(out)
	for k := 1; k < len(out); k++ {
		if out[k] == out[k-1] {
			return nil, fmt.Errorf("%s: %s index %d given twice", name, what, out[k])
		}
	}
	return out, nil
}

// deleteAt returns x without the entries at the sorted indices del.
func deleteAt[T any](x []T, del []int) []T {
	for k := len(del) - 1; k >= 0; k-- {
		x = slices.Delete(x, del[k], del[k]+1)
	}
	return x
}

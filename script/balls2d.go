package script

import (
	"fmt"
	"slices"

	"go.starlark.net/starlark"

	"impactsim/ball2d"
)

// Balls2D loads the script at path for a ball2d scene: its module balls2d
// has SCISim's functions timestep, nextIteration, configuration, velocity,
// insertBall(x, y, vx, vy, r, m, fixed), numStaticPlanes,
// setStaticPlanePosition(i, x, y), setStaticPlaneVelocity(i, vx, vy),
// deleteStaticPlane(i), mu, cor, numCollisions, collisionType(i) (SCISim's
// names: ball_ball, teleported_ball_ball, static_plane_constraint,
// static_drum_constraint) and collisionIndices(i) (the balls, −1 for
// geometry). Planes are indexed as SCISim's, the collision planes in file
// order without the portals' planes.
func Balls2D(path string, sys *ball2d.System) (*Program, error) {
	return load(path, balls2dBinding(sys))
}

func balls2dBinding(sys *ball2d.System) *binding {
	type fn = func(pr *Program, args []starlark.Value) (starlark.Value, error)
	plane := func(name string, args []starlark.Value, n int, what string) (int, []float64, error) {
		return indexed(name, args, len(sys.Planes), n, "plane", what)
	}
	b := &binding{module: "balls2d", funcs: map[string]fn{
		"insertBall": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			const what = "x, y, vx, vy, radius, mass, fixed"
			if err := pr.between("balls2d.insertBall"); err != nil {
				return nil, err
			}
			x, err := numbers("balls2d.insertBall", args, 7, what)
			if err != nil {
				return nil, err
			}
			switch {
			case !(x[4] > 0):
				return nil, fmt.Errorf("balls2d.insertBall: radius %v, expected > 0", x[4])
			case !(x[5] > 0):
				return nil, fmt.Errorf("balls2d.insertBall: mass %v, expected > 0", x[5])
			case x[6] != 0 && x[6] != 1:
				return nil, fmt.Errorf("balls2d.insertBall: fixed %v, expected 0 or 1", x[6])
			}
			st := pr.st
			sys.AddBall(x[0], x[1], x[2], x[3], x[5], x[4], x[6] == 1)
			return starlark.None, st.SetState(append(st.Q, x[0], x[1]), append(st.V, x[2], x[3]))
		},
		"numStaticPlanes": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			return starlark.MakeInt(len(sys.Planes)), noArgs("balls2d.numStaticPlanes", args)
		},
		"setStaticPlanePosition": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("balls2d.setStaticPlanePosition", args, 2, "plane_idx, x, y")
			if err == nil {
				sys.Planes[i].P = [2]float64{x[0], x[1]}
			}
			return starlark.None, err
		},
		"setStaticPlaneVelocity": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			i, x, err := plane("balls2d.setStaticPlaneVelocity", args, 2, "plane_idx, vx, vy")
			if err == nil {
				sys.Planes[i].V = [2]float64{x[0], x[1]}
			}
			return starlark.None, err
		},
		"deleteStaticPlane": func(pr *Program, args []starlark.Value) (starlark.Value, error) {
			if err := pr.between("balls2d.deleteStaticPlane"); err != nil {
				return nil, err
			}
			i, _, err := plane("balls2d.deleteStaticPlane", args, 0, "plane_idx")
			if err == nil {
				sys.Planes = slices.Delete(sys.Planes, i, i+1)
			}
			return starlark.None, err
		},
	}}
	common(b)
	contactQueries(b, func() int { return len(sys.Contacts()) },
		func(c int) string { return ball2dContactName(&sys.Contacts()[c]) },
		func(c int) (int, int) { k := &sys.Contacts()[c]; return int(k.I), int(k.J) })
	return b
}

// ball2dContactName is SCISim's name of a ball2d constraint.
func ball2dContactName(c *ball2d.Contact) string {
	switch c.Kind {
	case ball2d.BallBall:
		return "ball_ball"
	case ball2d.TeleportedBallBall:
		return "teleported_ball_ball"
	case ball2d.BallPlane:
		return "static_plane_constraint"
	case ball2d.BallDrum:
		return "static_drum_constraint"
	}
	return c.Kind.String()
}

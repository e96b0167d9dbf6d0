package scenario

import (
	"fmt"

	"impactsim/rigid3d"
	"impactsim/scene"
)

// checkOverlaps3D refuses a starting state whose bodies interpenetrate
// (rigid3d.System.Overlaps: more than rigid3d.OverlapTol of their bounding
// radii; bodies that are both fixed, or a fixed body and a wall, never
// touch and are not checked), naming the first pair: by the lines of the
// scene file sc, or by body index for a built-in scene (sc nil) named
// source. None of SCISim's rigidbody3d asset scenes starts overlapped.
func checkOverlaps3D(sys *rigid3d.System, sc *scene.RigidBody3DScene, source string) error {
	ov := sys.Overlaps(sys.Q)
	if len(ov) == 0 {
		return nil
	}
	o := ov[0]
	tol := fmt.Sprintf("more than the tolerance %g of their bounding radii", rigid3d.OverlapTol)
	if o.J < 0 {
		tol = fmt.Sprintf("more than the tolerance %g of its bounding radius", rigid3d.OverlapTol)
	}
	wall, verb := "static_plane", "penetrates"
	if o.Kind == rigid3d.SphereCylinder || o.Kind == rigid3d.BodyCylinder {
		wall, verb = "static_cylinder", "reaches out of"
	}
	if sc == nil || o.I >= len(sc.Bodies) || o.J >= len(sc.Bodies) {
		if o.J < 0 {
			return fmt.Errorf("%s: body %d %s %s %d by %.6g (%s)", source, o.I, verb, wall, o.Other, o.Depth, tol)
		}
		return fmt.Errorf("%s: body %d overlaps body %d by %.6g (%s)", source, o.I, o.J, o.Depth, tol)
	}
	b := sc.Bodies[o.I]
	if o.J >= 0 {
		return &scene.Error{File: source, Line: b.Line, Msg: fmt.Sprintf("rigid_body_with_density: overlaps the body on line %d by %.6g (%s)", sc.Bodies[o.J].Line, o.Depth, tol)}
	}
	line := 0
	if wall == "static_plane" && o.Other < len(sc.Planes) {
		line = sc.Planes[o.Other].Line
	} else if wall == "static_cylinder" && o.Other < len(sc.Cylinders) {
		line = sc.Cylinders[o.Other].Line
	}
	return &scene.Error{File: source, Line: b.Line, Msg: fmt.Sprintf("rigid_body_with_density: %s the %s on line %d by %.6g (%s)", verb, wall, line, o.Depth, tol)}
}

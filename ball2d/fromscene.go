package ball2d

import (
	"errors"
	"fmt"

	"impactsim/scene"
)

// FromScene builds and validates the System a SCISim ball2d scene describes.
//
//   - Integrator, Dt and Gravity come from the scene.
//   - CoR and Mu: from the friction solver if there is one, else CoR from the
//     impact operator and Mu = 0; a scene with neither gets CoR = 1, Mu = 0
//     (SCISim then flows without resolving contacts; so should the stepper).
//   - As in SCISim, the two planes of each planar portal become the portal
//     and are removed from the collision planes; the remaining planes keep
//     their relative order.
//
// Validation errors name the file, the line of the offending element and the
// field, like the scene reader's: FILE:LINE: ball attribute "m": expected …
func FromScene(sc *scene.Ball2DScene) (*System, error) {
	if sc.Source == "" {
		cp := *sc
		cp.Source = "scene"
		sc = &cp
	}
	s := &System{Dt: sc.Integrator.Dt, Gravity: [2]float64{sc.Gravity.X, sc.Gravity.Y}}
	switch sc.Integrator.Type {
	case "verlet":
		s.Integrator = Verlet
	case "symplectic_euler":
		s.Integrator = SymplecticEuler
	default:
		return nil, &scene.Error{File: sc.Source, Line: sc.Integrator.Line,
			Msg: fmt.Sprintf("integrator attribute \"type\": expected one of verlet, symplectic_euler, got %q", sc.Integrator.Type)}
	}
	switch {
	case sc.Friction.Kind != "":
		s.CoR, s.Mu = sc.Friction.CoR, sc.Friction.Mu
	case sc.ImpactOperator.Type != "":
		s.CoR, s.Mu = sc.ImpactOperator.CoR, 0
	default:
		s.CoR, s.Mu = 1, 0
	}
	for _, b := range sc.Balls {
		s.AddBall(b.X, b.Y, b.VX, b.VY, b.M, b.R, b.Fixed)
	}
	for _, d := range sc.Drums {
		s.Drums = append(s.Drums, Drum{C: [2]float64{d.X, d.Y}, R: d.R})
	}
	plane := func(i int) (Plane, error) {
		if i < 0 || i >= len(sc.Planes) {
			return Plane{}, fmt.Errorf("plane index %d out of range [0, %d)", i, len(sc.Planes))
		}
		p := sc.Planes[i]
		return Plane{P: [2]float64{p.X, p.Y}, N: [2]float64{p.NX, p.NY}}, nil
	}
	for _, po := range sc.Portals {
		a, err := plane(po.PlaneA)
		if err != nil {
			return nil, &scene.Error{File: sc.Source, Line: po.Line, Msg: po.Element() + " attribute \"planeA\": " + err.Error()}
		}
		b, err := plane(po.PlaneB)
		if err != nil {
			return nil, &scene.Error{File: sc.Source, Line: po.Line, Msg: po.Element() + " attribute \"planeB\": " + err.Error()}
		}
		s.Portals = append(s.Portals, Portal{A: a, B: b, V: po.V, Bounds: po.Bounds})
	}
	planeIdx := scene.WallPlanes(len(sc.Planes), sc.Portals) // system plane → scene plane
	for _, i := range planeIdx {
		p, _ := plane(i)
		s.Planes = append(s.Planes, p)
	}
	if err := s.Validate(); err != nil {
		return nil, sceneError(sc, err, planeIdx)
	}
	return s, nil
}

// sceneError rewrites a validation error with the scene's file and lines.
func sceneError(sc *scene.Ball2DScene, err error, planeIdx []int) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return &scene.Error{File: sc.Source, Msg: err.Error()}
	}
	e := &scene.Error{File: sc.Source}
	val := fmt.Sprintf("%q", fmt.Sprint(fe.Value))
	switch fe.Kind {
	case "ball":
		b := sc.Balls[fe.Index]
		e.Line = b.Line
		if fe.Wall != "" {
			el, line, verb := "static_plane", 0, "penetrates"
			if fe.Wall == "plane" && fe.WallIndex < len(planeIdx) {
				line = sc.Planes[planeIdx[fe.WallIndex]].Line
			}
			if fe.Wall == "drum" {
				el, verb = "static_drum", "reaches out of"
				if fe.WallIndex < len(sc.Drums) {
					line = sc.Drums[fe.WallIndex].Line
				}
			}
			where := fmt.Sprintf("the %s on line %d", el, line)
			if line == 0 {
				where = fmt.Sprintf("%s %d", el, fe.WallIndex)
			}
			prefix := "ball attribute \"x\""
			if b.Line == 0 {
				prefix = fmt.Sprintf("ball %d attribute \"x\"", fe.Index)
			}
			e.Msg = fmt.Sprintf("%s: %s %s by %.6g, %s", prefix, verb, where, fe.Value, fe.Want)
			return e
		}
		if fe.Other >= 0 {
			o := sc.Balls[fe.Other]
			where := fmt.Sprintf("ball %d", fe.Other)
			if o.Line > 0 {
				where = fmt.Sprintf("the ball on line %d", o.Line)
			}
			if b.Line == 0 {
				e.Msg = fmt.Sprintf("ball %d attribute \"x\": overlaps %s by %.6g, more than the tolerance %g·(r₁+r₂)", fe.Index, where, fe.Value, OverlapTol)
			} else {
				e.Msg = fmt.Sprintf("ball attribute \"x\": overlaps %s by %.6g, more than the tolerance %g·(r₁+r₂)", where, fe.Value, OverlapTol)
			}
			return e
		}
		if b.Line == 0 {
			e.Msg = fmt.Sprintf("ball %d attribute %q: expected %s, got %s", fe.Index, fe.Field, fe.Want, val)
		} else {
			e.Msg = fmt.Sprintf("ball attribute %q: expected %s, got %s", fe.Field, fe.Want, val)
		}
	case "plane":
		if fe.Index < len(planeIdx) {
			e.Line = sc.Planes[planeIdx[fe.Index]].Line
		}
		e.Msg = fmt.Sprintf("static_plane attribute %q: expected %s, got %s", fe.Field, fe.Want, val)
	case "portal":
		if fe.Index < len(sc.Portals) {
			e.Line = sc.Portals[fe.Index].Line
		}
		el := "planar_portal"
		if fe.Index < len(sc.Portals) {
			el = sc.Portals[fe.Index].Element()
		}
		e.Msg = fmt.Sprintf("%s plane attribute %q: expected %s, got %s", el, fe.Field, fe.Want, val)
	case "drum":
		if fe.Index < len(sc.Drums) {
			e.Line = sc.Drums[fe.Index].Line
		}
		e.Msg = fmt.Sprintf("static_drum attribute %q: expected %s, got %s", fe.Field, fe.Want, val)
	default: // system
		switch fe.Field {
		case "dt":
			e.Line = sc.Integrator.Line
			e.Msg = fmt.Sprintf("integrator attribute \"dt\": expected %s, got %s", fe.Want, val)
		case "fx", "fy":
			e.Line = sc.Gravity.Line
			e.Msg = fmt.Sprintf("gravity attribute %q: expected %s, got %s", fe.Field, fe.Want, val)
		case "CoR", "mu":
			elem, line := "impact_operator", sc.ImpactOperator.Line
			if sc.Friction.Kind != "" {
				elem, line = sc.Friction.Kind+"_friction_solver", sc.Friction.Line
			}
			e.Line = line
			e.Msg = fmt.Sprintf("%s attribute %q: expected %s, got %s", elem, fe.Field, fe.Want, val)
		default:
			e.Msg = err.Error()
		}
	}
	return e
}

package runner

import (
	"impactsim/geom2d"
	"impactsim/output"
	"impactsim/scenario"
	"impactsim/scene"
	"impactsim/sim"
)

// ball2DRun is a 2D ball scene as the driver sees it.
type ball2DRun struct{ r *scenario.Ball2D }

// Ball2D returns the driver's view of a 2D ball scene. Its run directory
// holds scene.json (output.Scene2D) and trajectory.csv in
// output.BallLayout; VTK frames are points with radius and velocity.
func Ball2D(r *scenario.Ball2D) System { return ball2DRun{r} }

func (b ball2DRun) Stepper() *sim.Stepper { return b.r.Stepper }

func (b ball2DRun) Info() Info {
	return Info{Scene: b.r.Scene.Source, System: "ball2d", Noun: "balls", Bodies: b.r.Sys.N(), Dim: 2,
		Integrator: b.r.Scene.Integrator.Type, Mapping: b.r.Mapping, Warnings: b.r.Warnings}
}

func (b ball2DRun) Layout() output.Layout { return output.BallLayout }

func (b ball2DRun) WriteScene(dir string) (string, error) {
	sys, sc := b.r.Sys, b.r.Scene
	s2 := &output.Scene2D{NumBalls: sys.N(), Radii: sys.R, Masses: sys.M, Fixed: sys.Fixed,
		Dt: b.r.Stepper.H, Operator: b.r.Law.Name(), SourceScene: sc.Source}
	for _, d := range sys.Drums {
		s2.Drums = append(s2.Drums, output.Drum2D{Centre: d.C, Radius: d.R})
	}
	statics2D(s2, sys.Planes, sys.Portals, sc.Camera)
	return output.SceneFile, output.WriteScene2D(dir, s2)
}

func (b ball2DRun) Energy(q, v []float64) (float64, float64) {
	return b.r.Sys.KineticEnergy(v), b.r.Sys.PotentialEnergy(q)
}

func (b ball2DRun) Momentum(dst, v []float64) {
	p := b.r.Sys.LinearMomentum(v)
	copy(dst, p[:])
}

func (b ball2DRun) WriteVTK(pvd *output.PVDWriter, name string, t float64, q, v []float64) error {
	fields := []output.PointField{output.ScalarField(output.RadiusField, b.r.Sys.R), output.VectorField("velocity", vec3(v))}
	return pvd.AddVTP(t, name, output.Points2D(q), fields, output.VTKBinary)
}

// Close stops the scene's worker goroutines.
func (b ball2DRun) Close() { b.r.Close() }

// vec3 lifts flat 2D vectors to 3D (z = 0).
func vec3(v []float64) [][3]float64 {
	out := make([][3]float64, len(v)/2)
	for i := range out {
		out[i] = [3]float64{v[2*i], v[2*i+1], 0}
	}
	return out
}

// statics2D fills the planes, portal planes and camera of a 2D scene
// description.
func statics2D(s2 *output.Scene2D, planes []geom2d.Plane, portals []geom2d.Portal, cam *scene.Camera) {
	for _, p := range planes {
		s2.Planes = append(s2.Planes, output.Plane2D{Point: p.P, Normal: p.N})
	}
	for _, po := range portals {
		s2.Portals = append(s2.Portals, output.Plane2D{Point: po.A.P, Normal: po.A.N}, output.Plane2D{Point: po.B.P, Normal: po.B.N})
	}
	if cam != nil && cam.ScaleFactor > 0 {
		s2.Camera = &output.Camera2D{CX: cam.CX, CY: cam.CY, Scale: 2 * cam.ScaleFactor}
	}
}

package runner

import (
	"path/filepath"

	"impactsim/output"
	"impactsim/rigid3d"
	"impactsim/scenario"
	"impactsim/sim"
)

// rigid3DRun is a 3D rigid-body scene as the driver sees it.
type rigid3DRun struct {
	r *scenario.Rigid3D
	// VTK surface scratch
	sf    rigid3d.Surface
	polys [][]int
	body  []float64
}

// Rigid3D returns the driver's view of a 3D rigid-body scene. Its run
// directory holds scene3d.json (output.Scene3D) and trajectory.csv in
// output.Rigid3DLayout; VTK frames are the triangulated body surfaces.
func Rigid3D(r *scenario.Rigid3D) System { return &rigid3DRun{r: r} }

func (b *rigid3DRun) Stepper() *sim.Stepper { return b.r.Stepper }

func (b *rigid3DRun) Info() Info {
	return Info{Scene: b.r.Source, System: "rigid3d", Noun: "bodies", Bodies: b.r.Sys.N(), Dim: 3,
		Integrator: b.r.Sys.Integrator.String(), Mapping: b.r.Mapping, Warnings: b.r.Warnings}
}

func (b *rigid3DRun) Layout() output.Layout { return output.Rigid3DLayout }

func (b *rigid3DRun) WriteScene(dir string) (string, error) {
	sys := b.r.Sys
	doc := output.Scene3D{Dt: b.r.Stepper.H}
	if b.r.Scene != nil {
		if eye, at, up, ok := scenario.CameraEye(b.r.Scene.Camera); ok {
			doc.Camera = &output.Camera3D{Eye: eye, LookAt: at, Up: up}
		}
	}
	for i, sh := range sys.Shapes {
		d := output.Shape3D{Shape: sh.Kind.String(), Mass: sys.Mass[i], Fixed: sys.Fixed[i]}
		switch sh.Kind {
		case rigid3d.Sphere:
			d.R = sh.R
		case rigid3d.Box:
			d.Half = [3]float64{sh.Half.X, sh.Half.Y, sh.Half.Z}
		case rigid3d.MeshShape:
			for _, v := range sh.Mesh.V {
				d.Vertices = append(d.Vertices, [3]float64{v.X, v.Y, v.Z})
			}
			d.Faces = sh.Mesh.F
		}
		doc.Bodies = append(doc.Bodies, d)
	}
	for _, p := range sys.Planes {
		doc.Planes = append(doc.Planes, output.Plane3D{X: [3]float64{p.P.X, p.P.Y, p.P.Z}, N: [3]float64{p.N.X, p.N.Y, p.N.Z}})
	}
	return output.Scene3DFile, output.WriteScene3D(dir, &doc)
}

func (b *rigid3DRun) Energy(q, v []float64) (float64, float64) {
	return b.r.Sys.KineticEnergy(q, v), b.r.Sys.PotentialEnergy(q)
}

func (b *rigid3DRun) Momentum(dst, v []float64) {
	p := b.r.Sys.LinearMomentum(v)
	dst[0], dst[1], dst[2] = p.X, p.Y, p.Z
}

func (b *rigid3DRun) WriteVTK(pvd *output.PVDWriter, name string, t float64, q, v []float64) error {
	b.r.Sys.AppendSurface(&b.sf, q, 24)
	b.polys, b.body = b.polys[:0], b.body[:0]
	for k, tr := range b.sf.Tris {
		b.polys = append(b.polys, tr[:])
		b.body = append(b.body, float64(b.sf.Body[k]))
	}
	if err := output.WriteVTPPolys(filepath.Join(pvd.Dir(), name), b.sf.Points, b.polys, []output.PointField{output.ScalarField("body", b.body)}); err != nil {
		return err
	}
	return pvd.Add(t, name)
}

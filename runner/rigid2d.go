package runner

import (
	"math"
	"path/filepath"

	"impactsim/output"
	"impactsim/rigid2d"
	"impactsim/scenario"
	"impactsim/sim"
)

// rigid2DRun is a 2D rigid-body scene as the driver sees it.
type rigid2DRun struct {
	r *scenario.Rigid2D
	// VTK scratch
	pts   [][3]float64
	polys [][]int
	body  []float64
}

// Rigid2D returns the driver's view of a 2D rigid-body scene. Its run
// directory holds scene.json (output.Scene2D with Shapes) and
// trajectory.csv in output.Rigid2DLayout; VTK frames are the bodies'
// outlines as polygons (circles as 32-gons).
func Rigid2D(r *scenario.Rigid2D) System { return &rigid2DRun{r: r} }

func (b *rigid2DRun) Stepper() *sim.Stepper { return b.r.Stepper }

func (b *rigid2DRun) Info() Info {
	return Info{Scene: b.r.Scene.Source, System: "rigid2d", Noun: "bodies", Bodies: b.r.Sys.N(), Dim: 2,
		Integrator: b.r.Sys.Integrator.String(), Mapping: b.r.Mapping, Warnings: b.r.Warnings}
}

func (b *rigid2DRun) Layout() output.Layout { return output.Rigid2DLayout }

func (b *rigid2DRun) WriteScene(dir string) (string, error) {
	sys, sc := b.r.Sys, b.r.Scene
	s2 := &output.Scene2D{NumBalls: sys.N(), Masses: sys.M, Fixed: sys.Fixed,
		Dt: b.r.Stepper.H, Operator: b.r.Law.Name(), SourceScene: sc.Source}
	for _, sh := range sys.Shapes {
		if sh.Kind == rigid2d.Box {
			s2.Radii = append(s2.Radii, math.Hypot(sh.Half[0], sh.Half[1]))
			s2.Shapes = append(s2.Shapes, output.Shape2D{Kind: "box", Half: sh.Half})
		} else {
			s2.Radii = append(s2.Radii, sh.R)
			s2.Shapes = append(s2.Shapes, output.Shape2D{Kind: "circle"})
		}
	}
	statics2D(s2, sys.Planes, sys.Portals, sc.Camera)
	return output.SceneFile, output.WriteScene2D(dir, s2)
}

func (b *rigid2DRun) Energy(q, v []float64) (float64, float64) {
	return b.r.Sys.KineticEnergy(v), b.r.Sys.PotentialEnergy(q)
}

func (b *rigid2DRun) Momentum(dst, v []float64) {
	p := b.r.Sys.LinearMomentum(v)
	copy(dst, p[:])
}

func (b *rigid2DRun) WriteVTK(pvd *output.PVDWriter, name string, t float64, q, v []float64) error {
	sys := b.r.Sys
	b.pts, b.polys, b.body = b.pts[:0], b.polys[:0], b.body[:0]
	for i, sh := range sys.Shapes {
		x, y, th := q[3*i], q[3*i+1], q[3*i+2]
		cs, sn := math.Cos(th), math.Sin(th)
		var local [][2]float64
		if sh.Kind == rigid2d.Box {
			h := sh.Half
			local = [][2]float64{{-h[0], -h[1]}, {h[0], -h[1]}, {h[0], h[1]}, {-h[0], h[1]}}
		} else {
			const k = 32
			for j := 0; j < k; j++ {
				a := 2 * math.Pi * float64(j) / k
				local = append(local, [2]float64{sh.R * math.Cos(a), sh.R * math.Sin(a)})
			}
		}
		poly := make([]int, len(local))
		for j, l := range local {
			poly[j] = len(b.pts)
			b.pts = append(b.pts, [3]float64{x + cs*l[0] - sn*l[1], y + sn*l[0] + cs*l[1], 0})
		}
		b.polys = append(b.polys, poly)
		b.body = append(b.body, float64(i))
	}
	if err := output.WriteVTPPolys(filepath.Join(pvd.Dir(), name), b.pts, b.polys, []output.PointField{output.ScalarField("body", b.body)}); err != nil {
		return err
	}
	return pvd.Add(t, name)
}

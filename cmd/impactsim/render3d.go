package main

import (
	"io"
	"path/filepath"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/output"
	"impactsim/rigid3d"
)

// tryRender3D renders a 3D run directory (one with scene3d.json); ok is
// false for other directories.
func tryRender3D(dir string, rd runDir, o output.RenderOptions, noPNG, noGIF, noMP4 bool, stdout io.Writer) (ok bool, err error) {
	doc, ok, err := output.ReadScene3D(dir)
	if !ok {
		return false, nil
	}
	if err != nil {
		return true, usageError{err}
	}
	sys := &rigid3d.System{}
	for i, b := range doc.Bodies {
		var sh rigid3d.Shape
		switch b.Shape {
		case "sphere":
			sh = rigid3d.Shape{Kind: rigid3d.Sphere, R: b.R}
		case "box":
			sh = rigid3d.Shape{Kind: rigid3d.Box, Half: r3.Vec{X: b.Half[0], Y: b.Half[1], Z: b.Half[2]}}
		case "mesh":
			// the stored vertices are already in the body frame; only the
			// surface is needed, so the mesh is not re-validated
			m := &rigid3d.Mesh{F: b.Faces}
			for _, v := range b.Vertices {
				m.V = append(m.V, r3.Vec{X: v[0], Y: v[1], Z: v[2]})
				m.Radius = max(m.Radius, r3.Norm(m.V[len(m.V)-1]))
			}
			for _, f := range b.Faces {
				for _, k := range f {
					if k < 0 || k >= len(m.V) {
						return true, badInput("%s: body %d: face index %d out of range", filepath.Join(dir, "scene3d.json"), i, k)
					}
				}
			}
			sh = rigid3d.Shape{Kind: rigid3d.MeshShape, Mesh: m}
		default:
			return true, badInput("%s: body %d: unknown shape %q", filepath.Join(dir, "scene3d.json"), i, b.Shape)
		}
		sys.AddBody(sh, 1, r3.Vec{}, rigid3d.Identity, r3.Vec{}, r3.Vec{}, b.Fixed)
	}
	traj, err := rd.trajectory(dir, output.Rigid3DLayout, len(doc.Bodies), stdout)
	if err != nil {
		return true, err
	}
	if traj.Varying {
		// rigidbody3d scripts cannot insert or delete bodies
		return true, badInput("%s: the frames differ in their number of bodies; a 3D render draws one set of bodies (%s)", filepath.Join(dir, output.TrajectoryFile), output.Scene3DFile)
	}
	if traj.NumBodies != len(doc.Bodies) || len(traj.Frames) == 0 {
		return true, badInput("%s: %d bodies in %d frames, want %d bodies as in %s", filepath.Join(dir, output.TrajectoryFile), traj.NumBodies, len(traj.Frames), len(doc.Bodies), output.Scene3DFile)
	}
	frames := make([][]float64, len(traj.Frames))
	times := make([]float64, len(traj.Frames))
	for k, f := range traj.Frames {
		frames[k], times[k] = f.Q, f.Time
	}
	stride := max(o.Stride, 1)
	if o.MaxFrames > 0 && len(frames)/stride > o.MaxFrames {
		stride = (len(frames) + o.MaxFrames - 1) / o.MaxFrames
	}
	// plane quads: a square of side 4R around the bodies' initial centroid
	var cen r3.Vec
	var rad float64
	for i := range doc.Bodies {
		x, _ := rigid3d.Pose(frames[0], i)
		cen = r3.Add(cen, r3.Scale(1/float64(len(doc.Bodies)), x))
	}
	for i := range doc.Bodies {
		x, _ := rigid3d.Pose(frames[0], i)
		rad = max(rad, r3.Norm(r3.Sub(x, cen))+sys.Shapes[i].BoundingRadius())
	}
	var out []output.Frame3D
	var sf rigid3d.Surface
	for k := 0; k < len(frames); k += stride {
		if k+stride >= len(frames) {
			k = len(frames) - 1
		}
		sys.AppendSurface(&sf, frames[k], 16)
		f := output.Frame3D{Time: times[k], Points: append([][3]float64(nil), sf.Points...), Tris: append([][3]int(nil), sf.Tris...)}
		f.Color = append(f.Color, sf.Body...)
		for _, pl := range doc.Planes {
			p, n := r3.Vec{X: pl.X[0], Y: pl.X[1], Z: pl.X[2]}, r3.Unit(r3.Vec{X: pl.N[0], Y: pl.N[1], Z: pl.N[2]})
			c := r3.Add(cen, r3.Scale(r3.Dot(n, r3.Sub(p, cen)), n)) // centroid projected on the plane
			e := r3.Vec{X: 1}
			if abs(n.X) > 0.9 {
				e = r3.Vec{Y: 1}
			}
			u := r3.Scale(2*rad, r3.Unit(r3.Cross(n, e)))
			v := r3.Scale(2*rad, r3.Unit(r3.Cross(n, u)))
			base := len(f.Points)
			for _, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				q := r3.Add(c, r3.Add(r3.Scale(s[0], u), r3.Scale(s[1], v)))
				f.Points = append(f.Points, [3]float64{q.X, q.Y, q.Z})
			}
			f.Tris = append(f.Tris, [3]int{base, base + 1, base + 2}, [3]int{base, base + 2, base + 3})
			f.Color = append(f.Color, -1, -1)
		}
		out = append(out, f)
	}
	ro := output.Render3DOptions{Dir: o.Dir, Width: o.Width, Height: o.Height, FPS: o.FPS, Outputs: output.OutputPNG | output.OutputGIF,
		Title: rd.law, Cutaway: containers(sys, frames[0])}
	if doc.Camera != nil {
		ro.Eye, ro.LookAt, ro.Up = doc.Camera.Eye, doc.Camera.LookAt, doc.Camera.Up
	}
	if ro.Dir == "" {
		ro.Dir = filepath.Join(dir, "render")
	}
	if noPNG {
		ro.Outputs &^= output.OutputPNG
	}
	if noGIF {
		ro.Outputs &^= output.OutputGIF
	}
	if !noMP4 && ro.Outputs != 0 {
		ro.Outputs |= output.OutputMP4 // skipped with a note without ffmpeg
	}
	if ro.Outputs == 0 {
		return true, badInput("render: nothing to write (both --no-gif and --no-png)")
	}
	info, err := output.Render3D(out, ro)
	if err != nil {
		return true, err
	}
	printRenderInfo(stdout, info)
	return true, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// containers marks the bodies that hold another body at q: a smaller body
// whose centre lies inside their bounding box (tori_in_box's box,
// matryoshka's dolls). Render3D cuts their near walls away, or they would
// hide what they hold.
func containers(sys *rigid3d.System, q []float64) []bool {
	var sf rigid3d.Surface
	sys.AppendSurface(&sf, q, 8)
	n := len(sys.Shapes)
	lo := make([]r3.Vec, n)
	hi := make([]r3.Vec, n)
	seen := make([]bool, n)
	for k, tr := range sf.Tris {
		b := sf.Body[k]
		if b < 0 || b >= n {
			continue
		}
		for _, i := range tr {
			p := r3.Vec{X: sf.Points[i][0], Y: sf.Points[i][1], Z: sf.Points[i][2]}
			if !seen[b] {
				lo[b], hi[b], seen[b] = p, p, true
			}
			lo[b] = r3.Vec{X: min(lo[b].X, p.X), Y: min(lo[b].Y, p.Y), Z: min(lo[b].Z, p.Z)}
			hi[b] = r3.Vec{X: max(hi[b].X, p.X), Y: max(hi[b].Y, p.Y), Z: max(hi[b].Z, p.Z)}
		}
	}
	out := make([]bool, n)
	for i := range out {
		for j := 0; j < n && seen[i] && !out[i]; j++ {
			x, _ := rigid3d.Pose(q, j)
			out[i] = j != i && sys.Shapes[j].BoundingRadius() < sys.Shapes[i].BoundingRadius() &&
				x.X > lo[i].X && x.X < hi[i].X && x.Y > lo[i].Y && x.Y < hi[i].Y && x.Z > lo[i].Z && x.Z < hi[i].Z
		}
	}
	return out
}

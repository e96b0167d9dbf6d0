package bouncemap

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/fem"
	"impactsim/par"
	"impactsim/tetmesh"
)

// ModalModel is the modal model of an elastic body meshed with
// tetrahedra: its rigid part and frequencies (Body, in the principal frame
// of the FEM mass matrix), that frame in the mesh's coordinates, and the
// mass-normalized elastic modes at the mesh vertices.
type ModalModel struct {
	Body Body
	// Center is the centre of mass and the columns of Axes the principal
	// axes, both in the mesh's (input) coordinates: a point x has body
	// coordinates Axesᵀ(x − Center).
	Center r3.Vec
	Axes   [3][3]float64
	Mesh   *tetmesh.Mesh
	// Phi[i] is mode i at the vertices (3 per vertex, input frame),
	// ΦᵀMΦ = I.
	Phi   [][]float64
	Eigen *eigen.Result
	loc   *tetmesh.Locator
}

// ModalOptions control NewModalModel.
type ModalOptions struct {
	Modes    int
	Material fem.Material
	// Eigen is passed to eigen.Solve (Modes, Deflate and Pool are set
	// here).
	Eigen eigen.Options
	Pool  *par.Pool
}

// NewModalModel assembles the FEM model of mesh, solves for the lowest
// opt.Modes elastic modes (rigid modes deflated) and sets up the body
// frame from the same mass matrix.
func NewModalModel(mesh *tetmesh.Mesh, opt ModalOptions) (*ModalModel, error) {
	md, err := fem.Assemble(mesh, opt.Material)
	if err != nil {
		return nil, err
	}
	mass, com, in := md.MassProperties()
	moments, axes, err := fem.PrincipalFrame(in)
	if err != nil {
		return nil, err
	}
	mm := &ModalModel{Center: com, Axes: axes, Mesh: mesh}
	mm.Body.Mass = mass
	mm.Body.Inertia = moments
	if opt.Modes > 0 {
		eo := opt.Eigen
		eo.Modes = opt.Modes
		eo.Deflate = md.RigidModes(com)
		eo.Pool = opt.Pool
		res, err := eigen.Solve(&md.Pencil, eo)
		if err != nil {
			return nil, fmt.Errorf("bouncemap: modes: %w", err)
		}
		mm.Eigen = res
		mm.Phi = res.Vectors
		for _, l := range res.Values {
			if !(l > 0) {
				return nil, fmt.Errorf("bouncemap: elastic eigenvalue %v is not positive (is the mesh one piece?)", l)
			}
			mm.Body.Omega = append(mm.Body.Omega, math.Sqrt(l))
		}
	}
	mm.loc = tetmesh.NewLocator(mesh)
	return mm, nil
}

// ToBody returns the body coordinates of point x (input frame).
func (mm *ModalModel) ToBody(x r3.Vec) r3.Vec { return mm.DirToBody(r3.Sub(x, mm.Center)) }

// DirToBody returns the body components of direction v (input frame).
func (mm *ModalModel) DirToBody(v r3.Vec) r3.Vec {
	a := &mm.Axes
	return r3.Vec{
		X: a[0][0]*v.X + a[1][0]*v.Y + a[2][0]*v.Z,
		Y: a[0][1]*v.X + a[1][1]*v.Y + a[2][1]*v.Z,
		Z: a[0][2]*v.X + a[1][2]*v.Y + a[2][2]*v.Z,
	}
}

// ModesAt writes U(x) in body components into dst (3m) by barycentric
// interpolation in the tetrahedron holding x (input frame), or in the
// nearest one with the coordinates of its closest point, and returns the
// distance from x to the mesh (0 inside).
func (mm *ModalModel) ModesAt(x r3.Vec, dst []float64) float64 {
	k, w, dist := mm.loc.Locate(x)
	t := mm.Mesh.T[k]
	for i, phi := range mm.Phi {
		var u r3.Vec
		for a := 0; a < 4; a++ {
			v := 3 * t[a]
			u = r3.Add(u, r3.Scale(w[a], r3.Vec{X: phi[v], Y: phi[v+1], Z: phi[v+2]}))
		}
		ub := mm.DirToBody(u)
		dst[3*i], dst[3*i+1], dst[3*i+2] = ub.X, ub.Y, ub.Z
	}
	return dist
}

package fem

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/eigen"
	"impactsim/tetmesh"
)

// Material is an isotropic linear elastic material.
type Material struct {
	Density float64 // ρ, kg/m³
	Young   float64 // E, Pa
	Poisson float64 // ν
}

// Validate checks ρ > 0, E > 0 and −1 < ν < 0.5.
func (m Material) Validate() error {
	if !(m.Density > 0) || math.IsInf(m.Density, 0) {
		return fmt.Errorf("fem: density %v, want a finite ρ > 0", m.Density)
	}
	if !(m.Young > 0) || math.IsInf(m.Young, 0) {
		return fmt.Errorf("fem: Young's modulus %v, want a finite E > 0", m.Young)
	}
	if !(m.Poisson > -1 && m.Poisson < 0.5) {
		return fmt.Errorf("fem: Poisson's ratio %v, want −1 < ν < 0.5", m.Poisson)
	}
	return nil
}

// Lame returns the Lamé parameters λ = Eν/((1+ν)(1−2ν)) and
// μ = E/(2(1+ν)).
func (m Material) Lame() (lambda, mu float64) {
	return m.Young * m.Poisson / ((1 + m.Poisson) * (1 - 2*m.Poisson)), m.Young / (2 * (1 + m.Poisson))
}

// Model is the assembled linear finite-element model of a tetrahedral
// mesh: stiffness K and consistent mass M, both n×n with n = 3·vertices
// (vertex i owns rows 3i, 3i+1, 3i+2 for x, y, z), stored by rows on one
// symmetric pattern (Ptr, Col), both triangles, every row holding its
// diagonal.
type Model struct {
	Mesh     *tetmesh.Mesh
	Material Material
	// Pencil holds N, the pattern (Ptr, Col) and the values K and M, ready
	// for eigen.Solve; its MulK and MulM multiply.
	eigen.Pencil
}

// Assemble builds K and M of mesh (eqs. (F1)–(F3) of the package
// documentation).
func Assemble(mesh *tetmesh.Mesh, mat Material) (*Model, error) {
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	nv := len(mesh.V)
	// Vertex adjacency through tetrahedra (sorted, self included).
	adj := make([][]int32, nv)
	for _, t := range mesh.T {
		for _, a := range t {
			for _, b := range t {
				adj[a] = append(adj[a], int32(b))
			}
		}
	}
	for i := range adj {
		slices.Sort(adj[i])
		adj[i] = slices.Compact(adj[i])
	}
	md := &Model{Mesh: mesh, Material: mat}
	md.N = 3 * nv
	md.Ptr = make([]int, 3*nv+1)
	for i := 0; i < nv; i++ {
		for d := 0; d < 3; d++ {
			md.Ptr[3*i+d+1] = md.Ptr[3*i+d] + 3*len(adj[i])
		}
	}
	nnz := md.Ptr[3*nv]
	md.Col = make([]int, nnz)
	md.K = make([]float64, nnz)
	md.M = make([]float64, nnz)
	for i := 0; i < nv; i++ {
		for d := 0; d < 3; d++ {
			p := md.Ptr[3*i+d]
			for _, j := range adj[i] {
				for e := 0; e < 3; e++ {
					md.Col[p] = 3*int(j) + e
					p++
				}
			}
		}
	}
	// slot returns the position of block (i, j) row d, column 0 in the
	// row storage: row 3i+d, columns 3j..3j+2.
	slot := func(i, j int, d int) int {
		k, _ := slices.BinarySearch(adj[i], int32(j))
		return md.Ptr[3*i+d] + 3*k
	}
	lam, mu := mat.Lame()
	for ti, t := range mesh.T {
		grad, vol, err := shapeGradients(mesh, ti)
		if err != nil {
			return nil, err
		}
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				ga, gb := grad[a], grad[b]
				dot := ga[0]*gb[0] + ga[1]*gb[1] + ga[2]*gb[2]
				mab := mat.Density * vol / 20
				if a == b {
					mab *= 2
				}
				for d := 0; d < 3; d++ {
					p := slot(t[a], t[b], d)
					for e := 0; e < 3; e++ {
						k := vol * (lam*ga[d]*gb[e] + mu*ga[e]*gb[d])
						if d == e {
							k += vol * mu * dot
							md.M[p+e] += mab
						}
						md.K[p+e] += k
					}
				}
			}
		}
	}
	return md, nil
}

// shapeGradients returns ∇N_a of the four linear shape functions of
// tetrahedron k and its volume.
func shapeGradients(mesh *tetmesh.Mesh, k int) ([4][3]float64, float64, error) {
	t := mesh.T[k]
	x0 := mesh.V[t[0]]
	e := [3]r3.Vec{r3.Sub(mesh.V[t[1]], x0), r3.Sub(mesh.V[t[2]], x0), r3.Sub(mesh.V[t[3]], x0)}
	det := r3.Dot(e[0], r3.Cross(e[1], e[2]))
	if !(det > 0) {
		return [4][3]float64{}, 0, fmt.Errorf("fem: tetrahedron %d has volume %v", k+1, det/6)
	}
	// Rows of D⁻¹ for D = [e0 e1 e2] (columns) are (e1×e2, e2×e0, e0×e1)/det.
	var g [4][3]float64
	for a, c := range [3]r3.Vec{r3.Cross(e[1], e[2]), r3.Cross(e[2], e[0]), r3.Cross(e[0], e[1])} {
		g[a+1] = [3]float64{c.X / det, c.Y / det, c.Z / det}
		for d := 0; d < 3; d++ {
			g[0][d] -= g[a+1][d]
		}
	}
	return g, det / 6, nil
}

// MassProperties returns the total mass, the centre of mass and the
// inertia tensor about it, all from the consistent mass matrix (eq. (F4)):
// exact for the piecewise-linear solid the mesh describes.
func (md *Model) MassProperties() (mass float64, com r3.Vec, inertia [3][3]float64) {
	v := md.Mesh.V
	// Scalar mass coupling m_ab sits on the (3a, 3b) entries.
	var first r3.Vec
	for i := range v {
		r := 3 * i
		for q := md.Ptr[r]; q < md.Ptr[r+1]; q++ {
			if md.Col[q]%3 != 0 {
				continue
			}
			mab := md.M[q]
			mass += mab
			first = r3.Add(first, r3.Scale(mab, v[md.Col[q]/3]))
		}
	}
	com = r3.Scale(1/mass, first)
	var s [3][3]float64
	for i := range v {
		r := 3 * i
		xa := r3.Sub(v[i], com)
		for q := md.Ptr[r]; q < md.Ptr[r+1]; q++ {
			if md.Col[q]%3 != 0 {
				continue
			}
			xb := r3.Sub(v[md.Col[q]/3], com)
			a, b := [3]float64{xa.X, xa.Y, xa.Z}, [3]float64{xb.X, xb.Y, xb.Z}
			for d := 0; d < 3; d++ {
				for e := 0; e < 3; e++ {
					s[d][e] += md.M[q] * a[d] * b[e]
				}
			}
		}
	}
	tr := s[0][0] + s[1][1] + s[2][2]
	for d := 0; d < 3; d++ {
		for e := 0; e < 3; e++ {
			inertia[d][e] = -s[d][e]
			if d == e {
				inertia[d][e] += tr
			}
		}
	}
	return mass, com, inertia
}

// PrincipalFrame returns the principal moments (ascending) and the
// rotation R whose columns are the principal axes (det R = +1), so that
// inertia = R diag(moments) Rᵀ.
func PrincipalFrame(inertia [3][3]float64) (moments [3]float64, R [3][3]float64, err error) {
	in := mat.NewSymDense(3, nil)
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			in.SetSym(i, j, (inertia[i][j]+inertia[j][i])/2)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(in, true) {
		return moments, R, fmt.Errorf("fem: inertia eigen-decomposition failed")
	}
	vals := eig.Values(nil)
	var ev mat.Dense
	eig.VectorsTo(&ev)
	for i := 0; i < 3; i++ {
		moments[i] = vals[i]
		for j := 0; j < 3; j++ {
			R[i][j] = ev.At(i, j)
		}
	}
	c0 := r3.Vec{X: R[0][0], Y: R[1][0], Z: R[2][0]}
	c1 := r3.Vec{X: R[0][1], Y: R[1][1], Z: R[2][1]}
	c2 := r3.Vec{X: R[0][2], Y: R[1][2], Z: R[2][2]}
	if r3.Dot(c0, r3.Cross(c1, c2)) < 0 {
		for i := 0; i < 3; i++ {
			R[i][2] = -R[i][2]
		}
	}
	return moments, R, nil
}

// RigidModes returns the six rigid motions about the centre of mass com —
// the translations e_d and the infinitesimal rotations e_d × (x − com) —
// M-orthonormalized (Gram–Schmidt twice in the M inner product). K maps
// each to zero (eq. (F5)).
func (md *Model) RigidModes(com r3.Vec) [][]float64 {
	n := md.N
	modes := make([][]float64, 6)
	for d := 0; d < 3; d++ {
		t := make([]float64, n)
		r := make([]float64, n)
		e := [3]r3.Vec{{X: 1}, {Y: 1}, {Z: 1}}[d]
		for i, x := range md.Mesh.V {
			t[3*i+d] = 1
			w := r3.Cross(e, r3.Sub(x, com))
			r[3*i], r[3*i+1], r[3*i+2] = w.X, w.Y, w.Z
		}
		modes[d], modes[3+d] = t, r
	}
	mx := make([]float64, n)
	for k := range modes {
		for pass := 0; pass < 2; pass++ {
			md.MulM(mx, modes[k])
			for j := 0; j < k; j++ {
				c := floats.Dot(modes[j], mx)
				floats.AddScaled(modes[k], -c, modes[j])
			}
		}
		md.MulM(mx, modes[k])
		s := 1 / math.Sqrt(floats.Dot(modes[k], mx))
		for i := range modes[k] {
			modes[k][i] *= s
		}
	}
	return modes
}

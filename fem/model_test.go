package fem

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/spatial/r3"

	"impactsim/rigid3d"
	"impactsim/tetmesh"
)

var steel = Material{Density: 2000, Young: 7e10, Poisson: 0.3}

func boxModel(t *testing.T, h r3.Vec, cells int) *Model {
	t.Helper()
	vs, fs := rigid3d.BoxMesh(h)
	// Off-centre, so the centre of mass is computed, not assumed.
	for i := range vs {
		vs[i] = r3.Add(vs[i], r3.Vec{X: 0.3, Y: -0.2, Z: 0.1})
	}
	m, _, err := tetmesh.FromSurface(vs, fs, tetmesh.Options{Cells: cells}, "box")
	if err != nil {
		t.Fatal(err)
	}
	md, err := Assemble(m, steel)
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// TestBoxMassProperties: the consistent mass of a box meshed exactly gives
// ρV, the centre and the analytic inertia m(b² + c²)/3 … (half widths) to
// 1e-12 relative; K and M are symmetric.
func TestBoxMassProperties(t *testing.T) {
	h := r3.Vec{X: 0.2, Y: 0.05, Z: 0.1}
	md := boxModel(t, h, 8)
	mass, com, in := md.MassProperties()
	want := steel.Density * 8 * h.X * h.Y * h.Z
	if math.Abs(mass/want-1) > 1e-12 {
		t.Errorf("mass %v, want %v", mass, want)
	}
	if r3.Norm(r3.Sub(com, r3.Vec{X: 0.3, Y: -0.2, Z: 0.1})) > 1e-13 {
		t.Errorf("centre of mass %v", com)
	}
	wantI := [3]float64{want * (h.Y*h.Y + h.Z*h.Z) / 3, want * (h.X*h.X + h.Z*h.Z) / 3, want * (h.X*h.X + h.Y*h.Y) / 3}
	for d := 0; d < 3; d++ {
		for e := 0; e < 3; e++ {
			w := 0.0
			if d == e {
				w = wantI[d]
			}
			if math.Abs(in[d][e]-w) > 1e-12*wantI[0] {
				t.Errorf("I[%d][%d] = %v, want %v", d, e, in[d][e], w)
			}
		}
	}
	// Symmetry of K and M, entry by entry.
	at := func(val []float64, i, j int) float64 {
		for q := md.Ptr[i]; q < md.Ptr[i+1]; q++ {
			if md.Col[q] == j {
				return val[q]
			}
		}
		return 0
	}
	var kmax float64
	for _, k := range md.K {
		kmax = math.Max(kmax, math.Abs(k))
	}
	for i := 0; i < md.N; i++ {
		for q := md.Ptr[i]; q < md.Ptr[i+1]; q++ {
			j := md.Col[q]
			if math.Abs(md.K[q]-at(md.K, j, i)) > 1e-14*kmax || md.M[q] != at(md.M, j, i) {
				t.Fatalf("asymmetric at (%d, %d)", i, j)
			}
		}
	}
}

// TestRigidModesAndUniformStrain: K annihilates the six rigid modes
// (‖Kr‖ ≤ 1e-12‖K‖‖r‖), which are M-orthonormal; a uniform strain ε has
// energy uᵀKu = V(λ tr(ε)² + 2μ ε:ε) exactly (linear tetrahedra pass the
// patch test).
func TestRigidModesAndUniformStrain(t *testing.T) {
	md := boxModel(t, r3.Vec{X: 0.2, Y: 0.05, Z: 0.1}, 8)
	_, com, _ := md.MassProperties()
	modes := md.RigidModes(com)
	var kmax float64
	for _, k := range md.K {
		kmax = math.Max(kmax, math.Abs(k))
	}
	kr := make([]float64, md.N)
	mr := make([]float64, md.N)
	for a, r := range modes {
		md.MulK(kr, r)
		var rn, kn float64
		for i := range kr {
			rn = math.Max(rn, math.Abs(r[i]))
			kn = math.Max(kn, math.Abs(kr[i]))
		}
		if kn > 1e-12*kmax*rn*30 {
			t.Errorf("rigid mode %d: ‖Kr‖∞ = %g (‖K‖max %g, ‖r‖∞ %g)", a, kn, kmax, rn)
		}
		md.MulM(mr, r)
		for b, s := range modes {
			d := floats.Dot(s, mr)
			if a == b {
				d--
			}
			if math.Abs(d) > 1e-12 {
				t.Errorf("rigid modes %d, %d: ⟨r, M s⟩ − δ = %g", a, b, d)
			}
		}
	}
	eps := [3][3]float64{{1e-3, 2e-4, -1e-4}, {2e-4, -5e-4, 3e-4}, {-1e-4, 3e-4, 2e-4}}
	u := make([]float64, md.N)
	for i, x := range md.Mesh.V {
		p := [3]float64{x.X, x.Y, x.Z}
		for d := 0; d < 3; d++ {
			for e := 0; e < 3; e++ {
				u[3*i+d] += eps[d][e] * p[e]
			}
		}
	}
	md.MulK(kr, u)
	lam, mu := steel.Lame()
	tr := eps[0][0] + eps[1][1] + eps[2][2]
	var ee float64
	for d := 0; d < 3; d++ {
		for e := 0; e < 3; e++ {
			ee += eps[d][e] * eps[d][e]
		}
	}
	want := md.Mesh.Volume() * (lam*tr*tr + 2*mu*ee)
	if got := floats.Dot(u, kr); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("uniform strain energy ×2 = %v, want %v", got, want)
	}
}

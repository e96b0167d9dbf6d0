package qp_test

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"impactsim/mech"
	"impactsim/qp"
)

// packing is a 2D ball-packing impact problem: balls on a jittered hexagonal
// lattice (unit radius, random masses), optionally resting on a wall below
// the first row, with m contacts drawn at random from the lattice bonds.
// With more contacts than degrees of freedom A = GᵀM⁻¹G is singular.
type packing struct {
	G    mech.Cols
	MInv mech.BlockDiag
	A    mech.Delassus
	V    []float64 // pre-impact velocity
	CoR  []float64
	P    qp.Problem
}

// newPacking builds a packing with exactly m contacts. dofRatio ≈ n/m sets
// the number of balls (n = 2·balls); below 1 the problem is rank deficient.
// randCoR draws per-contact restitution in [0, 1] (then b ∉ range(A) in
// general); otherwise every contact has restitution 1.
func newPacking(rng *rand.Rand, m int, dofRatio float64, wall, randCoR bool) *packing {
	return newPackingV(rng, m, dofRatio, wall, randCoR, false)
}

// newPackingV is newPacking with, when jammed, pre-impact velocities of a
// pile falling onto its wall instead of random ones.
func newPackingV(rng *rand.Rand, m int, dofRatio float64, wall, randCoR, jammed bool) *packing {
	nb := int(math.Ceil(dofRatio * float64(m) / 2))
	if nb < 2 {
		nb = 2
	}
	nx := int(math.Ceil(math.Sqrt(float64(nb))))
	ny := (nb + nx - 1) / nx
	type bond struct{ a, b int } // b < 0: wall
	var bonds []bond
	idx := func(i, j int) int {
		if i < 0 || i >= nx || j < 0 || j >= ny || j*nx+i >= nb {
			return -1
		}
		return j*nx + i
	}
	pos := make([]float64, 2*nb)
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			k := idx(i, j)
			if k < 0 {
				continue
			}
			pos[2*k] = 2*float64(i) + float64(j%2) + 0.1*(rng.Float64()-0.5)
			pos[2*k+1] = math.Sqrt(3)*float64(j) + 0.1*(rng.Float64()-0.5)
			if n := idx(i+1, j); n >= 0 {
				bonds = append(bonds, bond{k, n})
			}
			// upper neighbours: odd rows are shifted right
			for _, di := range []int{j%2 - 1, j % 2} {
				if n := idx(i+di, j+1); n >= 0 {
					bonds = append(bonds, bond{k, n})
				}
			}
			if wall && j == 0 {
				bonds = append(bonds, bond{k, -1})
			}
		}
	}
	rng.Shuffle(len(bonds), func(i, j int) { bonds[i], bonds[j] = bonds[j], bonds[i] })
	for len(bonds) < m { // tiny m: repeat bonds (duplicate constraints)
		bonds = append(bonds, bonds[rng.Intn(len(bonds))])
	}
	bonds = bonds[:m]
	// Number contacts in lattice order, as a simulator would.
	sort.Slice(bonds, func(i, j int) bool {
		if bonds[i].a != bonds[j].a {
			return bonds[i].a < bonds[j].a
		}
		return bonds[i].b < bonds[j].b
	})

	p := &packing{}
	n := 2 * nb
	p.MInv = *mech.NewBlockDiag(nb, 4*nb)
	for k := 0; k < nb; k++ {
		p.MInv.AppendScalarBlock(2, 1/(0.5+1.5*rng.Float64()))
	}
	p.G.Reset(n)
	for _, bd := range bonds {
		if bd.b < 0 {
			p.G.Append(2*bd.a+1, 1) // wall normal (0, 1)
		} else {
			dx, dy := pos[2*bd.b]-pos[2*bd.a], pos[2*bd.b+1]-pos[2*bd.a+1]
			l := math.Hypot(dx, dy)
			dx, dy = dx/l, dy/l
			p.G.Append(2*bd.a, -dx)
			p.G.Append(2*bd.a+1, -dy)
			p.G.Append(2*bd.b, dx)
			p.G.Append(2*bd.b+1, dy)
		}
		p.G.EndCol()
	}
	p.A.Assemble(&p.G, &p.MInv)
	p.V = make([]float64, n)
	for i := range p.V {
		p.V[i] = rng.NormFloat64()
	}
	if jammed {
		// A pile under gravity: every ball falls at about the same speed
		// with a small jitter, so the wall contacts carry the load and the
		// bonds between balls nearly balance.
		for i := range p.V {
			p.V[i] *= 0.05
			if i%2 == 1 {
				p.V[i]--
			}
		}
	}
	p.CoR = make([]float64, m)
	b := make([]float64, m)
	p.G.MulTVec(b, p.V)
	for c := range b {
		p.CoR[c] = 1
		if randCoR {
			p.CoR[c] = rng.Float64()
		}
		b[c] *= 1 + p.CoR[c]
	}
	p.P = qp.Problem{A: &p.A, B: b}
	return p
}

// randomDense returns a random dense PSD matrix GᵀG with G k×m Gaussian
// (rank min(k, m)) and a random b.
func randomDense(rng *rand.Rand, m, k int) *qp.DenseMatrix {
	g := make([]float64, k*m)
	for i := range g {
		g[i] = rng.NormFloat64()
	}
	a := &qp.DenseMatrix{N: m, Data: make([]float64, m*m)}
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for r := 0; r < k; r++ {
				s += g[r*m+i] * g[r*m+j]
			}
			a.Data[i*m+j] = s / float64(k)
			a.Data[j*m+i] = s / float64(k)
		}
	}
	return a
}

func randVec(rng *rand.Rand, m int) []float64 {
	v := make([]float64, m)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// objective returns ½ yᵀAy + bᵀy.
func objective(p *qp.Problem, y []float64) float64 {
	w := make([]float64, len(y))
	p.A.MulVec(w, y)
	var f float64
	for i := range y {
		f += y[i] * (w[i]/2 + p.B[i])
	}
	return f
}

func infNorm(v []float64) float64 {
	var n float64
	for _, x := range v {
		n = math.Max(n, math.Abs(x))
	}
	return n
}

// solve runs s on a cold start and checks the residual bound.
func solve(t testing.TB, s qp.Solver, p *qp.Problem, tol float64) ([]float64, qp.Result) {
	t.Helper()
	y := make([]float64, len(p.B))
	res, err := s.Solve(p, y)
	if err != nil {
		t.Fatalf("%T: %v", s, err)
	}
	w := make([]float64, len(y))
	if r := qp.KKTResidual(p, y, w); r > tol || r != res.Residual {
		t.Fatalf("%T: KKT residual %g (reported %g), want ≤ %g", s, r, res.Residual, tol)
	}
	return y, res
}

// agree checks that two solutions give the same A·y (relative 1e-9) and the
// same objective.
func agree(t testing.TB, p *qp.Problem, y1, y2 []float64, tol float64) {
	t.Helper()
	m := len(y1)
	w1, w2 := make([]float64, m), make([]float64, m)
	p.A.MulVec(w1, y1)
	p.A.MulVec(w2, y2)
	scale := math.Max(infNorm(w1), infNorm(p.B))
	var d float64
	for i := range w1 {
		d = math.Max(d, math.Abs(w1[i]-w2[i]))
	}
	if d > tol*scale {
		t.Errorf("A·y differ by %g (relative %g > %g)", d, d/scale, tol)
	}
	f1, f2 := objective(p, y1), objective(p, y2)
	if math.Abs(f1-f2) > tol*math.Max(1, math.Abs(f1)) {
		t.Errorf("objectives differ: %.17g vs %.17g", f1, f2)
	}
}

package mech

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomProblem builds nb bodies with random SPD blocks of size k (some
// fixed) and m contacts each touching one or two bodies.
func randomProblem(rng *rand.Rand, nb, k, m int) *Problem {
	p := &Problem{}
	p.Reset(2, nb*k)
	for b := 0; b < nb; b++ {
		if b%7 == 3 {
			p.M.AppendScalarBlock(k, 0)
			p.MInv.AppendScalarBlock(k, 0)
			continue
		}
		// M⁻¹ = LLᵀ + I/2 for a random L.
		l := make([]float64, k*k)
		for i := range l {
			l[i] = rng.NormFloat64()
		}
		blk := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				for s := 0; s < k; s++ {
					blk[i*k+j] += l[i*k+s] * l[j*k+s]
				}
			}
			blk[i*k+i] += 0.5
		}
		p.MInv.AppendBlock(k, blk...)
		p.M.AppendBlock(k, blk...) // not the inverse; only used as a placeholder here
	}
	for i := range p.V {
		p.V[i] = rng.NormFloat64()
	}
	for c := 0; c < m; c++ {
		a := rng.IntN(nb)
		b := rng.IntN(nb)
		for _, body := range []int{a, b} {
			for r := 0; r < k; r++ {
				if body != b || a != b {
					p.G.Append(body*k+r, rng.NormFloat64())
				}
			}
			if a == b {
				break
			}
		}
		p.G.EndCol()
		if a == b {
			b = -1
		}
		p.Bodies = append(p.Bodies, a, b)
		p.CoR = append(p.CoR, 1)
		p.Mu = append(p.Mu, 0)
	}
	return p
}

func denseMInv(p *Problem) [][]float64 {
	n := p.NDof()
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = p.MInv.At(i, j)
		}
	}
	return d
}

func denseCol(c *Cols, j, n int) []float64 {
	out := make([]float64, n)
	c.AddScaledCol(out, j, 1)
	return out
}

func TestDelassusMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		k := 2 + trial%5
		p := randomProblem(rng, 10+trial, k, 25+3*trial)
		var d Delassus
		d.Assemble(&p.G, &p.MInv)
		n, m := p.NDof(), p.NContacts()
		mi := denseMInv(p)
		for i := 0; i < m; i++ {
			gi := denseCol(&p.G, i, n)
			for j := 0; j < m; j++ {
				gj := denseCol(&p.G, j, n)
				var want float64
				for r := 0; r < n; r++ {
					for s := 0; s < n; s++ {
						want += gi[r] * mi[r][s] * gj[s]
					}
				}
				if got := d.At(i, j); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Fatalf("trial %d: A[%d][%d] = %v, want %v", trial, i, j, got, want)
				}
				if d.At(i, j) != d.At(j, i) {
					t.Fatalf("A is not exactly symmetric at (%d, %d)", i, j)
				}
			}
			if d.Diag(i) != d.At(i, i) || math.Abs(p.DelassusDiag(i)-d.At(i, i)) > 1e-12*(1+d.At(i, i)) {
				t.Fatalf("diagonal mismatch at %d", i)
			}
		}
		// MulVec agrees with At, and M⁻¹G agrees column by column.
		x := make([]float64, m)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		y := make([]float64, m)
		d.MulVec(y, x)
		for i := 0; i < m; i++ {
			var want float64
			for j := 0; j < m; j++ {
				want += d.At(i, j) * x[j]
			}
			if math.Abs(y[i]-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("MulVec row %d: %v vs %v", i, y[i], want)
			}
		}
		var w Cols
		MulMInvCols(&w, &p.G, &p.MInv)
		for j := 0; j < m; j++ {
			got := denseCol(&w, j, n)
			gj := denseCol(&p.G, j, n)
			for r := 0; r < n; r++ {
				var want float64
				for s := 0; s < n; s++ {
					want += mi[r][s] * gj[s]
				}
				if math.Abs(got[r]-want) > 1e-12*(1+math.Abs(want)) {
					t.Fatalf("M⁻¹G column %d row %d: %v vs %v", j, r, got[r], want)
				}
			}
		}
	}
}

func TestAssembleDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := randomProblem(rng, 200, 2, 500)
	var d Delassus
	d.Assemble(&p.G, &p.MInv)
	if a := testing.AllocsPerRun(10, func() { d.Assemble(&p.G, &p.MInv) }); a != 0 {
		t.Errorf("Assemble allocates %v times per call", a)
	}
}

func TestEnergyMomentumImpulses(t *testing.T) {
	p := &Problem{}
	p.Reset(2, 4)
	p.M.AppendScalarBlock(2, 2)
	p.MInv.AppendScalarBlock(2, 0.5)
	p.M.AppendScalarBlock(2, 0) // fixed body
	p.MInv.AppendScalarBlock(2, 0)
	copy(p.V, []float64{1, -2, 0, 0})
	if e := p.KineticEnergy(p.V); e != 5 {
		t.Errorf("kinetic energy %v, want 5", e)
	}
	var mom [2]float64
	p.LinearMomentum(mom[:], p.V)
	if mom != [2]float64{2, -4} {
		t.Errorf("momentum %v", mom)
	}
	// One contact pushing body 0 along +y against the fixed body.
	p.G.Append(1, 1)
	p.G.Append(3, -1)
	p.G.EndCol()
	p.CoR, p.Mu, p.Bodies = []float64{1}, []float64{0}, []int{0, 1}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 4)
	p.ApplyImpulses(out, p.V, []float64{8}, nil, make([]float64, 4))
	if out[1] != 2 || out[3] != 0 {
		t.Errorf("v⁺ = %v, want body 0 at (1, 2) and the fixed body at rest", out)
	}
	p.CoR[0] = 1.5
	if p.Validate() == nil {
		t.Error("Validate accepts restitution 1.5")
	}
}

// TestCompactScalarBlocks: the compact form of ShapeUniform (one scalar per
// block) and the same matrix stored block by block give bitwise the same
// products, entries, Delassus matrix and effective masses.
func TestCompactScalarBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nb = 40
	s := make([]float64, nb)
	for i := range s {
		s[i] = 0.1 + rng.Float64()
	}
	var compact BlockDiag
	compact.ShapeUniform(nb, 2)
	compact.FillScalar(0, nb, func(b int) float64 { return s[b] })
	general := NewBlockDiag(nb, 4*nb)
	for b := 0; b < nb; b++ {
		general.AppendBlock(2, s[b], 0, 0, s[b])
	}
	if compact.N() != 2*nb || compact.NumBlocks() != nb || compact.MaxBlock() != 2 {
		t.Fatalf("N %d blocks %d max %d", compact.N(), compact.NumBlocks(), compact.MaxBlock())
	}
	x := make([]float64, 2*nb)
	v := make([]float64, 2*nb)
	for i := range x {
		x[i], v[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	same := func(what string, a, b []float64) {
		t.Helper()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("%s differs at %d: %v vs %v", what, i, a[i], b[i])
			}
		}
	}
	y1, y2 := make([]float64, 2*nb), make([]float64, 2*nb)
	compact.MulVec(y1, x)
	general.MulVec(y2, x)
	same("MulVec", y1, y2)
	compact.MulVecAddBlocks(y1, x, v, 3, 31)
	general.MulVecAddBlocks(y2, x, v, 3, 31)
	same("MulVecAddBlocks", y1, y2)
	if a, b := compact.QuadForm(x, v), general.QuadForm(x, v); a != b {
		t.Fatalf("QuadForm %v vs %v", a, b)
	}
	for i := 0; i < 2*nb; i += 3 {
		for j := max(0, i-2); j < min(2*nb, i+3); j++ {
			if compact.At(i, j) != general.At(i, j) {
				t.Fatalf("At(%d,%d) %v vs %v", i, j, compact.At(i, j), general.At(i, j))
			}
		}
		if compact.BlockOf(i) != general.BlockOf(i) {
			t.Fatalf("BlockOf(%d)", i)
		}
	}
	// Random two-ball constraint columns.
	var g Cols
	g.Reset(2 * nb)
	for j := 0; j < 60; j++ {
		a := rng.IntN(nb)
		b := (a + 1 + rng.IntN(nb-1)) % nb
		lo, hi := min(a, b), max(a, b)
		nx, ny := rng.NormFloat64(), rng.NormFloat64()
		g.Append(2*lo, nx)
		g.Append(2*lo+1, ny)
		g.Append(2*hi, -nx)
		g.Append(2*hi+1, -ny)
		g.EndCol()
	}
	var d1, d2 Delassus
	d1.Assemble(&g, &compact)
	d2.Assemble(&g, general)
	same("Delassus", d1.Val, d2.Val)
	for j := 0; j < g.NCols(); j++ {
		if a, b := ColMInvNorm(&g, j, &compact), ColMInvNorm(&g, j, general); a != b {
			t.Fatalf("ColMInvNorm(%d) %v vs %v", j, a, b)
		}
	}
	var c1, c2 Cols
	MulMInvCols(&c1, &g, &compact)
	MulMInvCols(&c2, &g, general)
	same("MulMInvCols", c1.Val, c2.Val)
	// Appending a block to a compact matrix keeps its blocks.
	compact.AppendBlock(1, 7)
	if compact.N() != 2*nb+1 || compact.At(2*nb, 2*nb) != 7 || compact.At(5, 5) != s[2] || compact.At(4, 5) != 0 {
		t.Fatal("AppendBlock after ShapeUniform lost blocks")
	}
}

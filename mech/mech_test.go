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

package friction

import (
	"math"
	"strings"
	"testing"

	"impactsim/mech"
	"impactsim/singlecontact"
)

// sphereOnFloor is a unit sphere (mass m, radius r, I = 2/5 m r²) touching
// the floor y = 0 with velocity (vx, vy, vz) and spin w: one 3D contact
// with normal e_y and tangents e_z, e_x.
func sphereOnFloor(m, r float64, v, w [3]float64, cor, mu float64) *mech.Problem {
	p := &mech.Problem{}
	p.Reset(3, 6)
	in := 0.4 * m * r * r
	p.M.AppendBlock(6, m, 0, 0, 0, 0, 0, 0, m, 0, 0, 0, 0, 0, 0, m, 0, 0, 0, 0, 0, 0, in, 0, 0, 0, 0, 0, 0, in, 0, 0, 0, 0, 0, 0, in)
	p.MInv.AppendBlock(6, 1/m, 0, 0, 0, 0, 0, 0, 1/m, 0, 0, 0, 0, 0, 0, 1/m, 0, 0, 0, 0, 0, 0, 1/in, 0, 0, 0, 0, 0, 0, 1/in, 0, 0, 0, 0, 0, 0, 1/in)
	copy(p.V, []float64{v[0], v[1], v[2], w[0], w[1], w[2]})
	// lever arm ρ = (0, −r, 0): columns (d, ρ × d)
	col := func(c *mech.Cols, d [3]float64) {
		rho := [3]float64{0, -r, 0}
		x := [3]float64{rho[1]*d[2] - rho[2]*d[1], rho[2]*d[0] - rho[0]*d[2], rho[0]*d[1] - rho[1]*d[0]}
		for i := 0; i < 3; i++ {
			c.Append(i, d[i])
		}
		for i := 0; i < 3; i++ {
			c.Append(3+i, x[i])
		}
		c.EndCol()
	}
	col(&p.G, [3]float64{0, 1, 0})
	col(&p.D, [3]float64{0, 0, 1})
	col(&p.D, [3]float64{1, 0, 0})
	p.DContact = []int{0, 0}
	p.CoR, p.Mu, p.Bodies = []float64{cor}, []float64{mu}, []int{0, -1}
	return p
}

// TestNBGSSingleContact: with one contact NBGS is the single-contact law:
// one sweep gives singlecontact.MaxDissipation's impulse (the second finds
// nothing to change).
func TestNBGSSingleContact(t *testing.T) {
	for _, tc := range []struct{ v, w [3]float64 }{
		{[3]float64{1, -2, 0.5}, [3]float64{0.3, 0, -1}}, // sliding
		{[3]float64{0.1, -2, 0}, [3]float64{0, 0, 0}},    // sticking
		{[3]float64{1, 2, 0}, [3]float64{0, 0, 0}},       // separating
	} {
		p := sphereOnFloor(2, 0.5, tc.v, tc.w, 0, 0.4)
		l, b := make([]float64, 1), make([]float64, 2)
		st, err := (&NBGS{Tol: 1e-12}).Solve(p, l, b)
		if err != nil {
			t.Fatal(err)
		}
		// the block: A = WᵀM⁻¹W, b = −Wᵀv
		in := 0.4 * 2 * 0.25
		a := 1/2.0 + 0.25/in
		pr := singlecontact.Problem{A: [3][3]float64{{0.5, 0, 0}, {0, a, 0}, {0, 0, a}}, Mu: 0.4}
		// W_nᵀv = v_y; W_tᵀv = v_z + (ρ × e_z)·ω, ρ × e_z = (−r, 0, 0); W_oᵀv = v_x + (ρ × e_x)·ω = v_x + (0, 0, r)·ω
		pr.B = [3]float64{-tc.v[1], -(tc.v[2] - 0.5*tc.w[0]), -(tc.v[0] + 0.5*tc.w[2])}
		x, _ := singlecontact.MaxDissipation(&pr)
		if math.Abs(l[0]-x[0]) > 1e-15 || math.Abs(b[0]-x[1]) > 1e-15 || math.Abs(b[1]-x[2]) > 1e-15 || st.Iterations > 2 {
			t.Errorf("v = %v: NBGS (%v, %v) in %d sweeps, law %v", tc.v, l, b, st.Iterations, x)
		}
	}
}

func TestNBGSRejects(t *testing.T) {
	p := sphereOnFloor(1, 1, [3]float64{0, -1, 0}, [3]float64{}, 0.5, 0.3)
	l, b := make([]float64, 1), make([]float64, 2)
	if _, err := (&NBGS{}).Solve(p, l, b); err == nil || !strings.Contains(err.Error(), "restitution") {
		t.Errorf("restitution 0.5: %v", err)
	}
	q := ballOnFloor(1, 1, -1, 0, 0.3) // 2D: one tangent column
	if _, err := (&NBGS{}).Solve(q, l, b); err == nil || !strings.Contains(err.Error(), "two") {
		t.Errorf("2D contact: %v", err)
	}
	for _, o := range []*NBGS{{Tol: -1}, {MaxIter: -2}, {Relax: 1.5}, {Domains: -1}} {
		if err := o.Check(); err == nil {
			t.Errorf("%+v accepted", *o)
		}
	}
}

func TestNBGSAllocs(t *testing.T) {
	p := sphereOnFloor(2, 0.5, [3]float64{1, -2, 0.5}, [3]float64{}, 0, 0.4)
	l, b := make([]float64, 1), make([]float64, 2)
	o := &NBGS{Domains: 1}
	o.Solve(p, l, b)
	if n := testing.AllocsPerRun(50, func() { o.Solve(p, l, b) }); n != 0 {
		t.Errorf("%v allocations per solve", n)
	}
}

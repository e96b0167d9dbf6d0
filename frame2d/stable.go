package frame2d

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// ContactPoint is an end of a contact interval between two bodies: a
// compressive force F·N acts on body B (and −F·N on body A) at P.
type ContactPoint struct {
	A, B int // bodies (A = −1: the ground)
	P    Vec
	N    Vec // unit normal, pointing from A into B
	F    float64
}

// Stability is the answer of the stability LP.
type Stability struct {
	Stable   bool
	Contacts []ContactPoint // with the forces of a balancing solution (in units of g·mass)
	// Unbalanced is the first body (in order) whose equilibrium equations
	// keep a residual in the least-residual solution (−1 if stable), and
	// Residual that residual (force units) in the equations of all bodies.
	Unbalanced int
	Residual   float64
}

// ContactPoints finds the contact intervals between touching, parallel
// edges of the bodies (and the ground) of f at rest and returns their end
// points, the points at which the LP places forces.
func (f *Framework) ContactPoints() []ContactPoint {
	var cps []ContactPoint
	scale := 0.0
	for _, p := range f.Pos {
		scale = math.Max(scale, math.Max(math.Abs(p.X), math.Abs(p.Y)))
	}
	tol := 1e-9 * math.Max(scale, 1)
	for b := range f.Bodies {
		if f.Bodies[b].Fixed {
			continue
		}
		c := f.Corners(b)
		if f.Ground {
			for m := 0; m < 4; m++ {
				p, q := c[m], c[(m+1)%4]
				if math.Abs(p.Y) <= tol && math.Abs(q.Y) <= tol {
					cps = append(cps, ContactPoint{A: -1, B: b, P: p, N: Vec{0, 1}}, ContactPoint{A: -1, B: b, P: q, N: Vec{0, 1}})
				}
			}
		}
	}
	for a := range f.Bodies {
		for b := a + 1; b < len(f.Bodies); b++ {
			if f.Bodies[a].Fixed && f.Bodies[b].Fixed {
				continue
			}
			ca, cb := f.Corners(a), f.Corners(b)
			for m := 0; m < 4; m++ {
				p0, p1 := ca[m], ca[(m+1)%4]
				e := p1.Sub(p0)
				l := e.Norm()
				u := e.Scale(1 / l)
				out := Vec{u.Y, -u.X}
				for k := 0; k < 4; k++ {
					q0, q1 := cb[k], cb[(k+1)%4]
					// antiparallel and on the same line
					if math.Abs(q1.Sub(q0).Cross(u)) > tol*q1.Sub(q0).Norm() || q1.Sub(q0).Dot(u) >= 0 {
						continue
					}
					if math.Abs(q0.Sub(p0).Dot(out)) > tol || math.Abs(q1.Sub(p0).Dot(out)) > tol {
						continue
					}
					lo := math.Max(0, q1.Sub(p0).Dot(u))
					hi := math.Min(l, q0.Sub(p0).Dot(u))
					if hi-lo <= tol {
						continue
					}
					cps = append(cps,
						ContactPoint{A: a, B: b, P: p0.Add(u.Scale(lo)), N: out},
						ContactPoint{A: a, B: b, P: p0.Add(u.Scale(hi)), N: out})
				}
			}
		}
	}
	return cps
}

// Stable decides whether f at rest is stable: whether non-negative forces
// at the ends of every contact interval balance the weight and the torque
// of every movable body. It solves with gonum's lp.Simplex the phase-1 LP
//
//	minimise Σ (s⁺ + s⁻)  s.t.  E f + s⁺ − s⁻ = w,  f, s⁺, s⁻ ≥ 0,
//
// where E maps contact forces to the net force and torque (about the
// centre of mass) of each body and w is minus the load of gravity; the
// slacks give full row rank and a known feasible basis. f is stable iff
// the optimum is 0 (≤ 1e-9 of the total weight).
func (f *Framework) Stable() (*Stability, error) {
	cps := f.ContactPoints()
	var movable []int
	row := map[int]int{}
	for b, body := range f.Bodies {
		if !body.Fixed {
			row[b] = 3 * len(movable)
			movable = append(movable, b)
		}
	}
	if len(movable) == 0 {
		return nil, errors.New("frame2d: stability: no movable body")
	}
	nr := 3 * len(movable)
	nf := len(cps)
	g := f.G
	gmag := g.Norm()
	if gmag == 0 {
		gmag = 1
	}
	ncol := nf + 2*nr
	A := mat.NewDense(nr, ncol, nil)
	bvec := make([]float64, nr)
	var total float64
	for _, b := range movable {
		r := row[b]
		m := f.Bodies[b].Mass
		total += m
		// E f = −m g / |g|  (forces in units of |g|)
		bvec[r] = -m * g.X / gmag
		bvec[r+1] = -m * g.Y / gmag
	}
	addForce := func(col, b int, p, n Vec) {
		if f.Bodies[b].Fixed {
			return
		}
		r := row[b]
		c := f.Centre(b)
		A.Set(r, col, A.At(r, col)+n.X)
		A.Set(r+1, col, A.At(r+1, col)+n.Y)
		A.Set(r+2, col, A.At(r+2, col)+p.Sub(c).Cross(n))
	}
	for k, cp := range cps {
		addForce(k, cp.B, cp.P, cp.N)
		if cp.A >= 0 {
			addForce(k, cp.A, cp.P, cp.N.Scale(-1))
		}
	}
	cost := make([]float64, ncol)
	basic := make([]int, nr)
	for r := 0; r < nr; r++ {
		A.Set(r, nf+r, 1)
		A.Set(r, nf+nr+r, -1)
		cost[nf+r], cost[nf+nr+r] = 1, 1
		if bvec[r] >= 0 {
			basic[r] = nf + r
		} else {
			basic[r] = nf + nr + r
		}
	}
	st := &Stability{Unbalanced: -1}
	if nr == 0 {
		st.Stable = true
		return st, nil
	}
	opt, x, err := lp.Simplex(cost, A, bvec, 1e-12, basic)
	if err != nil {
		return nil, fmt.Errorf("stability LP (gonum lp.Simplex): %w", err)
	}
	st.Residual = opt
	st.Stable = opt <= 1e-9*math.Max(total, 1)
	for k := range cps {
		cps[k].F = x[k]
	}
	st.Contacts = cps
	if !st.Stable {
		for _, b := range movable {
			r := row[b]
			var res float64
			for q := 0; q < 3; q++ {
				res += x[nf+r+q] + x[nf+nr+r+q]
			}
			if res > 1e-9*math.Max(total, 1) {
				st.Unbalanced = b
				break
			}
		}
	}
	sort.SliceStable(st.Contacts, func(i, j int) bool { return st.Contacts[i].B < st.Contacts[j].B })
	return st, nil
}

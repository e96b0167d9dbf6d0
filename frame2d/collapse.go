package frame2d

import "math"

// ContactState is the fate of one vertex–edge contact at the start of a
// collapse.
type ContactState struct {
	Triple
	Force  float64 // multiplier of (S2⁺): positive ⇒ the contact carries load
	Accel  float64 // second derivative of A(p_I, p_J, p_K) / ‖N‖ (≥ 0; > 0 ⇒ opens)
	Closed bool    // stays closed (Accel ≈ 0)
}

// Collapse is the exact initial infinitesimal collapse of a tower at rest.
type Collapse struct {
	Accel    []Vec // accelerations of all points
	BodyAcc  []Vec // accelerations of the bodies' centres of mass
	Moving   []bool
	Contacts []ContactState
	Stats    StepStats
}

// InitialCollapse solves the single QP (Q) of sec. 3 for f at rest
// (v = 0): minimise Σ mᵢ‖aᵢ − g‖² subject to (L2⁺) (here ⟨a_i − a_j,
// p_i − p_j⟩ = 0) and (S2⁺) for every vertex lying on an edge
// (here ⟨a_k − [(1−t)a_i + t a_j], (p_j − p_i)^⊥⟩ ≥ 0). The contacts whose
// relative normal acceleration is zero stay closed; the others open.
// A body whose centre accelerates (above 1e-9·|g|) is moving.
func InitialCollapse(f *Framework) (*Collapse, error) {
	s, err := NewSim(f, 1)
	if err != nil {
		return nil, err
	}
	acc := make([]Vec, len(f.Pos))
	if err := s.accelQP(acc); err != nil {
		return nil, err
	}
	c := &Collapse{Accel: acc, Stats: s.Stats}
	gm := math.Max(f.G.Norm(), 1e-300)
	for _, body := range f.Bodies {
		var a Vec
		var m float64
		for _, p := range body.Points {
			a = a.Add(acc[p].Scale(f.Mass[p]))
			m += f.Mass[p]
		}
		if m > 0 {
			a = a.Scale(1 / m)
		}
		c.BodyAcc = append(c.BodyAcc, a)
		moving := false
		for _, p := range body.Points {
			if acc[p].Norm() > 1e-9*gm {
				moving = true
			}
		}
		c.Moving = append(c.Moving, moving && !body.Fixed)
	}
	for k, tr := range s.Triples {
		var an float64
		if tr.I < 0 {
			an = acc[tr.K].Y
		} else {
			an = acc[tr.K].Sub(lerp(acc[tr.I], acc[tr.J], tr.T)).Dot(tr.N) / tr.N.Norm()
		}
		c.Contacts = append(c.Contacts, ContactState{Triple: tr, Force: s.Lambda[k], Accel: an, Closed: an <= 1e-9*gm})
	}
	return c, nil
}

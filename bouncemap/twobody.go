package bouncemap

import "fmt"

// ExactPair is the two-body restitution analysis of §5.1 (eq. 11) in the
// small-speed limit: bodies A and B touch at sites sa and sb whose outward
// normals are opposed, C = n·(x_A − x_B) ≥ 0 with n = −N_A = N_B, A moving
// into B at unit relative normal speed. The contact reduces to the
// one-body form (eqs. X1–X2) with rigid inverse mass a = a_A + a_B and the
// two bodies' modes side by side, each with participation gᵢ = Uᵢ·(−N) of
// its own outward normal N, so ε depends on neither the split of the
// initial velocity nor the twist about n.
func (w *Workspace) ExactPair(ba *Body, sa *Site, bb *Body, sb *Site, opt ExactOptions) (Outcome, error) {
	if err := validateSite(ba, sa); err != nil {
		return Outcome{}, fmt.Errorf("body A: %w", err)
	}
	if err := validateSite(bb, sb); err != nil {
		return Outcome{}, fmt.Errorf("body B: %w", err)
	}
	aa, ga := sa.Compliance(ba)
	ab, gb := sb.Compliance(bb)
	om := append(append(w.pairOm[:0], ba.Omega...), bb.Omega...)
	g := append(append(w.pairG[:0], ga...), gb...)
	w.pairOm, w.pairG = om, g
	return w.ex.run(aa+ab, om, g, opt)
}

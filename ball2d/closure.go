package ball2d

import "impactsim/mech"

// The closed active set (sim.Closure, sim.ActiveSetCloser). Alg. 4 finds
// its active set on the free-flight prediction q̃; the impulses then bend
// the balls' paths into pairs the set never held (the missed contacts of
// the position correction). MissingContacts runs the same detection on
// the motion the law's velocity gives, qᵗ → qᵗ⁺¹, and AddMissing puts the
// contacts it found into the step's list, in the detection's order, so
// that the law can solve the step again on the larger set.

// closure holds the workspaces of MissingContacts.
type closure struct {
	old []Contact // the list before the last re-detection
	add []Contact // the contacts it found that old lacks, in contactCmp order
}

// MissingContacts implements sim.ActiveSetCloser: it detects the contacts
// of the motion q0 → q1 as BuildProblem does (the swept-circle test
// without portals, the discrete test at q1 with them), keeps those the
// current list lacks — ball pairs by (I, J), drums and planes by (Obj, I) —
// and returns how many; the list (Contacts) is left as it was. It does not
// allocate once its workspaces have grown.
func (s *System) MissingContacts(q0, q1 []float64) int {
	d, c := &s.det, &s.clo
	c.old = append(c.old[:0], d.contacts[:d.ndetect]...)
	ordered := d.ordered
	old := c.old // in the detection's order, which is contactCmp's
	if ordered {
		old = d.byCmp // the same contacts in that order (detect leaves it)
	}
	d.detect(s, q0, q1)
	c.add = c.add[:0]
	i := 0
	for _, x := range d.contacts[:d.ndetect] {
		for i < len(old) && contactCmp(old[i], x) < 0 {
			i++
		}
		if i < len(old) && contactCmp(old[i], x) == 0 {
			continue
		}
		c.add = append(c.add, x)
	}
	d.contacts = append(d.contacts[:0], c.old...)
	d.ndetect = len(d.contacts)
	d.ordered = ordered
	return len(c.add)
}

// AddMissing implements sim.ActiveSetCloser: the contacts the last
// MissingContacts found join the list in the detection's order (their
// normals at q0 as the detection found them; a contact already listed
// keeps its own), and p is refilled with the list at q0 and v0
// (FillProblem).
func (s *System) AddMissing(q0, v0 []float64, p *mech.Problem) {
	d := &s.det
	if d.ordered {
		d.contacts = append(d.contacts[:0], d.byCmp...)
	}
	d.contacts = mergeSorted(d.contacts[:d.ndetect], s.clo.add, contactCmp)
	d.ndetect = len(d.contacts)
	if d.ordered {
		d.mirrorOrder(s, q0)
	}
	s.clo.add = s.clo.add[:0]
	s.miss.sorted = s.miss.sorted[:0]
	s.FillProblem(s.Contacts(), q0, v0, p)
	d.keysTo(p)
}

package impact

import "impactsim/scratch"

// islands splits the columns of a constraint matrix into connected
// components of the contact graph (bodies are nodes, contacts are edges;
// static geometry joins nothing). The impact QP is separable across
// components, so solving them one by one gives the same answer as one big
// solve, with smaller (and more often dense-exact) sub-problems.
type islands struct {
	// The per-body and per-column arrays are 32-bit: they are as long as
	// the system and its contact list.
	parent []int32 // union–find over bodies (parentOwn, or an arena's: lend)
	root   []int32 // per column: its component (rootOwn, or an arena's)
	order  []int   // columns grouped by component (orderOwn, or an arena's)
	// parent's, rootID's, root's and order's own storage
	parentOwn, rootIDOwn, rootOwn []int32
	orderOwn                      []int
	start                         []int   // component c holds order[start[c]:start[c+1]]
	rootID                        []int32 // body → component index (−1 if unassigned; rootIDOwn, or an arena's)
	count                         []int
	// clean says that parent[b] = b and rootID[b] = −1 for every body:
	// split leaves them so (it restores the entries of the bodies its
	// columns touch), so that the next split need not reset all nb
	// bodies — GR splits its violators at every reflection, often a
	// small part of a large problem's bodies.
	clean bool
}

func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/4+8)
	}
	return s[:n]
}

func (s *islands) find(b int) int {
	for int(s.parent[b]) != b {
		s.parent[b] = s.parent[s.parent[b]]
		b = int(s.parent[b])
	}
	return b
}

// split groups columns 0..m−1, where column j touches bodies
// bodies[2j′], bodies[2j′+1] (−1 for none; j′ = colMap[j], or j when colMap
// is nil), nb bodies in all. Columns keep
// their relative order inside a component and components are ordered by
// their first column, so the grouping is deterministic.
func (s *islands) split(m, nb int, bodies []int, colMap []int) { s.splitIn(m, nb, bodies, colMap, nil) }

// splitIn is split with root and order taken from ar's phase when ar is
// not nil.
func (s *islands) splitIn(m, nb int, bodies []int, colMap []int, ar *scratch.Arena) {
	if !s.clean || len(s.parent) != nb {
		s.parentOwn = growInt32(s.parentOwn, nb)
		s.rootIDOwn = growInt32(s.rootIDOwn, nb)
		s.parent, s.rootID = s.parentOwn, s.rootIDOwn
		for b := range s.parent {
			s.parent[b] = int32(b)
			s.rootID[b] = -1
		}
	}
	s.clean = false
	for j := 0; j < m; j++ {
		jj := j
		if colMap != nil {
			jj = colMap[j]
		}
		a, b := bodies[2*jj], bodies[2*jj+1]
		if a >= 0 && b >= 0 {
			ra, rb := s.find(a), s.find(b)
			if ra != rb {
				if ra < rb {
					s.parent[rb] = int32(ra)
				} else {
					s.parent[ra] = int32(rb)
				}
			}
		}
	}
	if ar != nil {
		s.root = scratch.Take[int32](ar, m)
	} else {
		s.rootOwn = growInt32(s.rootOwn, m)
		s.root = s.rootOwn
	}
	s.count = s.count[:0]
	for j := 0; j < m; j++ {
		jj := j
		if colMap != nil {
			jj = colMap[j]
		}
		b := bodies[2*jj]
		if b < 0 {
			b = bodies[2*jj+1]
		}
		r := s.find(b)
		if s.rootID[r] < 0 {
			s.rootID[r] = int32(len(s.count))
			s.count = append(s.count, 0)
		}
		c := s.rootID[r]
		s.root[j] = c
		s.count[c]++
	}
	nc := len(s.count)
	s.start = growInt(s.start, nc+1)
	s.start[0] = 0
	for c := 0; c < nc; c++ {
		s.start[c+1] = s.start[c] + s.count[c]
		s.count[c] = s.start[c]
	}
	if ar != nil {
		s.order = scratch.Take[int](ar, m)
	} else {
		s.orderOwn = growInt(s.orderOwn, m)
		s.order = s.orderOwn
	}
	for j := 0; j < m; j++ {
		c := s.root[j]
		s.order[s.count[c]] = j
		s.count[c]++
	}
	// only the columns' bodies were linked (union, and find's path
	// halving, move links between them) or numbered: restore those
	for j := 0; j < m; j++ {
		jj := j
		if colMap != nil {
			jj = colMap[j]
		}
		for _, b := range bodies[2*jj : 2*jj+2] {
			if b >= 0 {
				s.parent[b], s.rootID[b] = int32(b), -1
			}
		}
	}
	s.clean = true
}

// lend makes the following splits (of nb bodies) keep their per-body
// union–find and numbering in ar's phase, taken and set clean here, until
// unlend (GR.LendArena: for one Resolve, whose reflections' splits each
// leave them clean).
func (s *islands) lend(ar *scratch.Arena, nb int) {
	s.parent, s.rootID = scratch.Take[int32](ar, nb), scratch.Take[int32](ar, nb)
	for b := range s.parent {
		s.parent[b] = int32(b)
		s.rootID[b] = -1
	}
	s.clean = true
}

// unlend ends lend: the arena's slices are the lender's again, and the
// next split sets its own storage.
func (s *islands) unlend() {
	s.parent, s.rootID, s.root, s.order, s.clean = nil, nil, nil, nil, false
}

// n returns the number of components.
func (s *islands) n() int { return len(s.start) - 1 }

// cols returns the columns of component c.
func (s *islands) cols(c int) []int { return s.order[s.start[c]:s.start[c+1]] }
